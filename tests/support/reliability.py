"""Shared pieces of the reliability suite: installed repos copied per case, hook runs with
limits, and the invariants every hook run must keep."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

from support.helpers import cli, git, run_hook

STRESS = os.environ.get("AGENTHOOKS_STRESS", "") not in ("", "0")
BEGIN = "===== AGENT MEMORY BEGIN ====="
END = "===== AGENT MEMORY END ====="
LOG_RE = re.compile(r"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\] (pre_task|post_edit|on_compact) [a-z-]+ [A-Za-z0-9_.-]+: .+$")
STATE_RE = re.compile(r"^v1 \d+ \d+ \S+ \S+ \d+( \d+)?$")  # statefiles.STATE (FLUSHED optional)
# A prompt that carries a default summary marker: on_compact reloads on it.
MARKER_PROMPT = "CONTEXT CHECKPOINT COMPACTION: summary follows"

BASH = shutil.which("bash") or "/bin/bash"
_TEMPLATES: dict[tuple[str, ...], Path] = {}


def sized(fast: int, stress: int) -> int:
    return stress if STRESS else fast


def installed(factory: Any, *args: str, config: dict[str, str] | None = None) -> Path:
    """A repo with agenthooks installed by the real CLI, cached per (args, config)."""
    key = (*args, *sorted((config or {}).items()))
    if key not in _TEMPLATES:
        base = factory.mktemp("installed")
        repo = base / "repo"
        repo.mkdir()
        git(repo, "init", "-q")
        board = [] if "--board" in args else ["--board", "shared"]  # one board: memory/snapshot.md
        proc = cli("install", "--yes", str(repo), *board, *args)
        assert proc.returncode == 0, proc.stderr
        if config:
            set_config(repo, **config)
        _TEMPLATES[key] = repo
    return _TEMPLATES[key]


def clone(template: Path, dest: Path) -> Path:
    """Copy an installed repo (its .agent/ and a fresh git repo) to dest."""
    dest.mkdir(parents=True)
    git(dest, "init", "-q")
    shutil.copytree(template / ".agent", dest / ".agent", symlinks=True)
    return dest


def set_config(repo: Path, **values: str) -> None:
    path = repo / ".agent" / "config.yaml"
    text = path.read_text(encoding="utf-8")
    for key, value in values.items():
        text, n = re.subn(rf"(?m)^{key}:.*$", lambda _m: f"{key}: {value}", text)
        if n == 0:
            text += f"{key}: {value}\n"
    path.write_text(text, encoding="utf-8")


def memory(repo: Path) -> dict[str, bytes]:
    mem = repo / ".agent" / "memory"
    out: dict[str, bytes] = {}
    if not mem.is_dir():
        return out
    for p in sorted(mem.rglob("*")):
        if p.is_symlink() or not p.is_file():
            out[str(p.relative_to(mem))] = b"<not a regular file>"
        else:
            out[str(p.relative_to(mem))] = p.read_bytes()
    return out


def check_block(out: bytes, warning: str | None = None) -> str:
    """stdout of a block-printing hook: one whole block, or one warning line."""
    text = out.decode("utf-8")  # invalid UTF-8 must never reach the model
    lines = text.splitlines()
    if warning is not None and text == warning + "\n":
        return text
    assert lines, "no output"
    assert lines[0] == BEGIN and lines[-1] == END, text[:300] + " ... " + text[-300:]
    assert lines.count(BEGIN) == 1 and lines.count(END) == 1, text
    assert sum(BEGIN in ln for ln in lines) == 1 and sum(END in ln for ln in lines) == 1, text
    return text


def check_log(repo: Path) -> list[str]:
    lines: list[str] = []
    for name in ("memory.log.1", "memory.log"):
        p = repo / ".agent" / "log" / name
        if p.is_file() and not p.is_symlink():
            lines += p.read_bytes().decode("utf-8").split("\n")[:-1] if p.stat().st_size else []
    bad = [ln for ln in lines if not LOG_RE.match(ln)]
    assert not bad, bad[:5]
    return lines


def check_states(repo: Path) -> None:
    sdir = repo / ".agent" / "log" / "state"
    if not sdir.is_dir():
        return
    for p in sdir.glob("*.state"):
        if p.is_symlink():
            continue
        data = p.read_bytes()
        assert data == b"" or data.endswith(b"\n"), (p, data[-80:])
        for ln in data.decode().splitlines():
            assert STATE_RE.match(ln), (p, ln)


def wait_gone(path: Path, seconds: float) -> None:
    end = time.monotonic() + seconds
    while path.exists() and time.monotonic() < end:
        time.sleep(0.05)


# flock-fails: a linux render (flock first) on a PATH whose flock fails at once, not for a
# holder (a broken or foreign flock): the writes still wait for the portable lock.
LOCK_PLATFORMS = {"flock": "linux", "portable": "macos", "flock-fails": "linux"}
NEEDED_TOOLS = ("awk", "mv", "rm", "mkdir", "tail", "find", "date", "sleep", "cat")


def no_flock_path(dest: Path) -> str:
    """A PATH like macOS: the tools the hooks use, BSD-style stat, and no flock."""
    dest.mkdir(parents=True, exist_ok=True)
    for tool in NEEDED_TOOLS:
        found = shutil.which(tool)
        assert found, tool
        link = dest / tool
        if not link.exists():
            link.symlink_to(found)
    gnu_stat = shutil.which("stat")
    shim = dest / "stat"
    shim.write_text("#!/bin/sh\n# BSD stat -f %m FILE, answered by GNU stat\n"
                    f'[ "$1" = -f ] && shift 2\nexec {gnu_stat} -c %Y "$@"\n')
    shim.chmod(0o755)
    assert shutil.which("flock", path=str(dest)) is None
    return str(dest)


def failing_flock_path(dest: Path) -> str:
    """A GNU PATH whose flock exits 1 at once, whatever it is asked."""
    dest.mkdir(parents=True, exist_ok=True)
    for tool in (*NEEDED_TOOLS, "bash", "stat", "touch", "head", "tr", "readlink"):
        found = shutil.which(tool)
        if found and not (dest / tool).exists():
            (dest / tool).symlink_to(found)
    shim = dest / "flock"
    shim.write_text("#!/bin/sh\necho 'flock: failed' >&2\nexit 1\n")
    shim.chmod(0o755)
    return str(dest)


def lock_env(lock: str, tmp: Path) -> dict[str, str]:
    if lock == "portable":
        return {"PATH": no_flock_path(tmp / "macos-bin")}
    if lock == "flock-fails":
        return {"PATH": failing_flock_path(tmp / "failing-flock-bin")}
    return {}


def replace_atomic(path: Path, data: bytes, mtime: float | None = None) -> None:
    """Write a sibling temp file and rename it over path, as editors do."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{time.monotonic_ns()}.swp")
    tmp.write_bytes(data)
    if mtime is not None:
        os.utime(tmp, (mtime, mtime))
    os.replace(tmp, path)


