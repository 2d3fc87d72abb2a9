"""Run by hand: a hook typed in a shell that exports functions named like builtins, with
SHELLOPTS=xtrace:noclobber and a PS4 holding $(...), prints what it prints in a clean shell
and nothing on stderr, on every userland."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from support.claude_runs import ALL, context, repo_for, run, START


BEGIN = "===== AGENT MEMORY BEGIN ====="


# What a shell that runs a hook by hand (bash .agent/hooks/pre_task.sh) can export to it.
HOSTILE_SHELL = {
    "BASH_FUNC_printf%%": "() { builtin printf NOISE; builtin printf \"$@\"; }",
    "BASH_FUNC_echo%%": "() { builtin printf NOISE; }",
    "BASH_FUNC_cat%%": "() { builtin printf NOISE; }",
    "BASH_FUNC_builtin%%": "() { command builtin printf NOISE; }",
    "BASH_FUNC_unset%%": "() { :; }",
    "BASH_FUNC_set%%": "() { :; }",
    "BASH_FUNC_read%%": "() { :; }",
    "BASH_FUNC_compgen%%": "() { :; }",
    "BASH_FUNC_[%%": "() { return 0; }",
    "SHELLOPTS": "xtrace:noclobber",
    "PS4": "$(echo X >&2)+ ",
}


@pytest.mark.parametrize("userland", ALL)
@pytest.mark.parametrize("hook", ["pre_task", "post_edit", "on_compact"])
def test_direct_invocation_drops_exported_functions_and_options(
        tmp_path: Path, userland: str, hook: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    stdin = {**START, "hook_event_name": {"pre_task": "SessionStart", "post_edit": "PostToolUse",
                                          "on_compact": "PreCompact"}[hook],
             "tool_input": {"file_path": "src/a.py"}}
    clean = run(repo, hook, env, stdin)
    (repo / ".agent" / "log").exists() and shutil.rmtree(repo / ".agent" / "log")
    got = run(repo, hook, {**env, **HOSTILE_SHELL}, stdin)
    assert got.returncode == 0
    assert "NOISE" not in got.stdout
    assert got.stdout == clean.stdout
    if hook == "pre_task":
        assert BEGIN in context(got.stdout)
    # The lines before the options are off are traced; nothing after them.
    assert len(got.stderr.splitlines()) <= 8, got.stderr[:2000]
