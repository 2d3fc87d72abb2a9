"""Cursor: hooks in .cursor/hooks.json (version 1; shared with the user, merged).

Flat entries per event. The command starts from $CURSOR_PROJECT_DIR when Cursor sets it,
else from the working directory, and walks up to the folder holding .agent/hooks/ (so a
shell in a subfolder still finds the repo; not found: exit 0).
sessionStart -> pre_task (additional_context), postToolUse on Write -> post_edit,
preCompact -> on_compact (flag only: Cursor has no post-compaction event),
beforeSubmitPrompt -> on_compact (detection per prompt; whether Cursor passes its
additional_context to the model is unconfirmed). Timeouts in seconds."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from agenthooks.answer_types import Answers
from agenthooks.files import PlannedFile
from agenthooks.frameworks import _jsonhooks
from agenthooks.frameworks._contract import Framework

NAME = "cursor"
# Paths that, when present in a repo, suggest cursor is in use.
DETECT: tuple[str, ...] = (".cursor", ".cursorrules")
# Its code in the hooks: slot -> template under templates/frameworks/NAME/ (render.slots).
HOOK_SLOTS = {"envelope": "envelope.sh.j2"}
PATH = ".cursor/hooks.json"
TIMEOUT = 30
TOP = {"version": 1}


def command(hook: str) -> str:
    return _jsonhooks.walk_up_command(hook, NAME, "${CURSOR_PROJECT_DIR:-$PWD}")


def _entry(hook: str, matcher: str | None = None) -> dict[str, Any]:
    entry: dict[str, Any] = {"command": command(hook)}
    if matcher is not None:
        entry["matcher"] = matcher
    entry["timeout"] = TIMEOUT
    return entry


def entries() -> dict[str, list[dict[str, Any]]]:
    return {
        "sessionStart": [_entry("pre_task")],
        "postToolUse": [_entry("post_edit", "Write")],
        "preCompact": [_entry("on_compact")],
        "beforeSubmitPrompt": [_entry("on_compact")],
    }


def plan(root: Path, answers: Answers) -> list[PlannedFile]:
    text = _jsonhooks.plan_text(root, PATH, entries(), "flat", top=TOP)
    return [PlannedFile(PATH, text, 0o644, "registration", f"frameworks/{NAME}")]


def unregister(root: Path) -> list[tuple[str, str | None]]:
    return _jsonhooks.unregister(root, PATH, "flat", top=TOP)


def next_steps(answers: Answers) -> list[str]:
    return ["Cursor: reload the window so .cursor/hooks.json is read; check Settings > Hooks "
            "lists the agenthooks entries (Cursor 2.x or newer)."]


FRAMEWORK = Framework(
    name=NAME, detect=DETECT, plan=plan, unregister=unregister, next_steps=next_steps,
    hook_slots=HOOK_SLOTS,
)
