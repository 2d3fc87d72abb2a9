"""The board models with real git: board: branch (each branch's own committed file) merges
both ways with no conflict and no merge driver, the receiving branch's board kept; board: local
(the default of a new install) never reaches a commit or a clone; an upgrade from the last
release keeps memory/snapshot.md; `agenthooks board --switch` moves the board byte for byte."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from support.helpers import FIXTURES, SAMPLE_SNAPSHOT, cli, git, install, make_repo, run_hook

START = {"session_id": "s1", "hook_event_name": "SessionStart", "source": "startup"}


def committed_repo(tmp_path: Path, *args: str) -> Path:
    repo = make_repo(tmp_path)
    git(repo, "config", "user.email", "me@example.com")
    git(repo, "config", "user.name", "me")
    install(repo, "--framework", "generic", *args)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "agenthooks")
    return repo


def board_cmd(repo: Path, *args: str) -> str:
    proc = cli("board", *args, cwd=repo)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def block(repo: Path) -> str:
    proc = run_hook(repo, "pre_task", START, "generic")
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def markers(repo: Path) -> list[str]:
    return [str(p) for p in (repo / ".agent/memory").rglob("*.md")
            if re.search(r"^(<<<<<<<|=======$|>>>>>>>)", p.read_text(), re.M)]


def test_branch_boards_merge_both_ways_with_no_conflict_and_each_branch_keeps_its_own(tmp_path):  # type: ignore[no-untyped-def]
    """A teammate who never installed agenthooks merges with plain git: no driver, no
    attribute, and still no conflict: each branch's board is a file of its own."""
    repo = committed_repo(tmp_path, "--board", "branch")
    assert "merge" not in git(repo, "config", "--list").stdout
    assert "merge=" not in (repo / ".gitattributes").read_text() if (repo / ".gitattributes").exists() else True
    git(repo, "checkout", "-q", "-b", "feature")
    board_cmd(repo, "doing", "feature: wire the parser")
    board_cmd(repo, "decide", "the parser is hand-written")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "feature work")
    git(repo, "checkout", "-q", "main")
    board_cmd(repo, "doing", "main: cut the release notes")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "main work")
    main_board = (repo / ".agent/memory/boards/main.md").read_bytes()

    merged = git(repo, "merge", "--no-edit", "feature", check=False)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    assert (repo / ".agent/memory/boards/main.md").read_bytes() == main_board
    assert "feature: wire the parser" in (repo / ".agent/memory/boards/feature.md").read_text()
    assert markers(repo) == []
    out = block(repo)
    assert "main: cut the release notes" in out and "feature: wire the parser" not in out

    git(repo, "checkout", "-q", "feature")
    feature_board = (repo / ".agent/memory/boards/feature.md").read_bytes()
    merged = git(repo, "merge", "--no-edit", "main", check=False)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    assert (repo / ".agent/memory/boards/feature.md").read_bytes() == feature_board
    assert markers(repo) == []
    out = block(repo)
    assert "feature: wire the parser" in out and "main: cut the release notes" not in out
    # The board is committed: git log -p rolls a bad one back.
    assert "feature: wire the parser" in git(repo, "log", "-p", "--", ".agent/memory/boards/feature.md").stdout


def test_a_new_install_keeps_boards_out_of_git_and_a_clone_gets_none(tmp_path):  # type: ignore[no-untyped-def]
    repo = make_repo(tmp_path)
    git(repo, "config", "user.email", "me@example.com")
    git(repo, "config", "user.name", "me")
    proc = cli("install", "--yes", str(repo), "--framework", "generic")  # no --board: the default
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert re.search(r"(?m)^board: local$", (repo / ".agent/config.yaml").read_text())
    board_cmd(repo, "doing", "my in-flight step")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "agenthooks")
    assert not [f for f in git(repo, "ls-files").stdout.splitlines() if "boards/" in f]
    assert git(repo, "status", "--porcelain").stdout == ""
    assert "my in-flight step" in block(repo)

    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    assert not (clone / ".agent/memory/boards").exists()
    out = block(clone)
    assert "my in-flight step" not in out
    assert "start .agent/memory/boards/main.md with ## Goal" in out
    # A teammate's archive of their board stays theirs too.
    assert "/memory/archive/boards/" in (clone / ".agent/.gitignore").read_text()


