"""Closed stdout, on every userland: every hook with stdout closed or read by true exits 0, says
nothing on stderr, logs no error and refreshes injected_context.txt."""
from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest

from support.helpers import payload, write_memory
from support.memory_runs import ALL, COMPACT, EDIT, log, repo_for, START


# --- stdout closed ---

def closed(repo: Path, env: dict[str, str], how: str, hook: str, stdin: object, *args: str
           ) -> subprocess.CompletedProcess[str]:
    cmd = f'bash .agent/hooks/{hook}.sh claude-code "$@" ' + (">&-" if how == "closed" else "| true")
    return subprocess.run(["/bin/bash", "-c", cmd, "host", *args], input=payload(stdin), cwd=repo,
                          env=env, capture_output=True, text=True, timeout=30)


@pytest.mark.parametrize("how", ["closed", "pipe"])
@pytest.mark.parametrize("userland", ALL)
def test_a_closed_stdout_leaves_stderr_quiet_and_the_block_file_fresh(tmp_path: Path, userland: str,
                                                                      how: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    inj = repo / ".agent/injected_context.txt"
    for n, (hook, stdin, args) in enumerate([("pre_task", START, ()), ("pre_task", START, ("--statusline",)),
                                             ("on_compact", COMPACT, ()), ("post_edit", EDIT, ()),
                                             ("pre_task", "", ("--archive",))]):
        write_memory(repo, notes=f"- note of step {n}\n")
        later = time.time() + 2 + n
        os.utime(repo / ".agent/memory/notes.md", (later, later))
        log0 = log(repo)
        res = closed(repo, env, how, hook, stdin, *args)
        assert res.returncode == 0 and res.stderr == "", (hook, args, res.stderr)
        new = log(repo)[len(log0):]
        assert "internal error" not in new and "write error" not in new, (hook, args, new)
        if hook != "post_edit" and not args:
            assert f"note of step {n}" in inj.read_text(), (hook, "injected_context.txt not refreshed")
    assert len(list((repo / ".agent/memory/archive").glob("snapshot_*.md"))) == 1
