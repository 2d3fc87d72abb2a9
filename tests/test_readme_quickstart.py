"""The README's quick start, run as written: its shell blocks, read from README.md at test
time, run by bash in a pseudo-terminal (step 2's installer asks its questions there), with
a fresh HOME of a Claude Code user (~/.claude/), in a folder that holds a copy of this
checkout named agenthooks and a new git repo named your-repo, as the blocks expect: the pipx
route, the uvx route (uv is the test venv's), and the Claude Code plugin route (the pinned
real `claude` of the end-to-end tests, offline).

What stands in for the user's machine, and nothing else: `pipx` is the test venv's, alone
on a PATH entry (as `sudo apt install pipx` gives one), installing into the fresh HOME, whose
~/.local/bin is on PATH (as `pipx ensurepath` leaves it); agenthooks is installed from the
copy, never fetched, and its dependencies come as pip is set up here (as in
tests/test_packaging.py). bash runs the block with -e, so a line that fails stops it as it
would stop a user. The keys: Enter at each question (its default), y at the final one."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from agenthooks import __version__
from support.helpers import ROOT, git, make_repo, require, snapshot_checkout, unavailable

# pipx, uv, the plugin route's claude: CI and make stress run these, make test leaves them out.
pytestmark = pytest.mark.slow

ENTER = "\r"
CPR = "\x1b[6n"  # prompt_toolkit asks where the cursor is; a terminal answers
QUESTIONS = ("Which systems", "Which agent frameworks", "Language", "Injection budget",
             "progress board live", "status line")
PROMISED = (".agent/hooks/pre_task.sh", ".agent/hooks/post_edit.sh", ".agent/hooks/on_compact.sh",
            ".agent/memory/tattoo.md", ".agent/memory/notes.md",
            ".agent/config.yaml", ".claude/settings.json")


def quick_starts(readme: str) -> list[str]:
    """The ```sh blocks under the Quick start heading, in order."""
    start = readme.index("\n## Quick start")
    end = readme.find("\n## ", start + 1)
    section = readme[start:end if end > 0 else None]
    found = re.findall(r"```sh\n(.*?)```", section, re.S)
    assert found, "no sh block under ## Quick start"
    return found


def quick_start(readme: str) -> str:
    """The first ```sh block under the Quick start heading: the pipx route."""
    return quick_starts(readme)[0]


def route(readme: str, word: str) -> str:
    """The quick start's block that runs `word` (uvx, claude)."""
    found = [b for b in quick_starts(readme) if re.search(rf"(^|\s){word}\s", b)]
    assert len(found) == 1, f"the quick start has {len(found)} blocks running {word}"
    return found[0]


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


def answer_the_installer(child: pexpect.spawn, first_timeout: int = 600) -> str:
    """Enter at each question, y at the last; what the block printed up to its end."""
    seen = []
    try:
        expect(child, QUESTIONS[0], timeout=first_timeout)  # after the tool was installed
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
    return "".join(seen)


def user_env(tmp_path: Path, home: Path, tools: Path) -> dict[str, str]:
    """A PATH with the user's ~/.local/bin and tools/ (the installers alone), no agenthooks."""
    local_bin = home / ".local/bin"
    path = [d for d in os.environ["PATH"].split(os.pathsep)
            if d and not shutil.which("agenthooks", path=d)]
    env = {**os.environ, "PIPX_HOME": str(home / ".local/pipx"),
           "PIPX_BIN_DIR": str(local_bin), "PIPX_DEFAULT_PYTHON": shutil.which("python3") or "",
           "PIP_CACHE_DIR": str(tmp_path.parent / "pkg-cache" / "pip"),
           "UV_CACHE_DIR": str(tmp_path.parent / "pkg-cache" / "uv"),
           "PATH": os.pathsep.join([str(local_bin), str(tools), *path]), "TERM": "xterm",
           "COLUMNS": "200", "LINES": "40"}
    for var in ("VIRTUAL_ENV", "CLAUDE_PROJECT_DIR"):
        env.pop(var, None)
    return env


def setting(tmp_path: Path, home: Path, *tools: str) -> tuple[Path, dict[str, str]]:
    """The folder the blocks start in (agenthooks, your-repo) and their environment, with
    only the named tools on a PATH entry of their own (as a package manager puts them)."""
    src, _ = snapshot_checkout(tmp_path)
    src.rename(tmp_path / "agenthooks")
    make_repo(tmp_path, "your-repo")
    (home / ".claude").mkdir(exist_ok=True)
    bin_dir = tmp_path / "tools"
    bin_dir.mkdir()
    for tool in tools:
        (bin_dir / Path(tool).name).symlink_to(tool)
    return tmp_path, user_env(tmp_path, home, bin_dir)


