"""A Claude Code install on a userland (git on PATH if asked) and its hook runs, for the
promise files on memory that moves, links, parallel reminders and a closed stdout."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from support.helpers import install, make_repo, payload, run_hook, SAMPLE_SNAPSHOT, SAMPLE_TATTOO, write_memory
from support.userlands import ALL, env_for, USERLANDS


START = {"session_id": "m1", "hook_event_name": "SessionStart", "source": "startup"}
EDIT = {"session_id": "m1", "hook_event_name": "PostToolUse", "tool_input": {"file_path": "src/a.py"}}
COMPACT = {"session_id": "m1", "hook_event_name": "UserPromptSubmit",
           "prompt": "CONTEXT CHECKPOINT COMPACTION"}


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
    return run_hook(repo, hook, stdin, "claude-code", *args, env=env, inherit=False, bash="/bin/bash",
                    timeout=timeout)


def log(repo: Path) -> str:
    f = repo / ".agent/log/memory.log"
    return f.read_text() if f.exists() else ""


def memory_files(repo: Path) -> dict[str, bytes]:
    mem = repo / ".agent/memory"
    return {str(p.relative_to(mem)): p.read_bytes() for p in sorted(mem.rglob("*")) if p.is_file()}


# --- parallel reminders ---

SLOW_STAT = """#!/bin/bash
# stat on a loaded machine: 0 to 0.5 s late, a different delay for each edit.
/bin/sleep "0.$((RANDOM % 6))"
exec {real} "$@"
"""
