r"""Claude Code: hooks in .claude/settings.json (shared with the user; merged, not replaced).

SessionStart (startup|resume|clear|compact) -> pre_task: the memory block, also right
after a compaction. UserPromptSubmit -> on_compact: detection per prompt. PostToolUse on
edit tools -> post_edit. PreCompact -> on_compact, which flags the coming compaction and prints
what the summary must keep (plain text, which Claude Code hands the summarizer);
PostCompact (2.1.76 and later; 2.1.197 fires it after SessionStart(compact), and shows its output
to no model) -> on_compact: it flags a compaction that no SessionStart reloaded, and checks the
summary it carries (compact_summary) against the rules and In progress items.
Timeouts are in seconds. With the statusline answer, "statusLine" runs
`pre_task.sh --statusline`; a statusLine of the user's is never replaced.

A command runs through `sh -c` on Linux and macOS (dash on Debian: no bashisms) and through
Git Bash on Windows, where CLAUDE_PROJECT_DIR is a Windows path (C:\Users\me\repo, with
backslashes). With windows among the platforms the command first turns such a path into
C:/Users/me/repo, a path MSYS opens, with bash's own `${d//\\//}`: no process. It runs only for
a value shaped like a Windows path (a drive letter and a backslash, or a UNC \\server), which a
Linux or macOS project folder never is, so sh never meets that bash-only expansion."""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any, Iterable

from agenthooks import dispatch
from agenthooks.answer_types import Answers
from agenthooks.errors import UserError
from agenthooks.files import PlannedFile
from agenthooks.frameworks._contract import Drill, Framework, TranscriptReader, UserLevel
from agenthooks.frameworks._transcript import Event, Transcript, home, strings, text_parts
from agenthooks.frameworks import _jsonhooks, _jsontext
from agenthooks.frameworks._start import BASH

NAME = "claude-code"
# Paths that, when present in a repo, suggest claude-code is in use.
DETECT: tuple[str, ...] = (".claude", "CLAUDE.md")
# What on this machine shows the user runs it: a home folder, a command on PATH.
ON_MACHINE = (".claude", "claude")
# simulate's envelope: event names that differ from Claude Code's, and JSON answers.
DRILL_EVENTS: dict[str, str] = {}
DRILL_JSON = True
# Install questions asked only when this framework is selected (answers.ONLY_FOR).
QUESTIONS = ("statusline",)
# Its code in the hooks: slot -> template under templates/frameworks/NAME/ (render.slots).
HOOK_SLOTS = {"start": "session.sh.j2", "envelope": "envelope.sh.j2", "transcript": "transcript.sh.j2",
              "window": "window.sh.j2", "detect": "detect.sh.j2", "own": "own.sh.j2"}
# PreCompact's plain stdout reaches the summarizer as additional instructions (exit 0; JSON
# there fails validation): on_compact prints what the summary must keep (summary_budget_tokens).
SUMMARY_INSTRUCTIONS = True
PATH = ".claude/settings.json"
# install --local: the checkout's own settings, which Claude Code keeps out of git.
LOCAL_PATH = ".claude/settings.local.json"
# install, run from a subfolder of the repo, says this.
SUBFOLDER_HINT = ("Claude Code started in a subfolder of the repo loads no hooks from its "
                  ".claude/settings.json (only from the folder it starts in): start it at the "
                  "repo's top, or let the agenthooks plugin or `agenthooks install --user` run "
                  "the hooks from any folder (README: Subfolders)")
TIMEOUT = 30


# C:\a\b or \\server\share -> C:/a/b, //server/share; any other value is left as it is.
_TO_SLASHES = "case $d in [A-Za-z]:\\\\*|\\\\\\\\*) d=${d//\\\\//};; esac; "


def _project(default: str, windows: bool) -> tuple[str, str]:
    """(prefix, dir): what runs before the hook and the word naming the project folder."""
    if not windows:
        return "", "$CLAUDE_PROJECT_DIR" if not default else f"${{CLAUDE_PROJECT_DIR:-{default}}}"
    value = "$CLAUDE_PROJECT_DIR" if not default else f"${{CLAUDE_PROJECT_DIR:-{default}}}"
    return f"d={value}; {_TO_SLASHES}", "$d"


def command(hook: str, windows: bool = False) -> str:
    # A host that does not set CLAUDE_PROJECT_DIR runs it from the project folder, as the status line.
    prefix, folder = _project(".", windows)
    return f'{prefix}{BASH} "{folder}/.agent/hooks/{hook}.sh" {NAME}'


