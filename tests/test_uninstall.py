"""agenthooks uninstall: our entries and pristine files go; memory, config, edits and the
user's own files stay or come back."""
from __future__ import annotations

import json
from pathlib import Path

from helpers import cli, install, make_repo, memory_bytes, write_memory, SAMPLE_TATTOO
from test_upgrade_helpers import assert_truthful, tree, verdicts

PRE = ".agent/hooks/pre_task.sh"


def uninstall(repo: Path, *args: str):  # type: ignore[no-untyped-def]
    proc = cli("uninstall", str(repo), *args)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def installed(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path)
    settings = repo / ".claude/settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"model": "opus", "hooks": {"Stop": [
        {"hooks": [{"type": "command", "command": "./notify.sh"}]}]}}, indent=2) + "\n")
    install(repo, "--framework", "claude-code")
    write_memory(repo, tattoo=SAMPLE_TATTOO)
    return repo


def test_uninstall_removes_ours_and_keeps_the_rest(tmp_path: Path) -> None:
    repo = installed(tmp_path)
    memory = memory_bytes(repo)
    config = (repo / ".agent/config.yaml").read_bytes()
    before = tree(repo)
    proc = uninstall(repo)
    assert proc.returncode == 0, proc.stderr
    assert_truthful(before, tree(repo), proc.stdout)
    assert memory_bytes(repo) == memory
    assert (repo / ".agent/config.yaml").read_bytes() == config
    assert not (repo / PRE).exists() and not (repo / ".agent/hooks").exists()
    assert not (repo / ".agent/.agenthooks.json").exists()
    data = json.loads((repo / ".claude/settings.json").read_text())
    assert data["model"] == "opus"
    assert list(data["hooks"]) == ["Stop"]
    assert "agent/hooks" not in (repo / ".claude/settings.json").read_text()


def test_edited_files_stay_and_are_named(tmp_path: Path) -> None:
    repo = installed(tmp_path)
    (repo / PRE).write_text((repo / PRE).read_text() + "# mine\n")
    proc = uninstall(repo)
    v = verdicts(proc.stdout)
    assert v[PRE] == ("keep", "edited by you: left in place")
    assert (repo / PRE).read_text().endswith("# mine\n")
    # The manifest keeps the record, so a later install can still merge into the edit.
    assert PRE in json.loads((repo / ".agent/.agenthooks.json").read_text())["files"]


def test_legacy_file_comes_back(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    (repo / ".agent/hooks").mkdir(parents=True)
    (repo / PRE).write_text("#!/bin/sh\necho mine\n")
    install(repo)
    assert (repo / (PRE + ".legacy")).is_file()
    proc = uninstall(repo)
    assert verdicts(proc.stdout)[PRE][0] == "restore"
    assert (repo / PRE).read_text() == "#!/bin/sh\necho mine\n"
    assert not (repo / (PRE + ".legacy")).exists()


def test_dry_run_writes_nothing(tmp_path: Path) -> None:
    repo = installed(tmp_path)
    before = tree(repo)
    dry = uninstall(repo, "--dry-run")
    assert dry.returncode == 0 and tree(repo) == before
    real = uninstall(repo)
    assert [l for l in dry.stdout.splitlines() if l.startswith("  ")] == \
        [l for l in real.stdout.splitlines() if l.startswith("  ")]


def test_purge_needs_yes_without_a_terminal(tmp_path: Path) -> None:
    repo = installed(tmp_path)
    before = tree(repo)
    proc = uninstall(repo, "--purge")
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and "--yes" in proc.stderr
    assert tree(repo) == before
    ok = uninstall(repo, "--purge", "--yes")
    assert ok.returncode == 0 and not (repo / ".agent").exists()
    assert json.loads((repo / ".claude/settings.json").read_text())["model"] == "opus"


def test_nothing_to_uninstall(tmp_path: Path) -> None:
    proc = uninstall(make_repo(tmp_path))
    assert proc.returncode == 1 and len(proc.stderr.strip().splitlines()) == 1
