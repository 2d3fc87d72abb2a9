"""Our block in the repo's top .gitattributes: LF checkouts for the files we write outside .agent/.

Git for Windows' installer sets core.autocrlf=true, so text files check out with CRLF unless
.gitattributes says `eol=lf`. .agent/.gitattributes covers what is inside .agent/; the files
we own elsewhere (Cline's hook wrappers, the OpenCode plugin, Copilot's hook list, ...) are run
or parsed by a shell or a host too (`#!/usr/bin/env bash\\r` is no interpreter). Their lines
live in a marked block of the top .gitattributes, which is the user's file: install adds the
block (at the end, where it wins over a user's broader `* text=auto`) or refreshes it in
place, never touching a line outside it; uninstall takes out the block alone, and the file
only when nothing of the user's is left in it. The block names each file by its anchored
path, derived from the plan (every owned file outside .agent/), so a framework's new file
is covered with no list to keep here."""
from __future__ import annotations

from pathlib import Path

from agenthooks.files import PlannedFile

PATH = ".gitattributes"
BEGIN = "# >>> agenthooks: files it writes here check out with LF (a shell or a host reads them) >>>"
END = "# <<< agenthooks <<<"


def outside(planned: list[PlannedFile]) -> list[str]:
    """The files wholly ours outside .agent/, sorted."""
    return sorted({pf.path for pf in planned if pf.kind == "owned" and not pf.path.startswith(".agent/")})


def block(paths: list[str], nl: str = "\n") -> str:
    lines = [BEGIN, *(f"/{p} text eol=lf" for p in paths), END]
    return nl.join(lines) + nl


def _split(text: str) -> tuple[str, str, str] | None:
    """(before, our block, after) of text, or None when it holds no block of ours."""
    lines = text.splitlines(keepends=True)
    starts = [i for i, line in enumerate(lines) if line.rstrip("\r\n") == BEGIN]
    if not starts:
        return None
    start = starts[0]
    ends = [i for i, line in enumerate(lines) if i > start and line.rstrip("\r\n") == END]
    end = ends[0] if ends else len(lines) - 1
    return "".join(lines[:start]), "".join(lines[start:end + 1]), "".join(lines[end + 1:])


def merged(text: str | None, paths: list[str]) -> str:
    """text with our block for paths: refreshed where it was, else appended."""
    text = text or ""
    nl = "\r\n" if "\r\n" in text else "\n"
    parts = _split(text)
    if parts is not None:
        before, _, after = parts
        return before + block(paths, nl) + after
    if text and not text.endswith("\n"):
        text += nl
    return text + block(paths, nl)


def stripped(text: str) -> str | None:
    """text without our block; None when nothing else is left in it."""
    parts = _split(text)
    if parts is None:
        return text
    before, _, after = parts
    rest = before + after
    return rest if rest.strip() else None


def read(root: Path) -> str | None:
    path = root / PATH
    if not path.is_file() or path.is_symlink():
        return None
    try:
        return path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def plan(root: Path, planned: list[PlannedFile]) -> PlannedFile | None:
    """The top .gitattributes with our block, when we own a file outside .agent/."""
    paths = outside(planned)
    if not paths:
        return None
    current = read(root)
    if current is None and (root / PATH).exists():
        return None  # not a text file we can splice: left alone
    return PlannedFile(PATH, merged(current, paths), 0o644, "registration", "gitattributes")


def unregister(root: Path) -> list[tuple[str, str | None]]:
    """[(PATH, text without our block, or None to delete it)], [] when it holds no block."""
    current = read(root)
    if current is None or _split(current) is None:
        return []
    return [(PATH, stripped(current))]
