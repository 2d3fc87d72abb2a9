"""A session's state files are named from its id alike whether the payload opens with a plain
session_id, compact (told by a glob in the hooks' start, as Claude Code sends it), or is spaced
or ordered otherwise (read by ah_json); and every hook reads its payload from a pipe in blocks,
not a byte a system call."""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from support.helpers import backdate, claude_repo, require, run_hook

IDS = ["1698e1aa-4d58-45b5-94e7-c1d2567a4876", "12345", "a.b-c", "default", "-lead", ".hidden",
       "team/alpha", "x y", 'say "hi"', "back\\slash", "a" * 80, "a" * 81, "b" * 200, ""]


def state_names(repo: Path) -> set[str]:
    return {p.name for p in (repo / ".agent/log/state").glob("*.state")}


def prompt(repo: Path, body: str) -> None:
    proc = run_hook(repo, "on_compact", body, "claude-code", env={"AGENT_CONTEXT_LEN": "1000"})
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr


@pytest.mark.parametrize("sid", IDS)
def test_a_session_is_named_alike_however_its_payload_is_written(tmp_path: Path, sid: str) -> None:
    first = {"session_id": sid, "hook_event_name": "UserPromptSubmit", "prompt": "go on"}
    # session_id first and compact, as Claude Code writes it; then spaced, then not first.
    compact = json.dumps(first, separators=(",", ":"))
    spaced = json.dumps(first)
    last = json.dumps({"hook_event_name": "UserPromptSubmit", "prompt": "go on", "session_id": sid},
                      separators=(",", ":"))
    names = []
    for n, body in enumerate((compact, spaced, last)):
        repo = claude_repo(tmp_path / str(n))
        prompt(repo, body)
        names.append(state_names(repo))
    assert names[0] == names[1] == names[2] and len(names[0]) == 1, names


def test_every_hook_reads_its_payload_from_a_pipe_in_blocks(tmp_path: Path) -> None:
    strace = require("strace", "apt-get install strace")
    repo = claude_repo(tmp_path)
    body = json.dumps({"session_id": "s1", "hook_event_name": "UserPromptSubmit",
                       "prompt": "a long request " * 400}, separators=(",", ":"))
    assert len(body) > 6000
    for hook in ("pre_task", "post_edit", "on_compact"):
        out = tmp_path / f"{hook}.trace"
        subprocess.run([strace, "-qq", "-e", "trace=read", "-o", str(out), "bash",
                        str(repo / f".agent/hooks/{hook}.sh"), "claude-code"],
                       input=body, text=True, capture_output=True, check=True, timeout=60)
        # (fd 0 is also each `read <file` the hook makes; a file is read in blocks.)
        reads = [ln for ln in out.read_text().splitlines() if ln.startswith("read(0,")]
        bytewise = [ln for ln in reads if re.search(r", 1\)\s+= 1$", ln)]
        # A byte a system call would be over 6,000 reads of one byte; in blocks, none.
        assert reads and len(bytewise) < 20, (hook, len(bytewise))


def test_a_quiet_start_names_its_event_however_the_payload_is_written(tmp_path: Path) -> None:
    repo = claude_repo(tmp_path)
    start = {"session_id": "s1", "hook_event_name": "SessionStart", "source": "startup"}
    assert run_hook(repo, "pre_task", start, "claude-code").returncode == 0  # builds the block
    backdate(repo)
    assert run_hook(repo, "pre_task", start, "claude-code").returncode == 0
    built = (repo / ".agent/injected_context.txt").stat().st_mtime_ns
    outs = []
    for body in (json.dumps(start, separators=(",", ":")), json.dumps(start)):
        proc = run_hook(repo, "pre_task", body, "claude-code")
        assert proc.returncode == 0 and proc.stderr == "", proc.stderr
        outs.append(json.loads(proc.stdout)["hookSpecificOutput"])
    # The published block printed again (the quiet path), inside its event's envelope.
    assert (repo / ".agent/injected_context.txt").stat().st_mtime_ns == built
    assert outs[0] == outs[1] and outs[0]["hookEventName"] == "SessionStart", outs
