"""Upgrading from a past release (tests/fixtures/templates_v0) to the current templates:
one truthful verdict per file, and memory untouched byte for byte in every scenario."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from agenthooks import config, manifest, render
from support.helpers import SAMPLE_SNAPSHOT, SAMPLE_TATTOO, cli, git, make_repo, memory_bytes, run_hook
from support.upgrade import (assert_truthful, commit_all, install_v0, resolve, tree, upgrade,
                                  verdict_lines, verdicts)

PRE = ".agent/hooks/pre_task.sh"
POST = ".agent/hooks/post_edit.sh"
COMPACT = ".agent/hooks/on_compact.sh"
CFG = ".agent/config.yaml"
V0_LINE = "# Re-run 'agenthooks install' to upgrade this file."


@pytest.fixture
def repo(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A git repo installed with the past release, with real memory and an archive,
    committed; after the test, memory must be byte-identical."""
    r = make_repo(tmp_path)
    install_v0(r)
    mem = r / ".agent/memory"
    (mem / "tattoo.md").write_text(SAMPLE_TATTOO)
    (mem / "snapshot.md").write_text(SAMPLE_SNAPSHOT)
    (mem / "notes.md").write_text("- note one\n- 注意 two\n")
    (mem / "archive").mkdir()
    (mem / "archive/snapshot_20240101_000000.md").write_bytes(b"old \xff bytes\n")
    commit_all(r, "v0")
    before = memory_bytes(r)
    assert "archive/snapshot_20240101_000000.md" in before
    yield r
    assert memory_bytes(r) == before


def run_truthful(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    before = tree(repo)
    proc = upgrade(repo, *args)
    assert_truthful(before, tree(repo), proc.stdout)
    return proc


def edit(repo: Path, rel: str, old: str, new: str) -> None:
    path = repo / rel
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def test_pristine_upgrade_updates_hooks_and_migrates_config(repo: Path) -> None:
    proc = run_truthful(repo)
    assert proc.returncode == 0, proc.stderr
    v = verdicts(proc.stdout)
    for hook in (PRE, POST, COMPACT):
        assert v[hook][0] == "update"
        assert "template=" in (repo / hook).read_text()
        assert V0_LINE not in (repo / hook).read_text()
    assert v[CFG][0] == "update" and "migrated version 1 -> 5" in v[CFG][1]
    assert v[".agent/memory/tattoo.md"][0] == "keep"
    assert v[".agent/.gitignore"][0] == "identical"
    records = json.loads((repo / manifest.PATH).read_text())["files"]
    assert records[PRE]["rev"] == render.TEMPLATE_REVS["hooks/pre_task.sh"] > 1
    # A second run changes nothing, and says so.
    first = tree(repo)
    again = run_truthful(repo)
    assert again.returncode == 0
    assert tree(repo) == first
    assert "already migrated (version 5)" in verdicts(again.stdout)[CFG][1]
    assert "up to date: nothing changed" in again.stdout


def test_edit_without_conflict_is_merged(repo: Path) -> None:
    path = repo / POST
    path.write_text(path.read_text().replace('main "$@"\n', '# my local tweak\nmain "$@"\n'))
    commit_all(repo, "edit")
    proc = run_truthful(repo)
    assert proc.returncode == 0
    assert verdicts(proc.stdout)[POST] == ("merge", "your edits kept")
    text = path.read_text()
    assert "# my local tweak" in text and V0_LINE not in text
    assert run_hook(repo, "post_edit", "{}").returncode == 0
    # Nothing new to merge next time: the edit is kept, not rewritten.
    assert verdicts(run_truthful(repo).stdout)[POST][0] == "keep"


CLAUDE_PROMPT = {"session_id": "s1", "hook_event_name": "UserPromptSubmit",
                 "prompt": "This session is being continued from a previous conversation"}


def test_hook_conflict_leaves_every_hook_runnable(tmp_path: Path) -> None:
    """Markers in a hook are a bash syntax error: exit 2, no memory, and Claude Code blocks
    the prompt. A conflict in a hook goes to FILE.agenthooks-new; the user's hook runs on."""
    r = make_repo(tmp_path)
    install_v0(r, "--framework", "claude-code")
    (r / ".agent/memory/tattoo.md").write_text(SAMPLE_TATTOO)
    commit_all(r, "v0")
    for hook in (PRE, COMPACT):
        edit(r, hook, V0_LINE, "# Never upgrade this file, says our team.")
    commit_all(r, "edit")
    mine = {hook: (r / hook).read_bytes() for hook in (PRE, COMPACT)}
    proc = run_truthful(r)
    assert proc.returncode == 1
    v = verdicts(proc.stdout)
    for hook in (PRE, COMPACT):
        verdict, note = v[hook]
        side = hook + ".agenthooks-new"
        assert verdict == "conflict" and "still runs" in note, note
        assert f"marked in {side}" in note and f"move it over {hook}" in note, note
        assert (r / hook).read_bytes() == mine[hook]
        assert f"                                         "context_window_tokens", "board", "summary_budget_tokens",
                                         "working_set_files"])
    assert new.startswith("# my team's settings\nversion: 5\nbudget_tokens: 900   # we like it big\n")
    assert "enabled: true" in new and "board: shared" in new  # a repo from before boards keeps one
    assert config.migrate(new) == (new, 5, 5, [])
    # A key the user already added is kept as they wrote it.
    mine = V1 + "enabled: false  # paused\n"
    out = config.migrate(mine)[0]
    assert "enabled: false  # paused" in out and out.count("enabled:") == 1
    # No version line at all: an original v1 file.
    assert config.migrate("budget_tokens: 600\n")[0].startswith("version: 5\nbudget_tokens: 600\n")
    # Never downgraded.
    assert config.migrate("version: 9\n") == ("version: 9\n", 9, 9, [])


def test_migrated_config_is_read_by_the_hooks(repo: Path) -> None:
    (repo / CFG).write_text((repo / CFG).read_text().replace("budget_tokens: 500",
                                                             "budget_tokens: 777  # mine"))
    commit_all(repo, "budget")
    proc = run_truthful(repo)
    assert proc.returncode == 0
    text = (repo / CFG).read_text()
    assert "budget_tokens: 777  # mine" in text and "version: 5" in text and "enabled: true" in text
    shown = run_hook(repo, "pre_task", "", "--show")
    assert shown.returncode == 0 and "Indent with 4 spaces" in shown.stdout
    assert "config.yaml" not in shown.stderr
    (repo / CFG).write_text(text.replace("enabled: true", "enabled: false"))
    off = run_hook(repo, "pre_task", "", "--show")
    assert off.returncode == 0 and off.stdout == ""
    assert run_hook(repo, "on_compact", '{"prompt":"hi"}').stdout == ""


def test_config_deleted_by_the_user_stays_deleted(repo: Path) -> None:
    (repo / CFG).unlink()
    commit_all(repo, "no config")
    proc = run_truthful(repo)
    assert verdicts(proc.stdout)[CFG][0] == "keep" and not (repo / CFG).exists()