def test_the_quick_start_block_runs_as_written(tmp_path: Path, isolated_home: Path) -> None:
    block = quick_start((ROOT / "README.md").read_text(encoding="utf-8"))
    # A fresh pipx leaves ~/.local/bin off PATH: without ensurepath, step 2 finds no agenthooks.
    assert block.splitlines()[0].startswith("pipx ensurepath"), block
    pipx = require("pipx", "pip install pipx (make test installs it)")
    cwd, env = setting(tmp_path, isolated_home, pipx)
    child = pexpect.spawn("bash", ["-e", "-c", block], cwd=str(cwd), env=env,
                          dimensions=(40, 200), encoding="utf-8", timeout=120)
    out = answer_the_installer(child)
    assert child.exitstatus == 0, out
    assert (isolated_home / ".local/bin/agenthooks").exists(), "step 1 gave no agenthooks on PATH"
    assert "===== AGENT MEMORY BEGIN =====" in out, out  # step 3 printed the block
    repo = tmp_path / "your-repo"
    tracked = set(git(repo, "ls-files").stdout.splitlines())
    assert set(PROMISED) <= tracked, sorted(tracked)  # step 4 committed what install wrote
    assert git(repo, "log", "--format=%s").stdout.strip() == "Agent memory hooks"
    assert git(repo, "status", "--porcelain").stdout == ""


def test_the_uvx_route_runs_as_written(tmp_path: Path, isolated_home: Path) -> None:
    """Steps 2 and 3 with nothing installed: uvx builds agenthooks from the clone into its
    cache and runs it; no agenthooks lands on PATH."""
    block = route((ROOT / "README.md").read_text(encoding="utf-8"), "uvx")
    uvx = require("uvx", "pip install uv (make test installs it)")
    cwd, env = setting(tmp_path, isolated_home, uvx)
    child = pexpect.spawn("bash", ["-e", "-c", block], cwd=str(cwd), env=env,
                          dimensions=(40, 200), encoding="utf-8", timeout=120)
    out = answer_the_installer(child)
    assert child.exitstatus == 0, out
    assert "===== AGENT MEMORY BEGIN =====" in out, out  # step 3 printed the block
    repo = tmp_path / "your-repo"
    assert all((repo / p).is_file() for p in PROMISED), out
    assert not shutil.which("agenthooks", path=env["PATH"])


def test_the_plugin_route_runs_as_written(tmp_path: Path, isolated_home: Path) -> None:
    """The real Claude Code (the end-to-end tests' pin) adds this clone as a marketplace and
    installs the plugin, offline (a proxy that answers nothing; no API call is made)."""
    block = route((ROOT / "README.md").read_text(encoding="utf-8"), "claude")
    claude = pinned_claude()
    cwd, env = setting(tmp_path, isolated_home, str(claude))
    env.update({"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1",
                "DISABLE_TELEMETRY": "1", "DISABLE_ERROR_REPORTING": "1",
                "HTTPS_PROXY": "http://127.0.0.1:9", "HTTP_PROXY": "http://127.0.0.1:9",
                "NO_PROXY": "127.0.0.1,localhost"})
    env.pop("CLAUDE_CONFIG_DIR", None)
    proc = subprocess.run(["bash", "-e", "-c", block], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    listed = subprocess.run([str(claude), "plugin", "list"], cwd=cwd, env=env, capture_output=True,
                            text=True, timeout=120, stdin=subprocess.DEVNULL).stdout
    assert "agenthooks@agenthooks" in listed and "enabled" in listed, listed
    assert f"Version: {__version__}" in listed, listed
    settings = json.loads((isolated_home / ".claude/settings.json").read_text(encoding="utf-8"))
    assert settings["enabledPlugins"] == {"agenthooks@agenthooks": True}


def pinned_claude() -> Path:
    """The newest pinned Claude Code of tests/e2e/pins.txt, from `make e2e-deps`'s cache."""
    sys.path.insert(0, str(ROOT / "tests" / "e2e"))
    import clis  # type: ignore[import-not-found]

    try:
        found = clis.ensure_clis()
    except clis.CLIUnavailable as exc:
        unavailable(f"{exc}; {clis.install_hint()}")
        raise AssertionError("unreachable") from None
    versions = found.pinned["claude"]
    return versions[sorted(versions, key=lambda v: [int(x) for x in v.split(".")])[-1]]
