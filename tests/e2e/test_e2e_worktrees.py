"""Worktrees in the real Claude Code (2.1.328 and the newer pins) against the mock, in a repo
whose main checkout and worktree hold different boards (board: local, one per branch and
per worktree, never committed):

  - a session started in the main checkout that enters a worktree with EnterWorktree (a
    deferred tool: the mock first calls ToolSearch with select:EnterWorktree, then
    EnterWorktree with the name) runs the main checkout's hooks from then on, with the payload's
    cwd at the worktree and CLAUDE_PROJECT_DIR at the main checkout: its post_edit reminds about
    the worktree's board, and after a /compact there the block carries the worktree's In
    progress item, never main's;
  - a session started with `claude -w NAME` (the worktree's own hooks) gets the worktree's
    board at the start, and its post_edit reminds about that board.

A decoy board sits in the main checkout's .agent/ under the worktree's branch name: memory read
from the main checkout with the worktree's branch would show it."""

from __future__ import annotations

import dataclasses
import json
import os
import queue
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

import pytest

try:
    from . import clis as C
    from .mockapi import MockAPI, Request, _texts, edit, text, tool, write
except ImportError:  # tests/e2e is not a package
    import clis as C  # type: ignore[no-redef]
    from mockapi import MockAPI, Request, _texts, edit, text, tool, write  # type: ignore[no-redef]

pytestmark = pytest.mark.e2e

BEGIN = "===== AGENT MEMORY BEGIN ====="
END = "===== AGENT MEMORY END ====="
RULE = "E2E-RULE-wt1: money is in integer cents"
MAIN_ITEM = "E2E-MAIN-BOARD-4a7: cut the release notes on main"
WT_ITEM = "E2E-WORKTREE-BOARD-8c2: wire the parser in the worktree"
DECOY_ITEM = "E2E-DECOY-BOARD-1f9: the main checkout's file named after the worktree's branch"
# Boards aged past stale_minutes (10), each by its own amount: a reminder's minutes say which.
WT_AGE, MAIN_AGE = 30, 600
REMINDER = re.compile(r"agenthooks: (\S+) was last updated (\d+) minutes ago")
# EnterWorktree needs Claude Code 2.1.328 or newer: the older pin is left out.
PINS = [v for v in [C.VERSIONS["claude"][1], *C.ALSO.get("claude", [])]
        if [int(x) for x in v.split(".")] >= [2, 1, 328]]
assert PINS, "pins.txt pins no Claude Code 2.1.328 or newer"


@pytest.fixture(params=PINS)
def claude_clis(request: pytest.FixtureRequest, clis: C.CLIs) -> C.CLIs:
    return dataclasses.replace(clis, claude=clis.pinned["claude"][request.param])


def git(repo: Path, *args: str) -> str:
    proc = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, timeout=60,
                          env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(repo),
                               "GIT_CONFIG_NOSYSTEM": "1"})
    assert proc.returncode == 0, f"git {' '.join(args)}:\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


def board(item: str) -> str:
    return ("# Current task snapshot\n\n## Goal\nship it\n\n## In progress\n"
            f"- [ ] {item}\n\n## Key decisions\n- none yet\n")


def put_board(agent: Path, branch: str, item: str, minutes: int) -> Path:
    """agent/memory/boards/BRANCH.md holding item as In progress, last changed minutes ago."""
    path = agent / "memory" / "boards" / f"{branch}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(board(item), encoding="utf-8")
    past = time.time() - minutes * 60
    os.utime(path, (past, past))
    return path


