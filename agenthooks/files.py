"""What every part of agenthooks may import: a planned file, the ownership marker, the
one atomic write, and the repo a command works on. Imports nothing of agenthooks but
errors, so nothing can import back up through it."""
from __future__ import annotations

import os
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Iterator

from agenthooks.errors import UserError

# Stable ownership id, matched anywhere in a file: never change it (pre-commit's lesson).
OWNER_ID = "agenthooks-owned:7d2f9c1e"
KNOWN_OWNER_IDS = (OWNER_ID,)


@dataclass(frozen=True)
class PlannedFile:
    path: str  # relative to the repo root, POSIX separators
    text: str
    mode: int  # 0o755 or 0o644
    kind: str  # owned | config | memory | log | registration
    template: str = ""


# Where git looks for a repo, when exported: unset for every git call of ours, so the CLI
# works on the repo it was given, never on the one a parent process (a hook, a script) named.
GIT_LOCATION_VARS = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR",
                     "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES",
                     "GIT_NAMESPACE", "GIT_PREFIX", "GIT_IMPLICIT_WORK_TREE",
                     "GIT_SHALLOW_FILE", "GIT_GRAFT_FILE")


# A work tree whose git dir lives elsewhere (a git dir whose core.worktree names it, or
# GIT_DIR with GIT_WORK_TREE exported for it): its top level -> that git dir, named in every
# git call of ours on it (target_dir finds them).
_SEPARATE: dict[str, str] = {}


def git_env(extra: dict[str, str] | None = None, root: Path | None = None) -> dict[str, str]:
    """The environment for a git subprocess: ours, less git's location variables; for a
    work tree whose git dir lives elsewhere (ROOT), that git dir and work tree."""
    env = {k: v for k, v in os.environ.items() if k not in GIT_LOCATION_VARS}
    gitdir = _SEPARATE.get(str(root)) if root is not None else None
    if gitdir is not None:
        env.update(GIT_DIR=gitdir, GIT_WORK_TREE=str(root))
    env.update(extra or {})
    return env


def _rev_parse(root: Path, *args: str, env: dict[str, str] | None = None) -> list[str] | None:
    """`git rev-parse ARGS` in root: one answer per argument (a path may hold a newline: the
    answers are split at the newline that ends each, the last one first), or None."""
    try:
        proc = subprocess.run(["git", "-C", str(root), "rev-parse", *args], capture_output=True,
                              text=True, check=False, env=env or git_env())
    except OSError:
        return None
    if proc.returncode != 0 or not proc.stdout.endswith("\n"):
        return None
    out = proc.stdout[:-1]
    if len(args) == 1:
        return [out]
    return out.split("\n") if len(out.split("\n")) == len(args) else None


def _exported_work_tree(root: Path) -> tuple[Path, str] | None:
    """GIT_DIR exported with a work tree named for it (GIT_WORK_TREE, or its core.worktree)
    that is ROOT or holds it: (that top level, the git dir). A work tree git would only
    guess (the current directory) does not count."""
    gitdir = os.environ.get("GIT_DIR")
    if not gitdir:
        return None
    env = git_env({"GIT_DIR": os.path.abspath(gitdir)})
    if os.environ.get("GIT_WORK_TREE"):
        env["GIT_WORK_TREE"] = os.path.abspath(os.environ["GIT_WORK_TREE"])
    else:
        try:
            named = subprocess.run(["git", "config", "core.worktree"], capture_output=True,
                                   text=True, check=False, env=env).stdout.strip()
        except OSError:
            return None
        if not named:
            return None
    found = _rev_parse(root, "--show-toplevel", env=env)
    where = _rev_parse(root, "--absolute-git-dir", env=env)
    if not found or not where:
        return None
    top = Path(found[0])
    return (top, where[0]) if root == top or top in root.parents else None


