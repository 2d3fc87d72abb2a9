"""Signals during a build: TERM, INT or HUP to pre_task while it reads a huge notes.md ends it at
once, and no process it started outlives it, on every userland."""
from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from support.claude_sessions import BASH, END, repo_for, session_members, SLOW_TR, START
from support.helpers import memory_bytes, payload
from support.userlands import USERLANDS


@pytest.mark.parametrize("sig", ["TERM", "INT", "HUP"])
@pytest.mark.parametrize("userland", sorted(USERLANDS))
def test_a_signal_while_reading_a_huge_notes_leaves_no_child(tmp_path: Path, userland: str, sig: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    with (repo / ".agent/memory/notes.md").open("wb") as f:
        f.write(b"- an old note\n" * (40 << 16))  # 35 MB: read through tail and tr
    before = memory_bytes(repo)
    slow = tmp_path / "slow-bin"
    slow.mkdir()
    marker = tmp_path / "tr-started"
    import shutil
    tr = shutil.which("tr", path=env["PATH"])
    (slow / "tr").write_text(SLOW_TR.format(marker=marker, tr=tr))
    (slow / "tr").chmod(0o755)
    env["PATH"] = f"{slow}:{env['PATH']}"
    stdin = tmp_path / "payload.json"
    stdin.write_text(payload(START))
    with stdin.open("rb") as f:
        proc = subprocess.Popen([BASH, ".agent/hooks/pre_task.sh", "claude-code"], cwd=repo, env=env,
                                stdin=f, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 10
        while not marker.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        assert marker.exists(), "the builder never started"
        time.sleep(0.1)
        proc.send_signal(getattr(signal, f"SIG{sig}"))
        out, err = proc.communicate(timeout=3)  # never waits for the slow reader
        assert proc.returncode in (0, -getattr(signal, f"SIG{sig}")), (proc.returncode, err)
        deadline = time.monotonic() + 0.5
        while session_members(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert session_members(proc.pid) == []
    finally:
        for pid in session_members(proc.pid):
            os.kill(pid, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    # Nothing torn: no temp file left, the published block absent or whole, memory untouched.
    agent = repo / ".agent"
    assert not [p.name for p in agent.rglob("*") if ".tmp" in p.name or p.name.startswith(".injected")]
    published = agent / "injected_context.txt"
    assert not published.exists() or published.read_text().rstrip("\n").endswith(END)
    assert out == b"" or out.decode().rstrip("\n").endswith("}")
    assert memory_bytes(repo) == before
