"""Nothing read through a link out of the repository, on every userland: memory linked out is
not read (the block says so in one line); memory linked inside the repository is."""
from __future__ import annotations

from pathlib import Path

import pytest

from support.inside_runs import ALL, run, setup, START


# --- reads: no memory through a link out of the repository ---

@pytest.mark.parametrize("what", ["tattoo", "notes", "memory folder"])
@pytest.mark.parametrize("userland", ALL)
def test_memory_linked_out_of_the_repo_is_not_read(tmp_path: Path, userland: str, what: str) -> None:
    repo, env, outside = setup(tmp_path, userland)
    secret = "- AKIA-like key material: ssh-ed25519 SECRET-OUTSIDE-THE-REPO"
    mem = repo / ".agent/memory"
    if what == "memory folder":
        for name in ("tattoo", "snapshot", "notes"):
            (outside / f"{name}.md").write_text(f"{secret} {name}\n")
        for p in mem.iterdir():
            p.unlink()
        mem.rmdir()
        mem.symlink_to(outside)
    else:
        (outside / "secret").write_text(secret + "\n")
        (mem / f"{what}.md").unlink()
        (mem / f"{what}.md").symlink_to(outside / "secret")
    out = run(repo, "pre_task", env, START).stdout
    assert "SECRET-OUTSIDE-THE-REPO" not in out
    said = [ln for ln in out.splitlines() if "symbolic link out of this repository" in ln]
    assert len(said) == 1, out
    assert "not read" in (repo / ".agent/log/memory.log").read_text()
    # Not the cached block either, and not on a reload.
    assert "SECRET-OUTSIDE-THE-REPO" not in run(repo, "pre_task", env, START).stdout
    assert "SECRET-OUTSIDE-THE-REPO" not in run(repo, "pre_task", env, {**START, "source": "compact"}).stdout


@pytest.mark.parametrize("userland", ALL)
def test_memory_linked_inside_the_repo_is_read(tmp_path: Path, userland: str) -> None:
    repo, env, _ = setup(tmp_path, userland)
    (repo / "docs").mkdir()
    (repo / "docs/rules.md").write_text("- a rule kept in docs/\n")
    tattoo = repo / ".agent/memory/tattoo.md"
    tattoo.unlink()
    tattoo.symlink_to("../../docs/rules.md")
    out = run(repo, "pre_task", env, START).stdout
    assert "- a rule kept in docs/" in out and "out of this repository" not in out
