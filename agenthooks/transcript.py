"""The hosts' session transcripts, as the CLIs write them: Claude Code's JSONL
(~/.claude/projects/<dir>/<session>.jsonl), Codex's rollout JSONL
(~/.codex/sessions/YYYY/MM/DD/rollout-*-<session>.jsonl) and Gemini CLI's chat file
(~/.gemini/tmp/<project>/chats/session-*.jsonl, or one JSON document in older releases).

Each is read into one list of events in order: a compaction `boundary`, a user `prompt`,
a model `reply`, and every text that reached the model (`text`), which verify searches
for the memory block."""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator

from agenthooks.frameworks import claude_code, codex, gemini_cli

# The hosts whose transcripts are read, by their framework modules' names.
CLAUDE, CODEX, GEMINI = claude_code.NAME, codex.NAME, gemini_cli.NAME

BEGIN = "===== AGENT MEMORY BEGIN ====="
END = "===== AGENT MEMORY END ====="


class Unreadable(Exception):
    """The transcript cannot be read (missing, not UTF-8, no record of a known host)."""


@dataclass
class Event:
    kind: str  # boundary | prompt | reply | text
    index: int  # record number in the file (from 1)
    time: str = ""
    text: str = ""


@dataclass
class Transcript:
    path: Path
    host: str
    session_id: str = ""
    cwd: str = ""
    events: list[Event] = field(default_factory=list)
    context_tokens: int | None = None
    context_percent: float | None = None


def _home(var: str, default: str) -> Path:
    value = os.environ.get(var)
    return Path(value) if value else Path.home() / default


def claude_home() -> Path:
    return _home("CLAUDE_CONFIG_DIR", ".claude")


def codex_home() -> Path:
    return _home("CODEX_HOME", ".codex")


def gemini_home() -> Path:
    return Path(os.environ["GEMINI_CLI_HOME"]) / ".gemini" if os.environ.get("GEMINI_CLI_HOME") \
        else Path.home() / ".gemini"


def strings(value: Any) -> Iterator[str]:
    """Every string in a JSON value; a string that is itself a JSON object is opened."""
    if isinstance(value, str):
        if value.startswith("{") and value.endswith("}"):
            try:
                yield from strings(json.loads(value))
                return
            except ValueError:
                pass
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)


