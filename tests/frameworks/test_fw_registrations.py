"""The registration files each install writes: shape, merge, re-run, foreign entries,
unregister, and that each registered command really runs the hook."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
import yaml

from support.helpers import SAMPLE_TATTOO, fixture, git, install, make_repo, write_memory
from agenthooks.errors import UserError
from agenthooks.frameworks import (_jsonhooks, aider, claude_code, codex, copilot_cli, cursor,
                                   gemini_cli, windsurf)
from agenthooks.render import OWNER_ID

NESTED = {
    "claude-code": (claude_code, {
        "SessionStart": ("startup|resume|clear|compact", "pre_task"),
        "SubagentStart": (None, "pre_task"),
        "UserPromptSubmit": (None, "on_compact"),
        "PostToolUse": ("Edit|Write|MultiEdit|NotebookEdit", "post_edit"),
        "PreCompact": (None, "on_compact"),
        "PostCompact": (None, "on_compact"),
    }, 30),
    "codex": (codex, {
        "SessionStart": ("startup|resume|clear|compact", "pre_task"),
        "SubagentStart": (None, "pre_task"),
        "UserPromptSubmit": (None, "on_compact"),
        "PostToolUse": ("apply_patch|Edit|Write", "post_edit"),
        "PreCompact": (None, "on_compact"),
        "PostCompact": (None, "on_compact"),
    }, 30),
    "gemini-cli": (gemini_cli, {
        "SessionStart": (None, "pre_task"),
        "BeforeAgent": (None, "on_compact"),
        "AfterTool": ("write_file|replace", "post_edit"),
        "PreCompress": (None, "on_compact"),
    }, 30000),
}


def commit(repo: Path) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "wip", "--allow-empty")


def ours_count(data: dict) -> int:  # type: ignore[type-arg]
    """Commands of ours anywhere in a settings document."""
    n = 0
    for entries in data.get("hooks", {}).values():
        for e in entries:
            for h in e.get("hooks", [e]):
                cmd = h.get("command") or h.get("bash")
                n += _jsonhooks.is_ours(cmd)
    return n


@pytest.mark.parametrize("name", sorted(NESTED))
def test_nested_registration_shape(installed, name):  # type: ignore[no-untyped-def]
    mod, events, timeout = NESTED[name]
    repo = installed(name)
    text = (repo / mod.PATH).read_text()
    assert text.endswith("}\n") and '\n  "hooks": {' in text
    data = json.loads(text)
    assert list(data["hooks"]) == list(events)
    for event, (matcher, hook) in events.items():
        (group,) = data["hooks"][event]
        assert group.get("matcher") == matcher
        (handler,) = group["hooks"]
        assert handler["type"] == "command" and handler["timeout"] == timeout
        cmd = handler["command"]
        assert cmd.startswith("bash -p ") and f".agent/hooks/{hook}.sh" in cmd
        assert cmd.endswith(f" {name}") or cmd.endswith(f" {name}'")
    if name == "gemini-cli":
        assert "$GEMINI_PROJECT_DIR/.agent/hooks/" in text
        assert all(g["hooks"][0]["name"].startswith("agenthooks-") for e in data["hooks"].values() for g in e)
    if name == "claude-code":
        assert data["hooks"]["SessionStart"][0]["hooks"][0]["command"] == \
            'bash -p "${CLAUDE_PROJECT_DIR:-.}/.agent/hooks/pre_task.sh" claude-code'
    if name == "codex":
        assert "while [ ! -f" in text and "git" not in text


def test_flat_registrations(installed):  # type: ignore[no-untyped-def]
    repo = installed("cursor", "copilot-cli", "windsurf")
    cur = json.loads((repo / cursor.PATH).read_text())
    assert cur["version"] == 1
    assert {e: [(h.get("matcher"), h["command"].rsplit("/.agent/hooks/", 1)[1].replace('"', '').replace("'", "")) for h in v]
            for e, v in cur["hooks"].items()} == {
        "sessionStart": [(None, "pre_task.sh cursor")],
        "postToolUse": [("Write", "post_edit.sh cursor")],
        "preCompact": [(None, "on_compact.sh cursor")],
        "beforeSubmitPrompt": [(None, "on_compact.sh cursor")],
    }
    cop = json.loads((repo / copilot_cli.PATH).read_text())
    assert cop["version"] == 1
    assert {e: [(h.get("matcher"), h["bash"]) for h in v] for e, v in cop["hooks"].items()} == {
        "sessionStart": [(None, "bash -p ./.agent/hooks/pre_task.sh copilot-cli --event=sessionStart")],
        "subagentStart": [(None, "bash -p ./.agent/hooks/pre_task.sh copilot-cli --event=subagentStart")],
        "userPromptSubmitted": [(None, "bash -p ./.agent/hooks/on_compact.sh copilot-cli --event=userPromptSubmitted")],
        "postToolUse": [("edit|create", "bash -p ./.agent/hooks/post_edit.sh copilot-cli --event=postToolUse"),
                        (None, "bash -p ./.agent/hooks/on_compact.sh copilot-cli --event=postToolUse")],
        "preCompact": [(None, "bash -p ./.agent/hooks/on_compact.sh copilot-cli --event=preCompact")],
    }
    assert all(h["type"] == "command" and h["timeoutSec"] == 30 and h["cwd"] == "."
               for v in cop["hooks"].values() for h in v)
    ws = json.loads((repo / windsurf.PATH).read_text())
    assert ws == {"hooks": {"post_write_code": [
        {"command": "bash -p .agent/hooks/post_edit.sh windsurf", "show_output": True}]}}
    rules = (repo / windsurf.RULES).read_text()
    assert rules.startswith("---\ntrigger: always_on\n---\n") and OWNER_ID in rules
    assert ".agent/memory/tattoo.md" in rules and ".agent/memory/snapshot.md" in rules
    manifest = json.loads((repo / ".agent/.agenthooks.json").read_text())
    assert copilot_cli.PATH in manifest["files"] and windsurf.RULES in manifest["files"]


def test_owned_files_carry_the_owner_id(installed):  # type: ignore[no-untyped-def]
    repo = installed("cline", "opencode", "windsurf")
    for rel in (".clinerules/hooks/PreToolUse", ".clinerules/hooks/PostToolUse",
                ".opencode/plugins/agenthooks.ts", windsurf.RULES):
        assert OWNER_ID in (repo / rel).read_text(), rel
    for rel in (".clinerules/hooks/PreToolUse", ".clinerules/hooks/PostToolUse"):
        assert os.access(repo / rel, os.X_OK)
        assert (repo / rel).read_text().startswith("#!/usr/bin/env bash\n")
    plugin = (repo / ".opencode/plugins/agenthooks.ts").read_text()
    for needle in ("experimental.chat.system.transform", "session.compacted", "tool.execute.after",
                   "pre_task", "post_edit", '"edit", "write", "patch", "multiedit"'):
        assert needle in plugin


FOREIGN = {
    "theme": "dark",
    "permissions": {"allow": ["Bash(ls:*)"]},
    "hooks": {
        "PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./lint.sh"}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "say done"}]}],
        "SessionStart": [{"matcher": "startup", "hooks": [
            {"type": "command", "command": "echo hi"}]}],
    },
}


@pytest.mark.parametrize("name", sorted(NESTED))
def test_merge_keeps_foreign_entries_and_never_duplicates(tmp_path, name):  # type: ignore[no-untyped-def]
    mod = NESTED[name][0]
    repo = make_repo(tmp_path)
    (repo / mod.PATH).parent.mkdir(parents=True)
    (repo / mod.PATH).write_text(json.dumps(FOREIGN, indent=4))
    commit(repo)
    install(repo, "--framework", name)
    first = (repo / mod.PATH).read_text()
    data = json.loads(first)
    assert data["theme"] == "dark" and data["permissions"] == FOREIGN["permissions"]
    assert list(data)[:3] == ["theme", "permissions", "hooks"]
    assert data["hooks"]["Stop"] == FOREIGN["hooks"]["Stop"]
    hooks = data["hooks"]
    # Foreign groups stay first, in their order; ours follow.
    assert hooks["SessionStart"][0] == FOREIGN["hooks"]["SessionStart"][0]
    first_event = "PostToolUse" if name != "gemini-cli" else "AfterTool"
    if name != "gemini-cli":
        assert hooks["PostToolUse"][0] == FOREIGN["hooks"]["PostToolUse"][0]
    ours = 6 if name in ("claude-code", "codex") else 4  # Claude Code and Codex: PostCompact, SubagentStart too
    assert ours_count(data) == ours and first_event in hooks
    commit(repo)
    for _ in range(2):
        install(repo, "--framework", name)
        assert (repo / mod.PATH).read_text() == first
    # A user's edit of our entry is replaced in place; the user's additions stay.
    data["hooks"]["SessionStart"][1]["hooks"][0]["timeout"] = 5
    data["hooks"]["SessionStart"].append({"hooks": [{"type": "command", "command": "echo late"}]})
    (repo / mod.PATH).write_text(json.dumps(data))
    commit(repo)
    install(repo, "--framework", name)
    again = json.loads((repo / mod.PATH).read_text())
    assert ours_count(again) == ours
    cmds = [g["hooks"][0]["command"] for g in again["hooks"]["SessionStart"]]
    assert cmds[0] == "echo hi" and ".agent/hooks/pre_task.sh" in cmds[1] and cmds[2] == "echo late"
    assert again["hooks"]["SessionStart"][1]["hooks"][0]["timeout"] == NESTED[name][2]
    # unregister: only ours go.
    ((rel, text),) = mod.unregister(repo)
    assert rel == mod.PATH and text is not None
    left = json.loads(text)
    assert ours_count(left) == 0 and left["theme"] == "dark"
    assert left["hooks"]["Stop"] == FOREIGN["hooks"]["Stop"]
    assert [g["hooks"][0]["command"] for g in left["hooks"]["SessionStart"]] == ["echo hi", "echo late"]
    assert "PreCompact" not in left["hooks"] and "UserPromptSubmit" not in left["hooks"]


def test_foreign_handler_inside_our_group_survives(tmp_path):  # type: ignore[no-untyped-def]
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code")
    path = repo / claude_code.PATH
    data = json.loads(path.read_text())
    data["hooks"]["UserPromptSubmit"][0]["hooks"].append({"type": "command", "command": "./mine.sh"})
    path.write_text(json.dumps(data))
    commit(repo)
    install(repo, "--framework", "claude-code")
    ups = json.loads(path.read_text())["hooks"]["UserPromptSubmit"]
    assert [h["command"] for g in ups for h in g["hooks"]] == ["./mine.sh", claude_code.command("on_compact")] or \
        [h["command"] for g in ups for h in g["hooks"]] == [claude_code.command("on_compact"), "./mine.sh"]
    left = json.loads(claude_code.unregister(repo)[0][1])
    assert left == {"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "./mine.sh"}]}]}}


@pytest.mark.parametrize("mod", [claude_code, codex, gemini_cli, cursor, windsurf])
def test_unregister_deletes_a_file_that_held_only_ours(installed, mod):  # type: ignore[no-untyped-def]
    repo = installed(mod.NAME)
    assert mod.unregister(repo)[:1] == [(mod.PATH, None)]
    (repo / mod.PATH).unlink()
    assert all(rel != mod.PATH for rel, _ in mod.unregister(repo))


def test_unregister_owned_files(installed):  # type: ignore[no-untyped-def]
    from agenthooks.frameworks import cline, opencode
    repo = installed("copilot-cli", "cline", "opencode", "windsurf")
    assert copilot_cli.unregister(repo) == [(copilot_cli.PATH, None)]
    assert cline.unregister(repo) == [(".clinerules/hooks/PreToolUse", None),
                                      (".clinerules/hooks/PostToolUse", None)]
    assert opencode.unregister(repo) == [(opencode.PATH, None)]
    assert (windsurf.RULES, None) in windsurf.unregister(repo)


@pytest.mark.parametrize("mod", [claude_code, codex, gemini_cli, cursor, windsurf])
@pytest.mark.parametrize("bad", ["{not json", "[1, 2]", '{"hooks": []}'])
def test_invalid_settings_fail_before_anything_is_written(tmp_path, mod, bad):  # type: ignore[no-untyped-def]
    repo = make_repo(tmp_path)
    (repo / mod.PATH).parent.mkdir(parents=True)
    (repo / mod.PATH).write_text(bad)
    proc = install(repo, "--framework", mod.NAME, check=False)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert mod.PATH in proc.stderr and "Traceback" not in proc.stderr
    assert not (repo / ".agent").exists()
    assert (repo / mod.PATH).read_text() == bad


def test_merge_output_is_deterministic(tmp_path):  # type: ignore[no-untyped-def]
    a = _jsonhooks.merge({"z": 1, "a": {"é": "中"}}, claude_code.entries(), "nested")
    b = _jsonhooks.merge(json.loads(_jsonhooks.dumps(a)), claude_code.entries(), "nested")
    assert _jsonhooks.dumps(a) == _jsonhooks.dumps(b)
    assert list(a) == ["z", "a", "hooks"] and '"中"' in _jsonhooks.dumps(a)
    assert _jsonhooks.is_ours('bash "$X/.agent/hooks/post_edit.sh" codex')
    assert not _jsonhooks.is_ours("bash .agent/hooks/my_hook.sh")
    assert not _jsonhooks.is_ours(None)


# ---- the registered commands really run the hooks --------------------------------------

def run_command(cmd: str, stdin: str, cwd: Path, env: dict[str, str] | None = None,
                shell: str = "bash") -> subprocess.CompletedProcess[str]:
    return subprocess.run([shell, "-c", cmd], input=stdin, cwd=cwd, capture_output=True,
                          text=True, env={**os.environ, **(env or {})}, timeout=30)


def context_of(stdout: str) -> str:
    data = json.loads(stdout)
    for key in ("hookSpecificOutput",):
        if key in data:
            return data[key]["additionalContext"]
    for key in ("additionalContext", "additional_context", "contextModification"):
        if key in data:
            return data[key]
    raise AssertionError(stdout)


def test_claude_command_runs(installed):  # type: ignore[no-untyped-def]
    repo = installed("claude-code")
    write_memory(repo, tattoo=SAMPLE_TATTOO)
    sub = repo / "src"
    sub.mkdir()
    cmd = json.loads((repo / claude_code.PATH).read_text())["hooks"]["SessionStart"][0]["hooks"][0]["command"]
    proc = run_command(cmd, fixture("claude/SessionStart-startup.json"), sub,
                       {"CLAUDE_PROJECT_DIR": str(repo), "CLAUDECODE": "1"})
    assert proc.returncode == 0, proc.stderr
    assert "Indent with 4 spaces" in context_of(proc.stdout)


def test_claude_command_runs_without_claude_project_dir(installed):  # type: ignore[no-untyped-def]
    """A host that sets no CLAUDE_PROJECT_DIR runs the command from the project folder: it
    opens ./.agent/hooks/, as the status line does, instead of exiting 127."""
    repo = installed("claude-code")
    write_memory(repo, tattoo=SAMPLE_TATTOO)
    hooks = json.loads((repo / claude_code.PATH).read_text())["hooks"]
    for event in ("SessionStart", "UserPromptSubmit", "PreCompact", "PostToolUse"):
        cmd = hooks[event][0]["hooks"][0]["command"]
        proc = run_command(cmd, fixture("claude/SessionStart-startup.json"), repo, {"CLAUDECODE": "1"})
        assert proc.returncode == 0, (event, proc.stderr)
        assert event != "SessionStart" or "Indent with 4 spaces" in context_of(proc.stdout)


def test_gemini_command_runs_after_substitution(installed):  # type: ignore[no-untyped-def]
    repo = installed("gemini-cli")
    write_memory(repo, tattoo=SAMPLE_TATTOO)
    cmd = json.loads((repo / gemini_cli.PATH).read_text())["hooks"]["SessionStart"][0]["hooks"][0]["command"]
    cmd = cmd.replace("$GEMINI_PROJECT_DIR", str(repo))
    proc = run_command(cmd, fixture("gemini/SessionStart-startup.json"), repo)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert "Indent with 4 spaces" in context_of(proc.stdout)


@pytest.mark.parametrize("shell", ["bash", "sh"])
def test_codex_command_runs_from_a_subdirectory_and_outside_git(installed, shell):  # type: ignore[no-untyped-def]
    repo = installed("codex")
    write_memory(repo, tattoo=SAMPLE_TATTOO)
    cmd = json.loads((repo / codex.PATH).read_text())["hooks"]["SessionStart"][0]["hooks"][0]["command"]
    sub = repo / "pkg" / "deep"
    sub.mkdir(parents=True)
    proc = run_command(cmd, fixture("codex/SessionStart-startup.json"), sub, shell=shell)
    assert proc.returncode == 0, proc.stderr
    assert "Indent with 4 spaces" in context_of(proc.stdout)
    import shutil
    shutil.rmtree(repo / ".git")
    proc = run_command(cmd, fixture("codex/SessionStart-compact.json"), repo, shell=shell,
                       env={"GIT_CEILING_DIRECTORIES": str(repo.parent)})
    assert proc.returncode == 0, proc.stderr
    assert "Indent with 4 spaces" in context_of(proc.stdout)


def test_cursor_copilot_windsurf_commands_run(installed):  # type: ignore[no-untyped-def]
    repo = installed("cursor", "copilot-cli", "windsurf")
    write_memory(repo, tattoo=SAMPLE_TATTOO)
    cmd = json.loads((repo / cursor.PATH).read_text())["hooks"]["sessionStart"][0]["command"]
    pay = json.dumps({"hook_event_name": "sessionStart", "conversation_id": "c1", "session_id": "s1"})
    for env in ({}, {"CURSOR_PROJECT_DIR": str(repo)}):
        proc = run_command(cmd, pay, repo, env)
        assert proc.returncode == 0, proc.stderr
        assert "Indent with 4 spaces" in json.loads(proc.stdout)["additional_context"]
    cmd = json.loads((repo / copilot_cli.PATH).read_text())["hooks"]["sessionStart"][0]["bash"]
    proc = run_command(cmd, json.dumps({"sessionId": "abc", "source": "startup", "cwd": str(repo)}), repo)
    assert proc.returncode == 0, proc.stderr
    assert "Indent with 4 spaces" in json.loads(proc.stdout)["additionalContext"]
    cmd = json.loads((repo / windsurf.PATH).read_text())["hooks"]["post_write_code"][0]["command"]
    pay = json.dumps({"agent_action_name": "post_write_code", "trajectory_id": "t1",
                      "tool_info": {"file_path": str(repo / "a.py")}})
    proc = run_command(cmd, pay, repo)
    assert proc.returncode == 0 and proc.stderr == ""


# ---- aider ------------------------------------------------------------------------------

AIDER_CASES = {
    "absent": ("", "read: [.agent/injected_context.txt]\n"),
    "other keys": ("# my config\nmodel: gpt-4o  # fast\nauto-commits: false\n",
                   "# my config\nmodel: gpt-4o  # fast\nauto-commits: false\nread: [.agent/injected_context.txt]\n"),
    "flow list": ("read: [CONVENTIONS.md]  # docs\nmodel: x\n",
                  "read: [CONVENTIONS.md, .agent/injected_context.txt]  # docs\nmodel: x\n"),
    "scalar": ("read: CONVENTIONS.md\n", "read: [CONVENTIONS.md, .agent/injected_context.txt]\n"),
    "block list": ("read:\n  - A.md\n  # comment\n  - B.md\nmodel: x\n",
                   "read:\n  - A.md\n  # comment\n  - B.md\n  - .agent/injected_context.txt\nmodel: x\n"),
    "already there": ("read:\n- .agent/injected_context.txt\n", "read:\n- .agent/injected_context.txt\n"),
}


@pytest.mark.parametrize("case", sorted(AIDER_CASES))
def test_aider_merge_is_a_minimal_text_edit(case):  # type: ignore[no-untyped-def]
    before, after = AIDER_CASES[case]
    out = aider.merged_text(before)
    assert out == after
    assert aider.merged_text(out) == out
    data = yaml.safe_load(out)
    assert aider.ENTRY in (data["read"] if isinstance(data["read"], list) else [data["read"]])
    back = aider.removed_text(out)
    if case == "already there" or not before:
        assert back is None
    else:
        def norm(d):  # type: ignore[no-untyped-def]
            d = dict(d)
            if not isinstance(d.get("read", []), list):
                d["read"] = [d["read"]]
            return d
        assert norm(yaml.safe_load(back)) == norm(yaml.safe_load(before))


def test_aider_invalid_yaml_is_a_user_error():  # type: ignore[no-untyped-def]
    with pytest.raises(UserError):
        aider.merged_text("read: [unclosed\n")
    with pytest.raises(UserError):
        aider.merged_text("- just\n- a list\n")


def test_aider_install_writes_the_context_file(tmp_path):  # type: ignore[no-untyped-def]
    repo = make_repo(tmp_path)
    (repo / ".aider.conf.yml").write_text("# keep me\nmodel: sonnet\n")
    commit(repo)
    install(repo, "--framework", "aider")
    text = (repo / ".aider.conf.yml").read_text()
    assert text.startswith("# keep me\nmodel: sonnet\n") and yaml.safe_load(text)["read"] == [aider.ENTRY]
    ctx = (repo / ".agent/injected_context.txt").read_text()
    assert "AGENT MEMORY BEGIN" in ctx
    assert "lint-cmd" not in text
    commit(repo)
    install(repo, "--framework", "aider")
    assert (repo / ".aider.conf.yml").read_text() == text
    assert aider.unregister(repo) == [(".aider.conf.yml", "# keep me\nmodel: sonnet\n")]