def entries(windows: bool = False, command_of: Any = None) -> dict[str, list[dict[str, Any]]]:
    """Our events; command_of(hook) gives each command (the repo's hooks when None)."""
    def group(hook: str, matcher: str | None = None) -> dict[str, Any]:
        cmd = command_of(hook) if command_of is not None else command(hook, windows)
        return _jsonhooks.group({"type": "command", "command": cmd, "timeout": TIMEOUT}, matcher)
    return _jsonhooks.claude_shaped(group, "Edit|Write|MultiEdit|NotebookEdit")


# --- beyond one repo: the plugin and the user-level install run the dispatcher -------------

def plugin_hooks() -> dict[str, Any]:
    """The plugin's hooks/hooks.json: the same events, each running the plugin's dispatcher."""
    return {"description": "agenthooks: reload the .agent/memory/ of the repository a session "
                           "works in, with that repository's own committed hooks",
            "hooks": entries(command_of=lambda hook: dispatch.command(
                dispatch.PLUGIN_SCRIPT, hook, NAME, plugin=True))}


USER_HOME_VAR = "CLAUDE_CONFIG_DIR"


def user_settings() -> Path:
    """The user's settings file, whose hooks run in every project and every folder."""
    return home(USER_HOME_VAR, ".claude") / "settings.json"


def plugin_enabled(root: Path | None = None) -> bool:
    """Is a plugin named agenthooks enabled, in the user's settings or the repo's?"""
    files = [user_settings()] + ([root / PATH, root / LOCAL_PATH] if root is not None else [])
    for path in files:
        try:
            data = _jsonhooks.load(path.parent, path.name) or {}
        except (UserError, OSError):
            continue
        enabled = data.get("enabledPlugins")
        if isinstance(enabled, dict) and any(
                isinstance(k, str) and k.split("@")[0] == "agenthooks" and v is True
                for k, v in enabled.items()):
            return True
    return False


def user_entries(script: str) -> dict[str, list[dict[str, Any]]]:
    """Our events in the user's settings: the dispatcher (script, a shell word) for each."""
    return entries(command_of=lambda hook: dispatch.command(script, hook, NAME))


def statusline(windows: bool = False) -> dict[str, Any]:
    # The status line runs from the project folder; CLAUDE_PROJECT_DIR is used when set.
    prefix, folder = _project(".", windows)
    return {"type": "command", "padding": 0,
            "command": f'{prefix}{BASH} "{folder}/.agent/hooks/pre_task.sh" {NAME} --statusline'}


def _ours(item: _jsontext.Item | None) -> bool:
    data = item.value.data if item is not None else None
    return isinstance(data, dict) and _jsonhooks.is_ours(data.get("command"))


def with_statusline(text: str, want: bool, windows: bool = False) -> str:
    """text with our statusLine spliced in (want) or out; a statusLine of the user's stays."""
    bom = _jsonhooks.BOM if text.startswith(_jsonhooks.BOM) else ""
    body = text[len(bom):]
    if not body.strip():
        return text
    top = _jsontext.parse(body)
    item = top.member("statusLine")
    ours = statusline(windows)
    if want and item is None:
        body = _jsontext.insert(body, top, len(top.items), ours, "statusLine")
    elif want and _ours(item) and item.value.data != ours:  # type: ignore[union-attr]
        body = _jsontext.replace(body, item.value, ours)  # type: ignore[union-attr]
    elif not want and _ours(item):
        body = _jsontext.remove(body, top, top.items.index(item))  # type: ignore[arg-type]
    else:
        return text
    return bom + body


def _path(answers: Answers) -> str:
    return LOCAL_PATH if answers.get("local") else PATH


def plan(root: Path, answers: Answers) -> list[PlannedFile]:
    windows = "windows" in answers.get("platforms", ())
    pf = _jsonhooks.registration(root, _path(answers), NAME, entries(windows))
    return [dataclasses.replace(pf, text=with_statusline(pf.text, bool(answers.get("statusline")), windows))]


def notices(root: Path, answers: Answers) -> list[str]:
    """The status line was asked for, and the user's own is kept."""
    if not answers.get("statusline"):
        return []
    rel = _path(answers)
    try:
        data = _jsonhooks.load(root, rel) or {}
    except UserError:
        return []
    mine = data.get("statusLine")
    if mine is None or (isinstance(mine, dict) and _jsonhooks.is_ours(mine.get("command"))):
        return []
    return [f"{rel} already has a statusLine of yours: kept, not replaced. To show memory "
            "there, call: bash -p .agent/hooks/pre_task.sh claude-code --statusline "
            "(it reads the statusLine JSON on stdin)"]


