"""The hooks under the simulated Git Bash userland (tests/support/userlands.py: a `C:` folder as
the drive, Windows paths in payloads and CLAUDE_PROJECT_DIR, a core.autocrlf=true clone, CRLF
memory). What is simulated and what is not proven on a real Windows host: README, Windows."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from support.helpers import (SAMPLE_SNAPSHOT, SAMPLE_TATTOO, install, log_lines, make_repo, run_hook,
                             write_memory)
from support.userlands import env_for, windows_clone

BEGIN = "===== AGENT MEMORY BEGIN ====="
CRLF_SNAPSHOT = SAMPLE_SNAPSHOT.replace("\n", "\r\n")


@pytest.fixture
def win(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    origin = make_repo(tmp_path, "origin")
    install(origin, "--platform", "windows", "--framework", "claude-code")
    write_memory(origin, tattoo=SAMPLE_TATTOO, snapshot=SAMPLE_SNAPSHOT, notes="- a note\n")
    repo = windows_clone(origin, tmp_path)
    (repo / ".agent/log/state").mkdir(parents=True)
    # A Windows editor saves memory with CRLF, whatever .gitattributes says.
    (repo / ".agent/memory/snapshot.md").write_bytes(CRLF_SNAPSHOT.encode())
    (repo / ".agent/memory/tattoo.md").write_bytes(SAMPLE_TATTOO.replace("\n", "\r\n").encode())
    return repo, env_for("windows", tmp_path)


def raw(repo: Path, hook: str, stdin: object, env: dict[str, str]) -> bytes:
    """The hook's stdout as bytes (text mode would hide a \\r)."""
    proc = run_hook(repo, hook, stdin, "claude-code", env=env, text=False)
    assert proc.returncode == 0, proc.stderr
    return bytes(proc.stdout)


def test_ah_path_turns_windows_paths_into_ones_git_bash_opens(win: tuple[Path, dict[str, str]]) -> None:
    repo, _ = win
    script = ('. "$1"; for p in "$@"; do ah_path v "$p"; printf "%s\\n" "$v"; done')
    paths = ["C:\\Users\\me\\repo\\a b.md", "C:/Users/me/x", "\\\\server\\share\\t.jsonl", "/c/Users/me", "a\\b"]
    out = subprocess.run(["bash", "-c", script, "_", str(repo / ".agent/hooks/lib/prelude.sh"), *paths],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert out[1:] == ["C:/Users/me/repo/a b.md", "C:/Users/me/x", "//server/share/t.jsonl", "/c/Users/me", "a\\b"]


def test_a_hook_reached_by_its_drive_path_keeps_that_path(win: tuple[Path, dict[str, str]]) -> None:
    """The registrations hand Git Bash C:/Users/me/repo/.agent/hooks/HOOK.sh: an absolute path,
    which must not get the working directory put in front of it."""
    repo, env = win
    run_hook(repo, "pre_task", "", env=dict(env, AGENTHOOKS_DEBUG="1"))
    first = (repo / ".agent/log/trace.log").read_text().splitlines()[0]
    assert first == "# pre_task C:/Users/me/repo/.agent/hooks", first


def test_claude_code_command_runs_from_git_bash_with_a_backslash_project_dir(
        win: tuple[Path, dict[str, str]]) -> None:
    repo, env = win
    settings = json.loads((repo / ".claude/settings.json").read_text())
    command = settings["hooks"]["SessionStart"][0]["hooks"][0]["command"]
    stdin = json.dumps({"session_id": "w", "hook_event_name": "SessionStart", "source": "startup"})
    proc = subprocess.run(["bash", "-c", command], input=stdin, capture_output=True, text=True, timeout=30,
                          env={**os.environ, **env, "CLAUDE_PROJECT_DIR": "C:\\Users\\me\\repo"})
    text = json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "Indent with 4 spaces" in text and "stuck on error handling" in text, proc.stderr


def transcript(path: Path, tokens: int) -> None:
    rec = {"type": "assistant", "message": {"usage": {"input_tokens": 3, "cache_creation_input_tokens": 0,
                                                       "cache_read_input_tokens": tokens, "output_tokens": 9}}}
    path.write_bytes((json.dumps({"type": "user"}) + "\r\n" + json.dumps(rec, separators=(",", ":")) + "\r\n").encode())


def test_a_backslash_transcript_path_and_crlf_everywhere(win: tuple[Path, dict[str, str]]) -> None:
    """transcript_path arrives as C:\\Users\\me\\...: read on the quiet path with no more of the
    library than a Linux prompt loads; CRLF memory and transcript put no \\r in the block."""
    repo, env = win
    chat = repo.parent / ".claude" / "t.jsonl"
    chat.parent.mkdir()
    prompt = {"session_id": "w", "hook_event_name": "UserPromptSubmit", "prompt": "go",
              "transcript_path": str(chat)}  # the Git Bash shim sends it as C:\Users\me\.claude\t.jsonl
    transcript(chat, 140000)
    assert raw(repo, "on_compact", prompt, env) == b""  # the first run parses config.yaml too
    assert raw(repo, "on_compact", prompt, dict(env, AGENTHOOKS_DEBUG="1")) == b""
    log = (repo / ".agent/log/trace.log").read_text()
    assert " ah_runtime" not in log and "ah_json_full" not in log, log[-2000:]
    assert (repo / ".agent/log/state/w.state").read_text().split()[2] == "140003"  # the length was read
    transcript(chat, 20000)
    out = raw(repo, "on_compact", prompt, env)
    assert b"\r" not in out and b"### In progress" in out and b"stuck on error handling" in out
    assert b"\r" not in (repo / ".agent/injected_context.txt").read_bytes()
    assert any("context length dropped 140003 -> 20003" in ln for ln in log_lines(repo))


def test_crlf_state_files_are_read(win: tuple[Path, dict[str, str]]) -> None:
    """A state line ending in \\r keeps its last field: the sync flag (one reload per compaction)
    and the last reminder (one per stale period)."""
    repo, env = win
    state = repo / ".agent/log/state/w.state"
    state.write_bytes(b"v1 3 150000 - - 1\r\n")  # reloaded; that length predates the compaction
    prompt = {"session_id": "w", "hook_event_name": "UserPromptSubmit", "prompt": "go"}
    assert raw(repo, "on_compact", prompt, dict(env, AGENT_CONTEXT_LEN="30000")) == b""
    then = os.path.getmtime(repo / ".agent/memory/snapshot.md") - 3600
    os.utime(repo / ".agent/memory/snapshot.md", (then, then))
    edit = {"session_id": "w", "hook_event_name": "PostToolUse", "tool_name": "Edit",
            "tool_input": {"file_path": str(repo / "app.py")}}
    assert b"last updated" in raw(repo, "post_edit", edit, env)
    mark = repo / ".agent/log/state/w.remind"
    mark.write_bytes(mark.read_bytes().replace(b"\n", b"\r\n"))
    assert raw(repo, "post_edit", edit, env) == b""
