"""Inherited shell state, on every userland: an exported FUNCNEST breaks no hook; an exported
xtrace prints no trace from a hook run by hand."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from support.helpers import payload
from support.inside_runs import ALL, BEGIN, EDIT, PROMPT, run, setup, START


# --- inherited shell state ---

@pytest.mark.parametrize("depth", range(1, 8))
@pytest.mark.parametrize("userland", ALL)
def test_an_exported_funcnest_breaks_no_hook(tmp_path: Path, userland: str, depth: int) -> None:
    repo, env, _ = setup(tmp_path, userland)
    env = {**env, "FUNCNEST": str(depth)}
    for _ in range(2):  # the build, then the quiet path
        out = run(repo, "pre_task", env, START).stdout
        assert out.count(BEGIN) == 1 and "Indent with 4 spaces" in out, out
    assert run(repo, "on_compact", env, PROMPT).stderr == ""
    assert run(repo, "post_edit", env, EDIT).stderr == ""
    assert "internal error" not in (repo / ".agent/log/memory.log").read_text()


@pytest.mark.parametrize("userland", ALL)
def test_an_exported_xtrace_prints_no_trace_from_the_first_line(tmp_path: Path, userland: str) -> None:
    repo, env, _ = setup(tmp_path, userland)
    bash = os.path.join(env["PATH"].split(":")[0], "bash")
    for hook, stdin in (("pre_task", START), ("on_compact", PROMPT), ("post_edit", EDIT)):
        # Run by hand (no -p): bash takes SHELLOPTS from the environment.
        proc = subprocess.run(["/usr/bin/env", "SHELLOPTS=xtrace", bash, f".agent/hooks/{hook}.sh"],
                              input=payload(stdin), cwd=repo, env=env, capture_output=True, text=True,
                              timeout=60)
        assert proc.returncode == 0 and proc.stderr == "", (hook, proc.stderr[:300])
