"""Parallel reminders: ten edits of one session started together, with a stale snapshot, a
failing flock or a slow stat, give one reminder on each userland."""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from support import memory_runs
from support.helpers import payload
from support.lock_runs import EDIT, log, repo_for, run, START
from support.reliability import failing_flock_path, start_together
from support.userlands import USERLANDS


def test_parallel_edits_remind_once_when_flock_fails(tmp_path: Path) -> None:
    """A linux render whose flock fails at once (a broken or foreign flock, not a holder) takes
    the portable lock: the ten edits still remind once, never all writing unlocked."""
    repo, env = repo_for(tmp_path, "gnu")
    env = {**env, "PATH": failing_flock_path(tmp_path / "failing-flock-bin")}
    snap = repo / ".agent/memory/snapshot.md"
    old = time.time() - 3 * 3600
    os.utime(snap, (old, old))
    run(repo, "pre_task", env, {**START, "source": "startup"})
    edit = tmp_path / "edit.json"
    edit.write_text(payload(EDIT))
    outs = start_together(repo, env, "post_edit", edit, tmp_path)
    assert all(err == "" for _, err in outs)
    assert sum(1 for out, _ in outs if out.strip()) == 1, log(repo)
    assert "lock busy" not in log(repo) and "without the lock" not in log(repo)


@pytest.mark.parametrize("userland", sorted(USERLANDS))
def test_parallel_edits_with_a_stale_snapshot_remind_once(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    snap = repo / ".agent/memory/snapshot.md"
    old = time.time() - 3 * 3600
    os.utime(snap, (old, old))
    run(repo, "pre_task", env, {**START, "source": "startup"})  # the session starts: its state folder
    edit = tmp_path / "edit.json"
    edit.write_text(payload(EDIT))
    outs = start_together(repo, env, "post_edit", edit, tmp_path)
    assert all(err == "" for _, err in outs)
    assert sum(1 for out, _ in outs if out.strip()) == 1, log(repo)


@pytest.mark.parametrize("userland", memory_runs.ALL)
def test_parallel_edits_on_a_loaded_machine_remind_once(tmp_path: Path, userland: str) -> None:
    repo, env = memory_runs.repo_for(tmp_path, userland)
    snap = repo / ".agent/memory/snapshot.md"
    old = time.time() - 3 * 3600
    os.utime(snap, (old, old))
    memory_runs.run(repo, "pre_task", env)  # the session starts: its state folder
    slow = tmp_path / "slow-bin"
    slow.mkdir()
    real = Path(env["PATH"].split(":")[0]) / "stat"
    (slow / "stat").write_text(memory_runs.SLOW_STAT.format(real=real))
    (slow / "stat").chmod(0o755)
    env = {**env, "PATH": f"{slow}:{env['PATH']}"}
    for round_ in range(2):
        stdin = tmp_path / f"edit{round_}.json"
        stdin.write_text(payload({**memory_runs.EDIT, "session_id": f"p{round_}"}))
        outs = start_together(repo, env, "post_edit", stdin, tmp_path)
        assert all(err == "" for _, err in outs)
        assert sum(1 for out, _ in outs if out.strip()) == 1, memory_runs.log(repo)
