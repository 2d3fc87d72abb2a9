"""The progress board per branch in the hooks (board: local and branch: memory/boards/BRANCH.md,
read from git's HEAD with no process), and the line that tells a session the board or the
rules changed under it. On every userland."""
from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest

from support.helpers import SAMPLE_TATTOO, git, log_lines, run_hook
from support.userlands import USERLANDS, installed_in

BEGIN = "===== AGENT MEMORY BEGIN ====="
BOARD = "## Goal\nShip it\n## In progress\n- [ ] main: wire the parser\n"


@pytest.fixture(params=sorted(USERLANDS))
def land(request: pytest.FixtureRequest, tmp_path: Path):  # type: ignore[no-untyped-def]
    """(repo, env): installed with board: local (the default) on branch main, its board written."""
    repo, env = installed_in(tmp_path, request.param, "--framework", "generic", "--board", "local",
                             commit=True, tattoo=SAMPLE_TATTOO, notes="- a note\n")
    (repo / ".agent/memory/boards").mkdir(exist_ok=True)
    (repo / ".agent/memory/boards/main.md").write_text(BOARD)
    return repo, env


def hook(repo: Path, name: str, payload: dict[str, object], env: dict[str, str], *args: str) -> str:
    proc = run_hook(repo, name, {"cwd": str(repo), **payload}, "generic", *args, env=env)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def start(sid: str) -> dict[str, object]:
    return {"session_id": sid, "hook_event_name": "SessionStart", "source": "startup"}


def prompt(sid: str) -> dict[str, object]:
    return {"session_id": sid, "hook_event_name": "UserPromptSubmit", "prompt": "go on"}


def edit(sid: str, path: Path) -> dict[str, object]:
    return {"session_id": sid, "hook_event_name": "PostToolUse", "tool_name": "Edit",
            "tool_input": {"file_path": str(path)}}


def test_the_board_is_the_branchs_and_follows_head(land):  # type: ignore[no-untyped-def]
    repo, env = land
    out = hook(repo, "pre_task", start("s1"), env)
    assert "main: wire the parser" in out and "Update .agent/memory/boards/main.md when" in out
    assert (repo / ".agent/log/state/board.last").read_text() == "main\n"
    # A new branch: its board is not started, which the block says, with where to start it;
    # the cached block of main's board is not reused.
    git(repo, "checkout", "-q", "-b", "feature/é+%")
    out = hook(repo, "pre_task", start("s2"), env)
    name = "feature/%C3%A9%2B%25"
    assert "main: wire the parser" not in out
    assert f"start .agent/memory/boards/{name}.md with ## Goal" in out
    assert not (repo / f".agent/memory/boards/{name}.md").exists()  # the hooks never make it
    (repo / ".agent/memory/boards/feature").mkdir()
    (repo / f".agent/memory/boards/{name}.md").write_text("## In progress\n- feature: its own\n")
    assert "feature: its own" in hook(repo, "pre_task", start("s3"), env)
    # A detached HEAD keeps the board the checkout used last.
    git(repo, "checkout", "-q", "--detach")
    assert "feature: its own" in hook(repo, "pre_task", start("s4"), env)
    # Back on main: main's board, though the published block was built from another.
    git(repo, "checkout", "-q", "main")
    out = hook(repo, "pre_task", start("s5"), env)
    assert "main: wire the parser" in out and "feature: its own" not in out


def test_shared_reads_snapshot_md(land):  # type: ignore[no-untyped-def]
    repo, env = land
    (repo / ".agent/memory/snapshot.md").write_text("## In progress\n- shared: the one board\n")
    cfg = repo / ".agent/config.yaml"
    cfg.write_text(re.sub(r"(?m)^board: local", "board: shared", cfg.read_text()))
    out = hook(repo, "pre_task", start("s1"), env)
    assert "shared: the one board" in out and "main: wire the parser" not in out
    assert "Update .agent/memory/snapshot.md when" in out


def test_post_edit_reminds_of_the_board_and_never_for_its_own_edit(land):  # type: ignore[no-untyped-def]
    repo, env = land
    board = repo / ".agent/memory/boards/main.md"
    old = time.time() - 3600
    os.utime(board, (old, old))
    hook(repo, "pre_task", start("e1"), env)
    out = hook(repo, "post_edit", edit("e1", repo / "app.py"), env)
    assert "agenthooks: .agent/memory/boards/main.md was last updated 60 minutes ago" in out
    os.utime(board, (old, old))
    assert hook(repo, "post_edit", edit("e1", board), env) == ""  # the board itself: no reminder


