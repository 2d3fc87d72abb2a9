"""Memory that moves under the hooks, links, parallel reminders and a closed stdout, on every
userland (GNU, BusyBox, macOS-like): memory/ renamed away or checked out is never recreated
in a repo that had it; --archive never moves the snapshot through a link; ten parallel
edits remind once; a host that closed stdout gets no stray stderr and a fresh block file."""
from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from agenthooks.messages import MESSAGES
from support.helpers import (SAMPLE_SNAPSHOT, SAMPLE_TATTOO, cli, git, install, make_repo, payload,
                             write_memory)
from support.reliability import start_together
from support.userlands import USERLANDS, env_for

BEGIN = "===== AGENT MEMORY BEGIN ====="
GONE = MESSAGES["en"]["memory_gone"]
NO_RULES = MESSAGES["en"]["no_rules"]
START = {"session_id": "m1", "hook_event_name": "SessionStart", "source": "startup"}
EDIT = {"session_id": "m1", "hook_event_name": "PostToolUse", "tool_input": {"file_path": "src/a.py"}}
COMPACT = {"session_id": "m1", "hook_event_name": "UserPromptSubmit",
           "prompt": "CONTEXT CHECKPOINT COMPACTION"}
ALL = sorted(USERLANDS)


def repo_for(tmp_path: Path, userland: str, with_git: bool = False) -> tuple[Path, dict[str, str]]:
    repo = make_repo(tmp_path)
    install(repo, "--platform", USERLANDS[userland][0], "--framework", "claude-code")
    write_memory(repo, tattoo=SAMPLE_TATTOO, snapshot=SAMPLE_SNAPSHOT, notes="- a note\n")
    env = {**os.environ, **env_for(userland, tmp_path)}
    if with_git:  # the userland plus git, as a developer's PATH has it
        gitdir = tmp_path / "git-bin"
        gitdir.mkdir(exist_ok=True)
        if not (gitdir / "git").exists():
            (gitdir / "git").symlink_to(shutil.which("git") or "/usr/bin/git")
        env["PATH"] = f"{env['PATH']}:{gitdir}"
    return repo, env


def run(repo: Path, hook: str, env: dict[str, str], stdin: object = START, *args: str,
        timeout: float = 30) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["/bin/bash", f".agent/hooks/{hook}.sh", "claude-code", *args],
                          input=payload(stdin), cwd=repo, env=env, capture_output=True, text=True,
                          timeout=timeout)


def log(repo: Path) -> str:
    f = repo / ".agent/log/memory.log"
    return f.read_text() if f.exists() else ""


def commit(repo: Path, msg: str) -> None:
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", msg)


def memory_files(repo: Path) -> dict[str, bytes]:
    mem = repo / ".agent/memory"
    return {str(p.relative_to(mem)): p.read_bytes() for p in sorted(mem.rglob("*")) if p.is_file()}


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


# --- parallel reminders ---

SLOW_STAT = """#!/bin/bash
# stat on a loaded machine: 0 to 0.5 s late, a different delay for each edit.
/bin/sleep "0.$((RANDOM % 6))"
exec {real} "$@"
"""


@pytest.mark.parametrize("userland", ALL)
def test_parallel_edits_on_a_loaded_machine_remind_once(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    snap = repo / ".agent/memory/snapshot.md"
    old = time.time() - 3 * 3600
    os.utime(snap, (old, old))
    run(repo, "pre_task", env)  # the session starts: its state folder
    slow = tmp_path / "slow-bin"
    slow.mkdir()
    real = Path(env["PATH"].split(":")[0]) / "stat"
    (slow / "stat").write_text(SLOW_STAT.format(real=real))
    (slow / "stat").chmod(0o755)
    env = {**env, "PATH": f"{slow}:{env['PATH']}"}
    for round_ in range(2):
        stdin = tmp_path / f"edit{round_}.json"
        stdin.write_text(payload({**EDIT, "session_id": f"p{round_}"}))
        outs = start_together(repo, env, "post_edit", stdin, tmp_path)
        assert all(err == "" for _, err in outs)
        assert sum(1 for out, _ in outs if out.strip()) == 1, log(repo)


# --- stdout closed ---

def closed(repo: Path, env: dict[str, str], how: str, hook: str, stdin: object, *args: str
           ) -> subprocess.CompletedProcess[str]:
    cmd = f'bash .agent/hooks/{hook}.sh claude-code "$@" ' + (">&-" if how == "closed" else "| true")
    return subprocess.run(["/bin/bash", "-c", cmd, "host", *args], input=payload(stdin), cwd=repo,
                          env=env, capture_output=True, text=True, timeout=30)


@pytest.mark.parametrize("how", ["closed", "pipe"])
@pytest.mark.parametrize("userland", ALL)
def test_a_closed_stdout_leaves_stderr_quiet_and_the_block_file_fresh(tmp_path: Path, userland: str,
                                                                      how: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    inj = repo / ".agent/injected_context.txt"
    for n, (hook, stdin, args) in enumerate([("pre_task", START, ()), ("pre_task", START, ("--statusline",)),
                                             ("on_compact", COMPACT, ()), ("post_edit", EDIT, ()),
                                             ("pre_task", "", ("--archive",))]):
        write_memory(repo, notes=f"- note of step {n}\n")
        later = time.time() + 2 + n
        os.utime(repo / ".agent/memory/notes.md", (later, later))
        log0 = log(repo)
        res = closed(repo, env, how, hook, stdin, *args)
        assert res.returncode == 0 and res.stderr == "", (hook, args, res.stderr)
        new = log(repo)[len(log0):]
        assert "internal error" not in new and "write error" not in new, (hook, args, new)
        if hook != "post_edit" and not args:
            assert f"note of step {n}" in inj.read_text(), (hook, "injected_context.txt not refreshed")
    assert len(list((repo / ".agent/memory/archive").glob("snapshot_*.md"))) == 1


# --- a linked hooks folder; a state file of a newer release ---
PROMPT = {"session_id": "m1", "hook_event_name": "UserPromptSubmit", "prompt": "go on"}


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
