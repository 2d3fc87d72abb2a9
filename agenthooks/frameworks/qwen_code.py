"""Qwen Code: hooks in .qwen/settings.json (shared with the user; merged, not replaced).

Qwen Code (0.24) runs Claude-style hooks: payloads with Claude's field names, the
`hookSpecificOutput.additionalContext` envelope, a command run by bash in the project folder
with QWEN_PROJECT_DIR (and CLAUDE_PROJECT_DIR) set to it, timeouts in seconds.
  SessionStart (no matcher: every source) -> pre_task. Its context goes into the system
      prompt, replacing the one before, so no compaction summarizes it away. After one (auto,
      or /compress) Qwen Code fires SessionStart with source compact, asynchronously: the
      first request after the compaction still carries the block from before, the next one
      the reloaded block.
  PostToolUse on write_file|edit|replace -> post_edit; the reminder is appended to the tool
      result.
Nothing else is registered. UserPromptSubmit (which Qwen Code fires before every tool-result
continuation too) would only repeat what the system prompt holds, every reload_turns steps;
PreCompact and PostCompact would flag a compaction that SessionStart(compact) reloads anyway,
and a reload on that flag could run while that SessionStart still runs: memory twice.
Project hooks need no trust step (folder trust is off unless the user turns it on)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from agenthooks.answer_types import Answers
from agenthooks.files import PlannedFile
from agenthooks.frameworks import _jsonhooks
from agenthooks.frameworks._contract import Drill, Framework
from agenthooks.frameworks._start import BASH

NAME = "qwen-code"
# Paths that, when present in a repo, suggest qwen-code is in use.
DETECT: tuple[str, ...] = (".qwen", "QWEN.md")
# What on this machine shows the user runs it: a home folder, a command on PATH.
ON_MACHINE = (".qwen", "qwen")
# simulate's envelope: event names that differ from Claude Code's, and JSON answers.
DRILL_EVENTS: dict[str, str] = {}
DRILL_JSON = True
DRILL_TOOL = "write_file"
# Its code in the hooks: slot -> template under templates/frameworks/NAME/ (render.slots).
HOOK_SLOTS = {"envelope": "envelope.sh.j2"}
PATH = ".qwen/settings.json"
EDIT_TOOLS = "write_file|edit|replace"
TIMEOUT = 30


def command(hook: str) -> str:
    # Qwen Code starts the command in the project folder; the variable is its own.
    return f'{BASH} "${{QWEN_PROJECT_DIR:-.}}/.agent/hooks/{hook}.sh" {NAME}'


def _group(hook: str, matcher: str | None = None) -> dict[str, Any]:
    return _jsonhooks.group({"type": "command", "command": command(hook), "timeout": TIMEOUT},
                            matcher)


def entries() -> dict[str, list[dict[str, Any]]]:
    return {
        "SessionStart": [_group("pre_task")],
        "PostToolUse": [_group("post_edit", EDIT_TOOLS)],
    }


def plan(root: Path, answers: Answers) -> list[PlannedFile]:
    return [_jsonhooks.registration(root, PATH, NAME, entries())]


def unregister(root: Path) -> list[tuple[str, str | None]]:
    return _jsonhooks.unregister(root, PATH, "nested")


def next_steps(answers: Answers) -> list[str]:
    return ["Qwen Code: hooks from .qwen/settings.json run with no trust step; if you turned "
            "on folder trust (security.folderTrust.enabled), trust this folder, or project "
            "hooks stay off."]


FRAMEWORK = Framework(
    name=NAME, detect=DETECT, plan=plan, unregister=unregister, next_steps=next_steps,
    on_machine=ON_MACHINE, hook_slots=HOOK_SLOTS,
    drill=Drill(events=DRILL_EVENTS, json=DRILL_JSON, tool=DRILL_TOOL),
)
