"""agenthooks board: the progress board from the command line, one line at a time.

    agenthooks board                  the board, In progress numbered
    agenthooks board doing TEXT       a line under In progress (goal, todo, decide, tried too)
    agenthooks board done N|TEXT      In progress item N (or the one that reads TEXT) moves
                                      to Done; other text is added to Done

Each line is checked as `agenthooks rule` checks one: refused when empty, multi-line or
secret-bearing, or (in the sections the block carries and lint checks: Goal, In progress,
Todo, Key decisions) when it contradicts a rule or another live line; not written twice.
It goes at the end of its section, in the file's own line ending and list style, the rest
of the file byte for byte as it was; a missing section is added at the end with the
heading in the board's language. The file is replaced whole (temp file, rename), never
written through a link, and re-read just before, so an edit made meanwhile is not lost.

Which file is the board is decided in one place, board_file() (memory/boards.py: config.yaml's
board: and the branch). A branch's board not started yet is started from the snapshot template
by the first line written to it."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from agenthooks.errors import UserError
from agenthooks.files import write_atomic
from agenthooks.memory import addline, boards, parse, promote

# Subcommand -> section key (parse.SECTION_TITLES), in the board's order.
VERBS = {"goal": "goal", "done": "done", "doing": "progress", "todo": "todo",
         "decide": "decisions", "tried": "failed"}
HISTORY = ("done", "failed")  # what lint never checks for contradictions
_BOX = re.compile(r"^(\s*[-*+]\s+)\[[ xX]\]\s*")


def board_file(repo: parse.Repo) -> Path:
    """The board the command edits: memory/snapshot.md, or this branch's memory/boards/BRANCH.md."""
    return repo.board


def _label(repo: parse.Repo) -> str:
    return repo.label(board_file(repo))


def load(repo: parse.Repo, start: bool = False) -> parse.MemFile:
    """The board; a branch's board not started yet is started (START) from the template."""
    path = board_file(repo)
    addline.refuse_links(repo.root, path)
    mf = parse.load_file(path, _label(repo))
    if not mf.exists and start and boards.is_branch_board(repo.agent, path):
        from agenthooks import templating
        from agenthooks.files import make_dirs

        text = templating.environment().get_template(f"memory/{repo.lang}/snapshot.md.j2").render()
        make_dirs(path.parent)
        addline.refuse_links(repo.root, path)
        write_atomic(path, text.encode("utf-8"), 0o644)
        mf = parse.load_file(path, _label(repo))
    if not mf.exists:
        if boards.is_branch_board(repo.agent, path):
            raise UserError(f"{mf.label}: not started yet (a board of this branch's own)",
                            hint="agenthooks board doing TEXT (or goal, todo, ...) starts it")
        raise UserError(f"{mf.label}: missing", hint="run agenthooks install (or any hook) "
                        "to create it from the template")
    return mf


@dataclass
class Placed:
    line: str  # as written
    title: str  # the section it went under


