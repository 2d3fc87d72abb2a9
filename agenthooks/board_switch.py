"""agenthooks board --switch MODEL: the repo's board model changed, and the board moved with it.

The current board (memory/boards.py's path for the model config.yaml names) goes to where the
new model keeps it, byte for byte: written whole at the new place (a target with items is
refused, unless --force appends the board after them), read back, and only then removed from
the old one. config.yaml's board: and .agent/.gitignore follow, through the installer (a
true verdict per file, the manifest's answers kept in step). Git is left to the user: the
command prints what records the move (a file git tracks that is now kept out of it, a new
file to add), since a commit is theirs to make."""
from __future__ import annotations

import shlex
from pathlib import Path
from typing import Callable

from agenthooks import config, gitstore, install
from agenthooks.errors import UserError
from agenthooks.files import make_dirs, write_atomic
from agenthooks.memory import addline, boards, parse
from agenthooks.upgrade.steps import WRITES


def _holds_items(path: Path) -> bool:
    mf = parse.load_file(path, "")
    return mf.exists and any(s.items for s in parse.sections(mf))


def _joined(old: bytes, moved: bytes) -> bytes:
    """--force: the moved board after what the target held, one blank line between."""
    if not old.strip():
        return moved
    return old.rstrip(b"\r\n") + b"\n\n" + moved


def _git_lines(root: Path, repo: parse.Repo, src: Path, dst: Path, new: str) -> list[str]:
    """The git commands that record the switch: a board git tracks now kept out of it (or
    moved), the new board when it is committed, and the two settings files."""
    def rel(p: Path) -> str:
        return p.relative_to(root).as_posix()

    out = []
    tracked_src = src != dst and gitstore.tracked(root, rel(src))
    if tracked_src:
        out.append(f"git rm --cached -q {shlex.quote(rel(src))}")
    boards_dir = repo.agent / boards.BOARDS_DIR
    if new == "local" and boards_dir.is_dir() and gitstore.tracked(root, rel(boards_dir)):
        out.append(f"git rm --cached -r -q {shlex.quote(rel(boards_dir))}  # every branch's "
                   "board leaves git; the files stay here")
    add = [rel(repo.agent / "config.yaml"), rel(repo.agent / ".gitignore"), rel(repo.agent / ".agenthooks.json")]
    if new != "local" and dst.is_file():
        add.append(rel(dst))
    out.append("git add " + " ".join(shlex.quote(a) for a in add))
    return out


def run(dir_: Path | None, new: str, force: bool, echo: Callable[[str], None]) -> int:
    if new not in config.BOARDS:
        raise UserError(f"board --switch {new}: not a board model", hint="local, branch or shared")
    repo = parse.find_repo(dir_)
    root, agent = repo.root, repo.agent
    worktree = repo.worktree or root
    old = boards.model(agent)
    src, dst = boards.path(agent, worktree, old), boards.path(agent, worktree, new)
    if old == new:
        echo(f"the board is {new} already: {repo.label(src)}")
        return 0
    moved: bytes | None = None
    if src != dst and src.is_file():
        addline.refuse_links(root, src)
        addline.refuse_links(root, dst)
        moved = src.read_bytes()
        if dst.is_file() and _holds_items(dst) and not force:
            raise UserError(f"{repo.label(dst)} holds items already: nothing was moved",
                            hint="--force appends the board after them")
        if dst.is_file() and force:
            moved = _joined(dst.read_bytes(), moved)
    lines: list[str] = []
    install.run(root, {"board": new, "switch_board": True}, yes=True, dry_run=False,
                prompter_factory=None, echo=lines.append, allow_dirty=True)
    for line in lines:  # what changed (the new board's template is written over just below)
        words = line.split()
        if words[:1] and words[0] in WRITES and not (moved is not None and words[1:2] == [repo.label(dst)]):
            echo(line)
    if moved is not None:
        make_dirs(dst.parent)
        write_atomic(dst, moved, 0o644)
        if dst.read_bytes() != moved:
            raise UserError(f"{repo.label(dst)} did not read back as written: {repo.label(src)} "
                            "is kept where it was")
        src.unlink()
        echo(f"moved {repo.label(src)} to {repo.label(dst)} ({len(moved)} bytes)")
    parse.log(repo, "board", f"board switched from {old} to {new}: {repo.label(dst)}")
    echo(f"the board is {new} now: {repo.label(dst)}")
    for line in _git_lines(root, repo, src, dst, new):
        echo(f"next: {line}")
    return 0
