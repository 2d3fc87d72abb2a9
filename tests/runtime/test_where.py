"""Memory is found from where the agent works: the payload's cwd (else the working directory),
walked up to the nearest .agent/hooks/ inside the same git work tree, accepted only when it is
this repository's (a linked worktree's own .agent/ included); else the hook's own .agent/. On
every userland, the Git Bash one handing the hook Windows paths (C:\\Users\\me\\...)."""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from support.helpers import (SAMPLE_TATTOO, git, install, log_lines, make_repo, run_hook,
                             write_memory)
from support.userlands import USERLANDS, installed_in

BEGIN = "===== AGENT MEMORY BEGIN ====="
MAIN_BOARD = "## Goal\nShip the main release\n## In progress\n- [ ] main: cut the release notes\n"
WT_BOARD = "## Goal\nA feature in a worktree\n## In progress\n- [ ] feature: wire the parser\n"


def start_payload(cwd: Path | None, sid: str = "s1") -> dict[str, str]:
    out = {"session_id": sid, "hook_event_name": "SessionStart", "source": "startup"}
    if cwd is not None:
        out["cwd"] = str(cwd)
    return out


start = start_payload


@pytest.fixture(params=sorted(USERLANDS))
def land(request: pytest.FixtureRequest, tmp_path: Path):  # type: ignore[no-untyped-def]
    """(repo, worktree, env): a repo installed with per-branch boards (board: local), its .agent/
    committed, main's board and a linked worktree on branch feature with a board of its own."""
    userland = request.param
    repo, env = installed_in(tmp_path, userland, "--framework", "claude-code", "--framework", "generic",
                             "--board", "local", commit=True, tattoo=SAMPLE_TATTOO, notes="- a note\n")
    (repo / ".agent/memory/boards").mkdir(exist_ok=True)
    (repo / ".agent/memory/boards/main.md").write_text(MAIN_BOARD)
    wt = repo.parent / "wt space"
    git(repo, "worktree", "add", "-q", "-b", "feature", str(wt))
    assert (wt / ".agent/hooks/pre_task.sh").is_file()
    assert not (wt / ".agent/memory/boards").exists()  # local boards are never committed
    (wt / ".agent/memory/boards").mkdir()
    (wt / ".agent/memory/boards/feature.md").write_text(WT_BOARD)
    return repo, wt, env


