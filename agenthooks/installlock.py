"""One install, upgrade or uninstall at a time in a repo.

Two runs at once would each take the other's fresh renders for edits of the user's and
register frameworks against hooks rendered for another set. The lock is an flock on the
repo's folder itself: nothing is written for it (an interactive install writes nothing
before its last answer), and the kernel lets it go when the process ends, however it
ends. A second run waits a little (WAIT seconds, AGENTHOOKS_LOCK_WAIT to change it), then
refuses with one line. Where the platform has no flock (Python on Windows) or the file
system refuses one, the run goes on unlocked, as before."""
from __future__ import annotations

import errno
import os
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from agenthooks.errors import UserError

WAIT = 15.0  # seconds


def _wait() -> float:
    try:
        return max(0.0, float(os.environ.get("AGENTHOOKS_LOCK_WAIT", WAIT)))
    except ValueError:
        return WAIT


@contextmanager
def held(root: Path, what: str = "install") -> Iterator[None]:
    """Hold the repo's lock for WHAT (install, uninstall) while the block runs."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows' Python
        yield
        return
    try:
        fd = os.open(root, os.O_RDONLY)
    except OSError:
        yield  # a folder we cannot open is refused later, with its own message
        return
    try:
        deadline = time.monotonic() + _wait()
        said = False
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError as exc:
                if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    break  # no lock to be had here (ENOLCK, ...): go on unlocked
            if time.monotonic() >= deadline:
                raise UserError(f"another agenthooks install, upgrade or uninstall is still "
                                f"running in {root}: {what} refused, nothing was written",
                                hint="run it again once that one has finished")
            if not said:
                sys.stderr.write(f"agenthooks: another install, upgrade or uninstall is "
                                 f"running in {root}: waiting for it ({_wait():g} s at most)\n")
                said = True
            time.sleep(0.1)
        if said:
            sys.stderr.write("agenthooks: waited for the other run to finish; going on\n")
        yield
    finally:
        os.close(fd)
