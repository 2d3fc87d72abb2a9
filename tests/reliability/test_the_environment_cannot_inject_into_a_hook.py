"""Environment injection: the commands install registers, run through sh -c as the host runs
them, with a printing BASH_ENV, forged exported functions or SHELLOPTS=xtrace, print nothing
but what the hook prints in a clean environment, on every userland."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from support.claude_runs import ALL, context, repo_for, START
from support.helpers import payload, summary_instructions


PROMPT = {"session_id": "h1", "hook_event_name": "UserPromptSubmit", "prompt": "go on"}


# --- 5: the environment cannot inject output (through the registered command) ---
PRECOMPACT = {"session_id": "h1", "hook_event_name": "PreCompact", "trigger": "auto"}
EDIT = {"session_id": "h1", "hook_event_name": "PostToolUse", "tool_name": "Edit",
        "tool_input": {"file_path": ".agent/memory/snapshot.md"}}


# (event in .claude/settings.json, payload); PreCompact then a prompt: the reload prints
HOST_RUNS = (("SessionStart", START), ("PreCompact", PRECOMPACT), ("UserPromptSubmit", PROMPT),
             ("PostToolUse", EDIT))


def registered(repo: Path, event: str) -> str:
    """The command install wrote for the event, as Claude Code reads it."""
    settings = json.loads((repo / ".claude/settings.json").read_text())
    (group,) = settings["hooks"][event]
    return str(group["hooks"][0]["command"])


def host_runs(repo: Path, env: dict[str, str]) -> list[subprocess.CompletedProcess[str]]:
    """Each registered command through sh -c, as the host runs it, in session order."""
    sh = shutil.which("sh", path=env["PATH"]) or "/bin/sh"
    full = {**env, "CLAUDE_PROJECT_DIR": str(repo)}
    return [subprocess.run([sh, "-c", registered(repo, event)], input=payload(stdin), cwd=repo,
                           env=full, capture_output=True, text=True, timeout=20)
            for event, stdin in HOST_RUNS]


def assert_clean(runs: list[subprocess.CompletedProcess[str]], forged: str = "FORGED") -> None:
    """stdout is nothing or one JSON object (PreCompact: the summary's plain instructions),
    stderr is empty, every run exits 0; the start and the prompt after PreCompact carry the
    memory."""
    for out in runs:
        assert out.returncode == 0 and out.stderr == "" and forged not in out.stdout, out
    start, precompact, reload, edit = runs
    for out in (start, reload, edit):
        assert out.stdout == "" or isinstance(json.loads(out.stdout), dict), out.stdout
    # PreCompact: the plain instructions Claude Code hands its summarizer.
    assert summary_instructions(precompact.stdout), precompact.stdout
    assert "Indent with 4 spaces" in context(start.stdout)
    assert "Indent with 4 spaces" in context(reload.stdout)


FUNCS = ("cd", "printf", "command", "[", "builtin", "read", "source", "exec", "bash", "awk", "mv")


@pytest.mark.parametrize("userland", ALL)
def test_a_printing_bash_env_adds_nothing_to_stdout(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    rc = tmp_path / "rc.sh"
    rc.write_text(f"echo FORGED; echo FORGED >&2; : > {tmp_path}/sourced\n")
    assert_clean(host_runs(repo, {**env, "BASH_ENV": str(rc), "ENV": str(rc)}))
    assert not (tmp_path / "sourced").exists()


@pytest.mark.parametrize("userland", ALL)
def test_exported_functions_cannot_inject_output(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    forged = {f"BASH_FUNC_{name}%%": "() { echo FORGED; echo FORGED >&2; }" for name in FUNCS}
    assert_clean(host_runs(repo, {**env, **forged}))


@pytest.mark.parametrize("userland", ALL)
def test_xtrace_from_the_environment_stays_quiet(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    traced = {"SHELLOPTS": "xtrace:verbose", "BASHOPTS": "nullglob:failglob",
              "PS4": "$(echo FORGED >&2)+ ", "GLOBIGNORE": "*"}
    assert_clean(host_runs(repo, {**env, **traced}))


def test_the_registered_commands_are_what_the_host_runs(tmp_path: Path) -> None:
    """The commands host_runs reads start the three hooks, so the cases above test them."""
    repo, _ = repo_for(tmp_path, "gnu")
    hooks = [registered(repo, event).split("/.agent/hooks/")[1].split(".sh")[0] for event, _ in HOST_RUNS]
    assert hooks == ["pre_task", "on_compact", "on_compact", "post_edit"]