def block(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count(BEGIN) == 1, proc.stdout + proc.stderr
    return proc.stdout


def test_a_payload_cwd_in_a_worktree_gets_the_worktrees_memory(land):  # type: ignore[no-untyped-def]
    """Claude Code after EnterWorktree: the main checkout's hook (CLAUDE_PROJECT_DIR) runs with
    cwd = the worktree, a path with a space (Git Bash: with backslashes)."""
    repo, wt, env = land
    out = block(run_hook(repo, "pre_task", start(wt / "src" if (wt / "src").is_dir() else wt),
                         "generic", env=env))
    assert "feature: wire the parser" in out and "main: cut the release notes" not in out
    assert ".agent/memory/boards/feature.md" in out
    # Published in the worktree's .agent/, its log and state there; main's untouched.
    assert "feature: wire the parser" in (wt / ".agent/injected_context.txt").read_text()
    assert not (repo / ".agent/injected_context.txt").exists()
    assert (wt / ".agent/log/state/s1.seen").exists() and not (repo / ".agent/log/state/s1.seen").exists()
    assert "memory loaded" in log_lines(wt)[-1] and log_lines(repo) == []
    # The same hook from the main checkout's folder: main's board.
    out = block(run_hook(repo, "pre_task", start(repo, "s2"), "generic", env=env))
    assert "main: cut the release notes" in out and "feature: wire the parser" not in out


def test_a_nested_cwd_naming_this_checkout_never_hides_the_payloads_own(land):  # type: ignore[no-untyped-def]
    """The payload's one cwd naming the hook's checkout is told by a glob; a second cwd, nested
    in a tool's input and naming the checkout, does not stand in for the top-level one."""
    repo, wt, env = land
    nested = {"session_id": "s1", "hook_event_name": "SessionStart", "source": "startup",
              "tool_input": {"cwd": str(repo)}, "cwd": str(wt)}
    out = block(run_hook(repo, "pre_task", nested, "generic", env=env))
    assert "feature: wire the parser" in out and "main: cut the release notes" not in out
    for spacing in ('"cwd":', '"cwd": '):
        text = json.dumps(start(repo, "s2")).replace('"cwd": ', spacing)
        out = block(run_hook(repo, "pre_task", text, "generic", env=env))
        assert "main: cut the release notes" in out and "feature: wire the parser" not in out


def test_a_subfolder_with_spaces_is_the_same_memory_with_no_log_line(land):  # type: ignore[no-untyped-def]
    repo, wt, env = land
    sub = repo / "src" / "deep dir"
    sub.mkdir(parents=True)
    top = block(run_hook(repo, "pre_task", start(repo), "generic", env=env))
    deep = block(run_hook(repo, "pre_task", start(sub, "s2"), "generic", env=env))
    assert deep == top and "main: cut the release notes" in deep
    assert not any("worktree" in s or "ignored" in s for s in log_lines(repo))
    assert not (sub / ".agent").exists()


# Not on the simulated Git Bash: it starts every hook in its drive's folder (userlands.py), so
# the working directory is never the test's.
@pytest.mark.parametrize("land", [u for u in sorted(USERLANDS) if u != "windows"], indirect=True)
def test_no_cwd_in_the_payload_takes_the_working_directory(land):  # type: ignore[no-untyped-def]
    repo, wt, env = land
    out = block(run_hook(repo, "pre_task", start(None), "generic", env=env, cwd=wt))
    assert "feature: wire the parser" in out
    out = block(run_hook(repo, "pre_task", start(None, "s2"), "generic", env=env, cwd=repo))
    assert "main: cut the release notes" in out


def test_another_repositorys_memory_is_never_read(land, tmp_path):  # type: ignore[no-untyped-def]
    repo, wt, env = land
    other = make_repo(repo.parent, "other repo")
    install(other, "--framework", "generic", "--board", "shared")
    write_memory(other, tattoo="- the other repository's secret rule\n",
                 snapshot="## In progress\n- other: not ours\n")
    for sid in ("s1", "s1", "s2"):
        out = block(run_hook(repo, "pre_task", start(other / ".agent" / "memory", sid), "generic", env=env))
        assert "not ours" not in out and "secret rule" not in out
        assert "main: cut the release notes" in out
    said = [s for s in log_lines(repo) if "another repository" in s]
    assert len(said) == 2, said  # once a session
    assert not (other / ".agent/injected_context.txt").exists() and log_lines(other) == []


def test_a_worktree_without_agent_falls_back_to_main_and_says_so_once(land):  # type: ignore[no-untyped-def]
    """A worktree branched before .agent/ was committed: the main checkout's memory, the
    worktree's own branch board (in main's memory/boards/), one log line a session."""
    repo, wt, env = land
    old = repo.parent / "old"
    git(repo, "worktree", "add", "-q", "--detach", str(old))
    git(old, "checkout", "-q", "--orphan", "early")
    git(old, "rm", "-rfq", ".")
    git(old, "commit", "-q", "--allow-empty", "-m", "a branch from before agenthooks")
    assert not (old / ".agent").exists()
    (repo / ".agent/memory/boards/early.md").write_text("## In progress\n- early: the old branch\n")
    for sid in ("s1", "s1"):
        out = block(run_hook(repo, "pre_task", start(old, sid), "generic", env=env))
        assert "early: the old branch" in out and "main: cut the release notes" not in out
    said = [s for s in log_lines(repo) if "has no .agent/" in s]
    assert len(said) == 1 and "memory from" in said[0], log_lines(repo)
    # The agent is told the board's whole path: no .agent/ is where it works.
    m = re.search(r"Update (\S+)/\.agent/memory/boards/early\.md when", out)
    assert m and m.group(1).endswith("repo"), out


def test_a_linked_agent_in_a_worktree_is_not_followed(land):  # type: ignore[no-untyped-def]
    repo, wt, env = land
    import shutil

    shutil.rmtree(wt / ".agent")
    elsewhere = repo.parent / "elsewhere"
    (elsewhere / "hooks").mkdir(parents=True)
    (elsewhere / "memory").mkdir()
    (elsewhere / "memory/tattoo.md").write_text("- a rule from outside the repository\n")
    (wt / ".agent").symlink_to(elsewhere)
    out = block(run_hook(repo, "pre_task", start(wt), "generic", env=env))
    assert "from outside the repository" not in out and "Indent with 4 spaces" in out
    assert any("ignored" in s for s in log_lines(repo))


def test_a_post_edit_in_the_worktree_reminds_of_the_worktrees_board(land):  # type: ignore[no-untyped-def]
    import os
    import time

    repo, wt, env = land
    old = time.time() - 3600
    os.utime(wt / ".agent/memory/boards/feature.md", (old, old))
    edit = {"session_id": "e1", "hook_event_name": "PostToolUse", "tool_name": "Edit",
            "cwd": str(wt), "tool_input": {"file_path": str(wt / "app.py")}}
    proc = run_hook(repo, "post_edit", edit, "generic", env=env)
    assert proc.returncode == 0, proc.stderr
    assert ".agent/memory/boards/feature.md was last updated" in proc.stdout, proc.stdout
    assert "snapshot.md" not in proc.stdout
    assert any("reminded the agent" in s for s in log_lines(wt)) and log_lines(repo) == []


def execs(hook: Path, payload: dict[str, object], tmp: Path) -> list[str]:
    """The programs a hook run exec'd (strace), the bash running it left out."""
    import json

    from support.helpers import require

    strace = require("strace", "apt-get install strace")
    out = tmp / "run.strace"
    subprocess.run([strace, "-f", "-qq", "-e", "trace=execve", "-o", str(out), "bash", str(hook),
                    "claude-code"], input=json.dumps(payload), text=True, capture_output=True,
                   check=True, cwd=tmp)
    calls = [line.split('execve("', 1)[1].split('"', 1)[0] for line in out.read_text().splitlines()
             if 'execve("' in line and "= 0" in line]
    return [Path(c).name for c in calls[1:]]


def test_quiet_paths_from_a_subfolder_or_a_worktree_spawn_no_process(tmp_path):  # type: ignore[no-untyped-def]
    """The walk from the payload's cwd and the branch's board read from git's HEAD are tests
    and reads: a start whose block is current, a quiet prompt and a second edit exec nothing."""
    repo = make_repo(tmp_path, "repo")
    install(repo, "--framework", "claude-code", "--board", "local")
    write_memory(repo, tattoo=SAMPLE_TATTOO)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "agenthooks")
    (repo / ".agent/memory/boards/main.md").write_text(MAIN_BOARD)
    wt = tmp_path / "wt"
    git(repo, "worktree", "add", "-q", "-b", "feature", str(wt))
    (wt / ".agent/memory/boards").mkdir()
    (wt / ".agent/memory/boards/feature.md").write_text(WT_BOARD)
    hook = repo / ".agent/hooks"  # the main checkout's hooks, as CLAUDE_PROJECT_DIR names them
    for n, cwd in enumerate((repo / "src" / "deep", wt / "sub dir")):
        cwd.mkdir(parents=True)
        sid = f"q{n}"
        start = start_payload(cwd, sid)
        prompt = {"session_id": sid, "hook_event_name": "UserPromptSubmit", "prompt": "go", "cwd": str(cwd)}
        edit = {"session_id": sid, "hook_event_name": "PostToolUse", "tool_name": "Edit", "cwd": str(cwd),
                "tool_input": {"file_path": str(cwd / "a.py")}}
        for name, payload in (("pre_task", start), ("on_compact", prompt), ("post_edit", edit)):
            execs(hook / f"{name}.sh", payload, tmp_path)  # the first run builds, makes state
            assert execs(hook / f"{name}.sh", payload, tmp_path) == [], (name, cwd)
    assert "feature: wire the parser" in (wt / ".agent/injected_context.txt").read_text()
    assert "main: cut the release notes" in (repo / ".agent/injected_context.txt").read_text()
