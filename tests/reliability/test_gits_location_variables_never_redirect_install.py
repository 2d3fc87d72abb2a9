"""Git's location variables: an exported GIT_DIR (GIT_WORK_TREE, GIT_INDEX_FILE...) naming
another repo never redirects install."""
from __future__ import annotations

from pathlib import Path

from support.helpers import cli, git, make_repo


def test_exported_git_dir_does_not_redirect_install(tmp_path: Path) -> None:
    other = make_repo(tmp_path, "other")
    repo = make_repo(tmp_path, "repo")
    env = {"GIT_DIR": str(other / ".git"), "GIT_WORK_TREE": str(other),
           "GIT_INDEX_FILE": str(other / ".git" / "index")}
    proc = cli("install", "--yes", str(repo), env=env)
    assert proc.returncode == 0, proc.stderr
    assert "not in a git repository" not in proc.stdout + proc.stderr
    # The merge bases went to the repo it was given, none to the other one.
    assert git(repo, "rev-parse", "--verify", "--quiet", "refs/agenthooks/pristine",
               check=False).returncode == 0
    assert git(other, "rev-parse", "--verify", "--quiet", "refs/agenthooks/pristine",
               check=False).returncode != 0
    assert not (other / ".agent").exists()
