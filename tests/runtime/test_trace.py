"""AGENTHOOKS_DEBUG=1: a run's trace goes to .agent/log/trace.log, and the host sees exactly
what it sees without it (stdout and stderr alike)."""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from support.helpers import SAMPLE_SNAPSHOT, SAMPLE_TATTOO, install, make_repo, run_hook, write_memory

STDIN = {
    "pre_task": {"session_id": "t", "hook_event_name": "SessionStart", "source": "startup"},
    "post_edit": {"session_id": "t", "hook_event_name": "PostToolUse", "tool_input": {"file_path": "a.py"}},
    "on_compact": {"session_id": "t", "hook_event_name": "UserPromptSubmit", "prompt": "go"},
}


@pytest.mark.parametrize("platform", ["linux", "macos"])  # bash 4 (BASH_XTRACEFD) and 3.2's way
@pytest.mark.parametrize("hook", sorted(STDIN))
def test_debug_traces_into_the_log_and_nothing_else(tmp_path: Path, hook: str, platform: str) -> None:
    runs = {}
    for debug in ("", "1"):
        repo = make_repo(tmp_path, f"repo{debug or 0}")
        install(repo, "--framework", "claude-code", "--platform", platform)
        write_memory(repo, tattoo=SAMPLE_TATTOO, snapshot=SAMPLE_SNAPSHOT)
        old = time.time() - 3600  # so that post_edit reminds: its main path runs too
        os.utime(repo / ".agent/memory/snapshot.md", (old, old))
        env = {"CLAUDECODE": "1", "AGENT_CONTEXT_LEN": "100", **({"AGENTHOOKS_DEBUG": debug} if debug else {})}
        runs[debug] = [run_hook(repo, hook, STDIN[hook], "claude-code", env=env) for _ in range(2)]
        trace = repo / ".agent/log/trace.log"
        if debug:
            text = trace.read_text()
            assert f"# {hook} " in text and f"+ {hook}.sh:" in text and "ah_load" in text, text[:500]
            assert "lib/prelude.sh" in text or "prelude.sh:" in text
        else:
            assert not trace.exists()
    for plain, traced in zip(runs[""], runs["1"]):
        assert traced.returncode == plain.returncode == 0
        assert traced.stdout == plain.stdout and traced.stderr == plain.stderr == ""
