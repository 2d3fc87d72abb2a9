"""Memory that moves, on every userland: memory/ renamed away or checked out is never recreated
in a repo that had it, and the rename or checkout back works; a first install and a fresh
clone still get their memory."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from agenthooks.messages import MESSAGES
from support.helpers import git, install, make_repo
from support.memory_runs import ALL, log, memory_files, repo_for, run
from support.userlands import USERLANDS


BEGIN = "===== AGENT MEMORY BEGIN ====="
GONE = MESSAGES["en"]["memory_gone"]
NO_RULES = MESSAGES["en"]["no_rules"]


def commit(repo: Path, msg: str) -> None:
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", msg)


# --- memory/ briefly missing ---

@pytest.mark.parametrize("userland", ALL)
def test_memory_renamed_away_is_not_recreated_and_the_rename_back_works(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    assert BEGIN in run(repo, "pre_task", env).stdout  # a block was built: this repo has memory
    before = memory_files(repo)
    mem, away = repo / ".agent/memory", repo / ".agent/memory.swap"
    mem.rename(away)  # an editor's save, or a checkout, half done
    log0 = log(repo)
    res = run(repo, "pre_task", env)
    assert res.returncode == 0 and res.stderr == ""
    assert GONE in res.stdout and NO_RULES not in res.stdout and BEGIN not in res.stdout
    assert not mem.exists(), "memory/ was recreated"
    new = log(repo)[len(log0):].splitlines()
    assert len(new) == 1 and "memory/ is missing" in new[0], new
    away.rename(mem)  # the rename back: not nested in a recreated folder
    assert memory_files(repo) == before
    back = run(repo, "pre_task", env)
    assert BEGIN in back.stdout and "Indent with 4 spaces" in back.stdout


@pytest.mark.parametrize("userland", ALL)
def test_memory_tracked_by_git_and_missing_is_not_recreated(tmp_path: Path, userland: str) -> None:
    # No hook state at all (log/ removed): git's index alone says memory existed.
    repo, env = repo_for(tmp_path, userland, with_git=True)
    commit(repo, "memory")
    shutil.rmtree(repo / ".agent/log")
    (repo / ".agent/injected_context.txt").unlink(missing_ok=True)
    shutil.rmtree(repo / ".agent/memory")
    res = run(repo, "pre_task", env)
    assert res.returncode == 0 and res.stderr == "" and GONE in res.stdout
    assert not (repo / ".agent/memory").exists()
    assert log(repo).count("memory/ is missing") == 1, log(repo)


@pytest.mark.parametrize("userland", ALL)
def test_a_branch_without_memory_gets_no_files_that_block_the_checkout_back(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland, with_git=True)
    git(repo, "checkout", "-qb", "main")
    commit(repo, "memory")
    assert BEGIN in run(repo, "pre_task", env).stdout
    git(repo, "checkout", "-qb", "old")
    git(repo, "rm", "-rq", ".agent/memory")
    commit(repo, "a branch from before the memory")
    assert not (repo / ".agent/memory").exists()
    res = run(repo, "pre_task", env)
    assert res.returncode == 0 and res.stderr == "" and GONE in res.stdout
    assert not (repo / ".agent/memory").exists()
    back = git(repo, "checkout", "-q", "main", check=False)
    assert back.returncode == 0, back.stderr
    assert "Indent with 4 spaces" in run(repo, "pre_task", env).stdout


@pytest.mark.parametrize("userland", ALL)
def test_fresh_clones_get_memory_and_a_clone_without_it_is_told_to_install(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland, with_git=True)
    commit(repo, "hooks and memory")
    # A fresh clone, memory committed: the block holds the rules.
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(repo), str(clone)], check=True)
    res = run(clone, "pre_task", env)
    assert res.returncode == 0 and res.stderr == "" and "Indent with 4 spaces" in res.stdout
    # A clone of hooks committed without memory: the hooks never make it (a checkout of a
    # branch that tracks it would then abort); they say so and name the command that does.
    bare = make_repo(tmp_path, "bare")
    install(bare, "--platform", USERLANDS[userland][0], "--framework", "claude-code")
    shutil.rmtree(bare / ".agent/memory")
    shutil.rmtree(bare / ".agent/log")
    res = run(bare, "pre_task", env)
    assert res.returncode == 0 and res.stderr == "" and BEGIN not in res.stdout and GONE in res.stdout
    assert "agenthooks install" in res.stdout and not (bare / ".agent/memory").exists()
