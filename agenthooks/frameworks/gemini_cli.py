"""Gemini CLI: hooks in .gemini/settings.json (shared with the user; merged, not replaced).

SessionStart has NO matcher: Gemini CLI compares lifecycle matchers as exact strings, so
"startup|resume|clear" would never fire; the hook reads `source` itself. BeforeAgent (once
per prompt) -> on_compact; AfterTool on write_file|replace -> post_edit; PreCompress ->
on_compact, which treats it as a candidate only (it fires before every request).
Gemini CLI has no post-compaction event. Timeouts are in milliseconds."""
from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, Iterable

from agenthooks.answer_types import Answers
from agenthooks.files import PlannedFile
from agenthooks.frameworks._contract import Drill, Framework, TranscriptReader
from agenthooks.frameworks._transcript import Event, Transcript, home, strings, text_parts
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


# install, run from a subfolder of the repo, says this.
SUBFOLDER_HINT = ("Gemini CLI reads the project's .gemini/settings.json from the folder it "
                  "starts in: start gemini at the repo's top")


def plan(root: Path, answers: Answers) -> list[PlannedFile]:
    return [_jsonhooks.registration(root, PATH, NAME, entries())]


def unregister(root: Path) -> list[tuple[str, str | None]]:
    return _jsonhooks.unregister(root, PATH, "nested")


def next_steps(answers: Answers) -> list[str]:
    return ["Gemini CLI: trust this folder (/permissions, or the prompt on first start); "
            "project hooks are off in untrusted folders, and Gemini CLI asks again when a "
            "hook command changes. Start gemini from the repo root ($GEMINI_PROJECT_DIR)."]


# --- its transcript, for agenthooks status and verify (transcript.py dispatches here) ---

SNAPSHOT = "<state_snapshot>"
HOOK_CONTEXT = re.compile(r"<hook_context>.*?</hook_context>", re.S)


def _gemini_message(t: Transcript, i: int, m: dict[str, Any], seen: set[str]) -> None:
    ts = str(m.get("timestamp", ""))
    parts = text_parts(m.get("content"))
    if any(SNAPSHOT in s for s in parts):
        key = str(m.get("id") or "".join(parts)[:200])
        if key not in seen:
            seen.add(key)
            t.events.append(Event("boundary", i, ts, key))
        return
    if m.get("type") == "user":
        t.events.extend(Event("text", i, ts, s) for s in parts)
        said = [HOOK_CONTEXT.sub("", s).strip() for s in parts]
        if any(s and not s.startswith("<session_context>") for s in said):
            t.events.append(Event("prompt", i, ts))
    elif m.get("type") == "gemini":
        t.events.append(Event("reply", i, ts))
        tokens = m.get("tokens")
        if isinstance(tokens, dict) and isinstance(tokens.get("input"), int):
            t.context_tokens = tokens["input"]


def read_transcript(t: Transcript, records: Iterable[Any]) -> None:
    """The events of a Gemini CLI chat (~/.gemini/tmp/<project>/chats/session-*.jsonl, or one
    JSON document in older releases)."""
    seen_ids: set[str] = set()
    boundaries: set[str] = set()
    for i, r in enumerate(records, 1):
        if not isinstance(r, dict):
            continue
        t.session_id = t.session_id or str(r.get("sessionId", ""))
        sets = r.get("$set")
        # A history rewrite: only a compression summary not seen before is new in it.
        msgs = sets.get("messages") if isinstance(sets, dict) else r.get("messages") \
            if "$set" not in r else None
        if isinstance(msgs, list):
            for m in msgs:
                if not isinstance(m, dict):
                    continue
                if "$set" in r:
                    if any(SNAPSHOT in s for s in text_parts(m.get("content"))):
                        _gemini_message(t, i, m, boundaries)
                else:
                    _gemini_message(t, i, m, boundaries)
            continue
        if "type" in r and "id" in r:
            if str(r["id"]) in seen_ids and r.get("type") == "gemini":
                continue  # the same reply written again with its tool calls
            seen_ids.add(str(r["id"]))
            _gemini_message(t, i, r, boundaries)


def transcript_home() -> Path:
    return Path(os.environ["GEMINI_CLI_HOME"]) / ".gemini" if os.environ.get("GEMINI_CLI_HOME") \
        else Path.home() / ".gemini"


def is_transcript(r: dict[str, Any]) -> bool:
    return "projectHash" in r or "$set" in r or ("messages" in r and "sessionId" in r)


def locate_transcripts(sid: str) -> list[Path]:
    found = []
    for p in (transcript_home() / "tmp").glob(f"*/chats/session-*{sid[:8]}*.json*"):
        try:
            with p.open(encoding="utf-8", errors="replace") as fh:
                if sid in fh.read(4096):
                    found.append(p)
        except OSError:
            continue
    return found


def transcripts_for(root: Path) -> list[Path]:
    gem = transcript_home()
    try:
        projects = json.loads((gem / "projects.json").read_text(encoding="utf-8")).get("projects", {})
    except (OSError, ValueError, AttributeError):
        projects = {}
    name = projects.get(str(root)) if isinstance(projects, dict) else None
    if isinstance(name, str) and "/" not in name:
        return list((gem / "tmp" / name / "chats").glob("session-*.json*"))
    return []


FRAMEWORK = Framework(
    name=NAME, detect=DETECT, plan=plan, unregister=unregister, next_steps=next_steps,
    on_machine=ON_MACHINE, hook_slots=HOOK_SLOTS, subfolder_hint=SUBFOLDER_HINT,
    transcript=TranscriptReader(read=read_transcript, is_transcript=is_transcript,
                                locate=locate_transcripts, for_repo=transcripts_for),
    transcript_search=TRANSCRIPT_SEARCH,
    drill=Drill(events=DRILL_EVENTS, json=DRILL_JSON, announced=DRILL_ANNOUNCED, tool=DRILL_TOOL),
)