def unregister(root: Path) -> list[tuple[str, str | None]]:
    return [*_unregister(root, PATH), *_unregister(root, LOCAL_PATH)]


def _unregister(root: Path, rel: str) -> list[tuple[str, str | None]]:
    out = _jsonhooks.unregister(root, rel, "nested")
    try:
        text = _jsonhooks.read(root, rel)
    except UserError:
        return out
    if text is None or (out and out[0][1] is None):
        return out
    try:
        new = with_statusline(out[0][1] if out else text, False)  # type: ignore[arg-type]
        left = _jsontext.parse(new[len(_jsonhooks.BOM):] if new.startswith(_jsonhooks.BOM) else new).data
    except _jsontext.SyntaxProblem:
        return out
    if new == text:
        return []
    return [(rel, None if left == {} else new)]


def next_steps(answers: Answers) -> list[str]:
    return ["Claude Code: accept the workspace-trust prompt once in this folder; "
            f"hooks from {_path(answers)} stay off until then (claude -p trusts it)."]


# --- its transcript, for agenthooks status and verify (transcript.py dispatches here) ---

def read_transcript(t: Transcript, records: Iterable[Any]) -> None:
    """The events of a Claude Code transcript (~/.claude/projects/<dir>/<session>.jsonl)."""
    for i, r in enumerate(records, 1):
        if not isinstance(r, dict):
            continue
        ts = str(r.get("timestamp", ""))
        t.session_id = t.session_id or str(r.get("sessionId", ""))
        t.cwd = t.cwd or str(r.get("cwd", ""))
        kind = r.get("type")
        if kind == "system" and r.get("subtype") == "compact_boundary":
            t.events.append(Event("boundary", i, ts, str(r.get("uuid", ""))))
            continue
        if kind == "attachment":
            att = r.get("attachment")
            # hook_success is the hook's raw stdout; what reached the model is the
            # attachment Claude Code made of it (hook_additional_context and the like).
            if isinstance(att, dict) and att.get("type") != "hook_success":
                t.events.extend(Event("text", i, ts, s) for s in strings(att.get("content")))
            continue
        msg = r.get("message")
        if not isinstance(msg, dict):
            continue
        if kind == "assistant" and msg.get("model") != "<synthetic>":
            t.events.append(Event("reply", i, ts))
            usage = msg.get("usage")
            if isinstance(usage, dict):
                t.context_tokens = sum(int(usage.get(k) or 0) for k in (
                    "input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"))
        elif kind == "user":
            parts = text_parts(msg.get("content"))
            t.events.extend(Event("text", i, ts, s) for s in parts)
            first = parts[0].lstrip() if parts else ""
            if parts and not r.get("isMeta") and not r.get("isCompactSummary") \
                    and not first.startswith(("<command-", "<local-command")):
                t.events.append(Event("prompt", i, ts))


def transcript_home() -> Path:
    return home("CLAUDE_CONFIG_DIR", ".claude")


def is_transcript(r: dict[str, Any]) -> bool:
    """Is this record (one that is no other host's) Claude Code's?"""
    return r.get("type") in ("user", "assistant", "system", "attachment", "summary",
                             "queue-operation", "last-prompt")


def locate_transcripts(sid: str) -> list[Path]:
    return list((transcript_home() / "projects").glob(f"*/{sid}.jsonl"))


def transcripts_for(root: Path) -> list[Path]:
    return list((transcript_home() / "projects" / re.sub(r"[^A-Za-z0-9]", "-", str(root))).glob("*.jsonl"))


FRAMEWORK = Framework(
    name=NAME, detect=DETECT, plan=plan, unregister=unregister, next_steps=next_steps,
    notices=notices, on_machine=ON_MACHINE, questions=QUESTIONS, hook_slots=HOOK_SLOTS,
    summary_instructions=SUMMARY_INSTRUCTIONS, local_path=LOCAL_PATH, subfolder_hint=SUBFOLDER_HINT,
    plugin_enabled=plugin_enabled,
    transcript=TranscriptReader(read=read_transcript, is_transcript=is_transcript,
                                locate=locate_transcripts, for_repo=transcripts_for),
    user=UserLevel(settings=user_settings, entries=user_entries, home_var=USER_HOME_VAR),
    drill=Drill(events=DRILL_EVENTS, json=DRILL_JSON),
)
