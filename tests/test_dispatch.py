"""The dispatcher (plugin/hooks/dispatch.sh), run as the plugin and a user-level install run
it: real bash 5 and bash 3.2, real repos installed by the CLI, payloads shaped like the hosts'.
It runs the nearest repo's own hook, from the payload's cwd, never past the git top, once
(it steps aside where the host loads the repo's registration), and is silent elsewhere."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from agenthooks import __version__, dispatch
from support.bash32 import findings
from support.helpers import (ROOT, SAMPLE_SNAPSHOT, SAMPLE_TATTOO, install, log_lines, make_repo,
                             require, unavailable, write_memory)
from support.userlands import bash32
from test_render import shellchecks

SCRIPT = ROOT / "plugin" / "hooks" / "dispatch.sh"
BEGIN = "===== AGENT MEMORY BEGIN ====="


@pytest.fixture(params=["bash", "bash32"])
def bash(request: pytest.FixtureRequest) -> str:
    if request.param == "bash":
        return shutil.which("bash") or "bash"
    found = bash32()
    if found is None:
        unavailable("bash 3.2 is not built (../shared/tools/bash32/build.sh ~/.cache/agenthooks-bash32)")
    return found


def run(bash: str, hook: str, payload: object, *args: str, cwd: Path, env: dict[str, str] | None = None,
        script: Path = SCRIPT) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if k not in ("CLAUDE_PROJECT_DIR", "CLAUDE_CONFIG_DIR")}
    full.update(env or {})
    text = payload if isinstance(payload, str) else json.dumps(payload)
    return subprocess.run([bash, "-p", str(script), hook, *args], input=text, cwd=cwd, env=full,
                          capture_output=True, text=True, timeout=30)


def start(cwd: Path | None = None, **extra: object) -> dict[str, object]:
    doc: dict[str, object] = {"session_id": "s1", "transcript_path": "/nonexistent.jsonl"}
    if cwd is not None:
        doc["cwd"] = str(cwd)
    doc.update(hook_event_name="SessionStart", source="startup", **extra)
    return doc


def claude_repo(parent: Path) -> Path:
    """A repo installed for Claude Code, its hooks for both bashes, with the sample memory."""
    repo = make_repo(parent)
    install(repo, "--framework", "claude-code", "--platform", "linux", "--platform", "macos")
    write_memory(repo, tattoo=SAMPLE_TATTOO, snapshot=SAMPLE_SNAPSHOT, notes="- a note\n")
    return repo


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repo with the hooks and sample memory, and no registration of its own."""
    repo = claude_repo(tmp_path)
    (repo / ".claude/settings.json").unlink()
    (repo / "src/deep").mkdir(parents=True)
    return repo


def test_it_runs_the_repos_own_hook_from_the_payloads_cwd(bash: str, repo: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    proc = run(bash, "pre_task", start(repo / "src/deep"), "claude-code", "--plugin", cwd=elsewhere)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)  # claude-code's envelope: the hook knew its framework
    assert BEGIN in out["hookSpecificOutput"]["additionalContext"]
    assert "Indent with 4 spaces" in out["hookSpecificOutput"]["additionalContext"]
    assert any(" pre_task claude-code s1: memory loaded" in line for line in log_lines(repo))


def test_without_a_cwd_in_the_payload_it_walks_up_from_the_working_directory(
        bash: str, repo: Path) -> None:
    proc = run(bash, "pre_task", {"hook_event_name": "SessionStart", "session_id": "s2"},
               "claude-code", cwd=repo / "src/deep")
    assert proc.returncode == 0 and BEGIN in proc.stdout, proc.stderr
    # A cwd we cannot take as a path (an escape we do not decode, a relative one): the same.
    for cwd in ("src\\u002fdeep", "src/deep", ""):
        proc = run(bash, "pre_task", {"cwd": cwd, "session_id": "s3"}, "claude-code",
                   cwd=repo / "src")
        assert BEGIN in proc.stdout, (cwd, proc.stderr)


def test_a_cwd_after_a_nested_object_is_not_taken_from_inside_it(bash: str, repo: Path,
                                                                 tmp_path: Path) -> None:
    other = claude_repo(tmp_path / "other")
    payload = ('{"tool_input":{"cwd":"' + str(other) + '"},"cwd":"' + str(repo) + '",'
               '"hook_event_name":"SessionStart","session_id":"s4"}')
    proc = run(bash, "pre_task", payload, "claude-code", cwd=repo / "src")
    assert BEGIN in proc.stdout
    assert not log_lines(other)[1:] or not any("s4" in ln for ln in log_lines(other))


