"""The working set the hooks keep per session (log/state/SESSION.files: the files it edited,
latest last; SESSION.request: the user's latest prompt as the payload held it, cut), read for `show`
and `simulate`: what the block after a compaction names. Read only; links are not followed."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agenthooks import redact, statefiles

CAP = 64 * 1024  # the hooks keep these files far smaller


def _read(path: Path) -> str | None:
    if path.is_symlink() or not path.is_file():
        return None
    with open(path, "rb") as fh:
        return fh.read(CAP).decode("utf-8", "replace")


def request_text(kept: str) -> str | None:
    """The user's prompt in what the hook kept (the payload's `"prompt": "..."`, cut at 320
    characters), as the block shows it: on one line, its first 300 characters, a line that looks
    like a secret redacted whole; None when there is none, or it is a slash command."""
    kept = kept.lstrip()
    if not kept.startswith('"prompt":'):
        return None
    raw = kept[len('"prompt":'):].lstrip()
    if not raw.startswith('"') or raw.startswith('"/'):
        return None
    i = 1
    while i < len(raw) and raw[i] != '"':
        i += 2 if raw[i] == "\\" else 1
    raw = raw[1:min(i, 301)]
    try:
        text = json.loads(f'"{raw}"')
    except ValueError:
        text = raw
    text = " ".join(text.replace("\t", " ").replace("\r", " ").split("\n")).strip()
    if not text:
        return None
    return "[redacted: it looks like a secret]" if redact.find_secrets(text) else text


def latest(agent: Path, limit: int = 8) -> dict[str, Any] | None:
    """The newest session's working set: {"session", "files", "request"}; None when no session
    has one (or limit is 0)."""
    state = agent / "log" / "state"
    if limit <= 0 or state.is_symlink() or not state.is_dir():
        return None
    suffixes = (statefiles.FILES.split(".", 1)[1], statefiles.REQUEST.split(".", 1)[1])
    found = [p for p in state.iterdir() if p.suffix.lstrip(".") in suffixes and not p.is_symlink()]
    if not found:
        return None
    session = max(found, key=lambda p: p.stat().st_mtime).stem
    files = [ln for ln in (_read(state / f"{session}.files") or "").splitlines()
             if ln.strip() and not redact.is_secret_file(ln)][-limit:]
    raw = _read(state / f"{session}.request")
    return {"session": session, "files": files, "request": request_text(raw) if raw else None}