def test_an_upgrade_from_the_last_release_keeps_the_board_in_snapshot_md(tmp_path):  # type: ignore[no-untyped-def]
    repo = make_repo(tmp_path)
    rev8 = FIXTURES / "release_rev8"
    for src in sorted(rev8.rglob("*")):
        rel = src.relative_to(rev8)
        if src.is_file() and rel.parts[0] in (".agent", ".claude"):
            (repo / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, repo / rel)
    (repo / ".agent/memory/snapshot.md").write_text(SAMPLE_SNAPSHOT)
    assert "board:" not in (repo / ".agent/config.yaml").read_text()
    proc = cli("install", "--yes", str(repo))  # the upgrade: no --board
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert re.search(r"(?m)^board: shared$", (repo / ".agent/config.yaml").read_text())
    assert "boards" not in (repo / ".agent/.gitignore").read_text()
    assert not (repo / ".agent/memory/boards").exists()
    assert (repo / ".agent/memory/snapshot.md").read_text() == SAMPLE_SNAPSHOT
    proc = run_hook(repo, "pre_task", START, "claude-code")
    assert proc.returncode == 0, proc.stderr
    assert "service get_user" in proc.stdout and "Update .agent/memory/snapshot.md when" in proc.stdout
    # --board on an installed repo does not move the board behind the user's back.
    proc = cli("install", "--yes", str(repo), "--board", "local")
    assert proc.returncode != 0 and "board --switch local" in proc.stdout + proc.stderr
    assert (repo / ".agent/memory/snapshot.md").read_text() == SAMPLE_SNAPSHOT


def test_the_switch_moves_the_board_byte_for_byte_and_says_how_to_record_it(tmp_path):  # type: ignore[no-untyped-def]
    repo = committed_repo(tmp_path, "--board", "shared")
    # CRLF, no final newline, bytes that are not UTF-8: moved as they are.
    text = b"## Goal\r\nShip it\r\n## In progress\r\n- [ ] step \xff\xfe one\r\n- [ ] step two"
    snap = repo / ".agent/memory/snapshot.md"
    snap.write_bytes(text)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "board")

    out = board_cmd(repo, "--switch", "local")
    local = repo / ".agent/memory/boards/main.md"
    assert local.read_bytes() == text and not snap.exists()
    assert "next: git rm --cached -q .agent/memory/snapshot.md" in out
    assert re.search(r"(?m)^board: local$", (repo / ".agent/config.yaml").read_text())
    assert "/memory/boards/" in (repo / ".agent/.gitignore").read_text()
    assert "step two" in block(repo)
    # doctor names a local board that git still tracks (here: the old board is gone from the
    # work tree, the new one is ignored: nothing to say of it).
    assert "is tracked by git" not in cli("doctor", str(repo)).stdout
    git(repo, "add", "-f", ".agent/memory/boards/main.md")
    doctor = " ".join(cli("doctor", str(repo)).stdout.split())
    assert ".agent/memory/boards/main.md is tracked by git, though board: local keeps it out" in doctor
    git(repo, "rm", "--cached", "-q", ".agent/memory/boards/main.md")
    git(repo, "rm", "--cached", "-q", ".agent/memory/snapshot.md")
    git(repo, "add", "-A")
    assert not [f for f in git(repo, "diff", "--cached", "--name-only").stdout.splitlines() if "boards/" in f]
    git(repo, "commit", "-q", "-m", "board: local")

    out = board_cmd(repo, "--switch", "branch")
    assert local.read_bytes() == text
    assert "/memory/boards/" not in (repo / ".agent/.gitignore").read_text()
    assert "next: git add" in out and ".agent/memory/boards/main.md" in out

    # A target that holds items is refused; --force appends, and no line is lost.
    snap.write_text("## In progress\n- [ ] someone's shared step\n")
    proc = cli("board", "--switch", "shared", cwd=repo)
    assert proc.returncode != 0 and "holds items" in proc.stdout + proc.stderr
    assert local.read_bytes() == text and re.search(r"(?m)^board: branch$", (repo / ".agent/config.yaml").read_text())
    board_cmd(repo, "--switch", "shared", "--force")
    assert snap.read_bytes() == b"## In progress\n- [ ] someone's shared step\n\n" + text
    assert not local.exists()
    assert "someone's shared step" in block(repo) and "step two" in block(repo)
    log = (repo / ".agent/log/memory.log").read_text()
    assert "board switched from branch to shared" in log


def test_the_python_readers_follow_the_branch_board(tmp_path):  # type: ignore[no-untyped-def]
    """show, board, archive, lint and doctor read the branch's board, as the hooks do."""
    repo = committed_repo(tmp_path, "--board", "local")
    git(repo, "checkout", "-q", "-b", "topic/x")
    board_cmd(repo, "doing", "topic step")
    path = repo / ".agent/memory/boards/topic/x.md"
    assert "topic step" in path.read_text()
    show = cli("show", str(repo))
    assert "topic step" in show.stdout and ".agent/memory/boards/topic/x.md" in show.stdout
    assert cli("lint", str(repo)).returncode == 0
    doctor = cli("doctor", str(repo)).stdout
    assert "board: local: .agent/memory/boards/topic/x.md (kept out of git)" in " ".join(doctor.split())
    proc = cli("archive", str(repo))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    made = list((repo / ".agent/memory/archive/boards/topic/x").glob("snapshot_*.md"))
    assert len(made) == 1 and "topic step" in made[0].read_text()
    assert "topic step" not in path.read_text()
    assert not (repo / ".agent/memory/snapshot.md").exists()
    # main's board is untouched by all of it.
    git(repo, "checkout", "-q", "main")
    assert "topic step" not in cli("show", str(repo)).stdout
    assert json.loads((repo / ".agent/.agenthooks.json").read_text())["answers"]["board"] == "local"
