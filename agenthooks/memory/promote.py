"""agenthooks promote: notes that recur (3+ times by default) are candidate rules (R25).
The user picks; picked notes become one-line rules in tattoo.md and leave notes.md."""
from __future__ import annotations

import re
import sys
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional

from agenthooks.errors import MissingAnswer, UserError
from agenthooks.files import write_atomic
from agenthooks.memory import parse

_LEAD = re.compile(r"^\s*(?:[-*+•]|\d+[.)、])\s+(?:\[[ xX]\]\s*)?")


def text_of(line: str) -> str:
    """A note without its list marker and checkbox."""
    return _LEAD.sub("", line, count=1).strip()


def key(line: str) -> str:
    """Case, width, whitespace and punctuation (ASCII and CJK) do not make notes differ."""
    s = unicodedata.normalize("NFKC", text_of(line)).casefold()
    return "".join(ch for ch in s if not ch.isspace()
                   and not unicodedata.category(ch).startswith(("P", "S")))


@dataclass
class Candidate:
    key: str
    text: str  # the wording that becomes the rule
    count: int
    lines: list[int] = field(default_factory=list)
    in_tattoo: bool = False

    def label(self) -> str:
        tail = "; already a rule: only leaves notes" if self.in_tattoo else ""
        return f"{self.text}  (x{self.count}{tail})"


def candidates(repo: parse.Repo, min_count: int = 3) -> list[Candidate]:
    notes = parse.notes(repo.file("notes"))
    rules = {key(r.text) for r in parse.rules(repo.file("tattoo"))}
    by: dict[str, Candidate] = {}
    forms: dict[str, list[str]] = {}
    for ln in notes:
        k = key(ln.text)
        if not k:
            continue
        c = by.setdefault(k, Candidate(k, text_of(ln.text), 0))
        c.count += 1
        c.lines.append(ln.no)
        forms.setdefault(k, []).append(text_of(ln.text))
    out = [c for c in by.values() if c.count >= min_count]
    for c in out:
        c.in_tattoo = c.key in rules
        # The most frequent wording; on a tie, the first one written.
        seen = forms[c.key]
        c.text = max(seen, key=lambda t: (seen.count(t), -seen.index(t)))
    return sorted(out, key=lambda c: (-c.count, c.lines[0]))


def ask_checkbox(cands: list[Candidate], **pt: Any) -> Optional[list[Candidate]]:
    """A questionary checkbox; `pt` goes to prompt_toolkit (input=, output= in tests).
    None when the user cancels."""
    import questionary

    choices = [questionary.Choice(c.label(), value=i) for i, c in enumerate(cands)]
    picked = questionary.checkbox("Notes to promote to tattoo.md (space: pick, enter: done)",
                                  choices=choices, **pt).ask()
    if picked is None:
        return None
    return [cands[i] for i in picked]


def _byte_lines(data: bytes) -> list[bytes]:
    """The file's physical lines, each with its own line end, numbered as parse reads them
    (split at LF only)."""
    parts = data.split(b"\n")
    lines = [p + b"\n" for p in parts[:-1]]
    return lines + [parts[-1]] if parts[-1] else lines


def _eol(lines: list[bytes]) -> bytes:
    """The file's own line end: CRLF when its first terminated line has one."""
    for ln in lines:
        if ln.endswith(b"\n"):
            return b"\r\n" if ln.endswith(b"\r\n") else b"\n"
    return b"\n"


def apply(repo: parse.Repo, picked: list[Candidate]) -> tuple[list[str], int]:
    """Append the new rules, drop the notes; returns (rules added, note lines removed)."""
    tat = repo.file("tattoo")
    notes = repo.file("notes")
    existing = {key(r.text) for r in parse.rules(tat)}
    rules = parse.rules(tat)
    bullet = "- " if not rules or sum(r.text.lstrip().startswith(("- ", "* ")) for r in rules) * 2 >= len(rules) else ""
    added = []
    for c in picked:
        if c.key in existing:
            continue
        existing.add(c.key)
        added.append(bullet + re.sub(r"\s+", " ", c.text))
    drop = {c.key for c in picked}
    content = {ln.no for ln in parse.notes(notes)}
    gone = {i for i, s in enumerate(notes.raw, 1) if i in content and key(s) in drop}
    removed = len(gone)
    # On bytes: a BOM, CRLF endings and bytes that are not UTF-8 in the lines not added
    # or removed stay exactly as they were.
    if added:
        lines = _byte_lines(tat.path.read_bytes() if tat.exists else b"")
        eol = _eol(lines)
        end = len(lines)
        while end and not lines[end - 1].strip():
            end -= 1
        head, tail = lines[:end], lines[end:]
        if head and not head[-1].endswith(b"\n"):
            head[-1] += eol
        new = [(r + "\n").encode("utf-8").replace(b"\n", eol) for r in added]
        write_atomic(tat.path, b"".join(head + new + tail))
    if removed:
        lines = _byte_lines(notes.path.read_bytes())
        write_atomic(notes.path, b"".join(s for i, s in enumerate(lines, 1) if i not in gone))
    return added, removed


def run(dir_: Path | None, *, yes: bool, all_: bool, min_count: int, list_only: bool,
        echo: Callable[[str], None], tty: bool | None = None,
        picker: Callable[[list[Candidate]], Optional[list[Candidate]]] | None = None) -> int:
    if min_count < 2:
        raise UserError(f"--min must be 2 or more, not {min_count}")
    repo = parse.find_repo(dir_)
    parse.guard(repo, ("tattoo", "notes"))
    if not repo.file("notes").exists:
        raise UserError(".agent/memory/notes.md: missing, nothing to promote")
    cands = candidates(repo, min_count)
    if not cands:
        echo(f"no note recurs {min_count}+ times: nothing to promote")
        return 0
    echo(f"notes that recur {min_count}+ times (candidate rules):")
    for c in cands:
        echo(f"  {c.count}x  {c.text}" + ("  (already in tattoo.md)" if c.in_tattoo else "")
             + f"  [notes.md:{','.join(map(str, c.lines))}]")
    if list_only:
        return 0
    tty = sys.stdin.isatty() and sys.stdout.isatty() if tty is None else tty
    if yes:
        if not all_:
            raise MissingAnswer("--yes picks nothing by itself", hint="pass --yes --all to take every candidate")
        picked = cands
    elif all_ and tty:
        picked = cands
    elif not tty:
        raise MissingAnswer("no terminal to pick notes on",
                            hint="run it in a terminal, or pass --yes --all to take every candidate")
    else:
        chosen = (picker or ask_checkbox)(cands)
        if chosen is None:
            raise KeyboardInterrupt
        picked = chosen
    if not picked:
        echo("nothing picked: nothing was written")
        return 0
    added, removed = apply(repo, picked)
    for r in added:
        echo(f"added to tattoo.md: {r}")
    echo(f"removed {removed} line(s) from notes.md")
    quoted = "; ".join(f'"{c.text}"' for c in picked)
    parse.log(repo, "promote", f"moved {len(picked)} recurring note(s) to tattoo.md "
                               f"({len(added)} new rule(s), {removed} note line(s) removed): {quoted}")
    return 0
