"""One line into a memory file: the checks lint would make, then an append that never
touches the bytes already there (shared by `rule`, `note` and `import`)."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from agenthooks import redact, safepath
from agenthooks.errors import UserError
from agenthooks.files import make_dirs, write_atomic
from agenthooks.memory import lint, parse, promote

MAX_CHARS = lint.LONG_LINE  # lint's long_rule threshold


@dataclass
class Check:
    errors: list[str]  # refuse: multi-line, secret-bearing, empty
    warnings: list[str]  # write anyway: long, contradicts
    duplicate: bool  # same normalized text as an existing line
    # (label, line) of each line of `against` the text contradicts, with lint's message
    conflicts: list[tuple[str, int, str]] = field(default_factory=list)


def check(text: str, mf: parse.MemFile, existing: list[parse.Line],
          against: list[tuple[str, list[parse.Line]]] | None = None) -> Check:
    """`existing`: the lines of mf (duplicates); `against`: (label, lines) that must not be
    contradicted (default: mf's own lines)."""
    errors: list[str] = []
    warnings: list[str] = []
    conflicts: list[tuple[str, int, str]] = []
    if not promote.text_of(text):
        return Check(["empty: nothing to write"], [], False)
    if "\n" in text or "\r" in text:
        errors.append("more than one line: one rule, one line (R1)")
    names = redact.find_secrets(text)
    if names:
        errors.append(f"looks like a secret ({', '.join(names)}): not written")
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
            m = re.match(r"^contradicts (.+):(\d+): ", f.message)
            if m:
                conflicts.append((m.group(1), int(m.group(2)), f.message))
    return Check(errors, warnings, duplicate, conflicts)


def bullet(text: str) -> str:
    """`- TEXT`, unless TEXT already carries a list marker; inner whitespace runs collapse."""
    t = re.sub(r"[ \t]+", " ", text.strip())
    return t if promote._LEAD.match(t) else f"- {t}"


def refuse_links(root: Path, path: Path) -> None:
    """A memory file is never written through a link: PATH and every folder between the
    repo root and it must be what they look like (safepath's one guard)."""
    try:
        rel = path.relative_to(root)
    except ValueError:
        raise UserError(f"{path}: not inside {root}") from None
    safepath.check(root, [rel.as_posix()], "file")


def append_lines(path: Path, lines: list[str], root: Path | None = None) -> None:
    """Append lines in the file's own line ending, adding the newline a last line lacks
    first. One O_APPEND write: the bytes already there are never rewritten, a BOM stays.
    root: refuse a link anywhere from there down (refuse_links)."""
    if not lines:
        return
    if root is not None:
        refuse_links(root, path)
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


def remove_rules(root: Path, mf: parse.MemFile, keys: set[str]) -> list[str]:
    """Take the rules whose normalized words (promote.key) are in KEYS out of MF, by
    temp file and rename; every other byte (BOM, CRLF, headings, comments) stays. The
    rules removed, as they read."""
    wanted = {ln.no: ln.text for ln in parse.rules(mf) if promote.key(ln.text) in keys}
    if not wanted:
        return []
    refuse_links(root, mf.path)
    data = mf.path.read_bytes()
    parts = data.split(b"\n")
    lines = [p + b"\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
    kept = b"".join(s for i, s in enumerate(lines, 1) if i not in wanted)
    write_atomic(mf.path, kept)
    return [wanted[no] for no in sorted(wanted)]
