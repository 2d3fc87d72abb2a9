"""What install says is what it did and what is left to do, with --yes as at a prompt."""
from __future__ import annotations

import json
from pathlib import Path

from support.helpers import cli, git, install, make_repo


def test_yes_prints_the_git_add_line_and_the_import_hint(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    (repo / ".claude").mkdir()
    (repo / "CLAUDE.md").write_text("- Never push to main\n- Prefer small commits\n")
    out = install(repo).stdout
    assert ("next: 2 rule(s) of CLAUDE.md are not in .agent/memory/tattoo.md: agenthooks "
            "import picks them (install --yes --import takes the 1 ticked)") in out
    assert "next: put your rules in .agent/memory/tattoo.md" in out
    assert "next: commit them: git add .agent .claude\n" in out
    assert "Never push" not in (repo / ".agent/memory/tattoo.md").read_text()
    again = install(repo, "--import").stdout
    assert "imported 1 rule(s) into .agent/memory/tattoo.md from CLAUDE.md" in again
    assert "- Never push to main\n" in (repo / ".agent/memory/tattoo.md").read_text()
    assert "Prefer small commits" not in (repo / ".agent/memory/tattoo.md").read_text()


def test_the_first_merge_into_claude_settings_says_what_it_added(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    (repo / ".claude").mkdir()
    (repo / ".claude/settings.json").write_text(json.dumps({"permissions": {"allow": []}}))
    out = install(repo, "--framework", "claude-code").stdout
    line = next(ln for ln in out.splitlines() if ".claude/settings.json" in ln)
    assert line.split()[0] == "update"
    assert ("(added our hooks for 6 event(s): PostCompact, PostToolUse, PreCompact, "
            "SessionStart, SubagentStart, UserPromptSubmit, yours kept)") in line
    assert "refreshed" not in line


def test_a_deleted_hook_a_registration_calls_is_restored_and_doctor_names_it(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "installed")
    (repo / ".agent/hooks/pre_task.sh").unlink()
    doctor = cli("doctor", str(repo))
    assert doctor.returncode == 1
    assert ".agent/hooks/pre_task.sh is missing (deleted)" in doctor.stdout
    assert ".claude/settings.json points at .agent/hooks/pre_task.sh, which is missing" in doctor.stdout
    out = install(repo).stdout
    assert ("restore    .agent/hooks/pre_task.sh  (deleted, but needed by .claude/settings.json)"
            in out), out
    assert "up to date" not in out
    assert (repo / ".agent/hooks/pre_task.sh").is_file()
    assert cli("doctor", str(repo)).returncode == 0
