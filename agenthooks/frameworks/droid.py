"""Factory Droid: hooks in .factory/hooks.json (shared with the user; merged, not replaced).

Droid (0.225) runs Claude-style hooks: snake_case payloads with transcript_path, the
`hookSpecificOutput.additionalContext` envelope (each one a message of its own to the model),
CLAUDE_PROJECT_DIR and FACTORY_PROJECT_DIR set, timeouts in seconds. .factory/hooks.json is
the event map itself, {EVENT: [...]}: a top-level "hooks" key there fails Droid's schema and
the whole file is ignored without a word. (Droid also reads the "hooks" of
.factory/settings.json; ours go to hooks.json only.)
  SessionStart -> pre_task, then on_compact, which only notes the transcript's latest
      compaction (a resumed session's old one is no news);
  UserPromptSubmit -> on_compact (Droid fires it for interactive prompts, not for the prompt
      of `droid exec`);
  PostToolUse on Create|Edit|MultiEdit|ApplyPatch -> on_compact, then post_edit;
  PreCompact -> on_compact, which flags the compaction.
No hook fires on an automatic compaction. The transcript gets a compaction_state record:
on_compact reads it (templates/frameworks/droid/detect.sh.j2) and reloads memory with the
next edit or prompt. Droid passes the model the additionalContext of the FIRST hook of an
event that has one: on_compact comes before post_edit, so memory is never the one left out
(the block after a compaction says the snapshot is stale, if it is)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from agenthooks.answer_types import Answers
from agenthooks.files import PlannedFile
from agenthooks.frameworks import _jsonhooks
from agenthooks.frameworks._contract import Drill, Framework
from agenthooks.frameworks._start import BASH

NAME = "droid"
# Paths that, when present in a repo, suggest droid is in use.
DETECT: tuple[str, ...] = (".factory",)
ON_MACHINE = (".factory", "droid")
DRILL_EVENTS: dict[str, str] = {}
DRILL_JSON = True
DRILL_TOOL = "Create"
# Its code in the hooks: slot -> template under templates/frameworks/NAME/ (render.slots).
HOOK_SLOTS = {"envelope": "envelope.sh.j2", "detect": "detect.sh.j2"}
# Its compaction check finds the transcript's record with the hooks' ah_last/ah_record_bound.
TRANSCRIPT_SEARCH = True
PATH = ".factory/hooks.json"
EDIT_TOOLS = "Create|Edit|MultiEdit|ApplyPatch"
TIMEOUT = 30


def command(hook: str) -> str:
    # Droid starts the command in the project folder and sets FACTORY_PROJECT_DIR.
    return f'{BASH} "${{FACTORY_PROJECT_DIR:-.}}/.agent/hooks/{hook}.sh" {NAME}'


def _group(hook: str, matcher: str | None = None) -> dict[str, Any]:
    return _jsonhooks.group({"type": "command", "command": command(hook), "timeout": TIMEOUT},
                            matcher)


def entries() -> dict[str, list[dict[str, Any]]]:
    return {
        "SessionStart": [_group("pre_task"), _group("on_compact")],
        "UserPromptSubmit": [_group("on_compact")],
        "PostToolUse": [_group("on_compact", EDIT_TOOLS), _group("post_edit", EDIT_TOOLS)],
        "PreCompact": [_group("on_compact")],
    }


def plan(root: Path, answers: Answers) -> list[PlannedFile]:
    return [_jsonhooks.registration(root, PATH, NAME, entries(), under=None)]


def unregister(root: Path) -> list[tuple[str, str | None]]:
    return _jsonhooks.unregister(root, PATH, "nested", under=None)


def next_steps(answers: Answers) -> list[str]:
    return ["Factory Droid: hooks from .factory/hooks.json run with no trust step; review them "
            "with /hooks. After an automatic compaction memory comes back with the next edit "
            "or prompt (Droid fires no hook on it)."]


FRAMEWORK = Framework(
    name=NAME, detect=DETECT, plan=plan, unregister=unregister, next_steps=next_steps,
    on_machine=ON_MACHINE, hook_slots=HOOK_SLOTS, transcript_search=TRANSCRIPT_SEARCH,
    drill=Drill(events=DRILL_EVENTS, json=DRILL_JSON, tool=DRILL_TOOL),
)
