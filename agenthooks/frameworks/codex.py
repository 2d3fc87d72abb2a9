"""Codex CLI: hooks in .codex/hooks.json (shared with the user; merged, not replaced).

Codex has no project-dir variable and runs each command through the user's login shell
($SHELL -lc), which may not be bash. So the command is one single-quoted `bash -c` program
(valid in bash, zsh, fish and sh alike) that walks up from the working directory to the
folder holding .agent/hooks/ (a subfolder, a git submodule, outside git; not found: exit 0).
Same events as Claude Code; the edit tool is apply_patch (aliases Edit, Write).

On Windows Codex runs a handler's `commandWindows` when it has one (`command` otherwise), and
runs it in the session's shell, PowerShell by preference, or through %COMSPEC% /C (cmd.exe)
when there is none (codex-rs/hooks command_runner.rs). The two shells read quotes and variables
differently, and a command holding quotes or a quoted program is reported never to start
under cmd.exe /C (openai/codex #38168, #46454). So commandWindows holds no quote, `$` or `%`:
`powershell ... -EncodedCommand <base64>` (Windows PowerShell is on PATH in Windows 10 and 11),
valid as it stands in both shells. The script it carries walks up from the working directory
to .agent/hooks/ and starts Git for Windows' bash.exe on the hook (`_start.walk_up_ps`). It
costs a PowerShell start before bash: the price of one command that runs in either shell.

commandWindows is written only with windows among the platforms, though other systems ignore
it: Codex trusts a hook by a hash of its handler (tools that write Codex trust records hash
commandWindows with the rest), so adding it to every install would make every Codex user
re-trust the hooks for a field they never run."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from agenthooks.files import PlannedFile
from agenthooks.frameworks import _jsonhooks
from agenthooks.frameworks._start import encoded_powershell, walk_up_ps

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


def command_windows(hook: str) -> str:
    return encoded_powershell(walk_up_ps(hook, NAME))


def _handler(hook: str, windows: bool) -> dict[str, Any]:
    handler: dict[str, Any] = {"type": "command", "command": command(hook)}
    if windows:
        handler["commandWindows"] = command_windows(hook)
    handler["timeout"] = TIMEOUT
    return handler


def entries(windows: bool = False) -> dict[str, list[dict[str, Any]]]:
    def group(hook: str, matcher: str | None = None) -> dict[str, Any]:
        return _jsonhooks.group(_handler(hook, windows), matcher)
    return _jsonhooks.claude_shaped(group, "apply_patch|Edit|Write")


def plan(root: Path, answers: dict[str, Any]) -> list[PlannedFile]:
    return [_jsonhooks.registration(root, PATH, NAME, entries("windows" in answers.get("platforms", ())))]


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
