"""Every file teammates need is committed: install and doctor check each one with git's own
ignore rules, name the ignoring line (file:line:pattern) and give the `git add -f` that
commits it; doctor is not healthy while one is left out."""
from __future__ import annotations

import subprocess
from pathlib import Path

from support.helpers import cli, git, install, make_repo


def next_commit_line(out: str) -> str:
    return next(line for line in out.splitlines() if line.startswith("next: commit them: "))


def run_line(repo: Path, line: str) -> None:
    proc = subprocess.run(["bash", "-c", line.removeprefix("next: commit them: ")], cwd=repo,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_an_ignored_registration_is_named_with_its_fix_and_doctor_fails_until_added(
        tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    (repo / ".claude").mkdir()
    (repo / ".gitignore").write_text("node_modules/\n.codex/*\n")
    proc = install(repo, "--framework", "claude-code", "--framework", "codex")
    assert ("warning: .codex/hooks.json is ignored by .gitignore:2:.codex/*: git add skips it, "
            "so teammates would not get it") in proc.stdout
    line = next_commit_line(proc.stdout)
    assert line == "next: commit them: git add .agent .claude && git add -f .codex/hooks.json"
    doctor = cli("doctor", str(repo))
    assert doctor.returncode == 1
    assert ("fail  committed: .codex/hooks.json is ignored by .gitignore:2:.codex/*: git add "
            "skips it, so teammates would not get it: git add -f .codex/hooks.json") in doctor.stdout
    run_line(repo, line)
    assert ".codex/hooks.json" in git(repo, "ls-files").stdout.split()
    after = cli("doctor", str(repo))
    assert after.returncode == 0, after.stdout
    assert "ok    committed: no file teammates need is ignored by git" in after.stdout


def test_a_folder_pattern_in_info_exclude_is_found_and_its_fix_works(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    (repo / ".git/info").mkdir(exist_ok=True)
    (repo / ".git/info/exclude").write_text("# mine\n.agent/\n")
    proc = install(repo, "--framework", "generic")
    assert "is ignored by .git/info/exclude:2:.agent/" in proc.stdout
    line = next_commit_line(proc.stdout)
    # `git add .agent` would fail on a folder pattern: the line forces the files instead.
    assert line.startswith("next: commit them: git add -f .agent/") and " .agent " not in line
    for rel in (".agent/hooks/pre_task.sh", ".agent/config.yaml", ".agent/memory/tattoo.md",
                ".agent/.agenthooks.json"):
        assert rel in line
    assert ".agent/log" not in line  # the log is not committed
    assert cli("doctor", str(repo)).returncode == 1
    run_line(repo, line)
    assert cli("doctor", str(repo)).returncode == 0


def test_a_negated_pattern_and_a_tracked_file_are_committed(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    (repo / ".gitignore").write_text(".codex/*\n!.codex/hooks.json\n")
    proc = install(repo, "--framework", "codex")
    assert "warning:" not in proc.stdout and "git add -f" not in proc.stdout
    assert next_commit_line(proc.stdout) == "next: commit them: git add .agent .codex"
    assert cli("doctor", str(repo)).returncode == 0
    (repo / ".gitignore").write_text(".codex/*\n")
    git(repo, "add", "-f", ".codex/hooks.json")  # tracked: committed whatever a pattern says
    assert cli("doctor", str(repo)).returncode == 0


def test_outside_git_nothing_is_checked(tmp_path: Path) -> None:
    repo = tmp_path / "plain"
    repo.mkdir()
    proc = install(repo, "--framework", "generic")
    assert "git add -f" not in proc.stdout
    assert "committed" not in cli("doctor", str(repo)).stdout
