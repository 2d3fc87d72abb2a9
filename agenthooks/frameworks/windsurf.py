"""Windsurf (Cascade): .windsurf/hooks.json (shared, merged) and an always-on rules file.

Windsurf hooks cannot put text in front of the model (stdout is shown to the user only),
and there is no session-start or compaction event. So the durable layer is the rules file
.windsurf/rules/agent-memory.md (wholly ours; Cascade re-sends always-on rules with each
request), which tells the agent to read .agent/memory/. post_write_code -> post_edit
keeps the audit log and shows the stale-snapshot reminder to the user."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from agenthooks.answer_types import Answers
from agenthooks.files import OWNER_ID, PlannedFile, owned_files
from agenthooks.frameworks import _jsonhooks
from agenthooks.frameworks._contract import Framework
from agenthooks.frameworks._start import BASH
from agenthooks.templating import render_template

NAME = "windsurf"
# Paths that, when present in a repo, suggest windsurf is in use.
DETECT: tuple[str, ...] = (".windsurf", ".windsurfrules")
PATH = ".windsurf/hooks.json"
RULES = ".windsurf/rules/agent-memory.md"


def command(hook: str) -> str:
    return f"{BASH} .agent/hooks/{hook}.sh {NAME}"


def entries() -> dict[str, list[dict[str, Any]]]:
    return {"post_write_code": [{"command": command("post_edit"), "show_output": True}]}


def rules_text(answers: Answers) -> str:
    """The always-on rule, from templates/frameworks/windsurf/rules.md.j2."""
    return render_template("frameworks/windsurf/rules.md.j2", owner_id=OWNER_ID,
                           lang=answers.get("lang", "en"))


def plan(root: Path, answers: Answers) -> list[PlannedFile]:
    text = _jsonhooks.plan_text(root, PATH, entries(), "flat")
    return [PlannedFile(PATH, text, 0o644, "registration", f"frameworks/{NAME}"),
            PlannedFile(RULES, rules_text(answers), 0o644, "owned", "frameworks/windsurf-rules")]


def unregister(root: Path) -> list[tuple[str, str | None]]:
    return _jsonhooks.unregister(root, PATH, "flat") + owned_files(root, RULES)


def next_steps(answers: Answers) -> list[str]:
    return ["Windsurf: hooks cannot reach the model; the always-on rule "
            f"{RULES} tells Cascade to read .agent/memory/. Hooks do not run in Restricted Mode."]


FRAMEWORK = Framework(
    name=NAME, detect=DETECT, plan=plan, unregister=unregister, next_steps=next_steps,
)