def test_the_payload_reaches_the_hook_whole(bash: str, repo: Path) -> None:
    """post_edit reads the edited path from the payload the dispatcher passed on."""
    os.utime(repo / ".agent/memory/snapshot.md", (1, 1))
    payload = {"session_id": "s5", "cwd": str(repo), "hook_event_name": "PostToolUse",
               "tool_name": "Write", "tool_input": {"file_path": str(repo / "src/app.py"),
                                                    "content": "x = 1\n"}}
    proc = run(bash, "post_edit", payload, "claude-code", "--plugin", cwd=repo)
    assert proc.returncode == 0, proc.stderr
    assert "snapshot.md was last updated" in proc.stdout


def test_it_never_walks_past_the_top_of_the_git_work_tree(bash: str, tmp_path: Path) -> None:
    outer = claude_repo(tmp_path)
    inner = make_repo(outer, "vendor-lib")  # a repo inside (a clone, a submodule): no .agent/
    (inner / "pkg").mkdir()
    proc = run(bash, "pre_task", start(inner / "pkg"), "claude-code", cwd=inner)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")


@pytest.mark.parametrize("hook", ["pre_task", "post_edit", "on_compact"])
def test_silent_in_a_repo_without_agent(bash: str, tmp_path: Path, hook: str) -> None:
    plain = make_repo(tmp_path, "plain")
    proc = run(bash, hook, start(plain), "claude-code", "--plugin", cwd=plain)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
    assert not (plain / ".agent").exists()


def test_it_steps_aside_where_the_host_loads_the_repos_registration(bash: str, tmp_path: Path) -> None:
    repo = claude_repo(tmp_path)  # .claude/settings.json runs the hooks
    (repo / "sub").mkdir()
    # Claude Code started at the top: it runs the repo's own hooks; the dispatcher adds nothing.
    top = run(bash, "pre_task", start(repo), "claude-code", "--plugin", cwd=repo,
              env={"CLAUDE_PROJECT_DIR": str(repo)})
    assert (top.returncode, top.stdout) == (0, "")
    # Started in a subfolder it loads none of them: the dispatcher gives the memory.
    sub = run(bash, "pre_task", start(repo / "sub"), "claude-code", "--plugin", cwd=repo / "sub",
              env={"CLAUDE_PROJECT_DIR": str(repo / "sub")})
    assert BEGIN in sub.stdout
    # A subfolder whose own settings name the hook, with no hook there to run: not aside.
    (repo / "sub/.claude").mkdir()
    shutil.copy(repo / ".claude/settings.json", repo / "sub/.claude/settings.json")
    assert BEGIN in run(bash, "pre_task", start(repo / "sub"), "claude-code", cwd=repo / "sub",
                        env={"CLAUDE_PROJECT_DIR": str(repo / "sub")}).stdout
    # A --local install registers in settings.local.json: the same.
    settings = repo / ".claude/settings.json"
    settings.rename(repo / ".claude/settings.local.json")
    assert run(bash, "pre_task", start(repo), "claude-code", cwd=repo,
               env={"CLAUDE_PROJECT_DIR": str(repo)}).stdout == ""
    (repo / ".claude/settings.local.json").unlink()
    assert BEGIN in run(bash, "pre_task", start(repo), "claude-code", cwd=repo,
                        env={"CLAUDE_PROJECT_DIR": str(repo)}).stdout


def test_the_plugin_steps_aside_from_a_user_level_install(bash: str, repo: Path, tmp_path: Path) -> None:
    config = tmp_path / "claude-home"
    config.mkdir()
    (config / "settings.json").write_text(json.dumps({"hooks": {"SessionStart": [{"hooks": [
        {"type": "command", "command": "bash -p '/h/.local/share/agenthooks/dispatch.sh' "
                                       "pre_task claude-code"}]}]}}))
    env = {"CLAUDE_CONFIG_DIR": str(config), "CLAUDE_PROJECT_DIR": str(repo)}
    assert run(bash, "pre_task", start(repo), "claude-code", "--plugin", cwd=repo, env=env).stdout == ""
    assert BEGIN in run(bash, "pre_task", start(repo), "claude-code", cwd=repo, env=env).stdout


