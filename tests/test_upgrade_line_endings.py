"""install and a hook turned CRLF (a Windows editor, a copy, a zip): bash fails on every
run of it, and its CRs are no edit of the user's. install writes it back with LF and says
so; an edit the user made is kept."""
from __future__ import annotations

from pathlib import Path

from support.helpers import cli, git, install, make_repo, run_hook
from support.upgrade import commit_all, verdicts

HOOKS = ("pre_task", "post_edit", "on_compact")


def crlf(path: Path) -> None:
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))


def installed(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code")
    commit_all(repo, "install")
    return repo


def test_a_crlf_hook_is_repaired_and_the_verdict_says_so(tmp_path: Path) -> None:
    repo = installed(tmp_path)
    for hook in HOOKS:
        crlf(repo / f".agent/hooks/{hook}.sh")
    dry = verdicts(cli("install", "--yes", "--dry-run", str(repo)).stdout)
    proc = install(repo)
    v = verdicts(proc.stdout)
    assert dry == v
    for hook in HOOKS:
        assert v[f".agent/hooks/{hook}.sh"] == ("update", "line endings repaired"), proc.stdout
    assert git(repo, "status", "--porcelain").stdout == ""  # the committed LF text, byte for byte
    assert run_hook(repo, "pre_task").returncode == 0
    assert cli("doctor", str(repo)).returncode == 0
    again = verdicts(install(repo).stdout)
    assert again[".agent/hooks/pre_task.sh"] == ("identical", "")


def test_a_crlf_hook_with_an_edit_keeps_the_edit(tmp_path: Path) -> None:
    repo = installed(tmp_path)
    hook = repo / ".agent/hooks/post_edit.sh"
    hook.write_bytes(hook.read_bytes() + b"# mine\n")
    commit_all(repo, "my edit")
    crlf(hook)
    proc = install(repo)
    verdict, note = verdicts(proc.stdout)[".agent/hooks/post_edit.sh"]
    assert verdict == "update" and "line endings repaired" in note, proc.stdout
    assert git(repo, "status", "--porcelain").stdout == ""  # the committed edit, with LF
    assert not hook.with_name(hook.name + ".agenthooks-new").exists()


def test_a_crlf_hook_missing_from_the_manifest_is_repaired_not_a_conflict(tmp_path: Path) -> None:
    repo = installed(tmp_path)
    (repo / ".agent/.agenthooks.json").unlink()
    crlf(repo / ".agent/hooks/pre_task.sh")
    proc = install(repo)
    assert verdicts(proc.stdout)[".agent/hooks/pre_task.sh"] == \
        ("update", "line endings repaired"), proc.stdout
    assert b"\r" not in (repo / ".agent/hooks/pre_task.sh").read_bytes()