class _Records:
    """A transcript's records, streamed line by line on each pass (a 200 MB transcript is
    never held whole): None for a line that is not JSON (a torn last line while the host
    writes). One JSON document (Gemini CLI before the JSONL chat files) is read whole."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.whole: list[Any] | None = None
        first, later_object = "", False
        for line in self._lines():
            if not line.strip():
                continue
            if not first:
                first = line.lstrip()
            elif line.startswith("{"):
                later_object = True
                break
        if first.startswith("{") and not later_object:
            try:
                text = path.read_text(encoding="utf-8")
                self.whole = [json.loads(text.strip())]
            except (OSError, UnicodeDecodeError) as exc:
                raise Unreadable(f"cannot read {path}: {exc}") from None
            except ValueError:
                pass
        if not any(isinstance(r, dict) for r in self):
            raise Unreadable(f"{path}: no JSON records")

    def _lines(self) -> Iterator[str]:
        try:
            with open(self.path, "rb") as fh:
                for raw in fh:
                    yield raw.decode("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise Unreadable(f"cannot read {self.path}: {exc}") from None

    def __iter__(self) -> Iterator[Any]:
        if self.whole is not None:
            yield from self.whole
            return
        for line in self._lines():
            line = line.strip()
            if not line:
                continue
            try:
                yield json.loads(line)
            except ValueError:
                yield None


def _records(path: Path) -> Iterable[Any]:
    return _Records(path)


def _host_of(records: Iterable[Any]) -> str:
    for r in records:
        if not isinstance(r, dict):
            continue
        if r.get("type") in ("session_meta", "response_item", "compacted", "event_msg", "turn_context"):
            return CODEX
        if "projectHash" in r or "$set" in r or ("messages" in r and "sessionId" in r):
            return GEMINI
        if r.get("type") in ("user", "assistant", "system", "attachment", "summary",
                             "queue-operation", "last-prompt"):
            return CLAUDE
    raise Unreadable("not a Claude Code, Codex or Gemini CLI transcript")


def _text_parts(content: Any) -> list[str]:
    if isinstance(content, str):
        return [content]
    if isinstance(content, list):
        return [str(p["text"]) for p in content
                if isinstance(p, dict) and isinstance(p.get("text"), str)]
    return []


def _claude(t: Transcript, records: Iterable[Any]) -> None:
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
            parts = _text_parts(msg.get("content"))
            t.events.extend(Event("text", i, ts, s) for s in parts)
            first = parts[0].lstrip() if parts else ""
            if parts and not r.get("isMeta") and not r.get("isCompactSummary") \
                    and not first.startswith(("<command-", "<local-command")):
                t.events.append(Event("prompt", i, ts))


CODEX_CONTEXT = ("<environment_context>", "<user_instructions>", "<skills_instructions>",
                 "<permissions", "# AGENTS.md")


def _codex(t: Transcript, records: Iterable[Any]) -> None:
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
                parts = _text_parts(p.get("content"))
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


SNAPSHOT = "<state_snapshot>"
HOOK_CONTEXT = re.compile(r"<hook_context>.*?</hook_context>", re.S)


def _gemini_message(t: Transcript, i: int, m: dict[str, Any], seen: set[str]) -> None:
    ts = str(m.get("timestamp", ""))
    parts = _text_parts(m.get("content"))
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


def _gemini(t: Transcript, records: Iterable[Any]) -> None:
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
                    if any(SNAPSHOT in s for s in _text_parts(m.get("content"))):
                        _gemini_message(t, i, m, boundaries)
                else:
                    _gemini_message(t, i, m, boundaries)
            continue
        if "type" in r and "id" in r:
            if str(r["id"]) in seen_ids and r.get("type") == "gemini":
                continue  # the same reply written again with its tool calls
            seen_ids.add(str(r["id"]))
            _gemini_message(t, i, r, boundaries)


def read(path: Path) -> Transcript:
    records = _records(path)
    host = _host_of(records)
    t = Transcript(path, host)
    {CLAUDE: _claude, CODEX: _codex, GEMINI: _gemini}[host](t, records)
    return t


def locate(framework: str, sid: str, root: Path) -> Path | None:
    """The transcript of session sid of framework, where that host keeps it."""
    if not sid or not re.fullmatch(r"[A-Za-z0-9_.-]+", sid):
        return None
    found: list[Path] = []
    if framework == CLAUDE:
        found = list((claude_home() / "projects").glob(f"*/{sid}.jsonl"))
    elif framework == CODEX:
        found = list((codex_home() / "sessions").glob(f"*/*/*/rollout-*{sid}.jsonl"))
    elif framework == GEMINI:
        for p in (gemini_home() / "tmp").glob(f"*/chats/session-*{sid[:8]}*.json*"):
            try:
                with p.open(encoding="utf-8", errors="replace") as fh:
                    if sid in fh.read(4096):
                        found.append(p)
            except OSError:
                continue
    return max(found, key=lambda p: p.stat().st_mtime) if found else None


def latest_for(root: Path) -> Path | None:
    """The newest transcript any host wrote for a session in root."""
    root_s = str(root)
    found: list[Path] = []
    found += (claude_home() / "projects" / re.sub(r"[^A-Za-z0-9]", "-", root_s)).glob("*.jsonl")
    rollouts = sorted((codex_home() / "sessions").glob("*/*/*/rollout-*.jsonl"),
                      key=lambda p: p.stat().st_mtime, reverse=True)[:50]
    for p in rollouts:
        try:
            with p.open(encoding="utf-8", errors="replace") as fh:
                meta = json.loads(fh.readline() or "{}")
        except (OSError, ValueError):
            continue
        if isinstance(meta, dict) and (meta.get("payload") or {}).get("cwd") == root_s:
            found.append(p)
    gem = gemini_home()
    try:
        projects = json.loads((gem / "projects.json").read_text(encoding="utf-8")).get("projects", {})
    except (OSError, ValueError, AttributeError):
        projects = {}
    name = projects.get(root_s) if isinstance(projects, dict) else None
    if isinstance(name, str) and "/" not in name:
        found += (gem / "tmp" / name / "chats").glob("session-*.json*")
    return max(found, key=lambda p: p.stat().st_mtime) if found else None


# --- verify ---------------------------------------------------------------------------


@dataclass
class Check:
    boundary: int  # 1, 2, ... in the transcript
    record: int  # its record number in the file
    time: str
    followed: bool
    turns_later: int | None  # prompts answered after the boundary before memory came back
    missing: list[str]  # what the block lacked (delimiters, rules), when it came incomplete
    prompts_after: int
    # back | older (a whole block came back, without rules tattoo.md has now) | none
    state: str = "back"

    def as_dict(self) -> dict[str, Any]:
        return {"compaction": self.boundary, "record": self.record, "time": self.time,
                "memory_followed": self.followed, "state": self.state,
                "turns_later": self.turns_later,
                "missing": self.missing, "prompts_after": self.prompts_after}


def _missing(text: str, rules: list[str]) -> list[str]:
    out = [d for d in (BEGIN, END) if d not in text]
    return out + [r for r in rules if r not in text]


def verify(t: Transcript, rules: list[str]) -> list[Check]:
    """For each compaction boundary: is the memory block (both delimiters and every rule)
    in a text that reached the model after it, before the next one?"""
    out = []
    bounds = [i for i, e in enumerate(t.events) if e.kind == "boundary"]
    for n, at in enumerate(bounds, 1):
        stop = bounds[n] if n < len(bounds) else len(t.events)
        prompts = answered = 0
        best: list[str] | None = None
        turns = older = None
        for e in t.events[at + 1:stop]:
            if e.kind == "prompt":
                prompts += 1
            elif e.kind == "reply":
                answered = prompts
            elif e.kind == "text" and BEGIN in e.text and turns is None:
                miss = _missing(e.text, rules)
                if not miss:
                    turns = answered
                elif best is None or len(miss) < len(best):
                    best = miss
                if miss and END not in miss and older is None:
                    older = answered  # whole, but written before today's rules
        b = t.events[at]
        if turns is not None:
            out.append(Check(n, b.index, b.time, True, turns, [], prompts))
        elif older is not None:
            # Memory came back, but not today's rules: not verified, yet no "no memory".
            out.append(Check(n, b.index, b.time, False, older, best or [], prompts, "older"))
        else:
            out.append(Check(n, b.index, b.time, False, None, best or [BEGIN], prompts, "none"))
    return out
