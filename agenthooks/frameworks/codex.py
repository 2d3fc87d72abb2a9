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

import json
from pathlib import Path
from typing import Any, Iterable

from agenthooks import dispatch
from agenthooks.answer_types import Answers
from agenthooks.files import PlannedFile
from agenthooks.frameworks._contract import Drill, Framework, TranscriptReader, UserLevel
from agenthooks.frameworks._transcript import Event, Transcript, home, text_parts
from agenthooks.frameworks import _jsonhooks
from agenthooks.frameworks._start import encoded_powershell, walk_up_ps

NAME = "codex"
# Paths that, when present in a repo, suggest codex is in use.
DETECT: tuple[str, ...] = (".codex",)
ON_MACHINE = (".codex", "codex")
DRILL_EVENTS: dict[str, str] = {}
DRILL_JSON = True
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


# --- the user-level install: ~/.codex/hooks.json runs the dispatcher for every project ---

USER_HOME_VAR = "CODEX_HOME"


def user_settings() -> Path:
    return home(USER_HOME_VAR, ".codex") / "hooks.json"


def user_next_steps() -> list[str]:
    return ["Codex: review and trust the new user-level hooks once with /hooks (untrusted hooks "
            "are skipped silently; `codex exec` needs --dangerously-bypass-hook-trust)."]


def user_entries(script: str) -> dict[str, list[dict[str, Any]]]:
    """Our events in the user's hooks.json: the dispatcher (script, a shell word) for each."""
    def group(hook: str, matcher: str | None = None) -> dict[str, Any]:
        return _jsonhooks.group({"type": "command", "command": dispatch.command(script, hook, NAME),
                                 "timeout": TIMEOUT}, matcher)
    return _jsonhooks.claude_shaped(group, "apply_patch|Edit|Write")


def plan(root: Path, answers: Answers) -> list[PlannedFile]:
    return [_jsonhooks.registration(root, PATH, NAME, entries("windows" in answers.get("platforms", ())))]


def unregister(root: Path) -> list[tuple[str, str | None]]:
    return _jsonhooks.unregister(root, PATH, "nested")


def next_steps(answers: Answers) -> list[str]:
    return [
        "Codex: trust the project (Codex asks on first start; or set "
        '[projects."<repo path>"] trust_level = "trusted" in ~/.codex/config.toml), '
        "then review and trust the new hooks with /hooks. Untrusted hooks are skipped silently.",
        "Codex: `codex exec` cannot ask; run it with --dangerously-bypass-hook-trust, "
        "or trust the hooks once interactively. Re-trust after an upgrade changes a command.",
    ]


# --- its transcript, for agenthooks status and verify (transcript.py dispatches here) ---

CODEX_CONTEXT = ("<environment_context>", "<user_instructions>", "<skills_instructions>",
                 "<permissions", "# AGENTS.md")


def read_transcript(t: Transcript, records: Iterable[Any]) -> None:
    """The events of a Codex rollout (~/.codex/sessions/YYYY/MM/DD/rollout-*-<session>.jsonl)."""
    window = None
    for i, r in enumerate(records, 1):
        if not isinstance(r, dict):
            continue
        ts = str(r.get("timestamp", ""))
        raw = r.get("payload")
        p: dict[str, Any] = raw if isinstance(raw, dict) else {}
        kind = r.get("type")
        if kind == "session_meta":
            t.session_id = t.session_id or str(p.get("id") or p.get("session_id") or "")
            t.cwd = t.cwd or str(p.get("cwd", ""))
        elif kind == "compacted":
            t.events.append(Event("boundary", i, ts, ts))
        elif kind == "response_item":
            role = p.get("role")
            if p.get("type") == "message" and role in ("user", "developer", "system"):
                parts = text_parts(p.get("content"))
                t.events.extend(Event("text", i, ts, s) for s in parts)
                if role == "user" and parts and not parts[0].lstrip().startswith(CODEX_CONTEXT):
                    t.events.append(Event("prompt", i, ts))
            elif role == "assistant" or p.get("type") in ("function_call", "custom_tool_call",
                                                            "local_shell_call"):
                t.events.append(Event("reply", i, ts))
        elif kind == "event_msg" and p.get("type") == "token_count":
            got = p.get("info")
            info: dict[str, Any] = got if isinstance(got, dict) else {}
            last = info.get("last_token_usage")
            if isinstance(last, dict) and isinstance(last.get("input_tokens"), int):
                t.context_tokens = last["input_tokens"]
            if isinstance(info.get("model_context_window"), int):
                window = info["model_context_window"]
    if t.context_tokens is not None and window:
        t.context_percent = round(100 * t.context_tokens / window, 1)


def transcript_home() -> Path:
    return home("CODEX_HOME", ".codex")


def is_transcript(r: dict[str, Any]) -> bool:
    return r.get("type") in ("session_meta", "response_item", "compacted", "event_msg", "turn_context")


def locate_transcripts(sid: str) -> list[Path]:
    return list((transcript_home() / "sessions").glob(f"*/*/*/rollout-*{sid}.jsonl"))


def transcripts_for(root: Path) -> list[Path]:
    """The newest rollouts whose session ran in root (their first line names the cwd)."""
    found = []
    rollouts = sorted((transcript_home() / "sessions").glob("*/*/*/rollout-*.jsonl"),
                      key=lambda p: p.stat().st_mtime, reverse=True)[:50]
    for p in rollouts:
        try:
            with p.open(encoding="utf-8", errors="replace") as fh:
                meta = json.loads(fh.readline(1 << 20) or "{}")
        except (OSError, ValueError):
            continue
        if isinstance(meta, dict) and (meta.get("payload") or {}).get("cwd") == str(root):
            found.append(p)
    return found


FRAMEWORK = Framework(
    name=NAME, detect=DETECT, plan=plan, unregister=unregister, next_steps=next_steps,
    on_machine=ON_MACHINE, hook_slots=HOOK_SLOTS, inline_tokens=INLINE_TOKENS,
    transcript=TranscriptReader(read=read_transcript, is_transcript=is_transcript,
                                locate=locate_transcripts, for_repo=transcripts_for),
    transcript_search=TRANSCRIPT_SEARCH,
    user=UserLevel(settings=user_settings, entries=user_entries, home_var=USER_HOME_VAR,
                   next_steps=user_next_steps),
    drill=Drill(events=DRILL_EVENTS, json=DRILL_JSON),
)
