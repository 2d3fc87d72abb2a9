"""Cline: executable hook files wholly ours under .clinerules/hooks/ (extension 3.x/4.x).

Cline 4.x passes hook output to the model only from PreToolUse and PostToolUse, and has
no task-start or compaction signal it acts on. So:
  PreToolUse  -> on_compact: memory on the FIRST tool call of a task (a task id without
                 hook state yet) and again every reload_turns tool calls.
  PostToolUse -> post_edit, for edit tools only (editor, apply_patch, write_to_file,
                 replace_in_file): the stale-snapshot reminder.
Each file is a small bash wrapper: it always prints exactly one JSON line, {"cancel":false}
when the hook has nothing to say or fails, so Cline never cancels a tool because of us."""
from __future__ import annotations

from pathlib import Path

from agenthooks.files import OWNER_ID, PlannedFile

NAME = "cline"
DIR = ".clinerules/hooks"
EDIT_TOOLS = "editor|apply_patch|write_to_file|replace_in_file"

_WRAPPER = """#!/usr/bin/env bash
# Cline {event} hook: runs .agent/hooks/{hook}.sh and always answers one JSON line.
# {owner} template=frameworks/cline/{event}
# Written by agenthooks install; re-run it to upgrade (edits are merged).
in=
IFS= read -r -d '' -n 16384 in || true
{filter}root=$(git rev-parse --show-toplevel 2>/dev/null) || root=$PWD
[ -f "$root/.agent/hooks/{hook}.sh" ] || root=$PWD
out=$(printf '%s' "$in" | bash "$root/.agent/hooks/{hook}.sh" cline 2>/dev/null) || out=
case $out in
  '{{'*) printf '%s\\n' "$out" ;;
  *) printf '%s\\n' '{{"cancel":false}}' ;;
esac
"""

_FILTER = """re='"(toolName|name)"[[:space:]]*:[[:space:]]*"({tools})"'
if ! [[ $in =~ $re ]]; then
  printf '%s\\n' '{{"cancel":false}}'
  exit 0
fi
"""


def wrapper(event: str, hook: str) -> str:
    filt = _FILTER.format(tools=EDIT_TOOLS) if event == "PostToolUse" else ""
    return _WRAPPER.format(event=event, hook=hook, owner=OWNER_ID, filter=filt)


FILES = (("PreToolUse", "on_compact"), ("PostToolUse", "post_edit"))


def plan(root: Path, answers: dict) -> list[PlannedFile]:  # type: ignore[type-arg]
    return [PlannedFile(f"{DIR}/{event}", wrapper(event, hook), 0o755, "owned",
                        f"frameworks/cline/{event}") for event, hook in FILES]


def unregister(root: Path) -> list[tuple[str, str | None]]:
    out: list[tuple[str, str | None]] = []
    for event, _hook in FILES:
        path = root / DIR / event
        if path.is_file() and OWNER_ID.encode() in path.read_bytes():
            out.append((f"{DIR}/{event}", None))
    return out


def next_steps(answers: dict) -> list[str]:  # type: ignore[type-arg]
    return ["Cline: turn hooks on (extension setting 'Enable Hooks'; CLI: "
            "cline config set hooks-enabled=true). Cline 4.1.11 or newer passes PreToolUse "
            "and PostToolUse output to the model; memory arrives with the first tool call."]
