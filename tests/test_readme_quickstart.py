"""The README's quick start, run as written: its shell block, read from README.md at test
time, run by bash in a pseudo-terminal (step 2's installer asks its questions there), with
a fresh HOME of a Claude Code user (~/.claude/), in a folder that holds a copy of this
checkout named agenthooks and a new git repo named your-repo, as the block expects.

What stands in for the user's machine, and nothing else: `pipx` is the test venv's, alone
on a PATH entry (as `sudo apt install pipx` gives one), installing into the fresh HOME, whose
~/.local/bin is on PATH (as `pipx ensurepath` leaves it); agenthooks is installed from the
copy, never fetched, and its dependencies come as pip is set up here (as in
tests/test_packaging.py). bash runs the block with -e, so a line that fails stops it as it
would stop a user. The keys: Enter at each question (its default), y at the final one."""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pexpect

from support.helpers import ROOT, git, make_repo, require, snapshot_checkout

ENTER = "\r"
CPR = "\x1b[6n"  # prompt_toolkit asks where the cursor is; a terminal answers
QUESTIONS = ("Which systems", "Which agent frameworks", "Language", "Injection budget",
             "status line")
PROMISED = (".agent/hooks/pre_task.sh", ".agent/hooks/post_edit.sh", ".agent/hooks/on_compact.sh",
            ".agent/memory/tattoo.md", ".agent/memory/snapshot.md", ".agent/memory/notes.md",
            ".agent/config.yaml", ".claude/settings.json")


def quick_start(readme: str) -> str:
    """The first ```sh block under the Quick start heading."""
    start = readme.index("\n## Quick start")
    end = readme.find("\n## ", start + 1)
    section = readme[start:end if end > 0 else None]
    match = re.search(r"```sh\n(.*?)```", section, re.S)
    assert match, "no sh block under ## Quick start"
    return match.group(1)


def expect(child: pexpect.spawn, pattern: str, timeout: int = 120) -> None:
    """child.expect(pattern), answering cursor position requests; the block ending first
    is a failure that shows what it printed."""
    while True:
        at = child.expect([pattern, re.escape(CPR), pexpect.EOF], timeout=timeout)
        if at == 0:
            return
        if at == 2:
            raise AssertionError(f"the block ended before {pattern!r}:\n{child.before}")
        child.send("\x1b[1;1R")


def test_the_quick_start_block_runs_as_written(tmp_path: Path, isolated_home: Path) -> None:
    block = quick_start((ROOT / "README.md").read_text(encoding="utf-8"))
    # A fresh pipx leaves ~/.local/bin off PATH: without ensurepath, step 2 finds no agenthooks.
    assert block.splitlines()[0].startswith("pipx ensurepath"), block
    pipx = require("pipx", "pip install pipx (make test installs it)")
    src, _ = snapshot_checkout(tmp_path)
    src.rename(tmp_path / "agenthooks")
    make_repo(tmp_path, "your-repo")
    (isolated_home / ".claude").mkdir()
    tools = tmp_path / "tools"  # pipx alone: the test venv's agenthooks must not be found
    tools.mkdir()
    (tools / "pipx").symlink_to(pipx)
    local_bin = isolated_home / ".local/bin"
    path = [d for d in os.environ["PATH"].split(os.pathsep)
            if d and not shutil.which("agenthooks", path=d)]
    env = {**os.environ, "PIPX_HOME": str(isolated_home / ".local/pipx"),
           "PIPX_BIN_DIR": str(local_bin), "PIPX_DEFAULT_PYTHON": shutil.which("python3") or "",
           "PIP_CACHE_DIR": str(tmp_path.parent / "pkg-cache" / "pip"),
           "PATH": os.pathsep.join([str(local_bin), str(tools), *path]), "TERM": "xterm",
           "COLUMNS": "200", "LINES": "40"}
    for var in ("VIRTUAL_ENV", "CLAUDE_PROJECT_DIR"):
        env.pop(var, None)
    child = pexpect.spawn("bash", ["-e", "-c", block], cwd=str(tmp_path), env=env,
                          dimensions=(40, 200), encoding="utf-8", timeout=120)
    seen = []
    try:
        expect(child, QUESTIONS[0], timeout=600)  # after pipx installed the tool
        for i, question in enumerate(QUESTIONS):
            if i:
                expect(child, question)
            child.send(ENTER)
        expect(child, r"Write these files\?")
        child.send("y" + ENTER)
        child.expect(pexpect.EOF, timeout=120)
    finally:
        seen.append(str(child.before))
        child.close()
    out = "".join(seen)
    assert child.exitstatus == 0, out
    assert (local_bin / "agenthooks").exists(), "step 1 gave no agenthooks on PATH"
    assert "===== AGENT MEMORY BEGIN =====" in out, out  # step 3 printed the block
    repo = tmp_path / "your-repo"
    tracked = set(git(repo, "ls-files").stdout.splitlines())
    assert set(PROMISED) <= tracked, sorted(tracked)  # step 4 committed what install wrote
    assert git(repo, "log", "--format=%s").stdout.strip() == "Agent memory hooks"
    assert git(repo, "status", "--porcelain").stdout == ""
