"""agenthooks import: rules from the repo's existing instruction files (sources.FILES)
into tattoo.md. The installer can offer the same step:

    found = importer.find_rules(root)           # every candidate, with why it is skipped
    importer.append_rules(root, [f for f in found if not f.skip])

Only tattoo.md is written, by appending; the source files are never edited."""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional

from agenthooks.errors import MissingAnswer, UserError
from agenthooks.memory import addline, parse, promote, sources


@dataclass
class Found:
    source: str  # CLAUDE.md, .cursor/rules/style.mdc, ...
    line: int
    text: str  # the rule as it will be written, without a list marker
    skip: str = ""  # why it is not offered: duplicate, secret, long, contradiction

    def label(self) -> str:
        return f"{self.text}  [{self.source}:{self.line}]"


def _tattoo(root: Path) -> parse.MemFile:
    return parse.load_file(root / ".agent" / "memory" / "tattoo.md", ".agent/memory/tattoo.md")


def find_rules(root: Path, only: Path | None = None) -> list[Found]:
    """Every one-line list item of the instruction files (or of `only`), in file order,
    each checked as `agenthooks rule` checks a line against tattoo.md and the items
    before it. `skip` is empty for those worth importing."""
    tat = _tattoo(root)
    existing = parse.rules(tat)
    taken: list[parse.Line] = []
    out = []
    for it in sources.all_items(root, only):
        f = Found(it.source, it.line, it.text)
        res = addline.check(it.text, tat, existing)
        if res.errors:
            f.skip = "secret" if "secret" in res.errors[0] else "not one line"
        elif res.duplicate:
            f.skip = "already in tattoo.md"
        elif any(promote.key(t.text) == promote.key(it.text) for t in taken):
            f.skip = "duplicate of an earlier item"
        elif res.warnings:
            f.skip = "too long" if "characters long" in res.warnings[0] else \
                "contradicts tattoo.md"
        else:
            taken.append(parse.Line(0, it.text))
        out.append(f)
    return out


def append_rules(root: Path, picked: list[Found]) -> list[str]:
    """Append `- TEXT` for each picked rule to tattoo.md; returns the lines written."""
    lines = [addline.bullet(f.text) for f in picked]
    addline.append_lines(root / ".agent" / "memory" / "tattoo.md", lines)
    return lines


def ask_checkbox(found: list[Found], message: str = "", **pt: Any) -> Optional[list[Found]]:
    """Every rule starts ticked: the user came to import, and unticking the odd one out
    is fewer keys than ticking the rest. None when the user cancels."""
    import questionary

    choices = [questionary.Choice(f.label(), value=i, checked=True) for i, f in enumerate(found)]
    picked = questionary.checkbox(
        message or "Rules to append to tattoo.md (space: untick, enter: done)",
        choices=choices, **pt).ask()
    if picked is None:
        return None
    return [found[i] for i in picked]


def run(file: Path | None, dir_: Path | None, *, yes: bool, dry_run: bool,
        echo: Callable[[str], None], tty: bool | None = None,
        picker: Callable[[list[Found]], Optional[list[Found]]] | None = None) -> int:
    if file is not None and dir_ is None and file.is_dir():
        file, dir_ = None, file  # `agenthooks import DIR`
    repo = parse.find_repo(dir_)
    parse.guard(repo, ("tattoo",))
    only = None
    if file is not None:
        only = file if file.is_absolute() or file.exists() else repo.root / file
        if not only.is_file():
            raise UserError(f"{file}: no such file")
    found = find_rules(repo.root, only)
    if not found:
        where = str(file) if file is not None else ", ".join(sources.FILES) + ", .cursor/rules/*.mdc"
        echo(f"no one-line rules found in {where}: nothing to import")
        return 0
    offer = [f for f in found if not f.skip]
    echo("rules found:" if offer else "rules found, none new:")
    for f in found:
        echo(f"  {f.label()}" + (f"  (skipped: {f.skip})" if f.skip else ""))
    if dry_run or not offer:
        if dry_run:
            echo(f"dry run: {len(offer)} rule(s) would be appended to tattoo.md")
        return 0
    tty = sys.stdin.isatty() and sys.stdout.isatty() if tty is None else tty
    if yes:
        picked = offer
    elif not tty:
        raise MissingAnswer("no terminal to pick rules on",
                            hint="run it in a terminal, or pass --yes to import every rule found")
    else:
        chosen = (picker or ask_checkbox)(offer)
        if chosen is None:
            raise KeyboardInterrupt
        picked = chosen
    if not picked:
        echo("nothing picked: nothing was written")
        return 0
    added = append_rules(repo.root, picked)
    for r in added:
        echo(f"added to tattoo.md: {r}")
    parse.log(repo, "import", f"appended {len(added)} rule(s) to tattoo.md from "
                              + ", ".join(sorted({f.source for f in picked})))
    return 0
