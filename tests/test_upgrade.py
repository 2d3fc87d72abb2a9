"""Upgrading from a past release (the first: tests/fixtures/release_rev1) to the current templates:
one truthful verdict per file, and memory untouched byte for byte in every scenario."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from agenthooks import config, manifest, render
from support.helpers import SAMPLE_SNAPSHOT, SAMPLE_TATTOO, cli, git, make_repo, memory_bytes, run_hook
from support.tree import tree
from support.upgrade import (assert_truthful, commit_all, install_v0, resolve, upgrade,
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
    assert v[CFG][0] == "update" and "migrated version 1 -> 6" in v[CFG][1]
    assert v[".agent/memory/tattoo.md"][0] == "keep"
    assert v[".agent/.gitignore"][0] == "identical"
    records = json.loads((repo / manifest.PATH).read_text())["files"]
    assert records[PRE]["rev"] == render.TEMPLATE_REVS["hooks/pre_task.sh"] > 1
    # A second run changes nothing, and says so.
    first = tree(repo)
    again = run_truthful(repo)
    assert again.returncode == 0
    assert tree(repo) == first
    assert "already migrated (version 6)" in verdicts(again.stdout)[CFG][1]
    assert "up to date: nothing changed" in again.stdout


def test_edit_without_conflict_is_merged(repo: Path) -> None:
    path = repo / POST
    path.write_text(path.read_text().replace("set -euo pipefail\n", "set -euo pipefail\n# my local tweak\n", 1))
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
    install_v0(r, "claude-code")
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
        assert f"<<<<<<< {hook} (yours)" in (r / side).read_text()
        assert os.access(r / side, os.X_OK)
    assert "UU" not in git(r, "status", "--porcelain").stdout
    for hook in ("pre_task", "on_compact", "post_edit"):
        ran = run_hook(r, hook, CLAUDE_PROMPT, "claude-code")
        assert ran.returncode == 0, (hook, ran.stderr)
        assert "syntax error" not in ran.stderr
        if hook != "post_edit":
            context = json.loads(ran.stdout)["hookSpecificOutput"]["additionalContext"]
            assert "Indent with 4 spaces" in context, hook
    assert cli("doctor", str(r)).returncode == 1
    assert "agenthooks-new" in cli("doctor", str(r)).stdout
    # Until the side files are gone, the conflict is reported again and they are left as is.
    sides = {hook: (r / (hook + ".agenthooks-new")).read_bytes() for hook in (PRE, COMPACT)}
    again = run_truthful(r)
    assert again.returncode == 1
    assert {verdicts(again.stdout)[h][0] for h in (PRE, COMPACT)} == {"conflict"}
    assert "unresolved" in verdicts(again.stdout)[PRE][1]
    assert all((r / (h + ".agenthooks-new")).read_bytes() == sides[h] for h in sides)
    # Resolved: pre_task takes the merge (its own line kept), on_compact keeps the user's file.
    side = r / (PRE + ".agenthooks-new")
    side.write_text(resolve(side.read_text(), "yours"))
    os.replace(side, r / PRE)
    (r / (COMPACT + ".agenthooks-new")).unlink()
    resolved = (r / PRE).read_text()
    assert "# Never upgrade this file, says our team." in resolved
    assert f"template=hooks/pre_task.sh@{render.TEMPLATE_REVS['hooks/pre_task.sh']}" in resolved
    commit_all(r, "resolved")
    done = run_truthful(r)
    assert done.returncode == 0, done.stdout
    for hook in (PRE, COMPACT):
        assert verdicts(done.stdout)[hook] == ("keep", "edited by you; conflict resolved "
                                               f"({Path(hook).name}.agenthooks-new is gone)")
    assert cli("doctor", str(r)).returncode == 0, cli("doctor", str(r)).stdout
    # The resolution is the new merge base: nothing is reported again.
    last = run_truthful(r)
    assert last.returncode == 0 and "up to date: nothing changed" in last.stdout
    assert verdicts(last.stdout)[PRE] == ("keep", "edited by you; nothing new to merge")


def test_config_with_conflict_markers_still_gives_memory(tmp_path: Path) -> None:
    """config.yaml never gets markers from an upgrade (migrations splice text in), but a
    git merge may leave some: the hooks still exit 0 and print memory."""
    r = make_repo(tmp_path)
    install_v0(r, "claude-code")
    upgrade(r)
    (r / ".agent/memory/tattoo.md").write_text(SAMPLE_TATTOO)
    cfg = r / CFG
    cfg.write_text(cfg.read_text().replace(
        "budget_tokens: 500\n", "<<<<<<< ours\nbudget_tokens: 900\n=======\n"
        "budget_tokens: 500\n>>>>>>> theirs\n"))
    for hook in ("pre_task", "on_compact", "post_edit"):
        ran = run_hook(r, hook, CLAUDE_PROMPT, "claude-code")
        assert ran.returncode == 0, (hook, ran.stderr)
        if hook != "post_edit":
            assert "Indent with 4 spaces" in ran.stdout, hook


def test_conflict_in_a_file_nothing_runs_is_marked_in_place_and_unmerged(tmp_path: Path) -> None:
    """.agent/.gitignore is no code: its conflict may be marked in place, as git does."""
    r = make_repo(tmp_path)
    upgrade(r)
    rel = ".agent/.gitignore"
    new = (r / rel).read_text()
    assert "/log/\n" in new
    # A past render that differs from today's on the line the user edits too.
    base = new.replace("/log/\n", "/logs/\n").encode()
    blob = subprocess.run(["git", "-C", str(r), "hash-object", "-w", "--stdin"], input=base,
                          capture_output=True, check=True).stdout.decode().strip()
    data = json.loads((r / manifest.PATH).read_text())
    data["files"][rel].update(blob=blob, sha256=manifest.sha256(base))
    (r / manifest.PATH).write_text(json.dumps(data))
    (r / rel).write_text(new.replace("/log/\n", "/log-mine/\n"))
    commit_all(r, "edit")
    proc = run_truthful(r)
    assert proc.returncode == 1
    verdict, note = verdicts(proc.stdout)[rel]
    assert verdict == "conflict" and "marked in place" in note and "unmerged" in note
    text = (r / rel).read_text()
    assert f"<<<<<<< {rel} (yours)" in text and "/log-mine/" in text
    assert ">>>>>>> agenthooks (new)" in text
    stages = git(r, "ls-files", "-u", "--", rel).stdout.split()
    assert [stages[i] for i in (2, 6, 10)] == ["1", "2", "3"]
    assert git(r, "status", "--porcelain", "--", rel).stdout.startswith("UU ")
    # Until resolved, every run says conflict again and writes nothing more.
    again = run_truthful(r)
    assert again.returncode == 1 and verdicts(again.stdout)[rel][0] == "conflict"


def test_conflict_new_leaves_the_file_and_writes_a_side_file(repo: Path) -> None:
    edit(repo, PRE, V0_LINE, "# ours, ours, ours")
    commit_all(repo, "edit")
    mine = (repo / PRE).read_bytes()
    proc = run_truthful(repo, "--conflict", "new")
    assert proc.returncode == 1
    assert (repo / PRE).read_bytes() == mine
    side = repo / (PRE + ".agenthooks-new")
    assert f"template=hooks/pre_task.sh@{render.TEMPLATE_REVS['hooks/pre_task.sh']}" in side.read_text()
    assert "agenthooks-new" in verdicts(proc.stdout)[PRE][1]
    # The base stays the old render: the clash is reported again, never silently dropped.
    assert verdicts(run_truthful(repo, "--conflict", "new").stdout)[PRE][0] == "conflict"


def test_missing_merge_base_falls_back_to_a_side_file(repo: Path) -> None:
    edit(repo, PRE, V0_LINE, "# edited")
    commit_all(repo, "edit")
    data = json.loads((repo / manifest.PATH).read_text())
    data["files"][PRE]["blob"] = "0" * 40
    (repo / manifest.PATH).write_text(json.dumps(data))
    commit_all(repo, "lost base")
    mine = (repo / PRE).read_bytes()
    proc = run_truthful(repo)
    assert proc.returncode == 1
    verdict, note = verdicts(proc.stdout)[PRE]
    assert verdict == "conflict" and "no merge base" in note
    assert (repo / PRE).read_bytes() == mine
    assert (repo / (PRE + ".agenthooks-new")).is_file()


def test_uncommitted_pristine_render_survives_gc(tmp_path: Path) -> None:
    """The base is kept reachable, so an edit made before the first commit still merges."""
    r = make_repo(tmp_path)
    install_v0(r)
    path = r / POST
    path.write_text(path.read_text().replace("set -euo pipefail\n", "set -euo pipefail\n# tweak\n", 1))
    commit_all(r, "hooks committed only after an edit")
    git(r, "reflog", "expire", "--expire=now", "--all")
    git(r, "gc", "-q", "--prune=now")
    proc = upgrade(r)
    assert verdicts(proc.stdout)[POST][0] == "merge", proc.stdout


def test_deleted_file_stays_deleted_until_restored(repo: Path) -> None:
    (repo / COMPACT).unlink()
    commit_all(repo, "rm")
    proc = run_truthful(repo)
    assert verdicts(proc.stdout)[COMPACT][0] == "keep"
    assert not (repo / COMPACT).exists()
    assert not (repo / COMPACT).exists()
    back = run_truthful(repo, "--restore", COMPACT)
    assert verdicts(back.stdout)[COMPACT][0] == "create"
    assert (repo / COMPACT).stat().st_mode & 0o111
    bad = upgrade(repo, "--restore", ".agent/memory/nope.md")
    assert bad.returncode == 1 and len(bad.stderr.strip().splitlines()) == 1


def test_foreign_file_in_our_path_is_moved_to_legacy(tmp_path: Path) -> None:
    r = make_repo(tmp_path)
    (r / ".agent/hooks").mkdir(parents=True)
    (r / PRE).write_text("#!/bin/sh\necho mine\n")
    before = tree(r)
    proc = upgrade(r)
    assert proc.returncode == 0
    assert_truthful(before, tree(r), proc.stdout)
    assert verdicts(proc.stdout)[PRE][0] == "skip"
    assert (r / (PRE + ".legacy")).read_text() == "#!/bin/sh\necho mine\n"
    assert "agenthooks-owned" in (r / PRE).read_text()


def test_foreign_file_refused_when_legacy_exists(tmp_path: Path) -> None:
    r = make_repo(tmp_path)
    (r / ".agent/hooks").mkdir(parents=True)
    (r / PRE).write_text("#!/bin/sh\necho mine\n")
    (r / (PRE + ".legacy")).write_text("older\n")
    before = tree(r)
    proc = upgrade(r)
    assert proc.returncode == 1
    assert_truthful(before, tree(r), proc.stdout)
    verdict, note = verdicts(proc.stdout)[PRE]
    assert verdict == "skip" and "left alone" in note
    assert (r / PRE).read_text() == "#!/bin/sh\necho mine\n"
    assert (r / (PRE + ".legacy")).read_text() == "older\n"


def test_edited_framework_settings_keep_the_users_entries(tmp_path: Path) -> None:
    r = make_repo(tmp_path)
    install_v0(r, "claude-code")
    settings = r / ".claude/settings.json"
    data = json.loads(settings.read_text())
    # Between installs the user adds their own key and hook; ours look like an older
    # release's (a different timeout).
    data["model"] = "opus"
    data["hooks"].setdefault("Stop", []).append(
        {"hooks": [{"type": "command", "command": "./scripts/notify.sh"}]})
    for group in data["hooks"]["UserPromptSubmit"]:
        for handler in group["hooks"]:
            handler["timeout"] = 7
    settings.write_text(json.dumps(data, indent=2) + "\n")
    commit_all(r, "user settings")
    before = tree(r)
    proc = upgrade(r)
    assert proc.returncode == 0, proc.stderr
    assert_truthful(before, tree(r), proc.stdout)
    assert verdicts(proc.stdout)[".claude/settings.json"][0] == "update"
    new = json.loads(settings.read_text())
    assert new["model"] == "opus"
    assert new["hooks"]["Stop"][0]["hooks"][0]["command"] == "./scripts/notify.sh"
    ours = [h for g in new["hooks"]["UserPromptSubmit"] for h in g["hooks"]]
    assert [h["timeout"] for h in ours if "on_compact.sh" in h["command"]] == [30]


def test_dirty_managed_file_blocks_unless_allowed(repo: Path) -> None:
    path = repo / POST
    path.write_text(path.read_text().replace("set -euo pipefail\n", "set -euo pipefail\n# wip\n", 1))
    before = tree(repo)
    proc = upgrade(repo)
    assert proc.returncode == 1
    assert len(proc.stderr.strip().splitlines()) == 1 and "--allow-dirty" in proc.stderr
    assert tree(repo) == before
    ok = run_truthful(repo, "--allow-dirty")
    assert ok.returncode == 0 and verdicts(ok.stdout)[POST][0] == "merge"


def test_dirty_unrelated_file_does_not_block(repo: Path) -> None:
    (repo / "README.md").write_text("work in progress\n")
    notes = repo / ".agent/memory/notes.md"
    committed = notes.read_bytes()
    notes.write_bytes(committed + b"- a note the agent just wrote\n")
    dirty_memory = memory_bytes(repo)
    proc = run_truthful(repo)
    assert proc.returncode == 0, proc.stderr
    assert memory_bytes(repo) == dirty_memory
    notes.write_bytes(committed)


@pytest.mark.parametrize("scenario", ["pristine", "merge", "conflict", "deleted", "foreign"])
def test_dry_run_writes_nothing_and_prints_the_real_verdicts(repo: Path, scenario: str) -> None:
    if scenario == "merge":
        (repo / POST).write_text((repo / POST).read_text() + "# tail\n")
    elif scenario == "conflict":
        edit(repo, PRE, V0_LINE, "# clash")
    elif scenario == "deleted":
        (repo / COMPACT).unlink()
    elif scenario == "foreign":
        (repo / ".agent/.gitignore").write_text("mine\n")
        data = json.loads((repo / manifest.PATH).read_text())
        del data["files"][".agent/.gitignore"]
        (repo / manifest.PATH).write_text(json.dumps(data))
    commit_all(repo, scenario)
    before = tree(repo)
    index = git(repo, "ls-files", "-s").stdout
    dry = upgrade(repo, "--dry-run")
    assert "Traceback" not in dry.stderr
    assert tree(repo) == before
    assert git(repo, "ls-files", "-s").stdout == index
    assert "nothing was written" in dry.stdout
    real = run_truthful(repo)
    assert verdict_lines(dry.stdout) == verdict_lines(real.stdout)


def test_errors_are_one_line_and_write_nothing(repo: Path) -> None:
    (repo / CFG).write_text("budget_tokens: [unclosed\n")
    commit_all(repo, "broken config")
    before = tree(repo)
    proc = upgrade(repo)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("agenthooks: ")
    assert tree(repo) == before
    bad = upgrade(repo, "--conflict", "maybe")
    assert bad.returncode != 0 and "Traceback" not in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1


def test_no_git_repo_still_upgrades_pristine_files(tmp_path: Path) -> None:
    r = tmp_path / "plain"
    r.mkdir()
    install_v0(r)
    (r / PRE).write_text((r / PRE).read_text().replace(V0_LINE, "# mine"))
    before = tree(r)
    proc = upgrade(r)
    assert_truthful(before, tree(r), proc.stdout)
    v = verdicts(proc.stdout)
    assert v[PRE][0] == "conflict" and "no merge base" in v[PRE][1]
    assert "unmerged" not in v[PRE][1]
    # The other hooks wait for it (one release runs); the files outside the hooks update.
    assert v[POST][0] == "keep" and "held at the installed release" in v[POST][1]
    assert v[".agent/.gitignore"][0] in ("update", "identical")
    (r / PRE).write_bytes((r / (PRE + ".agenthooks-new")).read_bytes())
    (r / (PRE + ".agenthooks-new")).unlink()
    v = verdicts(upgrade(r).stdout)
    assert v[POST][0] == "update" and v[PRE][0] == "identical", v


# --- config.yaml migrations --------------------------------------------------------------

V1 = """# my team's settings
version: 1
budget_tokens: 900   # we like it big
notes_count: 3
summary_markers: "MY MARKER"
"""


def test_migration_keeps_values_and_comments_and_is_idempotent() -> None:
    new, old_v, new_v, added = config.migrate(V1)
    assert (old_v, new_v, added) == (1, 6, ["enabled", "fresh_after_compactions", "flush_at_percent",
                                         "context_window_tokens", "board", "summary_budget_tokens",
                                         "working_set_files", "subagent_budget_tokens", "subagent_skip"])
    assert new.startswith("# my team's settings\nversion: 6\nbudget_tokens: 900   # we like it big\n")
    assert "enabled: true" in new and "board: shared" in new  # a repo from before boards keeps one
    assert config.migrate(new) == (new, 6, 6, [])
    # A key the user already added is kept as they wrote it.
    mine = V1 + "enabled: false  # paused\n"
    out = config.migrate(mine)[0]
    assert "enabled: false  # paused" in out and out.count("enabled:") == 1
    # No version line at all: an original v1 file.
    assert config.migrate("budget_tokens: 600\n")[0].startswith("version: 6\nbudget_tokens: 600\n")
    # Never downgraded.
    assert config.migrate("version: 9\n") == ("version: 9\n", 9, 9, [])


def test_migrated_config_is_read_by_the_hooks(repo: Path) -> None:
    (repo / CFG).write_text((repo / CFG).read_text().replace("budget_tokens: 500",
                                                             "budget_tokens: 777  # mine"))
    commit_all(repo, "budget")
    proc = run_truthful(repo)
    assert proc.returncode == 0
    text = (repo / CFG).read_text()
    assert "budget_tokens: 777  # mine" in text and "version: 6" in text and "enabled: true" in text
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
