"""agenthooks rule / note: one `- TEXT` line onto tattoo.md or notes.md, without opening
the file; `rule --remove TEXT` takes a rule out. Refused (exit 1): empty, multi-line or
secret-bearing text, and a rule that contradicts tattoo.md or the snapshot's live
sections (lint would call that an error). Warned: long text, a note that contradicts a
rule, a rule that contradicts the user-level tattoo. A duplicate is not written twice."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable

from agenthooks.errors import UserError
from agenthooks.memory import addline, decided, parse, promote

TARGET = {"rule": "tattoo", "note": "notes"}
HINTS = {"empty": "give the text to write: agenthooks {kind} \"TEXT\"",
         "more than one line": "one {kind}, one line: run it once per line",
         "looks like a secret": "leave the secret out (and rotate it if it was real)"}


def _hint(kind: str, error: str) -> str | None:
    return next((h.format(kind=kind) for start, h in HINTS.items() if error.startswith(start)),
                None)


def run(kind: str, text: str, dir_: Path | None, echo: Callable[[str], None]) -> int:
    repo = parse.find_repo(dir_)
    name = TARGET[kind]
    parse.guard(repo, ("tattoo", name))
    mf = repo.file(name)
    tat = repo.file("tattoo")
    existing = parse.rules(mf) if name == "tattoo" else parse.notes(mf)
    if name == "tattoo":
        # What lint errs on: a rule against a rule, or against the snapshot's live sections.
        snap = repo.file("snapshot")
        live = [ln for s in parse.sections(snap) if s.key not in ("done", "failed")
                for ln in s.items]
        against = [(mf.label, existing), (snap.label, live)]
    else:  # a note that contradicts a rule is a warning, as lint says
        against = [(tat.label, parse.rules(tat)), (mf.label, existing)]
    res = addline.check(text, mf, existing, against)
    if res.errors:
        raise UserError(f"{kind} not written: {res.errors[0]}", hint=_hint(kind, res.errors[0]))
    if name == "tattoo" and res.conflicts:
        label, no, message = res.conflicts[0]
        other = _line(repo, label, no)
        raise UserError(f"rule not written: it {message}",
                        hint=(f"take the other out first: agenthooks rule --remove {_quote(other)}"
                              if label == tat.label and other else f"edit {label}:{no} first"))
    user = repo.user_tattoo()
    if name == "tattoo" and user is not None:
        more = addline.check(text, mf, [], [(user.label, parse.rules(user))])
        res.warnings += more.warnings
    for w in res.warnings:
        sys.stderr.write(f"agenthooks: warning: {w}\n")
    if res.duplicate:
        echo(f"already in {mf.label}: nothing was written")
        return 0
    line = addline.bullet(text)
    addline.append_lines(mf.path, [line], repo.root)
    echo(f"added to {mf.label}: {line}")
    parse.log(repo, kind, f"added to {name}.md: {line}")
    return 0


def _line(repo: parse.Repo, label: str, no: int) -> str:
    mf = parse.load_file(repo.root / label, label)
    return promote.text_of(mf.raw[no - 1]) if 0 < no <= len(mf.raw) else ""


def _quote(text: str) -> str:
    import shlex

    return shlex.quote(text)


def remove(text: str, dir_: Path | None, echo: Callable[[str], None]) -> int:
    """Take the rule that reads TEXT (the same normalized words) out of tattoo.md. A rule
    an import brought is then recorded as declined, so no install offers it again."""
    repo = parse.find_repo(dir_)
    mf = repo.file("tattoo")
    key = promote.key(text)
    if not key:
        raise UserError("rule not removed: empty", hint=_hint("rule", "empty"))
    gone = addline.remove_rules(repo.root, mf, {key})
    if not gone:
        close = [promote.text_of(ln.text) for ln in parse.rules(mf)
                 if key in promote.key(ln.text)]
        raise UserError(f"no rule in {mf.label} reads {text!r}: nothing was removed",
                        hint=("did you mean " + " or ".join(_quote(c) for c in close[:3]) + "?")
                        if close else "agenthooks show lists the rules")
    for r in gone:
        echo(f"removed from {mf.label}: {r}")
    was = decided.by_key(repo.root).get(("", key))
    if was is not None and was.verdict == "imported":
        decided.add(repo.root, [decided.Decision("declined", was.source, was.text)])
        echo(f"it came from {was.source.rsplit(':', 1)[0]}: recorded as declined in "
             f"{decided.PATH}, not offered again")
    parse.log(repo, "rule", f"removed from tattoo.md: {'; '.join(gone)}")
    return 0
