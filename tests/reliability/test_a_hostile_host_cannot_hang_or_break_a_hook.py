"""Hostile hosts, on every userland (GNU, BusyBox, macOS-like): a host that never closes stdin,
one that closes stdout early, a CDPATH in the environment, and a "source": "compact" nested
in tool_input change nothing a hook promises."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from support.claude_runs import BASH, ALL, context, repo_for, run, START


@pytest.mark.parametrize("userland", ALL)
def test_cdpath_changes_nothing(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    other, _ = repo_for(tmp_path / "other", userland)
    for cdpath in (".", str(other)):
        out = run(repo, "pre_task", {**env, "CDPATH": cdpath})
        assert out.returncode == 0
        assert "Indent with 4 spaces" in context(out.stdout)  # parses: nothing before the JSON
    assert not (other / ".agent/injected_context.txt").exists()


@pytest.mark.parametrize("userland", ALL)
def test_a_host_that_never_closes_stdin_does_not_hang_the_hook(tmp_path: Path,
                                                               userland: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    for hook in ("pre_task", "on_compact", "post_edit"):
        proc = subprocess.Popen([BASH, f".agent/hooks/{hook}.sh", "claude-code"], cwd=repo,
                                env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        try:
            proc.wait(timeout=10)  # stdin stays open: the read must be bounded
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            pytest.fail(f"{hook} waited for stdin to close")
        finally:
            assert proc.stdin is not None
            proc.stdin.close()
        assert proc.returncode == 0


@pytest.mark.parametrize("userland", ALL)
def test_a_closed_stdout_still_publishes_and_exits_0(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    (repo / ".agent/memory/tattoo.md").write_text("# Rules\n- NEW-RULE-MARKER\n")
    shell = f"{BASH} .agent/hooks/pre_task.sh claude-code </dev/null | true; echo rc=${{PIPESTATUS[0]}}"
    out = subprocess.run([BASH, "-c", shell], cwd=repo, env=env, capture_output=True, text=True,
                         timeout=20)
    assert "rc=0" in out.stdout and out.stderr == ""
    assert "NEW-RULE-MARKER" in (repo / ".agent/injected_context.txt").read_text()


@pytest.mark.parametrize("userland", ALL)
def test_a_nested_source_compact_is_not_a_compaction(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    # The nested field comes first in the text, as Claude Code's tool payloads can have it.
    start = {"tool_input": {"source": "compact"}, **START}
    out = run(repo, "pre_task", env, start)
    assert "Context was compacted" not in context(out.stdout)
