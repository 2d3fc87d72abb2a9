"""PATHs that stand in for the userlands the committed hooks meet: GNU (Debian), BusyBox
(its applets first, no flock) and macOS-like (BSD-style stat/date/sed shims written here,
original-awk as awk, no flock; the shims run as bash -p, like the binaries they stand for,
which read no BASH_ENV). bash itself stays the machine's bash; the macOS-like one
uses $AGENTHOOKS_BASH32 instead when that names a bash 3.2 binary (macOS's /bin/bash)."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from support.helpers import require

# What the hooks may call, besides bash builtins.
TOOLS = ("awk", "mv", "rm", "find", "tail", "head", "tr", "touch", "mkdir", "stat", "date", "sleep", "cat", "flock")

STAT_SHIM = r"""#!/bin/bash -p
# BSD stat: -f FORMAT (%m mtime, %z size); GNU -c is an illegal option, as on macOS.
fmt=
while getopts 'f:LnqrsxF' o; do
  case $o in
    f) fmt=$OPTARG ;;
    \?) echo "usage: stat [-FLnq] [-f format | -l | -r | -s | -x] [-t timefmt] [file ...]" >&2; exit 1 ;;
  esac
done
shift $((OPTIND - 1))
[ "${1-}" = -- ] && shift
[ -n "$fmt" ] || fmt='%d %i %Sp %l %Su %Sg %r %z'
rc=0
for f in "$@"; do
  m=$(/usr/bin/stat -c %Y -- "$f" 2>/dev/null) || { echo "stat: $f: stat: No such file or directory" >&2; rc=1; continue; }
  z=$(/usr/bin/stat -c %s -- "$f")
  out=${fmt//%m/$m}
  echo "${out//%z/$z}"
done
exit $rc
"""

DATE_SHIM = r"""#!/bin/bash -p
# BSD date: -u, -r SECONDS, -j; GNU -d is an illegal option and %N is not expanded.
args=() utc=
while [ $# -gt 0 ]; do
  case $1 in
    -u) utc=1 ;;
    -r) args+=(-d "@$2"); shift ;;
    -j) ;;
    -d|--date*|-I*|--iso*|-R|--rfc*) echo "date: illegal option -- ${1#-}" >&2
       echo "usage: date [-jnRu] [-r seconds|file] [-v[+|-]val[ymwdHMS]] [+output_fmt]" >&2; exit 1 ;;
    +*) f=${1//%N/N}; args+=("$f") ;;
    *) echo "date: illegal time format" >&2; exit 1 ;;
  esac
  shift
done
[ -n "$utc" ] && export TZ=UTC0
exec /usr/bin/date "${args[@]}"
"""

SED_SHIM = r"""#!/bin/bash -p
# BSD sed: -i takes the next word as the backup suffix, so 'sed -i s/a/b/ f' fails.
if [ "${1-}" = -i ]; then
  suffix=$2; shift 2
  [ $# -ge 2 ] || { echo "sed: -i may not be used with stdin" >&2; exit 1; }
  case $suffix in s/*|*/*) echo "sed: 1: \"$1\": invalid command code" >&2; exit 1 ;; esac
  exec /usr/bin/sed -i"$suffix" "$@"
fi
exec /usr/bin/sed "$@"
"""


def _link_bash(bindir: Path, bash: str | None = None) -> None:
    (bindir / "bash").symlink_to(bash or shutil.which("bash") or "/bin/bash")


def gnu_path(base: Path) -> str:
    """The machine's own GNU userland, reduced to what the hooks may use."""
    bindir = base / "gnu-bin"
    bindir.mkdir(exist_ok=True)
    if not (bindir / "bash").exists():
        _link_bash(bindir)
        for tool in TOOLS:
            where = shutil.which(tool)
            if where:
                (bindir / tool).symlink_to(where)
    return str(bindir)


def busybox_path(base: Path) -> str:
    busybox = require("busybox", "apt-get install busybox")
    bindir = base / "busybox-bin"
    bindir.mkdir(exist_ok=True)
    if not (bindir / "bash").exists():
        _link_bash(bindir)
        applets = subprocess.run([busybox, "--list"], capture_output=True, text=True,
                                 check=True).stdout.split()
        for applet in applets:
            if applet != "bash" and not (bindir / applet).exists():
                (bindir / applet).symlink_to(busybox)
    return str(bindir)


def macos_path(base: Path) -> str:
    bwk = require("original-awk", "apt-get install original-awk")
    bindir = base / "macos-bin"
    bindir.mkdir(exist_ok=True)
    if not (bindir / "bash").exists():
        _link_bash(bindir, os.environ.get("AGENTHOOKS_BASH32") or None)
        (bindir / "awk").symlink_to(bwk)
        for name, text in (("stat", STAT_SHIM), ("date", DATE_SHIM), ("sed", SED_SHIM)):
            (bindir / name).write_text(text)
            (bindir / name).chmod(0o755)
        for tool in ("mv", "rm", "find", "tail", "head", "tr", "mkdir", "sleep", "cat", "touch", "ln"):
            (bindir / tool).symlink_to(shutil.which(tool) or f"/bin/{tool}")
    return str(bindir)


USERLANDS = {"gnu": ("linux", gnu_path), "busybox": ("busybox", busybox_path),
             "macos": ("macos", macos_path)}


def env_for(userland: str, base: Path) -> dict[str, str]:
    _, make = USERLANDS[userland]
    return {"PATH": make(base), "HOME": os.environ.get("HOME", str(base))}
