"""Which file is the progress board: the one resolver on the Python side, read as the hooks'
ah_board (templates/hooks/lib/prelude.sh.j2) and ah_board_name (lib/where.sh.j2) read it, with
no git command.

config.yaml's `board:` names the model (config.BOARDS; a file without the key: shared):
  shared  .agent/memory/snapshot.md, one board, committed
  branch  .agent/memory/boards/BRANCH.md, committed: each branch's own file, so merges bring
          other branches' boards beside the receiving one and never conflict on it
  local   the same files, kept out of git (.agent/.gitignore): one board per branch and per
          worktree, never in a pull request, none in a clone
BRANCH is the work tree's HEAD (`ref: refs/heads/NAME`); during a rebase the branch being
rebased; on a detached HEAD the board the checkout last used (.agent/log/state/board.last),
else HEAD. A byte outside [A-Za-z0-9._/-] is written %XX, and a dot that starts a folder's
name %2E: `feature/x` is boards/feature/x.md, and no two branches share a file. Outside git,
shared's file stands for every model."""
from __future__ import annotations

import re
from pathlib import Path

from agenthooks import config

SHARED = "memory/snapshot.md"
BOARDS_DIR = "memory/boards"
ARCHIVE_DIR = "memory/archive/boards"
_KEPT = re.compile(r"^[A-Za-z0-9._/%-]+$")


def model(agent: Path) -> str:
    """The board model .agent/config.yaml names (shared when it predates the key)."""
    return str(config.read(agent / "config.yaml")["board"])


def encode(branch: str) -> str:
    """A branch's board name: bytes outside [A-Za-z0-9._/-] as %XX, a dot that starts the
    name or a folder's name as %2E (lib/where.sh's ah_board_name does the same)."""
    out = ""
    for byte in branch.encode("utf-8", errors="surrogateescape"):
        ch = chr(byte)
        if re.match(r"[A-Za-z0-9_/-]", ch):
            out += ch
        elif ch == "." and out and not out.endswith("/"):
            out += ch
        else:
            out += f"%{byte:02X}"
    return out


def _read_line(path: Path) -> str | None:
    try:
        with open(path, "rb") as fh:
            line = fh.readline(4096)
    except OSError:
        return None
    return line.decode("utf-8", errors="surrogateescape").rstrip("\n").rstrip("\r")


def git_dir(worktree: Path) -> Path | None:
    """The git folder of the work tree whose top holds .git: the folder itself, or the one a
    linked worktree's .git file names."""
    dot = worktree / ".git"
    if dot.is_dir():
        return dot
    line = _read_line(dot) if dot.is_file() else None
    if line is None or not line.startswith("gitdir: "):
        return None
    gd = Path(line[len("gitdir: "):])
    return gd if gd.is_absolute() else worktree / gd


def worktree_of(path: Path) -> Path | None:
    """The top of the work tree holding PATH (the nearest folder up with .git), or None."""
    for d in (path, *path.parents):
        if (d / ".git").exists():
            return d
    return None


def branch_name(worktree: Path, agent: Path) -> str | None:
    """The board name for the work tree's HEAD (encoded), or None outside git."""
    top = worktree_of(worktree)
    gd = git_dir(top) if top is not None else None
    if gd is None:
        return None
    head = _read_line(gd / "HEAD") or ""
    if head.startswith("ref: refs/heads/") and len(head) > len("ref: refs/heads/"):
        return encode(head[len("ref: refs/heads/"):])
    for name in ("rebase-merge/head-name", "rebase-apply/head-name"):
        line = _read_line(gd / name)
        if line and line.startswith("refs/heads/"):
            return encode(line[len("refs/heads/"):])
    last = _read_line(agent / "log" / "state" / "board.last") or ""
    if _KEPT.match(last) and not last.startswith(".") and "/." not in last:
        return last
    return "HEAD"


def relpath(agent: Path, worktree: Path, board_model: str | None = None) -> str:
    """The board's path under .agent/ for this model (config.yaml's when None) and the work
    tree's branch: memory/snapshot.md or memory/boards/BRANCH.md."""
    board_model = board_model or model(agent)
    if board_model == "shared":
        return SHARED
    name = branch_name(worktree, agent)
    return SHARED if name is None else f"{BOARDS_DIR}/{name}.md"


def path(agent: Path, worktree: Path, board_model: str | None = None) -> Path:
    """The progress board: .agent/ + relpath()."""
    return agent / relpath(agent, worktree, board_model)


def archive_dir(agent: Path, worktree: Path, board_model: str | None = None) -> Path:
    """Where the board's archives go: memory/archive/ (shared), memory/archive/boards/BRANCH/."""
    rel = relpath(agent, worktree, board_model)
    if rel == SHARED:
        return agent / "memory" / "archive"
    return agent / ARCHIVE_DIR / rel[len(BOARDS_DIR) + 1:-len(".md")]


def is_branch_board(agent: Path, board: Path) -> bool:
    """A branch's board (local, branch), whose absence is normal: a branch not started."""
    try:
        board.relative_to(agent / BOARDS_DIR)
    except ValueError:
        return False
    return True
