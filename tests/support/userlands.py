r"""PATHs that stand in for the userlands the committed hooks meet: GNU (Debian), BusyBox
(its applets first, no flock) and macOS-like (BSD-style stat/date/sed shims written here,
original-awk as awk, no flock; the shims run as bash -p, like the binaries they stand for,
which read no BASH_ENV). bash itself stays the machine's bash; the macOS-like one
uses $AGENTHOOKS_BASH32 instead when that names a bash 3.2 binary (macOS's /bin/bash).

Git Bash (windows): GNU tools, no flock, gawk when the machine has it (else mawk stands in for
it: Git for Windows ships gawk), a `uname` that prints MINGW64_NT-10.0-19045, and a `bash`
that starts the hooks the way the Windows registrations do. Its drive is simulated: C: is a
folder named `C:` in the test's folder (windows_clone puts the repo at C:/Users/me/repo, cloned
with core.autocrlf=true), and this bash starts a hook on that drive in the folder that holds it,
so that C:/a/b opens from every run as on Windows (the working directory a test chose is not
kept: the hooks never read it); a hook elsewhere runs where it was started, with POSIX paths. It hands bash the hook as C:/Users/me/repo/.agent/hooks/HOOK.sh, sets
CLAUDE_PROJECT_DIR to C:\Users\me\repo, and rewrites each path under C: in the payload to
C:\Users\me\... (backslashes, as the hosts send them). What this cannot show: MSYS's own path
handling, a real NTFS, cmd.exe and PowerShell starting bash.exe, and Windows' process costs."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from support.helpers import git, install, make_repo, require, write_memory

# What the hooks may call, besides bash builtins.
TOOLS = ("awk", "mv", "rm", "find", "tail", "head", "tr", "touch", "mkdir", "stat", "date", "sleep", "cat", "flock",
         "readlink")

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


BASH32_CACHE = Path(os.path.expanduser("~")) / ".cache" / "agenthooks-bash32" / "bin" / "bash"


def bash32() -> str | None:
    """macOS's bash 3.2.57: $AGENTHOOKS_BASH32, else the one ../shared/tools/bash32/build.sh
    built into ~/.cache/agenthooks-bash32 (.ci/run builds it). In CI it must be there; elsewhere
    the machine's bash stands in, and the bash 3.2 lint (support.bash32) still applies."""
    from support.helpers import in_ci, unavailable

    named = os.environ.get("AGENTHOOKS_BASH32") or ""
    for candidate in (named, str(BASH32_CACHE)):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    if in_ci():
        unavailable("bash 3.2 is not built: ../shared/tools/bash32/build.sh ~/.cache/agenthooks-bash32")
    return None


def macos_path(base: Path) -> str:
    bwk = require("original-awk", "apt-get install original-awk")
    bindir = base / "macos-bin"
    bindir.mkdir(exist_ok=True)
    if not (bindir / "bash").exists():
        _link_bash(bindir, bash32())
        (bindir / "awk").symlink_to(bwk)
        for name, text in (("stat", STAT_SHIM), ("date", DATE_SHIM), ("sed", SED_SHIM)):
            (bindir / name).write_text(text)
            (bindir / name).chmod(0o755)
        for tool in ("mv", "rm", "find", "tail", "head", "tr", "mkdir", "sleep", "cat", "touch", "ln", "readlink"):
            (bindir / tool).symlink_to(shutil.which(tool) or f"/bin/{tool}")
    return str(bindir)


UNAME_SHIM = r"""#!/bin/bash -p
# Git for Windows' uname: -s (the default) MINGW64_NT-10.0-19045, -m x86_64, -o Msys.
out=()
[ $# -gt 0 ] || set -- -s
for a in "$@"; do
  case $a in
    -s) out+=(MINGW64_NT-10.0-19045) ;;
    -m | -p) out+=(x86_64) ;;
    -o) out+=(Msys) ;;
    -r) out+=(3.4.10-87d57229.x86_64) ;;
    -a) out+=("MINGW64_NT-10.0-19045 host 3.4.10-87d57229.x86_64 2024-02-14 20:17 UTC x86_64 Msys") ;;
    *) echo "uname: invalid option -- '${a#-}'" >&2; exit 1 ;;
  esac
done
echo "${out[*]}"
"""