def _bare(root: Path) -> UserError | None:
    """The refusal for a bare repository or a git folder, which have no work tree."""
    where = _rev_parse(root, "--is-bare-repository", "--is-inside-git-dir")
    if where is None or "true" not in where:
        return None
    what = "a bare git repository" if where[0] == "true" else "inside a git folder"
    return UserError(f"{root} is {what}, with no work tree to work in: nothing was written",
                     hint="run agenthooks in a clone with a work tree (git clone, or git worktree add)")


def is_ours(data: bytes) -> bool:
    """data carries one of our ownership ids."""
    return any(owner.encode() in data for owner in KNOWN_OWNER_IDS)


def owned_files(root: Path, *rels: str) -> list[tuple[str, str | None]]:
    """Uninstall's entries for files wholly ours: each REL that carries our ownership id, to be
    deleted (None); one without it is the user's and stays."""
    return [(rel, None) for rel in rels
            if (root / rel).is_file() and OWNER_ID.encode() in (root / rel).read_bytes()]


# The longest line a reader of logs and transcripts holds: a longer one (a log with no
# newline, a sparse or NUL-filled file) is skipped in pieces, never held whole.
MAX_LINE = 8 << 20


def bounded_lines(fh: BinaryIO, limit: int = MAX_LINE) -> Iterator[bytes | None]:
    """Each line of a binary file, with its newline, read in bounded pieces: None for a
    line over LIMIT bytes, which is skipped 1 MB at a time, so memory stays under LIMIT
    whatever the file holds."""
    while True:
        line = fh.readline(limit + 1)
        if not line:
            return
        if len(line) > limit and not line.endswith(b"\n"):
            while line and not line.endswith(b"\n"):
                line = fh.readline(1 << 20)
            yield None
            continue
        yield line


def read_tail(path: Path, cap: int = 65536) -> bytes:
    """The last CAP bytes of a file (from its first whole line), for files whose latest
    lines are what counts (the hooks' state files): never the whole of a huge one."""
    with open(path, "rb") as fh:
        size = os.fstat(fh.fileno()).st_size
        if size <= cap:
            return fh.read(cap)
        fh.seek(size - cap)
        data = fh.read(cap)
    cut = data.find(b"\n")
    return data[cut + 1:] if cut >= 0 else b""


def make_dirs(path: Path) -> None:
    """mkdir -p with mode 0o755 at every level it creates, so a permissive umask (000)
    never leaves a world-writable folder; a stricter one (077) still applies."""
    missing = []
    p = path
    while not p.exists() and p != p.parent:
        missing.append(p)
        p = p.parent
    for d in reversed(missing):
        try:
            os.mkdir(d, 0o755)
        except FileExistsError:
            if not d.is_dir():
                raise


def write_atomic(path: Path, data: bytes, mode: int | None = None) -> None:
    """Write data to path by temp file + rename, so a reader sees the old or the new file,
    never half of one. mode None keeps the mode of the file being replaced (0o644 when
    there is none)."""
    if mode is None:
        try:
            mode = path.stat().st_mode & 0o777
        except OSError:
            mode = 0o644
    make_dirs(path.parent)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def target_dir(given: Path | None) -> Path:
    """The git top level of DIR (else of the current directory), else that directory
    itself: a subfolder names its repo, as running inside it does, so no command ever
    makes or reads a second, nested .agent/."""
    if given is not None:
        root = given.expanduser()
        if not root.exists():
            raise UserError(f"{root}: no such directory")
        if not root.is_dir():
            raise UserError(f"{root}: not a directory")
        root = root.resolve()
    else:
        root = Path.cwd()
    found = _rev_parse(root, "--show-toplevel")
    if found and found[0]:
        top = Path(found[0])
        # Found from inside a git dir whose core.worktree names a work tree without a .git of
        # its own: git calls on that work tree must name the git dir.
        if not os.path.lexists(top / ".git"):
            gitdir = _rev_parse(root, "--absolute-git-dir")
            if gitdir:
                _SEPARATE[str(top)] = gitdir[0]
        return top
    exported = _exported_work_tree(root)
    if exported is not None:
        _SEPARATE[str(exported[0])] = exported[1]
        return exported[0]
    bare = _bare(root)
    if bare is not None:
        raise bare
    return root
