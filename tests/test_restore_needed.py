"""A hook the user deleted that another hook still sources: install writes it again
(verdict `restore`, naming the hooks that need it), doctor's hint is the command that fixes
it, and uninstall names a kept hook that can no longer run."""
from __future__ import annotations

from pathlib import Path

from support.helpers import cli, git, install, make_repo, run_hook
from support.tree import tree
from support.upgrade import assert_truthful, commit_all, upgrade, verdicts

PRE = ".agent/hooks/pre_task.sh"
POST = ".agent/hooks/post_edit.sh"
COMPACT = ".agent/hooks/on_compact.sh"
PRELUDE = ".agent/hooks/lib/prelude.sh"


def installed(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path)
    install(repo)
    commit_all(repo, "installed")
    return repo


def test_a_deleted_library_part_is_restored_because_the_hooks_need_it(tmp_path: Path) -> None:
    repo = installed(tmp_path)
    (repo / PRELUDE).unlink()
    assert "lib/prelude.sh is missing" in run_hook(repo, "post_edit").stderr
    before = tree(repo)
    proc = upgrade(repo)
    assert proc.returncode == 0, proc.stderr
    assert_truthful(before, tree(repo), proc.stdout)
    assert verdicts(proc.stdout)[PRELUDE] == ("restore", "deleted, but needed by pre_task.sh, "
                                                         "post_edit.sh, on_compact.sh")
    assert "up to date" not in proc.stdout
    assert run_hook(repo, "post_edit").stderr == ""
    again = upgrade(repo)
    assert verdicts(again.stdout)[PRELUDE][0] == "identical"
    # A deleted entry point is not restored: no other hook needs it, and the user chose.
    (repo / PRE).unlink()
    assert verdicts(upgrade(repo).stdout)[PRE][0] == "keep"


def test_deleted_pre_task_stays_deleted_when_nothing_needs_it(tmp_path: Path) -> None:
    repo = installed(tmp_path)
    for rel in (PRE, POST, COMPACT):
        (repo / rel).unlink()
    commit_all(repo, "rm")
    proc = upgrade(repo)
    v = verdicts(proc.stdout)
    assert [v[r][0] for r in (PRE, POST, COMPACT)] == ["keep"] * 3, proc.stdout
    assert not (repo / PRE).exists()


def test_a_hook_that_no_longer_sources_pre_task_does_not_need_it(tmp_path: Path) -> None:
    repo = installed(tmp_path)
    (repo / COMPACT).unlink()
    (repo / POST).write_text("#!/bin/bash\necho mine\n")
    commit_all(repo, "post_edit mine")
    (repo / PRE).unlink()
    commit_all(repo, "rm")
    proc = upgrade(repo)
    assert verdicts(proc.stdout)[PRE][0] == "keep", proc.stdout
    assert not (repo / PRE).exists()


def test_doctor_hint_for_missing_hook_fixes_it(tmp_path: Path) -> None:
    repo = installed(tmp_path)
    (repo / PRE).unlink()
    line = next(l for l in cli("doctor", str(repo)).stdout.splitlines() if "pre_task.sh" in l
                and "missing" in l)
    hint = line.split("run ", 1)[1].split()
    assert hint[:2] == ["agenthooks", "install"], line
    assert cli(*hint[1:], "--yes", str(repo)).returncode == 0
    assert (repo / PRE).is_file()
    assert git(repo, "status", "--porcelain").stdout.strip() == ""


def run_every_hint(repo: Path) -> list[str]:
    """Each fail line's `run agenthooks install ...` hint, run as written."""
    fails = [l for l in cli("doctor", str(repo)).stdout.splitlines() if l.lstrip().startswith("fail")]
    for line in fails:
        hint = line.split("run agenthooks ", 1)[1].split()
        assert hint[0] == "install", line
        assert cli(*hint, "--yes", str(repo)).returncode == 0
    return fails


def test_doctor_hints_bring_back_a_registered_hook_and_the_hooks_folder(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code")
    commit_all(repo, "installed")
    (repo / COMPACT).unlink()
    fails = run_every_hint(repo)
    assert any(l.split()[1] == "framework" for l in fails), fails
    assert (repo / COMPACT).is_file()
    assert cli("doctor", str(repo)).returncode == 0
    git(repo, "rm", "-rq", ".agent/hooks")
    assert any("layout" in l for l in run_every_hint(repo))
    assert cli("doctor", str(repo)).returncode == 0, cli("doctor", str(repo)).stdout


def test_uninstall_names_an_edited_hook_that_can_no_longer_run(tmp_path: Path) -> None:
    repo = installed(tmp_path)
    parts = len(list((repo / ".agent/hooks/lib").iterdir()))
    first = sorted(p.name for p in (repo / ".agent/hooks/lib").iterdir())[0]
    (repo / POST).write_text((repo / POST).read_text() + "# mine\n")
    proc = cli("uninstall", str(repo))
    assert proc.returncode == 0, proc.stderr
    v = verdicts(proc.stdout)
    assert v[PRE][0] == "remove" and v[POST][0] == "keep"
    assert f"sources lib/{first} (and {parts - 1} more), which uninstall takes out, so it can no longer run" \
        in v[POST][1], v[POST]
    assert "can no longer run" not in v.get(COMPACT, ("", ""))[1]
    assert "missing" in run_hook(repo, "post_edit").stderr


def test_uninstall_says_nothing_more_when_the_edited_hook_sources_nothing(tmp_path: Path) -> None:
    repo = installed(tmp_path)
    (repo / POST).write_text("#!/bin/bash\necho mine\n")
    v = verdicts(cli("uninstall", str(repo)).stdout)
    assert v[POST] == ("keep", "edited by you: left in place")
