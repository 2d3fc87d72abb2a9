"""The real CLI on a pseudo-terminal, read back as a person sees it: pexpect drives it,
pyte (a VT100 emulator) keeps the screen, so a test can say where a line is on it."""
from __future__ import annotations

import os
import re
import shutil
import sys
import time
from pathlib import Path

import pexpect
import pyte

TIMEOUT = int(os.environ.get("PEXPECT_TIMEOUT", "60"))
ENTER = "\r"
CPR = "\x1b[6n"  # prompt_toolkit asks where the cursor is; a terminal answers


class Term:
    def __init__(self, repo: Path, home: Path, *args: str, rows: int = 40, cols: int = 120,
                 command: str = "install") -> None:
        bin_ = home / "bin"
        bin_.mkdir(exist_ok=True)
        if not (bin_ / "git").exists():
            (bin_ / "git").symlink_to(str(shutil.which("git")))
        env = {**os.environ, "HOME": str(home), "PATH": str(bin_), "TERM": "xterm",
               "COLUMNS": str(cols), "LINES": str(rows)}
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.Stream(self.screen)
        self.seen = ""  # everything printed, escapes and all
        self.child = pexpect.spawn(sys.executable, ["-m", "agenthooks", command, *args],
                                   cwd=str(repo), env=env, dimensions=(rows, cols),
                                   timeout=TIMEOUT, encoding="utf-8")

    def _read(self, wait: float) -> bool:
        try:
            chunk = self.child.read_nonblocking(65536, timeout=wait)
        except pexpect.TIMEOUT:
            return True
        except pexpect.EOF:
            return False
        if CPR in chunk:
            self.child.send(f"\x1b[{self.screen.cursor.y + 1};{self.screen.cursor.x + 1}R")
        self.stream.feed(chunk.replace(CPR, ""))
        self.seen += chunk
        return True

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def expect(self, pattern: str, timeout: float = TIMEOUT) -> None:
        """Wait until PATTERN is on the screen (or in what was printed since the start)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if re.search(pattern, self.text()) or re.search(pattern, self.seen):
                return
            if not self._read(0.2):
                break
        if re.search(pattern, self.text()) or re.search(pattern, self.seen):
            return
        raise AssertionError(f"{pattern!r} never showed; the screen:\n{self.text()}")

    def settle(self, quiet: float = 1.0) -> None:
        """Read until nothing more comes for QUIET seconds."""
        end = time.monotonic() + TIMEOUT
        before = None
        while time.monotonic() < end:
            self._read(quiet)
            if self.seen == before:
                return
            before = self.seen

    def row(self, pattern: str) -> int:
        """The last screen row matching PATTERN."""
        rows = [i for i, line in enumerate(self.screen.display) if re.search(pattern, line)]
        assert rows, f"{pattern!r} is not on the screen:\n{self.text()}"
        return rows[-1]

    def send(self, keys: str) -> None:
        self.child.send(keys)

    def finish(self) -> tuple[str, int]:
        while self._read(1.0):
            pass
        self.child.close()
        return self.seen, int(self.child.exitstatus if self.child.exitstatus is not None else -1)
