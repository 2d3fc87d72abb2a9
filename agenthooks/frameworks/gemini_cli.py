"""Gemini CLI: hooks in .gemini/settings.json (shared with the user; merged, not replaced).

SessionStart has NO matcher: Gemini CLI compares lifecycle matchers as exact strings, so
"startup|resume|clear" would never fire; the hook reads `source` itself. BeforeAgent (once
per prompt) -> on_compact; AfterTool on write_file|replace -> post_edit; PreCompress ->
on_compact, which treats it as a candidate only (it fires before every request).
Gemini CLI has no post-compaction event. Timeouts are in milliseconds."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from agenthooks.files import PlannedFile
from agenthooks.frameworks import _jsonhooks
from agenthooks.frameworks._start import BASH

NAME = "gemini-cli"
# Paths that, when present in a repo, suggest gemini-cli is in use.
DETECT: tuple[str, ...] = (".gemini", "GEMINI.md")
ON_MACHINE = (".gemini", "gemini")
DRILL_EVENTS = {"UserPromptSubmit": "BeforeAgent", "PreCompact": "PreCompress",
                "PostToolUse": "AfterTool"}
DRILL_JSON = True
# PreCompress fires before every request: it only marks a candidate, which the drop confirms.
DRILL_ANNOUNCED = "after PreCompress"
DRILL_TOOL = "replace"
# Its hook payload names a transcript with token usage the hooks can read.
TRANSCRIPT = True
# Its code in the hooks: slot -> template under templates/frameworks/NAME/ (render.slots).
HOOK_SLOTS = {"envelope": "envelope.sh.j2", "transcript": "transcript.sh.j2"}
# Its transcript reader finds compaction records with the hooks' ah_last/ah_record_bound.
TRANSCRIPT_SEARCH = True
PATH = ".gemini/settings.json"
TIMEOUT_MS = 30000


def command(hook: str) -> str:
    return f'{BASH} "$GEMINI_PROJECT_DIR/.agent/hooks/{hook}.sh" {NAME}'


def _group(hook: str, matcher: str | None = None) -> dict[str, Any]:
    return _jsonhooks.group({"name": f"agenthooks-{hook.replace('_', '-')}", "type": "command",
                            "command": command(hook), "timeout": TIMEOUT_MS}, matcher)


def entries() -> dict[str, list[dict[str, Any]]]:
    return {
        "SessionStart": [_group("pre_task")],
        "BeforeAgent": [_group("on_compact")],
        "AfterTool": [_group("post_edit", "write_file|replace")],
        "PreCompress": [_group("on_compact")],
    }


def plan(root: Path, answers: dict[str, Any]) -> list[PlannedFile]:
    return [_jsonhooks.registration(root, PATH, NAME, entries())]


def unregister(root: Path) -> list[tuple[str, str | None]]:
    return _jsonhooks.unregister(root, PATH, "nested")


def next_steps(answers: dict[str, Any]) -> list[str]:
    return ["Gemini CLI: trust this folder (/permissions, or the prompt on first start); "
            "project hooks are off in untrusted folders, and Gemini CLI asks again when a "
            "hook command changes. Start gemini from the repo root ($GEMINI_PROJECT_DIR)."]
