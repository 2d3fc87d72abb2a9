"""Huge lines, on every userland: a memory file of one 32 MB line, 8 MB of NUL bytes or a 200 MB
sparse file is read up to 256 KB (notes.md: its last 256 KB), NUL bytes dropped, and the
block and the log say which; no reader outlives a killed hook."""
from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from agenthooks.messages import MESSAGES
from support.helpers import payload
from support.huge_runs import BEGIN, PROGRESS, repo_for, run, START
from support.userlands import USERLANDS


END = "===== AGENT MEMORY END ====="
RULE = "- Indent with 4 spaces, never tabs"  # in SAMPLE_TATTOO


def log(repo: Path) -> str:
    f = repo / ".agent/log/memory.log"
    return f.read_text() if f.exists() else ""


def one_line(path: Path, size: int) -> None:
    with path.open("wb") as f:
        f.write((b"## In progress\n" if path.name == "snapshot.md" else b"") + b"- " + b"y" * size + b"\n")


def nuls(path: Path, size: int) -> None:
    path.write_bytes(b"\0" * size)


def sparse(path: Path, size: int) -> None:
    with path.open("wb") as f:
        f.truncate(size)


HUGE = {"32MB-one-line": (one_line, 32 << 20), "8MB-of-NULs": (nuls, 8 << 20),
        "200MB-sparse": (sparse, 200 << 20)}


def readers(repo: Path) -> list[int]:
    """Processes other than the test's own whose command line names a file of this repo."""
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                cmd = (d / "cmdline").read_bytes()
            except OSError:
                continue
            if str(repo).encode() in cmd:
                out.append(int(d.name))
    return out


def ended(pids: list[int]) -> None:
    for pid in pids:  # started by the test: ended here, whatever the verdict
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


@pytest.mark.parametrize("name", ["notes", "tattoo", "snapshot"])
@pytest.mark.parametrize("kind", sorted(HUGE))
@pytest.mark.parametrize("userland", sorted(USERLANDS))
def test_a_huge_memory_file_is_read_in_part_and_said_so(tmp_path: Path, userland: str, kind: str,
                                                        name: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    make, size = HUGE[kind]
    make(repo / f".agent/memory/{name}.md", size)
    try:
        res, took = run(repo, env, timeout=20)
    finally:
        ended(readers(repo))
    assert res.returncode == 0 and res.stderr == ""
    lines = res.stdout.splitlines()
    assert lines[0] == BEGIN and lines[-1] == END
    assert MESSAGES["en"]["mem_cut"] % (256, f".agent/memory/{name}.md") in lines
    # The other memory files are read as always.
    assert name == "tattoo" or RULE in lines
    assert name == "snapshot" or PROGRESS in lines
    if kind == "32MB-one-line":  # tattoo.md and snapshot.md from their start, notes.md from its end
        assert ("y" * 600 if name == "notes" else "- " + "y" * 598) + " [...]" in lines
    cut = [ln for ln in log(repo).splitlines() if "over 256 KB" in ln]
    assert len(cut) == 1 and f"memory/{name}.md is over 256 KB" in cut[0], log(repo)
    assert took < 3, f"{kind}: took {took:.1f}s"
    # The next start reuses the block: the cut is logged once, not on every run.
    again, _ = run(repo, env)
    assert again.stdout == res.stdout and log(repo).count("over 256 KB") == 1


@pytest.mark.parametrize("userland", sorted(USERLANDS))
def test_a_killed_hook_leaves_no_reader_running(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    one_line(repo / ".agent/memory/notes.md", 100 << 20)  # seconds of awk for the whole line
    proc = subprocess.Popen(["/bin/bash", str(repo / ".agent/hooks/pre_task.sh"), "claude-code"],
                            cwd=repo, env=env, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    assert proc.stdin is not None
    proc.stdin.write(payload(START).encode())
    proc.stdin.close()  # the payload read, the build starts
    time.sleep(0.5)
    proc.kill()  # the hook alone, as a host's timeout does
    proc.wait()
    deadline = time.monotonic() + 1
    while readers(repo) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = readers(repo)
    ended(left)
    assert left == []


@pytest.mark.parametrize("userland", sorted(USERLANDS))
def test_nul_bytes_all_through_a_file_are_dropped(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    (repo / ".agent/memory/notes.md").write_bytes(b"- a\0b\n" * 100_000)  # 100,000 NUL bytes
    res, _ = run(repo, env)
    assert res.returncode == 0 and res.stderr == ""
    lines = res.stdout.splitlines()
    assert MESSAGES["en"]["mem_cut"] % (256, ".agent/memory/notes.md") in lines
    assert lines.count("- ab") == 5 and RULE in lines and PROGRESS in lines