def test_codex_steps_aside_where_the_repo_registers_the_hooks(bash: str, tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "codex", "--platform", "linux", "--platform", "macos")
    (repo / "sub").mkdir()
    assert run(bash, "pre_task", start(repo / "sub"), "codex", cwd=repo / "sub").stdout == ""
    (repo / ".codex/hooks.json").unlink()
    assert BEGIN in run(bash, "pre_task", start(repo / "sub"), "codex", cwd=repo / "sub").stdout


@pytest.mark.parametrize("link", [".agent", ".agent/hooks", ".agent/hooks/pre_task.sh"])
def test_a_link_in_the_way_is_not_followed(bash: str, tmp_path: Path, link: str) -> None:
    """A clone's .agent/ (or its hooks) as a link to a folder elsewhere: not run."""
    target = claude_repo(tmp_path / "target")
    repo = make_repo(tmp_path, "cloned")
    (repo / ".agent/hooks").parent.mkdir(parents=True, exist_ok=True) if link != ".agent" else None
    if link == ".agent/hooks/pre_task.sh":
        (repo / ".agent/hooks").mkdir()
    (repo / link).symlink_to(target / link)
    proc = run(bash, "pre_task", start(repo), "claude-code", cwd=repo)
    assert (proc.returncode, proc.stdout) == (0, "")
    assert "is a link or not yours: not run" in proc.stderr
    assert not any("pre_task" in ln for ln in log_lines(target)[1:])


def test_bad_arguments_and_input_exit_0_quietly(bash: str, repo: Path) -> None:
    for args in ([], ["rm"], ["../pre_task"], ["pre_task", "a b"], ["pre_task", "x;y"]):
        proc = run(bash, args[0] if args else "", start(repo), *args[1:], cwd=repo)
        assert (proc.returncode, proc.stdout) == (0, ""), args
    for payload in ("", "not json", "\x00\x01", '{"cwd": 5}', '{"cwd":"' + "a" * 20000 + '"}'):
        proc = run(bash, "pre_task", payload, "claude-code", cwd=repo / "src")
        assert proc.returncode == 0 and BEGIN in proc.stdout, payload[:20]


def test_it_writes_nothing_and_starts_no_process_of_its_own(repo: Path, tmp_path: Path) -> None:
    """The plugin's folder stays as shipped, and the only exec is the hook's bash replacing
    the dispatcher (the hook's own processes aside: its counts are test_processes.py's)."""
    strace = require("strace", "apt-get install strace")
    plugin = tmp_path / "plugin"
    shutil.copytree(ROOT / "plugin", plugin)
    before = {p: p.read_bytes() for p in plugin.rglob("*") if p.is_file()}
    trace = tmp_path / "trace"
    payload = json.dumps(start(repo))
    run("bash", "pre_task", payload, "claude-code", cwd=repo)  # the hook's first run builds
    proc = subprocess.run([strace, "-f", "-qq", "-s", "4096", "-e", "trace=execve,clone,clone3,fork,vfork",
                           "-o", str(trace), "bash", "-p", str(plugin / "hooks/dispatch.sh"),
                           "pre_task", "claude-code", "--plugin"], input=payload, text=True,
                          capture_output=True, cwd=repo)
    assert BEGIN in proc.stdout
    lines = trace.read_text().splitlines()
    hook = str(repo / ".agent/hooks/pre_task.sh")
    at = next(i for i, ln in enumerate(lines) if 'execve("' in ln and hook in ln)
    mine = lines[:at + 1]  # up to the hook's start: the dispatcher's own work
    assert [ln.split()[0] for ln in mine] == [lines[0].split()[0]] * 2, mine  # one process
    assert all('execve("' in ln and ln.split('"')[1].endswith("/bash") for ln in mine), mine
    assert {p: p.read_bytes() for p in plugin.rglob("*") if p.is_file()} == before


def test_its_release_line_is_the_products_version() -> None:
    assert dispatch.release(SCRIPT.read_bytes()) == __version__
    assert dispatch.release(b"#!/usr/bin/env bash\n# something else\n") is None


def test_it_is_shellcheck_clean_and_bash_32_safe() -> None:
    for shellcheck in shellchecks():
        proc = subprocess.run([shellcheck, "-s", "bash", str(SCRIPT)], capture_output=True, text=True)
        assert proc.returncode == 0, (shellcheck, proc.stdout)
    assert findings(SCRIPT.read_text()) == []
    for bad in ("python", "jq", "$(", "`"):
        assert bad not in SCRIPT.read_text().split("\nmain() {", 1)[1], bad
