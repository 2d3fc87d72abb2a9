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

from agenthooks import frameworks
from agenthooks.files import bounded_lines
from agenthooks.frameworks import TranscriptReader
from agenthooks.frameworks._transcript import Event, Transcript, Unreadable, strings

__all__ = ["Event", "Transcript", "Unreadable", "strings", "read", "locate", "latest_for", "verify"]

# The hosts whose transcripts are read, by name: the frameworks with a transcript reader
# (read, is_transcript, locate, for_repo). Their record tests are disjoint, so the
# registry's order is as good as any.
READERS: dict[str, TranscriptReader] = {fw.name: fw.transcript for fw in frameworks.REGISTRY
                                        if fw.transcript is not None}

BEGIN = "===== AGENT MEMORY BEGIN ====="
END = "===== AGENT MEMORY END ====="
# A transcript that is one JSON document is read whole up to this size.
WHOLE_MAX = 32 << 20


class _Records:
    """A transcript's records, streamed line by line on each pass (a 200 MB transcript is
    never held whole): None for a line that is not JSON (a torn last line while the host
    writes) or is over files.MAX_LINE (a sparse or NUL-filled file: skipped in pieces, never
    held). One JSON document (Gemini CLI before the JSONL chat files) is read whole when
    it is at most WHOLE_MAX bytes."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.whole: list[Any] | None = None
        first, later_object = "", False
        for line in self._lines():
            if line is None or not line.strip():
                continue
            if not first:
                first = line.lstrip()
            elif line.startswith("{"):
                later_object = True
                break
        if first.startswith("{") and not later_object:
            try:
                if path.stat().st_size > WHOLE_MAX:
                    raise Unreadable(f"{path}: one JSON document over {WHOLE_MAX >> 20} MB: not read")
                text = path.read_text(encoding="utf-8")
                self.whole = [json.loads(text.strip())]
            except (OSError, UnicodeDecodeError) as exc:
                raise Unreadable(f"cannot read {path}: {exc}") from None
            except ValueError:
                pass
        if not any(isinstance(r, dict) for r in self):
            raise Unreadable(f"{path}: no JSON records")

    def _lines(self) -> Iterator[str | None]:
        try:
            with open(self.path, "rb") as fh:
                for raw in bounded_lines(fh):
                    yield None if raw is None else raw.decode("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise Unreadable(f"cannot read {self.path}: {exc}") from None

    def __iter__(self) -> Iterator[Any]:
        if self.whole is not None:
            yield from self.whole
            return
        for line in self._lines():
            if line is None:
                yield None
                continue
            line = line.strip()
            if not line:
                continue
            try:
                yield json.loads(line)
            except ValueError:
                yield None


def _records(path: Path) -> Iterable[Any]:
    return _Records(path)


def _host_of(records: Iterable[Any]) -> tuple[str, TranscriptReader]:
    for r in records:
        if isinstance(r, dict):
            for name, reader in READERS.items():
                if reader.is_transcript(r):
                    return name, reader
    raise Unreadable("not a Claude Code, Codex or Gemini CLI transcript")


def read(path: Path) -> Transcript:
    records = _records(path)
    name, reader = _host_of(records)
    t = Transcript(path, name)
    reader.read(t, records)
    return t


def locate(framework: str, sid: str, root: Path) -> Path | None:
    """The transcript of session sid of framework, where that host keeps it."""
    if not sid or not re.fullmatch(r"[A-Za-z0-9_.-]+", sid):
        return None
    reader = READERS.get(framework)
    found = reader.locate(sid) if reader is not None else []
    return max(found, key=lambda p: p.stat().st_mtime) if found else None


def latest_for(root: Path) -> Path | None:
    """The newest transcript any host wrote for a session in root."""
    found = [p for reader in READERS.values() for p in reader.for_repo(root)]
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
