"""agenthooks install --local: memory in one checkout with nothing to commit. The Claude Code
registration goes into .claude/settings.local.json, .agent/ and that file into our block of
.git/info/exclude; a host with no local settings file is refused (install --user covers it);
uninstall gives .git/info/exclude back as it was."""
from __future__ import annotations

from pathlib import Path

from support.helpers import cli, git, install, make_repo


def status(repo: Path) -> str:
    return git(repo, "status", "--porcelain", "--untracked-files=all").stdout


def test_nothing_to_commit_and_the_exclude_file_given_back(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    (repo / "README").write_text("x\n")
    git(repo, "add", "README")
    git(repo, "commit", "-qm", "init")
    exclude = repo / ".git/info/exclude"
    before = exclude.read_bytes()
    proc = install(repo, "--local", "--framework", "claude-code")
    assert "update     .git/info/exclude" in proc.stdout
    assert status(repo) == ""  # nothing new for git, though .agent/ is there
    assert (repo / ".agent/hooks/pre_task.sh").is_file()
    assert ".agent/hooks/pre_task.sh" in (repo / ".claude/settings.local.json").read_text()
    assert not (repo / ".claude/settings.json").exists() and not (repo / ".gitattributes").exists()
    assert exclude.read_bytes().startswith(before)  # the user's lines first, as they were
    assert b"/.agent/\n/.claude/settings.local.json\n" in exclude.read_bytes()
    # Recorded: a later install is still local, and changes nothing.
    again = install(repo)
    assert "up to date: nothing changed" in again.stdout and status(repo) == ""
    assert cli("doctor", str(repo)).returncode == 0
    gone = cli("uninstall", str(repo))
    assert gone.returncode == 0, gone.stderr
    assert exclude.read_bytes() == before
    assert status(repo) == "" and not (repo / ".agent").exists() and not (repo / ".claude").exists()


def test_a_host_without_a_local_settings_file_is_refused(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    proc = install(repo, "--local", "--framework", "codex", check=False)
    assert proc.returncode == 1
    assert "codex has no settings file of this checkout's own" in proc.stderr
    assert "agenthooks install --user --framework codex" in proc.stderr
    assert not (repo / ".agent").exists() and status(repo) == ""


def test_refused_where_it_cannot_keep_its_promise(tmp_path: Path) -> None:
    shared = make_repo(tmp_path, "shared")  # the repo commits .agent/ already
    install(shared, "--framework", "claude-code")
    git(shared, "add", "-A")
    git(shared, "commit", "-qm", "memory")
    proc = cli("uninstall", str(shared))
    assert proc.returncode == 0
    proc = install(shared, "--local", check=False)
    assert proc.returncode == 1 and "this repository commits .agent/" in proc.stderr
    team = make_repo(tmp_path, "team")  # installed for the team: not switched behind its back
    install(team, "--framework", "claude-code")
    proc = install(team, "--local", check=False)
    assert proc.returncode == 1 and "uninstall first" in proc.stderr
    outside = tmp_path / "no-git"
    outside.mkdir()
    proc = install(outside, "--local", check=False)
    assert proc.returncode == 1 and "not in a git repository" in proc.stderr
    assert not (outside / ".agent").exists()


def test_in_a_linked_worktree_the_main_repositorys_exclude_file_is_used(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    (repo / "f").write_text("x\n")
    git(repo, "add", "f")
    git(repo, "commit", "-qm", "init")
    tree = tmp_path / "wt"
    git(repo, "worktree", "add", "-q", str(tree))
    install(tree, "--local", "--framework", "claude-code")
    assert status(tree) == ""
    assert b"/.agent/" in (repo / ".git/info/exclude").read_bytes()


def test_install_from_a_subfolder_names_the_routes_that_work_there(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    (repo / "pkg").mkdir()
    proc = cli("install", "--yes", "--framework", "claude-code", cwd=repo / "pkg")
    assert proc.returncode == 0, proc.stderr
    assert "note: Claude Code started in a subfolder of the repo loads no hooks" in proc.stdout
    assert "agenthooks plugin or `agenthooks install --user`" in proc.stdout
    top = install(repo)  # from the top (DIR given as the top): no such note
    assert "started in a subfolder" not in top.stdout
    codex = cli("install", "--yes", "--framework", "codex", str(repo / "pkg"))
    assert codex.returncode == 0 and "started in a subfolder" not in codex.stdout
