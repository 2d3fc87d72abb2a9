"""Target platforms and the runtime profile a set of them needs.

The hooks are committed and shared, so the profile is for the *set* of targets: the
union of code paths, with the choice made at run time where targets differ."""
from __future__ import annotations

import os
import platform
import shutil
import sys
from dataclasses import dataclass

PLATFORMS = ("linux", "macos", "busybox", "windows")

DESCRIPTIONS = {
    "linux": "Linux with GNU coreutils and util-linux (bash 4+, flock, stat -c)",
    "macos": "macOS (/bin/bash 3.2, BSD stat -f, BSD date, no flock)",
    "busybox": "BusyBox userlands such as Alpine (no flock -w)",
    "windows": "Windows with Git for Windows (Git Bash: bash 5.x, GNU stat and date, gawk, no flock)",
}
# What `uname -s` (and so platform.system()) starts with under Git for Windows (MINGW64_NT-10.0-19045),
# MSYS2 (MSYS_NT-...) and Cygwin (CYGWIN_NT-...).
WINDOWS_UNAMES = ("MINGW", "MSYS", "CYGWIN")


@dataclass(frozen=True)
class Profile:
    stat: str  # 'gnu', 'bsd' or 'both' (try GNU, then BSD)
    lock: str  # 'flock', 'portable' or 'both' (flock when present)
    bash4: bool  # bash >= 4.2 builtins allowed (printf '%(...)T')
    # Git Bash among the targets: the hooks may meet Windows paths (C:\a\b, C:/a/b, UNC
    # \\server\share) in payloads and the environment, CRLF in the files they read, and a
    # process start several times dearer than on Linux.
    windows: bool = False

    def as_dict(self) -> dict[str, object]:
        return {"stat": self.stat, "lock": self.lock, "bash4": self.bash4, "windows": self.windows}


def profile(targets: list[str]) -> Profile:
    has_bsd = "macos" in targets
    # Git Bash ships MSYS coreutils: GNU stat and date.
    has_gnu = bool({"linux", "busybox", "windows"} & set(targets))
    stat = "both" if has_bsd and has_gnu else ("bsd" if has_bsd else "gnu")
    # Git for Windows has no flock: the portable lock there, flock where linux has it.
    no_flock = bool({"macos", "busybox", "windows"} & set(targets))
    if not no_flock:
        lock = "flock"
    elif "linux" in targets:
        lock = "both"
    else:
        lock = "portable"
    return Profile(stat=stat, lock=lock, bash4="macos" not in targets, windows="windows" in targets)


def this_machine() -> str:
    # Native Python on Windows (the hooks run there in Git Bash), or an MSYS2/Cygwin Python
    # inside it: no process is started to ask.
    if os.name == "nt" or sys.platform in ("win32", "cygwin", "msys") \
            or platform.system().upper().startswith(WINDOWS_UNAMES):
        return "windows"
    if platform.system() == "Darwin":
        return "macos"
    if shutil.which("busybox") and not shutil.which("flock"):
        return "busybox"
    return "linux"
