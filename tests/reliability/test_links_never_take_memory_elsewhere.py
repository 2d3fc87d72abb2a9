"""Links, on every userland: --archive never moves the snapshot through a link; a linked hooks
folder serves the repo it was reached from; a newer release's state file is left alone."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from support.helpers import cli, install, make_repo, SAMPLE_SNAPSHOT, write_memory
from support.memory_runs import ALL, COMPACT, log, memory_files, repo_for, run, START
from support.userlands import USERLANDS


# --- a linked hooks folder; a state file of a newer release ---
PROMPT = {"session_id": "m1", "hook_event_name": "UserPromptSubmit", "prompt": "go on"}


# --- an archive folder that is a link ---

@pytest.mark.parametrize("userland", ALL)
def test_archive_never_moves_the_snapshot_through_a_link(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    outside = tmp_path / "outside"
    outside.mkdir()
    (repo / ".agent/memory/archive").symlink_to(outside)
    before = memory_files(repo)
    log0 = log(repo)
    res = run(repo, "pre_task", env, "", "--archive")
    assert res.returncode == 0 and res.stdout == ""
    assert len(res.stderr.splitlines()) == 1 and res.stderr.startswith("agenthooks"), res.stderr
    assert list(outside.iterdir()) == []
    assert memory_files(repo) == before
    new = log(repo)[len(log0):].splitlines()
    assert len(new) == 1 and "link" in new[0], new
    # The CLI archives through the hook: it fails, and nothing moved either.
    proc = cli("archive", str(repo), "--force")
    assert proc.returncode != 0 and "not archived" in proc.stderr
    assert list(outside.iterdir()) == [] and memory_files(repo) == before


@pytest.mark.parametrize("userland", ALL)
def test_a_linked_hooks_folder_serves_this_repos_memory(tmp_path: Path, userland: str) -> None:
    # Two repos share one hooks folder through a link: each run reads and logs its own repo.
    other, env = repo_for(tmp_path / "other", userland)
    write_memory(other, tattoo="# Project hard rules\n- OTHER-REPO rule\n")
    repo = make_repo(tmp_path / "mine")
    install(repo, "--platform", USERLANDS[userland][0], "--framework", "claude-code")
    write_memory(repo, tattoo="# Project hard rules\n- MINE rule\n", snapshot=SAMPLE_SNAPSHOT)
    hooks = repo / ".agent/hooks"
    shutil.rmtree(hooks)
    hooks.symlink_to(other / ".agent/hooks")
    before = log(other)
    for hook, stdin in (("pre_task", START), ("on_compact", COMPACT)):
        out = run(repo, hook, env, stdin)
        assert out.returncode == 0 and out.stderr == "", out.stderr
        assert "MINE rule" in out.stdout and "OTHER-REPO" not in out.stdout, out.stdout[:300]
    assert log(other) == before
    assert "memory loaded" in log(repo)


@pytest.mark.parametrize("userland", ALL)
def test_a_state_file_of_a_newer_release_is_left_alone(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    state = repo / ".agent/log/state/m1.state"
    state.parent.mkdir(parents=True, exist_ok=True)
    # Long enough that this release would compact it, ending in a newer release's line.
    data = b"v1 3 1000 - - 0\n" * 70 + b"v2 4 1000 - - 0 future-field\n"
    state.write_bytes(data)
    for stdin in (PROMPT, PROMPT, {**PROMPT, "hook_event_name": "PreCompact"}):
        out = run(repo, "on_compact", env, stdin)
        assert out.returncode == 0 and out.stderr == "", out.stderr
    assert state.read_bytes() == data
    assert "left m1.state alone: written by a newer release" in log(repo)
