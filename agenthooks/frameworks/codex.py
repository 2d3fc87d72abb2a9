"""Codex CLI: hooks in .codex/hooks.json (shared with the user; merged, not replaced).

Codex has no project-dir variable and runs each command through the user's login shell
($SHELL -lc), which may not be bash. So the command is one single-quoted `bash -c` program
(valid in bash, zsh, fish and sh alike) that walks up from the working directory to the
folder holding .agent/hooks/ (a subfolder, a git submodule, outside git; not found: exit 0).
Same events as Claude Code; the edit tool is apply_patch (aliases Edit, Write)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from agenthooks.files import PlannedFile
from agenthooks.frameworks import _jsonhooks

NAME = "codex"
# Paths that, when present in a repo, suggest codex is in use.
DETECT: tuple[str, ...] = (".codex",)
ON_MACHINE = (".codex", "codex")
DRILL_EVENTS: dict[str, str] = {}
DRILL_JSON = True
# Its hook payload names a transcript with token usage the hooks can read.
TRANSCRIPT = True
# Its code in the hooks: slot -> template under templates/frameworks/NAME/ (render.slots).
HOOK_SLOTS = {"envelope": "envelope.sh.j2", "transcript": "transcript.sh.j2"}
# Its transcript reader finds compaction records with the hooks' ah_last/ah_record_bound.
TRANSCRIPT_SEARCH = True
# The most of the block, in estimated tokens, the host shows the model inline: Codex moves
# hook output over about 2,500 tokens to a file (openai/codex #21069).
INLINE_TOKENS = 2400
PATH = ".codex/hooks.json"
TIMEOUT = 30


def command(hook: str) -> str:
    return _jsonhooks.walk_up_command(hook, NAME)


def _group(hook: str, matcher: str | None = None) -> dict[str, Any]:
    return _jsonhooks.group({"type": "command", "command": command(hook), "timeout": TIMEOUT}, matcher)


def entries() -> dict[str, list[dict[str, Any]]]:
    return _jsonhooks.claude_shaped(_group, "apply_patch|Edit|Write")


def plan(root: Path, answers: dict[str, Any]) -> list[PlannedFile]:
    return [_jsonhooks.registration(root, PATH, NAME, entries())]


def unregister(root: Path) -> list[tuple[str, str | None]]:
    return _jsonhooks.unregister(root, PATH, "nested")


def next_steps(answers: dict[str, Any]) -> list[str]:
    return [
        "Codex: trust the project (Codex asks on first start; or set "
        '[projects."<repo path>"] trust_level = "trusted" in ~/.codex/config.toml), '
        "then review and trust the new hooks with /hooks. Untrusted hooks are skipped silently.",
        "Codex: `codex exec` cannot ask; run it with --dangerously-bypass-hook-trust, "
        "or trust the hooks once interactively. Re-trust after an upgrade changes a command.",
    ]
