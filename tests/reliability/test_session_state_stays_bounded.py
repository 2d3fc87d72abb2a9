"""Session state stays bounded: the files of sessions idle for weeks are removed by the next
build, recent sessions' files and the shared ones kept, on every userland."""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from support.claude_sessions import context, repo_for, run
from support.userlands import USERLANDS


# --- 15: old session state is pruned, off the quiet path -----------------------

@pytest.mark.parametrize("userland", sorted(USERLANDS))
def test_old_session_state_is_pruned(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    assert run(repo, "pre_task", env).returncode == 0
    sdir = repo / ".agent/log/state"
    old, recent = time.time() - 40 * 86400, time.time() - 86400
    for i in range(300):
        for ext in ("state", "remind", "built", "count"):
            p = sdir / f"old{i}.{ext}"
            p.write_text("x\n")
            os.utime(p, (old, old))
            q = sdir / f"new{i % 20}.{ext}"
            q.write_text("x\n")
            os.utime(q, (recent, recent))
    kept = sorted(p.name for p in sdir.iterdir() if not p.name.startswith(("old", "new")))
    (repo / ".agent/memory/notes.md").write_text("- a new note\n")  # the next start builds
    assert "- a new note" in context(run(repo, "pre_task", env).stdout)
    names = sorted(p.name for p in sdir.iterdir())
    assert not [n for n in names if n.startswith("old")], names[:10]
    assert len([n for n in names if n.startswith("new")]) == 80
    assert all(n in names for n in kept)
