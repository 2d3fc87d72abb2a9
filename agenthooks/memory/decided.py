"""`.agent/imports.txt`: the rules of the repo's instruction files that an import already
decided, so that no install asks about them again.

Committed with the rest of `.agent/` (teammates are not asked again either: what goes
into tattoo.md is the team's decision, like tattoo.md itself), plain text, one decision a
line, tab-separated:

    imported<TAB>AGENTS.md:12<TAB>Never add yourself as a co-author
    declined<TAB>AGENTS.md:40<TAB>Use pnpm for everything

`imported`: in tattoo.md (or a package's scope file) because an import put it there: lint
does not call it a duplicate of its source, and `agenthooks import --undo` takes it out.
`declined`: offered and left unticked. A rule is known by its source's package (the
folder of a nested AGENTS.md, "" for the top) and its normalized words (promote.key), so
an edited rule is a new one. Deleting a line makes the rule new again."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from agenthooks.errors import UserError
from agenthooks.files import write_atomic
from agenthooks.memory import promote, sources

PATH = ".agent/imports.txt"
HEADER = (
    "# agenthooks import: rules of CLAUDE.md, AGENTS.md, ... already decided, so that no\n"
    "# install offers them again. imported: put in tattoo.md by an import (agenthooks import\n"
    "# --undo takes them out); declined: left unticked. Delete a line to be offered it again.\n"
)
VERDICTS = ("imported", "declined")


@dataclass(frozen=True)
class Decision:
    verdict: str  # imported | declined
    source: str  # FILE:LINE where it was found
    text: str

    @property
    def scope(self) -> str:
        return sources.scope_of(self.source.rsplit(":", 1)[0])

    @property
    def key(self) -> tuple[str, str]:
        return self.scope, promote.key(self.text)

    def line(self) -> str:
        return f"{self.verdict}\t{self.source}\t{self.text}"


def _path(root: Path) -> Path:
    path = root / PATH
    if path.is_symlink():
        raise UserError(f"{PATH} is a link: not read or written through it",
                        hint="replace it with a regular file")
    return path


def load(root: Path) -> list[Decision]:
    path = _path(root)
    if not path.is_file():
        return []
    out = []
    for raw in path.read_text(encoding="utf-8", errors="replace").splitlines():
        parts = raw.rstrip("\r").split("\t", 2)
        if len(parts) == 3 and parts[0] in VERDICTS and parts[2].strip():
            out.append(Decision(parts[0], parts[1], parts[2].strip()))
    return out


def by_key(root: Path) -> dict[tuple[str, str], Decision]:
    """The latest decision for each rule."""
    return {d.key: d for d in load(root)}


def save(root: Path, decisions: list[Decision]) -> None:
    """Write the file: one decision a rule (the latest), in the order first decided."""
    latest: dict[tuple[str, str], Decision] = {}
    for d in decisions:
        latest.pop(d.key, None)
        latest[d.key] = d
    path = _path(root)
    if not latest:
        if path.is_file():
            path.unlink()
        return
    text = HEADER + "".join(d.line() + "\n" for d in latest.values())
    write_atomic(path, text.encode("utf-8"), 0o644)


def add(root: Path, new: list[Decision]) -> None:
    if new:
        save(root, load(root) + new)


def forget(root: Path, keys: set[tuple[str, str]]) -> None:
    save(root, [d for d in load(root) if d.key not in keys])


def imported_keys(root: Path, scope: str = "") -> set[str]:
    """The normalized words of the rules an import put into SCOPE's tattoo file."""
    try:
        return {k for (s, k), d in by_key(root).items() if s == scope and d.verdict == "imported"}
    except UserError:
        return set()
