"""agenthooks rule / note: one `- TEXT` line onto tattoo.md or notes.md, without opening
the file. Refused (exit 1) when multi-line or secret-bearing; warned when long, a
contradiction or a duplicate (a duplicate is not written twice)."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable

from agenthooks.errors import UserError
from agenthooks.memory import addline, parse

TARGET = {"rule": "tattoo", "note": "notes"}


def run(kind: str, text: str, dir_: Path | None, echo: Callable[[str], None]) -> int:
    repo = parse.find_repo(dir_)
    name = TARGET[kind]
    parse.guard(repo, ("tattoo", name))
    mf = repo.file(name)
    tat = repo.file("tattoo")
    existing = parse.rules(mf) if name == "tattoo" else parse.notes(mf)
    # A note is checked against the rules too: a note that contradicts a rule is a warning.
    against = [(mf.label, existing)] if name == "tattoo" else \
        [(tat.label, parse.rules(tat)), (mf.label, existing)]
    res = addline.check(text, mf, existing, against)
    if res.errors:
        raise UserError(f"{kind} not written: {res.errors[0]}",
                        hint="pass one line without secrets")
    for w in res.warnings:
        sys.stderr.write(f"agenthooks: warning: {w}\n")
    if res.duplicate:
        echo(f"already in {mf.label}: nothing was written")
        return 0
    line = addline.bullet(text)
    addline.append_lines(mf.path, [line])
    echo(f"added to {mf.label}: {line}")
    parse.log(repo, kind, f"added to {name}.md: {line}")
    return 0
