"""What the framework modules' transcript readers share: the events a transcript holds,
the host's home folder, and the string helpers. transcript.py dispatches to the readers."""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator


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


def home(var: str, default: str) -> Path:
    """A host's home: $VAR when set, else ~/DEFAULT."""
    value = os.environ.get(var)
    return Path(value) if value else Path.home() / default


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


def text_parts(content: Any) -> list[str]:
    if isinstance(content, str):
        return [content]
    if isinstance(content, list):
        return [str(p["text"]) for p in content
                if isinstance(p, dict) and isinstance(p.get("text"), str)]
    return []
