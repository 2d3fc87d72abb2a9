"""One line into a memory file: the checks lint would make, then an append that never
touches the bytes already there (shared by `rule`, `note` and `import`)."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from agenthooks import redact, safepath
from agenthooks.files import make_dirs
from agenthooks.memory import lint, parse, promote

MAX_CHARS = lint.LONG_LINE  # lint's long_rule threshold


@dataclass
class Check:
    errors: list[str]  # refuse: multi-line, secret-bearing, empty
    warnings: list[str]  # write anyway: long, contradicts
    duplicate: bool  # same normalized text as an existing line


def check(text: str, mf: parse.MemFile, existing: list[parse.Line],
          against: list[tuple[str, list[parse.Line]]] | None = None) -> Check:
    """`existing`: the lines of mf (duplicates); `against`: (label, lines) that must not be
    contradicted (default: mf's own lines)."""
    errors: list[str] = []
    warnings: list[str] = []
    if "\n" in text or "\r" in text:
        errors.append("more than one line: one rule, one line (R1)")
    names = redact.find_secrets(text)
    if names:
        errors.append(f"looks like a secret ({', '.join(names)}): not written")
    if not promote.text_of(text):
        errors.append("empty text: nothing to write")
    if len(text) > MAX_CHARS:
        warnings.append(lint.say("en", "long_rule", n=len(text)))
    k = promote.key(text)
    duplicate = bool(k) and any(promote.key(ln.text) == k for ln in existing)
    new = lint.claims("new", [parse.Line(0, text)], "warning")
    old = [c for label, lines in (against or [(mf.label, existing)])
           for c in lint.claims(label, lines, "warning")]
    for f in lint.check_contradictions([old, new]):
        if f.path == "new":
            warnings.append(f.message)
    return Check(errors, warnings, duplicate)


def bullet(text: str) -> str:
    """`- TEXT`, unless TEXT already carries a list marker; inner whitespace runs collapse."""
    t = re.sub(r"[ \t]+", " ", text.strip())
    return t if promote._LEAD.match(t) else f"- {t}"


def append_lines(path: Path, lines: list[str]) -> None:
    """Append lines in the file's own line ending, adding the newline a last line lacks
    first. One O_APPEND write: the bytes already there are never rewritten, a BOM stays."""
    if not lines:
        return
    make_dirs(path.parent)
    # Never through a link, never a FIFO (an open for writing would wait for a reader).
    fd = safepath.open_regular(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, path.name)
    try:
        chunks = []
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
        data = b"".join(chunks)
        eol = b"\r\n" if b"\r\n" in data else b"\n"
        out = b""
        if data and not data.endswith(b"\n"):
            out += eol
        out += b"".join(ln.encode("utf-8") + eol for ln in lines)
        os.write(fd, out)
    finally:
        os.close(fd)
