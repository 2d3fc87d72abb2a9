"""Every hook the CLI starts gets a clean git environment: a GIT_DIR / GIT_WORK_TREE
exported by the caller (a git hook, a script) never points the hook at another repo."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from support.helpers import cli, git, install, make_repo, run_hook

HOOKS = Path(".agent/hooks")


def other_repo(tmp_path: Path) -> dict[str, str]:
    """git's location variables naming another, empty repo."""
    other = make_repo(tmp_path, "other")
    return {"GIT_DIR": str(other / ".git"), "GIT_WORK_TREE": str(other),
            "GIT_INDEX_FILE": str(other / ".git" / "index")}


def test_show_under_another_repos_git_dir_matches_a_clean_run(tmp_path: Path) -> None:
    # Memory renamed away from a repo whose git tracks it: the answer must not depend on which
    # repo an inherited GIT_DIR names (that the hooks get no GIT_DIR at all: the stand-in
    # hook tests below).
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "install")
    shutil.move(str(repo / ".agent/memory"), str(tmp_path / "memory.away"))
    foreign = other_repo(tmp_path)
    clean = cli("show", str(repo))
    under = cli("show", str(repo), env=foreign)
    assert (under.returncode, under.stdout) == (clean.returncode, clean.stdout), under.stderr
    assert not (repo / ".agent/memory").exists()


STUB = """#!/usr/bin/env bash
{{ echo ran; env | grep '^GIT_'; }} >> {log}
echo '===== AGENT MEMORY BEGIN ====='
echo '===== AGENT MEMORY END ====='
"""


@pytest.mark.parametrize("command", ["show", "doctor", "simulate"])
def test_no_git_location_variable_reaches_a_hook(tmp_path: Path, command: str) -> None:
    # A stand-in hook records the git variables it was started with.
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code")
    log = tmp_path / "seen.txt"
    log.write_text("")
    for name in ("pre_task", "post_edit", "on_compact"):
        (repo / HOOKS / f"{name}.sh").write_text(STUB.format(log=log))
    cli(command, str(repo), env=other_repo(tmp_path))
    seen = log.read_text().splitlines()
    assert "ran" in seen, f"{command} started no hook"
    leaked = [line for line in seen
              if line.startswith(("GIT_DIR=", "GIT_WORK_TREE=", "GIT_INDEX_FILE="))]
    assert leaked == [], leaked