def expected_renders(template: Path, scratch: Path, versions: list[dict[str, bytes]],
                     env: dict[str, str] | None = None) -> dict[str, set[bytes]]:
    """Every complete block each hook can publish, for every mix of memory versions."""
    out: dict[str, set[bytes]] = {"pre_task": set(), "on_compact": set()}
    repo = clone(template, scratch)
    names = sorted({n for v in versions for n in v})
    combos: list[dict[str, bytes]] = [{}]
    for n in names:
        options = sorted({v[n] for v in versions if n in v})
        combos = [{**c, n: o} for c in combos for o in options]
    for i, combo in enumerate(combos):
        for n, data in combo.items():
            (repo / ".agent/memory" / n).write_bytes(data)
        pre = run_hook(repo, "pre_task", {"session_id": f"x{i}", "source": "startup"}, env=env, bash=BASH,
                       text=False)
        on = run_hook(repo, "on_compact", {"session_id": f"x{i}", "prompt": MARKER_PROMPT}, env=env, bash=BASH,
                      text=False)
        assert pre.returncode == 0 and on.returncode == 0
        out["pre_task"].add(pre.stdout)
        out["on_compact"].add(on.stdout)
        assert (repo / ".agent/injected_context.txt").read_bytes() == on.stdout
    return out


def start_together(repo: Path, env: dict[str, str], hook: str, stdin: Path, tmp: Path,
                   n: int = 10) -> list[tuple[str, str]]:
    """Run n copies of `bash .agent/hooks/HOOK.sh claude-code < STDIN` released at once by a
    FIFO barrier; the payload comes from a file (written to each pipe in turn, the hooks would
    run one by one). Each must exit 0; returns their (stdout, stderr)."""
    go = tmp / f"go-{stdin.name}"
    os.mkfifo(go)
    start = f'read -r _ < "{go}"; exec bash .agent/hooks/{hook}.sh claude-code < "{stdin}"'
    procs = [subprocess.Popen(["/bin/bash", "-c", start], cwd=repo, env=env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(n)]
    time.sleep(0.5)
    with open(go, "w"):
        pass
    outs = [p.communicate(timeout=60) for p in procs]
    assert all(p.returncode == 0 for p in procs), [p.returncode for p in procs]
    return outs
