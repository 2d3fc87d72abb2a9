"""GitHub Copilot CLI: .github/hooks/agenthooks.json, a file wholly ours (version 1).

Copilot's camelCase payloads carry no event name, so each command passes it
(`--event=NAME`). sessionStart -> pre_task; subagentStart -> pre_task (the subagent's
rules and In progress); postToolUse on edit|create -> post_edit;
preCompact -> on_compact (flags the compaction); userPromptSubmitted and postToolUse on
any tool -> on_compact, which re-injects memory with whichever comes first after a
compaction: the next prompt (Copilot appends prompt-hook output to the prompt inside
<system_reminder>) or the next tool result (a compaction inside a turn, as automatic
compaction is, has no prompt after it). Copilot also runs the hooks of .claude/settings.json: the
claude-code hooks stay silent when Claude Code is not the host (no CLAUDECODE=1), so
memory is injected once. JSON cannot hold a comment: ownership is the manifest record.

On Windows Copilot runs an entry's `powershell` command instead of its `bash` one (its hooks
reference: "bash: shell command for Unix", "powershell: shell command for Windows"); an entry
with `bash` only never runs there. With windows among the platforms each entry gets a
`powershell` command that starts Git for Windows' bash.exe on the same hook with the same
arguments (`_start.git_bash_ps`: found by path, never the `bash` on PATH, which may be WSL's);
the other systems ignore that key."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agenthooks.answer_types import Answers
from agenthooks.errors import UserError
from agenthooks.files import PlannedFile
from agenthooks.frameworks import _jsonhooks
from agenthooks.frameworks._contract import Framework
from agenthooks.frameworks._start import BASH, git_bash_ps

NAME = "copilot-cli"
# Paths that, when present in a repo, suggest copilot-cli is in use.
DETECT: tuple[str, ...] = (".github/hooks", ".github/copilot-instructions.md")
ON_MACHINE = (".copilot", "copilot")
# Its code in the hooks: slot -> template under templates/frameworks/NAME/ (render.slots).
HOOK_SLOTS = {"envelope": "envelope.sh.j2"}
PATH = ".github/hooks/agenthooks.json"
TIMEOUT = 30
# Copilot runs the sessionStart hooks of every .github/hooks/*.json and the SessionStart hooks of
# .claude/settings.json, and keeps only the last additionalContext (github/copilot-cli #3589).
NEIGHBOUR_FILES = ((".github/hooks", "sessionStart"), (".claude/settings.json", "SessionStart"),
                   (".github/hooks", "subagentStart"), (".claude/settings.json", "SubagentStart"))


def command(hook: str, event: str) -> str:
    return f"{BASH} ./.agent/hooks/{hook}.sh {NAME} --event={event}"


def powershell(hook: str, event: str) -> str:
    """The Windows command: the same hook and arguments, run by Git Bash's bash.exe (cwd is
    the repo top, as for `bash`)."""
    return git_bash_ps(f"./.agent/hooks/{hook}.sh", NAME, f"--event={event}")


def _entry(hook: str, event: str, matcher: str | None = None, windows: bool = False) -> dict[str, Any]:
    entry: dict[str, Any] = {"type": "command"}
    if matcher is not None:
        entry["matcher"] = matcher
    entry["bash"] = command(hook, event)
    if windows:
        entry["powershell"] = powershell(hook, event)
    entry.update({"cwd": ".", "timeoutSec": TIMEOUT})
    return entry


def document(windows: bool = False) -> dict[str, Any]:
    return {"version": 1, "hooks": {
        "sessionStart": [_entry("pre_task", "sessionStart", windows=windows)],
        "subagentStart": [_entry("pre_task", "subagentStart", windows=windows)],
        "userPromptSubmitted": [_entry("on_compact", "userPromptSubmitted", windows=windows)],
        "postToolUse": [_entry("post_edit", "postToolUse", "edit|create", windows),
                        _entry("on_compact", "postToolUse", windows=windows)],
        "preCompact": [_entry("on_compact", "preCompact", windows=windows)],
    }}


def plan(root: Path, answers: Answers) -> list[PlannedFile]:
    text = _jsonhooks.dumps(document("windows" in answers.get("platforms", ())))
    return [PlannedFile(PATH, text, 0o644, "owned", f"frameworks/{NAME}")]


def unregister(root: Path) -> list[tuple[str, str | None]]:
    path = root / PATH
    if not path.is_file():
        return []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    if not isinstance(data, dict):
        return []
    rest, where = _jsonhooks.strip(data, "flat", ("bash", "command", "powershell"))
    if not where:
        return []
    rest.pop("version", None)
    if not rest:
        return [(PATH, None)]
    rest = {"version": data.get("version", 1), **rest}
    return [(PATH, _jsonhooks.dumps(rest))]


def next_steps(answers: Answers) -> list[str]:
    return ["Copilot CLI: .github/hooks/agenthooks.json is read from the repo; commit it "
            "(the cloud agent reads it from the default branch only)."]


def start_neighbours(root: Path) -> list[tuple[str, str]]:
    """(file, command) of each session-start hook Copilot runs besides ours, which may take
    the place of memory (doctor warns). Read with the merge's own reader: no link, no FIFO."""
    found = []
    for rel, event in NEIGHBOUR_FILES:
        path = root / rel
        paths = sorted(path.glob("*.json")) if path.is_dir() else [path]
        for each in paths:
            name = each.relative_to(root).as_posix()
            if name == PATH or not each.is_file() or each.stat().st_size > 1 << 20:
                continue
            try:
                hooks = (_jsonhooks.load(root, name) or {}).get("hooks", {}).get(event, [])
            except (UserError, OSError, AttributeError):
                continue
            groups = [g for g in hooks if isinstance(g, dict)] if isinstance(hooks, list) else []
            entries = groups + [e for g in groups if isinstance(g.get("hooks"), list) for e in g["hooks"]
                                if isinstance(e, dict)]
            commands = [str(e.get("bash") or e.get("command") or "") for e in entries]
            found += [(name, c) for c in commands if c and not _jsonhooks.is_ours(c)]
    return found


FRAMEWORK = Framework(
    name=NAME, detect=DETECT, plan=plan, unregister=unregister, next_steps=next_steps,
    on_machine=ON_MACHINE, hook_slots=HOOK_SLOTS, start_neighbours=start_neighbours,
)
