"""Install once, use everywhere, in the real Claude Code (2.1.328 and the newer pins) against
the mock, HOME a throwaway folder: the agenthooks plugin added from this checkout's
marketplace with Claude Code's own plugin commands (and with --plugin-dir), and the
user-level install (`agenthooks install --user`), in Claude Code and in Codex.

What reached the model, from the requests the mock recorded:
  - a repo with .agent/ and no registration of its own: the block at the start and right
    after /compact, also in a session started in a subfolder;
  - a repo that registers the hooks itself as well: the block once per event (the plugin steps
    aside where Claude Code loaded the repo's settings; a subfolder session, which loads none,
    gets the block from the plugin);
  - a repo without .agent/: no block, no hook output, the session works;
and nothing left loopback, and the plugin's folder is as shipped after the sessions."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

try:
    from . import clis as C
    from .mockapi import MockAPI, Request, _texts, text, write
except ImportError:  # tests/e2e is not a package
    import clis as C  # type: ignore[no-redef]
    from mockapi import MockAPI, Request, _texts, text, write  # type: ignore[no-redef]

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
BEGIN = "===== AGENT MEMORY BEGIN ====="
END = "===== AGENT MEMORY END ====="
RULE = "E2E-RULE-5d1: money is in integer cents"
COMPACTED = "Context was compacted: memory reloaded from .agent/memory/"
# The plugin needs Claude Code 2.1.328 or newer: the older pin is left out.
PINS = [v for v in [C.VERSIONS["claude"][1], *C.ALSO.get("claude", [])]
        if [int(x) for x in v.split(".")] >= [2, 1, 328]]


@pytest.fixture(params=PINS)
def claude_clis(request: pytest.FixtureRequest, clis: C.CLIs) -> C.CLIs:
    return dataclasses.replace(clis, claude=clis.pinned["claude"][request.param])


def agenthooks(*args: str, cwd: Path, env: dict[str, str] | None = None) -> str:
    proc = subprocess.run([sys.executable, "-m", "agenthooks", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL,
                          env={**os.environ, **(env or {})})
    assert proc.returncode == 0, f"agenthooks {' '.join(args)}:\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


def memory_repo(sandbox: C.Sandbox, register: bool) -> Path:
    """The sandbox repo with .agent/ (hooks rendered for Claude Code and Codex) and a known
    rule; its own registration kept only when register."""
    repo = sandbox.repo
    agenthooks("install", "--yes", "--framework", "claude-code", "--framework", "codex",
               str(repo), cwd=repo)
    if not register:
        (repo / ".claude/settings.json").unlink()
        (repo / ".codex/hooks.json").unlink()
    (repo / ".agent/memory/tattoo.md").write_text(f"# Project hard rules\n- {RULE}\n",
                                                  encoding="utf-8")
    (repo / "src/pkg").mkdir(parents=True)
    return repo


def blocks(req: Request | None, after: str | None = None) -> list[str]:
    assert req is not None, "no such request"
    joined = "\n".join(_texts(req.body))
    if after is not None:
        assert after in joined, f"{after!r} not in the request"
        joined = joined[joined.index(after):]
    return re.findall(re.escape(BEGIN) + ".*?" + re.escape(END), joined, re.S)


def claude(sandbox: C.Sandbox, mock: MockAPI, clis: C.CLIs, prompt: str, *, cwd: Path | None = None,
           sid: str | None = None, extra: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    proc = C.run_claude(cwd or sandbox.repo, sandbox.home, mock,
                        [*extra, *C.claude_prompt(prompt, resume=sid)], clis=clis)
    assert proc.returncode == 0, C.describe(proc, mock)
    assert mock.errors == [], C.describe(proc, mock)
    return proc


def claude_cmd(sandbox: C.Sandbox, mock: MockAPI, clis: C.CLIs, *args: str) -> str:
    """A `claude plugin ...` command, as a user types it, in the sandbox's HOME."""
    C.setup_claude_home(sandbox.home)
    env = C.claude_env(sandbox.home, mock, clis.bin_dir)
    proc = subprocess.run([str(clis.claude), *args], cwd=sandbox.repo, env=env, capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, C.describe(proc, mock)
    return proc.stdout


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def marketplace(tmp_path: Path) -> Path:
    """A copy of this checkout's marketplace and plugin (what a clone holds)."""
    dest = tmp_path / "agenthooks-clone"
    shutil.copytree(ROOT / ".claude-plugin", dest / ".claude-plugin")
    shutil.copytree(ROOT / "plugin", dest / "plugin")
    return dest


def add_plugin(sandbox: C.Sandbox, mock: MockAPI, clis: C.CLIs, marketplace: Path) -> None:
    out = claude_cmd(sandbox, mock, clis, "plugin", "marketplace", "add", str(marketplace))
    assert "agenthooks" in out, out
    claude_cmd(sandbox, mock, clis, "plugin", "install", "agenthooks@agenthooks")
    listed = claude_cmd(sandbox, mock, clis, "plugin", "list")
    from agenthooks import __version__

    assert "agenthooks@agenthooks" in listed and f"Version: {__version__}" in listed, listed
    assert "enabled" in listed, listed


def claude_turns(sandbox: C.Sandbox, mock: MockAPI, clis: C.CLIs, prompts: list[str], *,
                 cwd: Path, extra: tuple[str, ...] = ()) -> list[dict[str, object]]:
    """Several turns in one `claude -p` process (stream-json in and out), each prompt sent
    once the previous turn's result arrived: one session, one SessionStart(startup), and
    /compact as a turn. The result events, in order."""
    C.setup_claude_home(sandbox.home)
    env = C.claude_env(sandbox.home, mock, clis.bin_dir)
    args = [str(clis.claude), *extra, "-p", "--input-format", "stream-json", "--output-format",
            "stream-json", "--verbose", "--permission-mode", "acceptEdits"]
    proc = subprocess.Popen(args, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    results: list[dict[str, object]] = []
    try:
        for prompt in prompts:
            proc.stdin.write(json.dumps({"type": "user", "message": {"role": "user",
                                                                     "content": prompt}}) + "\n")
            proc.stdin.flush()
            for line in proc.stdout:
                event = json.loads(line) if line.startswith("{") else {}
                if event.get("type") == "result":
                    results.append(event)
                    break
            else:
                raise AssertionError(f"claude ended before {prompt!r}: {proc.stderr.read() if proc.stderr else ''}")
        proc.stdin.close()
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, (proc.returncode, results)
    assert mock.errors == [], mock.errors
    return results


def compact_session(sandbox: C.Sandbox, mock: MockAPI, clis: C.CLIs, cwd: Path,
                    extra: tuple[str, ...] = ()) -> None:
    """One session: a write, a question, /compact, one more turn."""
    mock.script("claude", [write("notes.txt", "x\n"), text("Wrote it."), text("Second answer."),
                           text("Continuing.")])
    claude_turns(sandbox, mock, clis, ["write notes.txt", "second question", "/compact",
                                       "what next?"], cwd=cwd, extra=extra)
    assert len(mock.summary_requests("claude")) == 1


def assert_once_at_start_and_after_compact(mock: MockAPI) -> None:
    first = mock.main_requests("claude")[0]
    start = blocks(first)
    assert len(start) == 1 and RULE in start[0], start
    after = mock.first_main_after_summary("claude")
    later = blocks(after, after=mock.summary_text)
    assert len(later) == 1 and RULE in later[0] and COMPACTED in later[0], later
    # The startup block is gone with the compaction; nothing else carries one.
    assert len(blocks(after)) == 1, blocks(after)


def test_plugin_from_a_local_marketplace_gives_memory_where_the_repo_registers_none(
        claude_clis: C.CLIs, sandbox: C.Sandbox, mock_api: MockAPI, marketplace: Path) -> None:
    repo = memory_repo(sandbox, register=False)
    add_plugin(sandbox, mock_api, claude_clis, marketplace)
    shipped = files(marketplace)
    compact_session(sandbox, mock_api, claude_clis, repo)
    assert_once_at_start_and_after_compact(mock_api)
    log = (repo / ".agent/log/memory.log").read_text()
    assert "pre_task claude-code" in log and "compaction detected (SessionStart source=compact)" in log

    # A session started in a subfolder: the plugin finds the repo from the payload's cwd.
    count = len(mock_api.main_requests("claude"))
    mock_api.script("claude", [text("From the subfolder.")])
    claude(sandbox, mock_api, claude_clis, "hello from src/pkg", cwd=repo / "src/pkg")
    sub = mock_api.main_requests("claude")[count]
    assert len(blocks(sub)) == 1 and RULE in blocks(sub)[0]
    assert files(marketplace) == shipped  # nothing written into the plugin's folder
    assert mock_api.refused == []


def test_plugin_and_the_repos_own_registration_give_the_block_once(
        claude_clis: C.CLIs, sandbox: C.Sandbox, mock_api: MockAPI, marketplace: Path) -> None:
    repo = memory_repo(sandbox, register=True)
    add_plugin(sandbox, mock_api, claude_clis, marketplace)
    compact_session(sandbox, mock_api, claude_clis, repo)
    assert_once_at_start_and_after_compact(mock_api)
    # In a subfolder Claude Code loads none of the repo's settings: the plugin gives it, once.
    count = len(mock_api.main_requests("claude"))
    mock_api.script("claude", [text("From the subfolder.")])
    claude(sandbox, mock_api, claude_clis, "hello from src/pkg", cwd=repo / "src/pkg")
    sub = mock_api.main_requests("claude")[count]
    assert len(blocks(sub)) == 1 and RULE in blocks(sub)[0], blocks(sub)
    assert mock_api.refused == []


def test_plugin_dir_in_a_repo_without_agent_gives_nothing_and_the_session_works(
        claude_clis: C.CLIs, sandbox: C.Sandbox, mock_api: MockAPI, marketplace: Path) -> None:
    repo = sandbox.repo  # no .agent/
    mock_api.script("claude", [write("hello.txt", "hello\n"), text("Wrote hello.txt.")])
    proc = claude(sandbox, mock_api, claude_clis, "write hello.txt",
                  extra=("--plugin-dir", str(marketplace / "plugin")))
    assert (repo / "hello.txt").read_text() == "hello\n"
    assert C.json_output(proc).get("result") == "Wrote hello.txt."
    for req in mock_api.main_requests("claude"):
        assert BEGIN not in req and "agenthooks" not in req.json_text, req.json_text[-3000:]
    assert not (repo / ".agent").exists()
    # The same plugin folder in a repo with .agent/: the block (so the flag did load it).
    other = C.make_sandbox(sandbox.root / "second")
    memory_repo(other, register=False)
    mock_api.script("claude", [text("ok")])
    count = len(mock_api.main_requests("claude"))
    claude(other, mock_api, claude_clis, "hello", extra=("--plugin-dir", str(marketplace / "plugin")))
    assert len(blocks(mock_api.main_requests("claude")[count])) == 1
    assert mock_api.refused == []


def test_user_level_install_in_claude_code(claude_clis: C.CLIs, sandbox: C.Sandbox,
                                           mock_api: MockAPI, marketplace: Path) -> None:
    """install --user into the sandbox's HOME: memory from any folder of a repo without a
    registration, once where the repo registers it too, and once with the plugin beside it."""
    home_env = {"HOME": str(sandbox.home), "CLAUDE_CONFIG_DIR": str(sandbox.home / ".claude"),
                "XDG_DATA_HOME": str(sandbox.home / ".local/share")}
    C.setup_claude_home(sandbox.home)
    before = (sandbox.home / ".claude/settings.json").read_bytes()
    agenthooks("install", "--user", "--framework", "claude-code", cwd=sandbox.root, env=home_env)
    repo = memory_repo(sandbox, register=False)
    for cwd in (repo, repo / "src/pkg"):
        count = len(mock_api.main_requests("claude"))
        mock_api.script("claude", [text("ok")])
        claude(sandbox, mock_api, claude_clis, "hello", cwd=cwd)
        got = blocks(mock_api.main_requests("claude")[count])
        assert len(got) == 1 and RULE in got[0], (cwd, got)
    # The repo registers the hooks too, and the plugin is installed as well: still once.
    agenthooks("install", "--yes", "--restore", ".claude/settings.json", str(repo), cwd=repo)
    assert (repo / ".claude/settings.json").is_file()
    add_plugin(sandbox, mock_api, claude_clis, marketplace)
    for cwd in (repo, repo / "src/pkg"):
        count = len(mock_api.main_requests("claude"))
        mock_api.script("claude", [text("ok")])
        claude(sandbox, mock_api, claude_clis, "hello", cwd=cwd)
        got = blocks(mock_api.main_requests("claude")[count])
        assert len(got) == 1 and RULE in got[0], (cwd, got)
    claude_cmd(sandbox, mock_api, claude_clis, "plugin", "uninstall", "agenthooks@agenthooks")
    claude_cmd(sandbox, mock_api, claude_clis, "plugin", "marketplace", "remove", "agenthooks")
    agenthooks("uninstall", "--user", cwd=sandbox.root, env=home_env)
    # Ours out; what Claude Code's plugin commands left (empty maps of theirs) stays.
    left = json.loads((sandbox.home / ".claude/settings.json").read_text())
    assert left == {**json.loads(before), "enabledPlugins": {}, "extraKnownMarketplaces": {}}, left
    assert mock_api.refused == []


def test_user_level_install_in_codex(clis: C.CLIs, sandbox: C.Sandbox, mock_api: MockAPI) -> None:
    """install --user registers the dispatcher in $CODEX_HOME/hooks.json: memory in a repo
    with no .codex/ of its own, from a subfolder too; once where the repo registers it."""
    home_env = {"HOME": str(sandbox.home), "CODEX_HOME": str(sandbox.home / ".codex"),
                "XDG_DATA_HOME": str(sandbox.home / ".local/share")}
    agenthooks("install", "--user", "--framework", "codex", cwd=sandbox.root, env=home_env)
    repo = memory_repo(sandbox, register=False)
    for cwd in (repo, repo / "src/pkg"):
        count = len(mock_api.main_requests("codex"))
        mock_api.script("codex", [text("ok")])
        proc = C.run_codex(cwd, sandbox.home, mock_api, ["hello"], clis=clis)
        assert proc.returncode == 0, C.describe(proc, mock_api)
        got = blocks(mock_api.main_requests("codex")[count])
        assert len(got) == 1 and RULE in got[0], (cwd, got)
    agenthooks("install", "--yes", "--restore", ".codex/hooks.json", str(repo), cwd=repo)
    count = len(mock_api.main_requests("codex"))
    mock_api.script("codex", [text("ok")])
    proc = C.run_codex(repo / "src/pkg", sandbox.home, mock_api, ["hello"], clis=clis)
    assert proc.returncode == 0, C.describe(proc, mock_api)
    got = blocks(mock_api.main_requests("codex")[count])
    assert len(got) == 1 and RULE in got[0], got
    assert json.loads((sandbox.home / ".codex/hooks.json").read_text())["hooks"]
    assert mock_api.refused == [] and mock_api.errors == []
