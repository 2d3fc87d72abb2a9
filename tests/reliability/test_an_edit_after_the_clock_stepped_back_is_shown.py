"""Clock steps, on every userland: a memory file edited after the clock was set back is shown at
the next start, and that block is cached in turn."""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from support.huge_runs import BEGIN, PROGRESS, repo_for, run
from support.userlands import USERLANDS


def built(repo: Path) -> int:
    return (repo / ".agent/log/state/h1.built").stat().st_mtime_ns


@pytest.mark.parametrize("name", ["tattoo", "snapshot", "notes", "user tattoo"])
@pytest.mark.parametrize("userland", sorted(USERLANDS))
def test_an_edit_after_the_clock_stepped_back_is_shown(tmp_path: Path, userland: str, name: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    home = tmp_path / "home"
    env["HOME"] = str(home)
    user = home / ".agent/memory/tattoo.md"
    user.parent.mkdir(parents=True)
    user.write_text("# mine\n- user rule one\n")
    path = user if name == "user tattoo" else repo / f".agent/memory/{name}.md"
    first, _ = run(repo, env)
    assert BEGIN in first.stdout
    stamp = built(repo)
    cached, _ = run(repo, env)
    assert cached.stdout == first.stdout and built(repo) == stamp  # served from the cache
    # The clock is set back an hour, and the file is edited: its time is older than the cache's.
    text = path.read_text()
    if name == "snapshot":
        text = text.replace(PROGRESS, "- [ ] edited after the clock stepped back")
    else:
        text += "- edited after the clock stepped back\n"
    path.write_text(text)
    back = time.time() - 3600
    os.utime(path, (back, back))
    res, _ = run(repo, env)
    assert res.returncode == 0 and res.stderr == ""
    assert "- edited after the clock stepped back" in res.stdout or \
        "- [ ] edited after the clock stepped back" in res.stdout, res.stdout
    # And the new block is the cached one from then on.
    stamp = built(repo)
    again, _ = run(repo, env)
    assert again.stdout == res.stdout and built(repo) == stamp
