"""Odd git layouts: a bare repository is refused in one true line with nothing written; a
work tree whose git dir lives elsewhere (core.worktree, or GIT_DIR with GIT_WORK_TREE
exported for it) keeps its merge bases in that git dir; a pristine ref that a policy hook
refuses is said in one line, and upgrades still merge an edited hook."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from support.helpers import cli, make_repo
from support.upgrade import install_v0, upgrade, verdicts

REF = "refs/agenthooks/pristine"


def listing(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


@pytest.mark.parametrize("where", ["bare", "inside .git"])
@pytest.mark.parametrize("command", [["install", "--yes"], ["rule", "Keep it simple"], ["uninstall", "--yes"]])
def test_a_bare_repository_is_refused_in_one_line(tmp_path: Path, where: str, command: list[str]) -> None:
    if where == "bare":
        target = tmp_path / "bare.git"
        subprocess.run(["git", "init", "-q", "--bare", str(target)], check=True)
    else:
        target = make_repo(tmp_path) / ".git"
    before = listing(target)
    proc = cli(*command[:1], *command[1:], *([str(target)] if command[0] != "rule" else []),
               cwd=target if command[0] == "rule" else None)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    first = proc.stderr.splitlines()[0]
    what = "a bare git repository" if where == "bare" else "inside a git folder"
    assert first.startswith("agenthooks: ") and what in first and "not in a git repository" not in first, first
    assert len([ln for ln in proc.stderr.splitlines() if not ln.startswith("hint: ")]) == 1, proc.stderr
    assert listing(target) == before  # no .agent/ in the git dir


def separate(tmp_path: Path) -> tuple[Path, Path]:
    """A git dir (bare at first) whose core.worktree names a work tree with no .git."""
    gitdir, work = tmp_path / "store.git", tmp_path / "work"
    subprocess.run(["git", "init", "-q", "--bare", str(gitdir)], check=True)
    work.mkdir()
    subprocess.run(["git", "--git-dir", str(gitdir), "config", "core.bare", "false"], check=True)
    subprocess.run(["git", "--git-dir", str(gitdir), "config", "core.worktree", str(work)], check=True)
    return gitdir, work


def has_ref(gitdir: Path) -> bool:
    return subprocess.run(["git", "--git-dir", str(gitdir), "rev-parse", "--verify", "-q", REF],
                          capture_output=True).returncode == 0


@pytest.mark.parametrize("how", ["from the git dir", "GIT_DIR exported", "GIT_DIR and GIT_WORK_TREE"])
def test_a_work_tree_with_its_git_dir_elsewhere_keeps_its_merge_bases(tmp_path: Path, how: str) -> None:
    gitdir, work = separate(tmp_path)
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_") or k.startswith("GIT_CONFIG")}
    env.update({"GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@e.invalid",
                "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@e.invalid"})
    cwd = gitdir if how == "from the git dir" else work
    if how != "from the git dir":
        env["GIT_DIR"] = str(gitdir)
    if how == "GIT_DIR and GIT_WORK_TREE":
        env["GIT_WORK_TREE"] = str(work)
    import sys

    proc = subprocess.run([sys.executable, "-m", "agenthooks", "install", "--yes", "--framework",
                           "claude-code"], cwd=cwd, env=env, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "not in a git repository" not in proc.stderr, proc.stderr
    assert (work / ".agent/hooks/pre_task.sh").is_file() and not (gitdir / ".agent").exists()
    assert has_ref(gitdir), proc.stdout + proc.stderr


REFUSE = """#!/bin/sh
# A policy hook: no ref under refs/agenthooks/.
[ "$1" = prepared ] || exit 0
while read -r old new ref; do
  case $ref in refs/agenthooks/*) echo "policy: refs/agenthooks is not allowed" >&2; exit 1 ;; esac
done
exit 0
"""


def test_a_refused_pristine_ref_is_said_and_upgrades_still_merge(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    hook = repo / ".git/hooks/reference-transaction"
    hook.parent.mkdir(parents=True, exist_ok=True)
    hook.write_text(REFUSE)
    hook.chmod(0o755)
    install_v0(repo, store=False)  # the first release, no merge base kept
    proc = upgrade(repo)  # its pristine hooks replaced: the new renders kept, the ref refused
    assert proc.returncode == 0, proc.stderr
    said = [ln for ln in proc.stderr.splitlines() if REF in ln]
    assert len(said) == 1 and said[0].startswith("agenthooks: warning: ") and "git gc" in said[0], proc.stderr
    assert not has_ref(repo / ".git")
    # The user edits a hook (never committed); the next install, which renders it anew (in
    # another language), merges it from the blob the manifest names, still in the object store.
    pre = repo / ".agent/hooks/pre_task.sh"
    pre.write_text(pre.read_text() + "# my own note at the end\n")
    out = upgrade(repo, "--allow-dirty", "--lang", "zh")
    assert out.returncode == 0, out.stdout + out.stderr
    assert verdicts(out.stdout)[".agent/hooks/pre_task.sh"][0] == "merge", out.stdout
    assert pre.read_text().endswith("# my own note at the end\n")
