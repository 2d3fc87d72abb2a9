"""Where agenthooks may write, and read what it merges: inside the repo, through real folders.

A repository is untrusted input. A clone may commit `.claude -> ~/.claude`, `.agent/memory/
tattoo.md -> ~/.bashrc`, a FIFO where a file belongs, or a manifest naming `../../victim`.
Every command that writes (install, upgrade, uninstall, the memory tools) asks here first,
for every path it will touch, before its first write. A path passes when it is a normalised
relative path, every component below the repo root is a real folder (or absent: we make
it), and the last one is a regular file (a real folder, for a folder) or absent. Otherwise
one line names the offender, and nothing is written.

Imports nothing of agenthooks but errors, so every layer may use it."""
from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path, PurePosixPath
from typing import Iterable

from agenthooks.errors import UserError

# What the product and its hooks read or write under .agent/, whatever the command: a link
# (or a file where a folder belongs) at any of these is refused before anything is done.
AGENT_DIRS = (".agent", ".agent/hooks", ".agent/hooks/lib", ".agent/memory",
              ".agent/memory/archive", ".agent/log", ".agent/log/state")
MEMORY_FILES = (".agent/memory/tattoo.md", ".agent/memory/snapshot.md", ".agent/memory/notes.md")
LOG_FILES = (".agent/log/memory.log", ".agent/log/memory.log.1", ".agent/log/trace.log")
AGENT_FILES = (".agent/.agenthooks.json", ".agent/config.yaml", ".agent/injected_context.txt",
               *MEMORY_FILES, *LOG_FILES)

FIX = "replace it with a real folder or file (or remove it), then run the command again"


class Refused(UserError):
    """A path we would write (or read to merge) is a link, not a folder, or not a file."""


def normalised(rel: str) -> bool:
    """rel is a relative POSIX path inside the repo, written one way only: no absolute
    path, no empty, `.` or `..` component, no backslash or NUL."""
    if not isinstance(rel, str) or not rel or "\\" in rel or "\0" in rel:
        return False
    if rel.startswith("/") or (len(rel) > 1 and rel[1] == ":"):
        return False
    parts = rel.split("/")
    return all(p not in ("", ".", "..") for p in parts) and PurePosixPath(rel).as_posix() == rel


def problem(root: Path, rel: str, final: str = "file") -> str | None:
    """Why root/rel may not be written: None when it may. FINAL says what its last component
    may be besides absent: "file" (a regular file), "dir" (a real folder) or "any" (anything
    but a link: the caller leaves what is not a file alone)."""
    if not normalised(rel):
        return f"{rel!r} is not a path inside the repository"
    parts = rel.split("/")
    at = root
    for i, part in enumerate(parts):
        at = at / part
        shown = "/".join(parts[:i + 1])
        try:
            st = os.lstat(at)
        except FileNotFoundError:
            return None  # the rest is ours to make
        except NotADirectoryError:
            return f"{'/'.join(parts[:i])} is not a folder"
        except OSError as exc:
            return f"{shown}: {exc.strerror or exc}"
        last = i == len(parts) - 1
        if stat.S_ISLNK(st.st_mode):
            try:
                target = os.readlink(at)
            except OSError:
                target = "?"
            return f"{shown} is a link (to {target}): agenthooks reads and writes no path " \
                   "through a link in the repository"
        if not last and not stat.S_ISDIR(st.st_mode):
            return f"{shown} is not a folder"
        if last and final == "file" and not stat.S_ISREG(st.st_mode):
            return f"{shown} is not a regular file"
        if last and final == "dir" and not stat.S_ISDIR(st.st_mode):
            return f"{shown} is not a folder"
    return None


def check(root: Path, rels: Iterable[str], final: str = "file", then: str = "nothing was written") -> None:
    """Refuse (one line naming the first offender) unless every rel passes problem()."""
    for rel in rels:
        why = problem(root, rel, final)
        if why is not None:
            raise Refused(f"{why}: {then}", hint=FIX)


def check_agent(root: Path, then: str = "nothing was written") -> None:
    """The folders and files under .agent/ that any command or hook touches."""
    check(root, AGENT_DIRS, "dir", then)
    check(root, AGENT_FILES, "any", then)


def relative(root: Path, path: Path) -> str:
    """path as a repo-relative POSIX path (as given, never resolved: a link must show)."""
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


def check_paths(root: Path, files: Iterable[Path] = (), dirs: Iterable[Path] = (),
                seen: Iterable[Path] = (), then: str = "nothing was written") -> None:
    """FILES are written, moved or removed (regular or absent), DIRS removed whole (real
    folders), SEEN only looked at or left alone (no link on the way, nor at the end)."""
    check(root, (relative(root, p) for p in files), "file", then)
    check(root, (relative(root, p) for p in dirs), "dir", then)
    check(root, (relative(root, p) for p in seen), "any", then)


def writable(folders: Iterable[Path], then: str = "nothing was written") -> None:
    """Probe each folder (or, for one still to be made, the nearest that exists) with a real
    temp file: permission bits lie for root and on read-only mounts. One line, the first
    that refuses."""
    probed: set[Path] = set()
    for folder in sorted(set(folders)):
        while not folder.exists() and folder != folder.parent:
            folder = folder.parent
        if folder in probed or not folder.is_dir():
            continue
        probed.add(folder)
        try:
            fd, name = tempfile.mkstemp(dir=folder, prefix=".agenthooks-probe-")
        except OSError as exc:
            raise Refused(f"{folder}: not writable ({exc.strerror or exc}): {then}") from None
        os.close(fd)
        os.unlink(name)


def open_regular(path: Path, flags: int, label: str) -> int:
    """os.open(path, flags) (created 0644 with O_CREAT) that follows no link and never blocks
    on a FIFO, refused (one line naming LABEL) unless it is a regular file. The callers check
    the folders on the way first (check)."""
    flags |= getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        pass
    else:
        if not stat.S_ISREG(st.st_mode):
            raise Refused(f"{label} is {'a link' if stat.S_ISLNK(st.st_mode) else 'not a regular file'}"
                          ": nothing was written", hint=FIX)
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENXIO, errno.EISDIR):
            raise Refused(f"{label} is not a regular file: nothing was written", hint=FIX) from None
        raise
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise Refused(f"{label} is not a regular file: nothing was written", hint=FIX)
    return fd
