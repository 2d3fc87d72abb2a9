"""The agent instruction files a repo may already have, and the one-line list items in
them: what `agenthooks import` offers as rules and what lint compares tattoo.md with.
Read only: nothing here writes, and the source files are never edited."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from agenthooks.memory import parse

# Hosts' own instruction files, in the order they are offered.
FILES = ("CLAUDE.md", "AGENTS.md", "GEMINI.md", ".cursorrules", ".clinerules",
         ".windsurfrules", ".github/copilot-instructions.md")
GLOBS = ((".cursor/rules", "*.mdc"),)

_ITEM = re.compile(r"^(?:[-*+]|\d+[.)])[ \t]+(?:\[[ xX]\][ \t]*)?(\S.*)$")
_FENCE = re.compile(r"^[ \t]*(```|~~~)")


@dataclass(frozen=True)
class Item:
    source: str  # path relative to the repo root, POSIX separators
    line: int
    text: str  # without its list marker


def _inside(root: Path, path: Path) -> bool:
    """path (links followed) is in the repo: a CLAUDE.md linked to ~/.claude/CLAUDE.md is the
    user's, not the repo's, and is never read into the repo's memory."""
    try:
        path.resolve().relative_to(root.resolve())
    except (ValueError, OSError):
        return False
    return True


def paths(root: Path) -> list[Path]:
    out = []
    for name in FILES:
        p = root / name
        if p.is_file():
            out.append(p)
        elif p.is_dir():  # .clinerules/ holds one file per topic
            out += sorted(q for q in p.iterdir() if q.is_file() and not q.name.startswith("."))
    for folder, pattern in GLOBS:
        d = root / folder
        if d.is_dir():
            out += sorted(q for q in d.glob(pattern) if q.is_file())
    return [p for p in out if _inside(root, p)]


def _body(raw: list[str]) -> int:
    """Index of the first line after YAML front matter (`---` ... `---` at the top)."""
    if raw and raw[0].strip() == "---":
        for i in range(1, len(raw)):
            if raw[i].strip() in ("---", "..."):
                return i + 1
    return 0


def items(path: Path, label: str) -> list[Item]:
    """Top-level list items that are one line: not in a code fence, not continued on an
    indented next line, not a lead-in to a sub-list (`...:`)."""
    raw = parse.read_lines(path)
    out: list[Item] = []
    fence = False
    start = _body(raw)
    for i in range(start, len(raw)):
        s = raw[i]
        if _FENCE.match(s):
            fence = not fence
            continue
        if fence:
            continue
        m = _ITEM.match(s)
        if not m:
            continue
        nxt = raw[i + 1] if i + 1 < len(raw) else ""
        if re.match(r"^[ \t]+\S", nxt):  # a wrapped line or a sub-list: not one rule a line
            continue
        text = m.group(1).rstrip()
        if text.endswith((":", "：", "\\")):
            continue
        out.append(Item(label, i + 1, text))
    return out


def all_items(root: Path, only: Path | None = None) -> list[Item]:
    found = []
    for p in [only] if only is not None else paths(root):
        try:
            label = p.resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            label = str(p)
        found += items(p, label)
    return found