def test_archive_per_board(land):  # type: ignore[no-untyped-def]
    repo, env = land
    out = hook(repo, "pre_task", {}, env, "--archive")
    made = re.search(r"archived: \.agent/(memory/archive/boards/main/snapshot_\d{8}_\d{6}\.md)", out)
    assert made, out
    assert (repo / ".agent" / made.group(1)).read_text() == BOARD
    assert "## In progress" in (repo / ".agent/memory/boards/main.md").read_text()  # a fresh one
    assert not (repo / ".agent/memory/archive/snapshot_").exists()


def test_the_board_changed_under_the_session_is_said_once(land):  # type: ignore[no-untyped-def]
    """Session A got memory; session B edits the board: A's next prompt gets one line (the
    file, when, re-read it), logged; the prompt after it nothing. A's own edits never."""
    repo, env = land
    board, tattoo = repo / ".agent/memory/boards/main.md", repo / ".agent/memory/tattoo.md"
    hook(repo, "pre_task", start("A"), env)
    hook(repo, "pre_task", start("B"), env)
    seen = repo / ".agent/log/state/A.seen"
    assert seen.is_file() and seen.stat().st_size == 0
    past = time.time() - 120
    for path in (board, tattoo):
        os.utime(path, (past - 60, past - 60))
    os.utime(seen, (past, past))
    assert hook(repo, "on_compact", prompt("A"), env) == ""  # nothing changed since
    # B updates the board (its own edit: B is told nothing).
    board.write_text(BOARD + "- [ ] B: a step of the other session\n")
    hook(repo, "post_edit", edit("B", board), env)
    assert hook(repo, "on_compact", prompt("B"), env) == ""
    out = hook(repo, "on_compact", prompt("A"), env)
    hhmm = time.strftime("%H:%M", time.localtime(board.stat().st_mtime))
    assert out.strip() == (f"agenthooks: .agent/memory/boards/main.md changed at {hhmm} since this "
                           "session last read it, not by an edit of this session: re-read it "
                           "before you update it."), out
    assert "memory/boards/main.md changed at" in log_lines(repo)[-1]
    assert hook(repo, "on_compact", prompt("A"), env) == ""  # once per change
    # A's own edit of the board, then of the rules: never said.
    os.utime(seen, (past, past))
    board.write_text(BOARD + "- [ ] A: mine\n")
    hook(repo, "post_edit", edit("A", board), env)
    tattoo.write_text(SAMPLE_TATTOO + "- A rule A added\n")
    hook(repo, "post_edit", edit("A", tattoo), env)
    assert hook(repo, "on_compact", prompt("A"), env) == ""
    # Another's edit of the rules alone.
    os.utime(board, (past - 60, past - 60))
    os.utime(seen, (past, past))
    tattoo.write_text(SAMPLE_TATTOO + "- a rule B added\n")
    out = hook(repo, "on_compact", prompt("A"), env)
    assert out.startswith("agenthooks: .agent/memory/tattoo.md changed at "), out
    assert len(out.splitlines()) == 1 and "boards/main.md" not in out, out
    # Both, in one prompt: a line for each, neither lost.
    os.utime(seen, (past, past))
    board.write_text(BOARD + "- [ ] B: another step\n")
    tattoo.write_text(SAMPLE_TATTOO + "- a rule B added again\n")
    out = hook(repo, "on_compact", prompt("A"), env).splitlines()
    assert [s.split(" changed at ")[0] for s in out] == [
        "agenthooks: .agent/memory/boards/main.md", "agenthooks: .agent/memory/tattoo.md"], out
    assert sum("changed at" in s for s in log_lines(repo)) == 4
    assert hook(repo, "on_compact", prompt("A"), env) == ""


def test_a_session_that_never_got_memory_is_told_nothing(land):  # type: ignore[no-untyped-def]
    repo, env = land
    (repo / ".agent/log/state").mkdir(parents=True, exist_ok=True)
    assert hook(repo, "on_compact", prompt("C"), env) == ""
    assert (repo / ".agent/log/state/C.seen").is_file()  # made silently
    assert not any("changed at" in s for s in log_lines(repo))
