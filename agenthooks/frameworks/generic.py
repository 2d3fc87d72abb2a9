"""A home-made framework: nothing to register; the user's code calls the hooks."""
from __future__ import annotations

from pathlib import Path

from agenthooks.answer_types import Answers
from agenthooks.files import PlannedFile
from agenthooks.frameworks._contract import Framework

NAME = "generic"
DETECT: tuple[str, ...] = ()


def plan(root: Path, answers: Answers) -> list[PlannedFile]:
    return []


def unregister(root: Path) -> list[tuple[str, str | None]]:
    return []


def next_steps(answers: Answers) -> list[str]:
    return [
        "generic: when your agent assembles its system prompt, first run "
        "`bash -p .agent/hooks/pre_task.sh </dev/null` and put its stdout in the prompt.",
        "generic: once per user prompt run `bash -p .agent/hooks/on_compact.sh < payload.json` "
        "(payload: {\"session_id\": ..., \"prompt\": ...}; set AGENT_CONTEXT_LEN=<tokens> "
        "if you know it) and add any stdout to that turn; after each file edit run "
        "`bash -p .agent/hooks/post_edit.sh < payload.json` and show its stdout to the model.",
    ]


FRAMEWORK = Framework(
    name=NAME, detect=DETECT, plan=plan, unregister=unregister, next_steps=next_steps,
)