# Git Bash as the Windows registrations start it (see the module's docstring).
GITBASH_SHIM = r"""#!{python}
import os, re, sys
DRIVE = {drive!r}
REAL = {real!r}

def windows(path, sep):
    return "C:" + path[len(DRIVE):].replace("/", sep)

args = sys.argv[1:]
on_drive = False
for i, arg in enumerate(args):
    if arg.startswith("C:/") and arg.endswith(".sh"):  # a Windows path already
        on_drive = True
        break
    full = os.path.abspath(arg)
    if full.startswith(DRIVE + "/") and arg.endswith(".sh"):
        args[i], on_drive = windows(full, "/"), True
        hooks = full.rsplit("/.agent/hooks/", 1)[0]
        if hooks != full:
            os.environ["CLAUDE_PROJECT_DIR"] = windows(hooks, "\\")
        break
data = sys.stdin.buffer.read() if not sys.stdin.isatty() else b""
text = data.decode("utf-8", "surrogateescape")
text = re.sub(re.escape(DRIVE) + r'(/[^"\n]*)', lambda m: windows(DRIVE + m.group(1), "\\\\"), text)
r, w = os.pipe()
if os.fork() == 0:
    os.close(r)
    os.write(w, text.encode("utf-8", "surrogateescape"))
    os._exit(0)
os.close(w)
os.dup2(r, 0)
if on_drive:  # C:/... opens from the drive's folder; a hook elsewhere runs where it was started
    os.chdir(os.path.dirname(DRIVE))
os.execv(REAL, [REAL] + args)
"""


def windows_path(base: Path) -> str:
    """Git Bash: GNU tools, gawk (mawk when there is none), no flock, MINGW64's uname."""
    bindir = base / "gitbash-bin"
    bindir.mkdir(exist_ok=True)
    if not (bindir / "bash").exists():
        real = shutil.which("bash") or "/bin/bash"
        (bindir / "bash").write_text(GITBASH_SHIM.format(python=sys.executable, drive=str(base / "C:"), real=real))
        (bindir / "bash").chmod(0o755)
        (bindir / "uname").write_text(UNAME_SHIM)
        (bindir / "uname").chmod(0o755)
        awk = shutil.which("gawk") or shutil.which("mawk") or shutil.which("awk")
        assert awk, "no awk on this machine"
        (bindir / "awk").symlink_to(awk)
        for tool in TOOLS:
            where = shutil.which(tool)
            if where and tool not in ("awk", "flock"):
                (bindir / tool).symlink_to(where)
    return str(bindir)


def windows_clone(origin: Path, base: Path) -> Path:
    """origin (its files committed here) as a Git for Windows user has it: cloned with
    core.autocrlf=true (the installer's default) to C:/Users/me/repo on the simulated drive, so
    every text file has CRLF line endings but those .gitattributes pins to eol=lf."""
    from support.helpers import git

    git(origin, "add", "-A")
    git(origin, "-c", "user.name=me", "-c", "user.email=me@example.com", "commit", "-q", "-m", "setup")
    repo = base / "C:" / "Users" / "me" / "repo"
    repo.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "clone", "-q", "-c", "core.autocrlf=true", str(origin), str(repo)],
                   check=True, capture_output=True)
    return repo


USERLANDS = {"gnu": ("linux", gnu_path), "busybox": ("busybox", busybox_path),
             "macos": ("macos", macos_path), "windows": ("windows", windows_path)}
ALL = sorted(USERLANDS)  # the userlands a promise is run on, in a stable order


def env_for(userland: str, base: Path) -> dict[str, str]:
    _, make = USERLANDS[userland]
    return {"PATH": make(base), "HOME": os.environ.get("HOME", str(base))}


def installed_in(tmp_path: Path, userland: str, *install_args: str, commit: bool = False,
                 **memory: str) -> tuple[Path, dict[str, str]]:
    """A repo installed for USERLAND's platform (INSTALL_ARGS added), MEMORY written
    (write_memory's tattoo, snapshot, notes), with its state folder; on Git Bash cloned to
    C:/Users/me/... as a teammate's checkout, else committed when COMMIT. (repo, the env that
    runs its hooks there.)"""
    platform, _ = USERLANDS[userland]
    repo = make_repo(tmp_path, "origin" if userland == "windows" else "repo")
    install(repo, "--platform", platform, *install_args)
    write_memory(repo, **memory)
    if userland == "windows":
        repo = windows_clone(repo, tmp_path)
    elif commit:
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "agenthooks")
    (repo / ".agent/log/state").mkdir(parents=True, exist_ok=True)
    return repo, env_for(userland, tmp_path)
