"""A hook killed outright: SIGKILL to pre_task's process group mid-build leaves a temp file
that the next build removes (and only it); the next run prints the current block."""
from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from support.claude_sessions import BASH, repo_for, run, session_members, SLOW_TR, START
from support.helpers import payload, write_memory
from support.userlands import USERLANDS


@pytest.mark.parametrize("userland", sorted(USERLANDS))
def test_a_hook_killed_outright_leaves_no_temp_file_past_the_next_build(tmp_path: Path, userland: str) -> None:
    """SIGKILL runs no trap: the builder's temp file is left behind; the next build sweeps it,
    and only it (a temp file named for a hook still running stays)."""
    repo, env = repo_for(tmp_path, userland)
    (repo / ".agent/memory/notes.md").write_bytes(b"- an old note\n" * 30000)  # read through tail and tr
    slow = tmp_path / "slow-bin"
    slow.mkdir()
    marker = tmp_path / "tr-started"
    import shutil
    (slow / "tr").write_text(SLOW_TR.format(marker=marker, tr=shutil.which("tr", path=env["PATH"])))
    (slow / "tr").chmod(0o755)
    stdin = tmp_path / "payload.json"
    stdin.write_text(payload(START))
    with stdin.open("rb") as f:
        proc = subprocess.Popen([BASH, ".agent/hooks/pre_task.sh", "claude-code"], cwd=repo,
                                env={**env, "PATH": f"{slow}:{env['PATH']}"}, stdin=f,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    agent = repo / ".agent"
    try:
        deadline = time.monotonic() + 10
        while not marker.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        assert marker.exists(), "the builder never started"
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=3)
    finally:
        for pid in session_members(proc.pid):
            os.kill(pid, signal.SIGKILL)
    left = [p.name for p in agent.iterdir() if p.name.startswith(".injected_context.txt.")]
    assert left and all(n.startswith(f".injected_context.txt.{proc.pid}.") for n in left), left
    running = agent / f".injected_context.txt.{os.getpid()}.1"  # this test's own pid: alive
    running.write_text("a build in progress\n")
    write_memory(repo, notes="- a newer note\n")  # the block must be built again
    out = run(repo, "pre_task", env)
    assert out.returncode == 0 and "a newer note" in out.stdout
    assert sorted(p.name for p in agent.iterdir() if p.name.startswith(".injected_context.txt.")) == [running.name]