def _lines(data: bytes) -> list[bytes]:
    parts = data.split(b"\n")
    return [p + b"\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def _eol(lines: list[bytes]) -> bytes:
    """The file's own line end: CRLF when its first terminated line has one."""
    first = next((ln for ln in lines if ln.endswith(b"\n")), b"\n")
    return b"\r\n" if first.endswith(b"\r\n") else b"\n"


def _bullet(text: str, sec: parse.Section | None, done: bool = False) -> str:
    """`- TEXT`, with a checkbox when the section's items carry one."""
    line = addline.bullet(promote.text_of(text) if _BOX.match(text) else text)
    boxed = sec is not None and any(_BOX.match(ln.text) for ln in sec.items)
    if boxed and not _BOX.match(line):
        line = re.sub(r"^(\s*[-*+]\s+)", r"\1[x] " if done else r"\1[ ] ", line, count=1)
    return line


def _insert_at(mf: parse.MemFile, sec: parse.Section) -> int:
    """The 0-based line index a new item of SEC goes at: after its last item, else after
    its heading and the comment lines right below it."""
    if sec.items:
        return sec.items[-1].no
    at = sec.line
    for ln, ok in parse.content_lines(mf.raw)[sec.line:]:
        if ok or not ln.text.strip(" \t\r"):
            break
        at = ln.no
    return at


def _write(repo: parse.Repo, mf: parse.MemFile, edit: Callable[[list[bytes], bytes], list[bytes]]) -> None:
    """Apply EDIT to the board's lines and replace the file, unless it changed since it
    was read (then the caller's view is stale: read again and retry)."""
    path = mf.path
    for _ in range(3):
        data = path.read_bytes()
        lines = _lines(data)
        new = b"".join(edit(lines, _eol(lines)))
        addline.refuse_links(repo.root, path)
        if path.read_bytes() != data:
            continue
        write_atomic(path, new)
        return
    raise UserError(f"{mf.label} kept changing while it was being written: nothing was written",
                    hint="run it again")


def _check(repo: parse.Repo, key: str, text: str, mf: parse.MemFile,
           secs: list[parse.Section]) -> bool:
    """Refuse what lint would err on; True when the line is already in its section."""
    mine = [ln for s in secs if s.key == key for ln in s.items]
    against = []
    if key not in HISTORY:
        tat = repo.file("tattoo")
        live = [ln for s in secs if s.key not in HISTORY for ln in s.items]
        against = [(tat.label, parse.rules(tat)), (mf.label, live)]
    res = addline.check(text, mf, mine, against)
    if res.errors:
        raise UserError(f"not written: {res.errors[0]}",
                        hint="one line, without secrets" if "secret" in res.errors[0]
                        or "line" in res.errors[0] else "agenthooks board --help")
    if res.conflicts:
        label, no, message = res.conflicts[0]
        raise UserError(f"not written: it {message}", hint=f"change {label}:{no} first")
    return res.duplicate


def add(repo: parse.Repo, verb: str, text: str) -> Placed | None:
    """One line under the section VERB names; None when it was there already."""
    key = VERBS[verb]
    mf = load(repo, start=True)
    secs = parse.sections(mf)
    if _check(repo, key, text, mf, secs):
        return None
    sec = next((s for s in secs if s.key == key), None)
    line = _bullet(text, sec, done=key == "done")
    title = sec.title if sec is not None else parse.SECTION_TITLES[repo.lang][key]
    enc = line.encode("utf-8")

    def edit(lines: list[bytes], eol: bytes) -> list[bytes]:
        if sec is None:  # a section the board lacks: at the end, after one blank line
            while lines and not lines[-1].strip():
                lines.pop()
            if lines and not lines[-1].endswith(b"\n"):
                lines[-1] += eol
            return lines + [eol, f"## {title}".encode("utf-8") + eol, enc + eol]
        at = _insert_at(mf, sec)
        if at and at <= len(lines) and not lines[at - 1].endswith(b"\n"):
            lines[at - 1] += eol
        return lines[:at] + [enc + eol] + lines[at:]

    _write(repo, mf, edit)
    return Placed(line, title)


def finish(repo: parse.Repo, which: str) -> tuple[str, Placed] | None:
    """In progress item WHICH (its number on the listing, or its words) moves to Done.
    None when no In progress item matches."""
    mf = load(repo)
    secs = parse.sections(mf)
    prog = [ln for s in secs if s.key == "progress" for ln in s.items]
    item = _pick(prog, which)
    if item is None:
        return None
    done = next((s for s in secs if s.key == "done"), None)
    text = promote.text_of(item.text)
    line = _bullet(text, done, done=True)
    if _BOX.match(item.text) and (done is None or not done.items):
        line = re.sub(r"^(\s*[-*+]\s+)", r"\1[x] ", line, count=1)
    title = done.title if done is not None else parse.SECTION_TITLES[repo.lang]["done"]
    enc = line.encode("utf-8")

    def edit(lines: list[bytes], eol: bytes) -> list[bytes]:
        gone = item.no - 1
        rest = lines[:gone] + lines[gone + 1:]
        if done is None:  # no Done section: one at the end
            while rest and not rest[-1].strip():
                rest.pop()
            if rest and not rest[-1].endswith(b"\n"):
                rest[-1] += eol
            return rest + [eol, f"## {title}".encode("utf-8") + eol, enc + eol]
        at = _insert_at(mf, done)
        at = at - 1 if at > gone else at
        if at and at <= len(rest) and not rest[at - 1].endswith(b"\n"):
            rest[at - 1] += eol
        return rest[:at] + [enc + eol] + rest[at:]

    _write(repo, mf, edit)
    return text, Placed(line, title)


def _pick(items: list[parse.Line], which: str) -> parse.Line | None:
    w = which.strip()
    if w.isdigit():
        n = int(w)
        return items[n - 1] if 1 <= n <= len(items) else None
    key = promote.key(w)
    exact = [ln for ln in items if promote.key(ln.text) == key]
    if exact:
        return exact[0]
    part = [ln for ln in items if key and key in promote.key(ln.text)]
    return part[0] if len(part) == 1 else None


def listing(repo: parse.Repo) -> list[str]:
    path = board_file(repo)
    if not path.exists() and boards.is_branch_board(repo.agent, path):
        return [f"{_label(repo)}: not started yet (this branch's own board; "
                "agenthooks board doing TEXT starts it)"]
    mf = load(repo)
    out = [f"{mf.label}:"]
    for s in parse.sections(mf):
        out.append(f"  {s.title}" + ("" if s.items else "  (empty)"))
        for i, ln in enumerate(s.items, 1):
            num = f"{i}. " if s.key == "progress" else "- "
            out.append(f"    {num}{promote.text_of(ln.text)}")
    return out


def run(verb: str, text: str | None, dir_: Path | None, echo: Callable[[str], None]) -> int:
    repo = parse.find_repo(dir_)
    if verb == "list":
        for line in listing(repo):
            echo(line)
        return 0
    if text is None:
        raise UserError(f"board {verb}: give the line to write")
    if verb == "done":
        moved = finish(repo, text)
        if moved is not None:
            was, placed = moved
            echo(f"moved to {placed.title}: {placed.line}")
            parse.log(repo, "board", f"moved from In progress to {placed.title}: {was}")
            return 0
        if text.strip().isdigit():
            raise UserError(f"board done {text}: In progress has no item {text.strip()}",
                            hint="agenthooks board lists them, numbered")
    placed_or_none = add(repo, verb, text)
    label = _label(repo)
    if placed_or_none is None:
        echo(f"already on the board ({label}): nothing was written")
        return 0
    echo(f"added to {placed_or_none.title} in {label}: {placed_or_none.line}")
    parse.log(repo, "board", f"added to {placed_or_none.title}: {placed_or_none.line}")
    return 0
