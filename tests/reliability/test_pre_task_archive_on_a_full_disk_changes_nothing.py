"""pre_task.sh --archive on a full disk (ulimit -f 0), on every userland: one agenthooks: line,
memory byte-identical; with room, the old snapshot is archived whole."""
from __future__ import annotations

from pathlib import Path

import pytest

from support.claude_sessions import BASH, repo_for, run
from support.helpers import memory_bytes, run_hook
from support.userlands import USERLANDS


# --- 9: pre_task.sh --archive on a full disk loses nothing ---------------------

@pytest.mark.parametrize("userland", sorted(USERLANDS))
def test_archive_on_a_full_disk_changes_nothing(tmp_path: Path, userland: str) -> None:

    repo, env = repo_for(tmp_path, userland)
    snap = repo / ".agent/memory/snapshot.md"
    before = memory_bytes(repo)
    proc = run_hook(repo, "pre_task", "", "claude-code", "--archive", env=env, inherit=False, bash=BASH,
                    timeout=20, fsize=0)
    assert proc.returncode == 0 and proc.stdout == "", proc
    said = [ln for ln in proc.stderr.splitlines() if ln.startswith("agenthooks:")]
    assert len(said) == 1 and "nothing archived" in said[0], proc.stderr
    assert memory_bytes(repo) == before  # the snapshot whole, no archive file, not even an empty one
    # With room, it archives, and the fresh snapshot is whole.
    proc = run(repo, "pre_task", env, "", "--archive")
    assert proc.returncode == 0 and "archived: .agent/memory/archive/" in proc.stdout, proc
    assert [p.read_bytes() for p in (repo / ".agent/memory/archive").glob("*.md")] == [before["snapshot.md"]]
    assert b"## In progress" in snap.read_bytes()
    assert not [p for p in snap.parent.iterdir() if p.name.startswith(".")]