def main_repo(sandbox: C.Sandbox, worktree_branch: str) -> Path:
    """The sandbox repo with agenthooks for Claude Code (board: local) committed, main's board,
    and the decoy: a board in the main checkout's .agent/ under the worktree's branch name."""
    repo = sandbox.repo
    proc = subprocess.run([sys.executable, "-m", "agenthooks", "install", "--yes", "--board", "local",
                           "--framework", "claude-code", str(repo)], cwd=repo, capture_output=True,
                          text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, f"install failed:\n{proc.stdout}\n{proc.stderr}"
    (repo / ".agent/memory/tattoo.md").write_text(f"# Project hard rules\n- {RULE}\n", encoding="utf-8")
    (repo / "app.py").write_text("def get_user(uid):\n    return uid\n", encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "agenthooks")
    assert ".agent/memory/boards/" not in git(repo, "ls-files"), "board: local boards were committed"
    put_board(repo / ".agent", "main", MAIN_ITEM, MAIN_AGE)
    put_board(repo / ".agent", worktree_branch, DECOY_ITEM, MAIN_AGE)
    return repo


def log(agent: Path) -> str:
    path = agent / "log" / "memory.log"
    return path.read_text(encoding="utf-8") if path.exists() else ""


def joined(req: Request | None) -> str:
    assert req is not None, "no such request"
    return "\n".join(_texts(req.body))


def blocks(req: Request | None) -> list[str]:
    """The memory blocks in a request, in order."""
    return re.findall(re.escape(BEGIN) + ".*?" + re.escape(END), joined(req), re.S)


def reminders(req: Request | None) -> list[tuple[str, int]]:
    """post_edit's reminders in a request: (the board named, its age in minutes)."""
    return [(m.group(1), int(m.group(2))) for m in REMINDER.finditer(joined(req))]


def assert_worktree_reminder(req: Request | None, label: str) -> None:
    """The request after the edit: one reminder, of the worktree's board (its age, not main's)."""
    said = reminders(req)
    assert len(said) == 1, (said, joined(req)[-6000:])
    (named, minutes), = said
    assert named == label and WT_AGE <= minutes < MAIN_AGE, (said, label)


class Session:
    """One `claude -p` process fed turns on stdin (stream-json in and out): one session, its
    SessionStart(startup) once, /compact as a turn. turn() returns once the turn's result came."""

    def __init__(self, sandbox: C.Sandbox, mock: MockAPI, clis: C.CLIs, cwd: Path,
                 timeout: float = 180) -> None:
        C.setup_claude_home(sandbox.home)
        env = C.claude_env(sandbox.home, mock, clis.bin_dir)
        self.mock = mock
        self.end = time.monotonic() + timeout
        self.events: list[dict[str, Any]] = []
        self.proc = subprocess.Popen(
            [str(clis.claude), "-p", "--input-format", "stream-json", "--output-format", "stream-json",
             "--verbose", "--permission-mode", "acceptEdits"],
            cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.err: list[str] = []
        threading.Thread(target=self._pump, daemon=True).start()
        threading.Thread(target=lambda: self.err.append(self.proc.stderr.read() if self.proc.stderr else ""),
                         daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def turn(self, prompt: str) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"type": "user", "message": {"role": "user", "content": prompt}}) + "\n")
        self.proc.stdin.flush()
        while True:
            try:
                line = self.lines.get(timeout=max(0.1, self.end - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"claude gave no result for {prompt!r} in time: {self.events[-5:]}") from None
            if line is None:
                raise AssertionError(f"claude ended before the turn {prompt!r} finished: {''.join(self.err)}")
            event = json.loads(line) if line.startswith("{") else None
            if isinstance(event, dict):
                self.events.append(event)
                if event.get("type") == "result":
                    assert not event.get("is_error"), event
                    return event

    def close(self) -> None:
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
            self.proc.wait(timeout=max(1.0, self.end - time.monotonic()))
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
        assert self.proc.returncode == 0, (self.proc.returncode, "".join(self.err)[-4000:])
        assert self.mock.errors == [] and self.mock.refused == [], (self.mock.errors, self.mock.refused)


def in_session(sandbox: C.Sandbox, mock: MockAPI, clis: C.CLIs,
               steps: list[tuple[str, Callable[[], None] | None]]) -> Session:
    """Each prompt in turn in one session, then what comes after it (the test's own changes)."""
    session = Session(sandbox, mock, clis, sandbox.repo)
    try:
        for prompt, after in steps:
            session.turn(prompt)
            if after is not None:
                after()
    finally:
        session.close()
    return session


def test_a_session_that_enters_a_worktree_gets_the_worktrees_board(
        claude_clis: C.CLIs, sandbox: C.Sandbox, mock_api: MockAPI) -> None:
    name, branch = "wte2e", "worktree-wte2e"
    repo = main_repo(sandbox, branch)
    wt = repo / ".claude" / "worktrees" / name
    label = f".agent/memory/boards/{branch}.md"

    def entered() -> None:
        """EnterWorktree made the worktree from HEAD (with the committed .agent/, no board: local
        board): its board is given there, with an item of its own."""
        assert (wt / ".agent" / "hooks" / "pre_task.sh").is_file(), sorted(p.name for p in wt.iterdir())
        assert git(wt, "rev-parse", "--abbrev-ref", "HEAD").strip() == branch
        assert not (wt / label).exists(), "a board: local board reached the worktree from git"
        put_board(wt / ".agent", branch, WT_ITEM, WT_AGE)

    mock_api.script("claude", [
        tool("ToolSearch", {"query": "select:EnterWorktree"}),
        tool("EnterWorktree", {"name": name}),
        text("In the worktree."),
        tool("Read", {"file_path": str(wt / "app.py")}),
        edit(str(wt / "app.py"), "return uid", "return int(uid)"),
        text("Edited app.py."),
        text("Will do."),
        text("Continuing."),
    ])
    in_session(sandbox, mock_api, claude_clis, [
        (f"enter the worktree {name}", entered),
        ("make get_user take ints", None),
        ("/compact", None),
        ("what next?", None),
    ])

    mains = mock_api.main_requests("claude")
    entered_at = next(r for r in mains if r.reply is not None and r.reply.name == "EnterWorktree")
    assert [r.reply.name for r in mains[:2] if r.reply] == ["ToolSearch", "EnterWorktree"], mains
    after_enter = mock_api.main_after(entered_at)[0]
    assert f"{wt}" in joined(after_enter) and branch in joined(after_enter), joined(after_enter)[-3000:]
    # The session started in the main checkout: main's board.
    start = blocks(mains[0])
    assert len(start) == 1 and MAIN_ITEM in start[0] and RULE in start[0], start

    # post_edit in the worktree: the worktree's board, not main's (600 minutes) nor the decoy's.
    edited = next(r for r in mains if r.reply is not None and r.reply.kind == "edit")
    assert_worktree_reminder(mock_api.main_after(edited)[0], label)
    assert "reminded the agent" in log(wt / ".agent"), log(wt / ".agent")
    assert "post_edit" not in log(repo / ".agent"), log(repo / ".agent")

    # /compact in the worktree: the block after it carries the worktree's In progress item only.
    assert len(mock_api.summary_requests("claude")) == 1
    after = mock_api.first_main_after_summary("claude")
    later = blocks(after)
    assert len(later) == 1, (later, joined(after)[-6000:])
    assert WT_ITEM in later[0] and RULE in later[0], later[0]
    assert MAIN_ITEM not in joined(after) and DECOY_ITEM not in joined(after), joined(after)[-6000:]
    assert re.search(r"\] pre_task claude-code \S+: .*memory loaded", log(wt / ".agent")), log(wt / ".agent")


def test_a_session_started_with_claude_w_gets_that_worktrees_board(
        claude_clis: C.CLIs, sandbox: C.Sandbox, mock_api: MockAPI) -> None:
    name, branch = "wtstart", "worktree-wtstart"
    repo = main_repo(sandbox, branch)
    wt = repo / ".claude" / "worktrees" / name
    label = f".agent/memory/boards/{branch}.md"
    # The worktree where `claude -w NAME` makes it (the run takes it as it is), its board given.
    git(repo, "worktree", "add", "-q", "-b", branch, str(wt))
    put_board(wt / ".agent", branch, WT_ITEM, WT_AGE)

    mock_api.script("claude", [write(str(wt / "notes.py"), "x = 1\n"), text("Wrote notes.py.")])
    proc = C.run_claude(repo, sandbox.home, mock_api,
                        ["-w", name, *C.claude_prompt("write notes.py")], clis=claude_clis)
    assert proc.returncode == 0 and mock_api.errors == [] and mock_api.refused == [], \
        C.describe(proc, mock_api)
    assert (wt / "notes.py").is_file(), C.describe(proc, mock_api)
    assert git(wt, "rev-parse", "--abbrev-ref", "HEAD").strip() == branch

    mains = mock_api.main_requests("claude")
    start = blocks(mains[0])
    assert len(start) == 1 and WT_ITEM in start[0] and RULE in start[0], start
    assert MAIN_ITEM not in joined(mains[0]) and DECOY_ITEM not in joined(mains[0]), joined(mains[0])[-6000:]
    assert_worktree_reminder(mock_api.request_after_tool("claude", 0), label)
    assert "reminded the agent" in log(wt / ".agent"), log(wt / ".agent")
    assert "claude-code" not in log(repo / ".agent"), log(repo / ".agent")
