"""Target platforms and the runtime profile a set of them needs.

The hooks are committed and shared, so the profile is for the *set* of targets: the
union of code paths, with the choice made at run time where targets differ."""
from __future__ import annotations

import platform
import shutil
from dataclasses import dataclass

PLATFORMS = ("linux", "macos", "busybox")

DESCRIPTIONS = {
    "linux": "Linux with GNU coreutils and util-linux (bash 4+, flock, stat -c)",
    "macos": "macOS (/bin/bash 3.2, BSD stat -f, BSD date, no flock)",
    "busybox": "BusyBox userlands such as Alpine (no flock -w)",
}


@dataclass(frozen=True)
class Profile:
    stat: str  # 'gnu', 'bsd' or 'both' (try GNU, then BSD)
    lock: str  # 'flock', 'portable' or 'both' (flock when present)
    bash4: bool  # bash >= 4.2 builtins allowed (printf '%(...)T')

    def as_dict(self) -> dict[str, object]:
        return {"stat": self.stat, "lock": self.lock, "bash4": self.bash4}


def profile(targets: list[str]) -> Profile:
    has_bsd = "macos" in targets
    has_gnu = bool({"linux", "busybox"} & set(targets))
    stat = "both" if has_bsd and has_gnu else ("bsd" if has_bsd else "gnu")
    no_flock = "macos" in targets or "busybox" in targets
    if not no_flock:
        lock = "flock"
    elif "linux" in targets:
        lock = "both"
    else:
        lock = "portable"
    return Profile(stat=stat, lock=lock, bash4="macos" not in targets)


def this_machine() -> str:
    if platform.system() == "Darwin":
        return "macos"
    if shutil.which("busybox") and not shutil.which("flock"):
        return "busybox"
    return "linux"
