"""Claude Code: hooks in .claude/settings.json (shared with the user; merged, not replaced).

SessionStart (startup|resume|clear|compact) -> pre_task: the memory block, also right
after a compaction. UserPromptSubmit -> on_compact: detection per prompt. PostToolUse on
edit tools -> post_edit. PreCompact -> on_compact, which only flags the coming compaction.
Timeouts are in seconds."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from agenthooks.files import PlannedFile
from agenthooks.frameworks import _jsonhooks

NAME = "claude-code"
# Paths that, when present in a repo, suggest claude-code is in use.
DETECT: tuple[str, ...] = (".claude", "CLAUDE.md")
# Its hook payload names a transcript with token usage the hooks can read.
TRANSCRIPT = True
PATH = ".claude/settings.json"
TIMEOUT = 30


def command(hook: str) -> str:
    return f'bash "$CLAUDE_PROJECT_DIR/.agent/hooks/{hook}.sh" {NAME}'


def _group(hook: str, matcher: str | None = None) -> dict[str, Any]:
    return _jsonhooks.group({"type": "command", "command": command(hook), "timeout": TIMEOUT}, matcher)


def entries() -> dict[str, list[dict[str, Any]]]:
    return _jsonhooks.claude_shaped(_group, "Edit|Write|MultiEdit|NotebookEdit")


def plan(root: Path, answers: dict[str, Any]) -> list[PlannedFile]:
    return [_jsonhooks.registration(root, PATH, NAME, entries())]


def unregister(root: Path) -> list[tuple[str, str | None]]:
    return _jsonhooks.unregister(root, PATH, "nested")


def next_steps(answers: dict[str, Any]) -> list[str]:
    return ["Claude Code: accept the workspace-trust prompt once in this folder; "
            "hooks from .claude/settings.json stay off until then (claude -p trusts it)."]
