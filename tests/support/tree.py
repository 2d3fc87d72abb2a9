"""tree(): a snapshot of a folder, for "nothing else was written" and "this is what changed"
checks. One helper for the whole suite; its options say what a snapshot leaves out."""
from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import NamedTuple, Union


class Entry(NamedTuple):
    """One entry of a tree: its kind (file, link, dir, other), its permission bits (files),
    its content (a file's bytes, a link's target) and, when asked for, its mtime (files)."""
    kind: str
    mode: int = 0
    data: Union[bytes, str, None] = None
    mtime_ns: Union[int, None] = None


def tree(root: Path, skip: tuple[Union[Path, str], ...] = (".git",), *, dirs: bool = True,
         mtime: bool = False) -> dict[str, Entry]:
    """Every entry under ROOT by its POSIX path relative to ROOT, never following a link and
    never opening anything but a regular file (a FIFO is recorded, not read).

    skip: folders or files left out, with all they hold: absolute paths, or paths relative
    to ROOT. By default ROOT's own .git (git rewrites its index on a mere `git status`);
    a folder's repos further down are kept.
    dirs: record folders too (False: files, links and others only, e.g. to compare with a
    list of the files an install writes).
    mtime: record each file's mtime as well (a read-only command must not touch a file)."""
    root = Path(root)
    skips = {os.path.normpath(s if os.path.isabs(s) else os.path.join(root, s)) for s in map(str, skip)}
    out: dict[str, Entry] = {}
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if os.path.join(dirpath, d) not in skips)
        for name in sorted(dirnames + filenames):
            p = os.path.join(dirpath, name)
            if p in skips:
                continue
            st = os.lstat(p)
            rel = Path(os.path.relpath(p, root)).as_posix()
            if stat.S_ISLNK(st.st_mode):
                out[rel] = Entry("link", data=os.readlink(p))
            elif stat.S_ISREG(st.st_mode):
                out[rel] = Entry("file", st.st_mode & 0o7777, Path(p).read_bytes(),
                                 st.st_mtime_ns if mtime else None)
            elif stat.S_ISDIR(st.st_mode):
                if dirs:
                    out[rel] = Entry("dir")
            else:
                out[rel] = Entry("other", stat.S_IFMT(st.st_mode))
    return dict(sorted(out.items()))
