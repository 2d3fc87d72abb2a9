"""Each framework's payloads, captured and hostile, fed to the real rendered hooks: stdout is
valid JSON where the framework needs it, and the memory text round-trips exactly."""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from support.helpers import fixture, log_lines, run_hook, write_memory

ALL_JSON = ("claude-code", "codex", "gemini-cli", "cursor", "copilot-cli", "cline")

TATTOO = ('# Project hard rules\n- Say "hi" then C:\\temp\\new and a \\n that is not a newline\n'
          "- Indent\twith a tab\n- 中文规则：必须使用四个空格，不要用制表符\n- emoji 🚀 and é stay\n")
EXPECTED = ['- Say "hi" then C:\\temp\\new and a \\n that is not a newline',
            "- Indent  with a tab", "- 中文规则：必须使用四个空格，不要用制表符", "- emoji 🚀 and é stay"]

HOSTILE = {
    "escaped quotes": '{"session_id":"a\\"b","prompt":"say \\"hi\\" \\\\ back","source":"startup"}',
    "backslashes": '{"session_id":"C:\\\\x\\\\y","cwd":"C:\\\\repo\\\\","hook_event_name":"SessionStart"}',
    "unicode escapes": '{"session_id":"\\u00e9\\u4e2d\\ud83d\\ude80","prompt":"\\u0000\\u001f"}',
    "cjk": json.dumps({"session_id": "会话一", "prompt": "继续重构用户服务"}, ensure_ascii=False),
    "missing fields": "{}",
    "one megabyte": json.dumps({"prompt": "x" * (1 << 20), "session_id": "big"}),
    "not json": "this is not json at all } { \"",
    "empty": "",
    "array": "[1, 2, 3]",
    "nested only": json.dumps({"postToolUse": {"parameters": {"path": "a\"b"}}}),
}

FIXTURES = {
    "claude-code": ["claude/SessionStart-startup.json", "claude/SessionStart-compact.json",
                    "claude/SessionStart-resume.json", "claude/UserPromptSubmit.json"],
    "codex": ["codex/SessionStart-startup.json", "codex/SessionStart-compact.json",
              "codex/UserPromptSubmit.json"],
    "gemini-cli": ["gemini/SessionStart-startup.json", "gemini/SessionStart-resume.json",
                   "gemini/BeforeAgent.json"],
}


def context_of(framework: str, stdout: str) -> str:
    data = json.loads(stdout)
    assert isinstance(data, dict)
    if framework in ("claude-code", "codex", "gemini-cli"):
        assert set(data) == {"hookSpecificOutput"}
        return data["hookSpecificOutput"]["additionalContext"]
    key = {"cursor": "additional_context", "copilot-cli": "additionalContext",
           "cline": "contextModification"}[framework]
    if framework == "cline":
        assert data["cancel"] is False
    return data[key]


def check_memory(text: str) -> None:
    lines = text.split("\n")
    for line in EXPECTED:
        assert line in lines, (line, text)
    assert "\t" not in text


@pytest.fixture
def repo(installed):  # type: ignore[no-untyped-def]
    r = installed(*ALL_JSON, "windsurf", "opencode", "aider", "generic")
    write_memory(r, tattoo=TATTOO)
    (r / ".agent/config.yaml").write_text("reload_turns: 1\nstale_minutes: 1\n")
    return r


ENV = {"CLAUDECODE": "1"}


@pytest.mark.parametrize("framework", ALL_JSON)
@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_pre_task_json_round_trips_memory(repo, framework, case):  # type: ignore[no-untyped-def]
    proc = run_hook(repo, "pre_task", HOSTILE[case], framework, env=ENV)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("\n") == 1, proc.stdout[:300]
    check_memory(context_of(framework, proc.stdout))


@pytest.mark.parametrize("framework", ALL_JSON)
@pytest.mark.parametrize("case", ["escaped quotes", "one megabyte", "not json", "empty", "cjk"])
def test_on_compact_json_round_trips_memory(repo, framework, case):  # type: ignore[no-untyped-def]
    # reload_turns 1: every prompt reloads (cline: its first tool call injects anyway).
    proc = run_hook(repo, "on_compact", HOSTILE[case], framework, env=ENV)
    assert proc.returncode == 0, proc.stderr
    check_memory(context_of(framework, proc.stdout))


@pytest.mark.parametrize("framework", sorted(FIXTURES))
def test_captured_fixtures(repo, framework):  # type: ignore[no-untyped-def]
    for name in FIXTURES[framework]:
        hook = "on_compact" if "Prompt" in name or "BeforeAgent" in name else "pre_task"
        proc = run_hook(repo, hook, fixture(name), framework, env=ENV)
        assert proc.returncode == 0, (name, proc.stderr)
        data = json.loads(proc.stdout)
        event = json.loads(fixture(name))["hook_event_name"]
        assert data["hookSpecificOutput"]["hookEventName"] == event
        check_memory(data["hookSpecificOutput"]["additionalContext"])
        if name.endswith("SessionStart-compact.json"):
            assert "compacted" in data["hookSpecificOutput"]["additionalContext"]


def make_stale(repo: Path) -> None:
    old = time.time() - 3600
    os.utime(repo / ".agent/memory/snapshot.md", (old, old))


EDITS = {  # framework -> (payload of an edit of hello.txt, payload of an edit of the snapshot)
    "claude-code": (fixture("claude/PostToolUse-Edit.json"),
                    fixture("claude/PostToolUse-Edit.json").replace("/repo/hello.txt", "/repo/.agent/memory/snapshot.md")),
    "codex": (fixture("codex/PostToolUse-apply_patch.json"),
              fixture("codex/PostToolUse-apply_patch.json").replace("Update File: hello.txt", "Update File: .agent/memory/snapshot.md")),
    "gemini-cli": (fixture("gemini/AfterTool-write_file.json"),
                   fixture("gemini/AfterTool-write_file.json").replace("/repo/hello.txt", "/repo/.agent/memory/snapshot.md")),
    "cursor": tuple(json.dumps({"hook_event_name": "postToolUse", "conversation_id": "c-1", "session_id": "c-1",
                                "tool_name": "Write", "tool_input": {"file_path": p}}) for p in ("src/a.py", ".agent/memory/snapshot.md")),
    "copilot-cli": tuple(json.dumps({"sessionId": "cp-1", "timestamp": 1, "toolName": "edit",
                                     "toolArgs": json.dumps({"path": p, "old_str": "a\"b"})}) for p in ("src/a.py", ".agent/memory/snapshot.md")),
    "cline": tuple(json.dumps({"taskId": "t-1", "hookName": "PostToolUse", "postToolUse": {
        "toolName": "editor", "parameters": {"path": p, "content": "x"}}}) for p in ("src/a.py", ".agent/memory/snapshot.md")),
}


@pytest.mark.parametrize("framework", sorted(EDITS))
def test_post_edit_reads_the_edited_path(repo, framework):  # type: ignore[no-untyped-def]
    other, snap = EDITS[framework]
    make_stale(repo)
    proc = run_hook(repo, "post_edit", snap, framework, env=ENV)
    assert proc.returncode == 0 and proc.stdout == "", proc.stdout
    proc = run_hook(repo, "post_edit", other, framework, env=ENV)
    assert proc.returncode == 0, proc.stderr
    assert "snapshot.md was last updated" in context_of(framework, proc.stdout)
    # Once per stale period.
    assert run_hook(repo, "post_edit", other, framework, env=ENV).stdout == ""


SESSIONS = {
    "copilot-cli": ('{"sessionId":"cp-9","timestamp":1700000000000,"prompt":"x"}', "cp-9"),
    "cursor": ('{"conversation_id":"conv-7","hook_event_name":"beforeSubmitPrompt"}', "conv-7"),
    "cline": ('{"clineVersion":"4.1","taskId":"task-3","hookName":"PreToolUse"}', "task-3"),
    "windsurf": ('{"agent_action_name":"post_write_code","trajectory_id":"traj/5"}', "_traj_2f5"),  # a "/" spelled _2f: no other id gets this name
    "claude-code": (fixture("claude/UserPromptSubmit.json"), "1698e1aa-4d58-45b5-94e7-c1d2567a4876"),
}


@pytest.mark.parametrize("framework", sorted(SESSIONS))
def test_session_id_per_framework(repo, framework):  # type: ignore[no-untyped-def]
    payload, sid = SESSIONS[framework]
    proc = run_hook(repo, "on_compact", payload, framework, env=ENV)
    assert proc.returncode == 0, proc.stderr
    assert (repo / f".agent/log/state/{sid}.state").is_file(), list((repo / ".agent/log/state").iterdir())


def test_windsurf_post_edit_prints_plain_text(repo):  # type: ignore[no-untyped-def]
    make_stale(repo)
    pay = json.dumps({"agent_action_name": "post_write_code", "trajectory_id": "w",
                      "tool_info": {"file_path": str(repo / "a.py"), "edits": [{"old_string": "\"", "new_string": "\\"}]}})
    proc = run_hook(repo, "post_edit", pay, "windsurf")
    assert proc.returncode == 0 and proc.stdout.startswith("agenthooks: .agent/memory/snapshot.md")


# ---- Cline wrappers ---------------------------------------------------------------------

def cline(repo: Path, event: str, payload: str):  # type: ignore[no-untyped-def]
    import subprocess
    return subprocess.run([str(repo / ".clinerules/hooks" / event)], input=payload, cwd=repo,
                          capture_output=True, text=True, timeout=30)


def test_cline_wrappers_always_answer_one_json_line(repo):  # type: ignore[no-untyped-def]
    (repo / ".agent/config.yaml").write_text("reload_turns: 20\nstale_minutes: 1\n")
    pre = json.dumps({"taskId": "T1", "hookName": "PreToolUse", "preToolUse": {"toolName": "read_file"}})
    first = cline(repo, "PreToolUse", pre)
    assert first.returncode == 0
    check_memory(context_of("cline", first.stdout))
    second = cline(repo, "PreToolUse", pre)
    assert json.loads(second.stdout) == {"cancel": False}
    for payload in ("", "not json", HOSTILE["one megabyte"]):
        assert json.loads(cline(repo, "PostToolUse", payload).stdout) == {"cancel": False}
    make_stale(repo)
    read = json.dumps({"taskId": "T1", "postToolUse": {"toolName": "read_file", "parameters": {"path": "a"}}})
    assert json.loads(cline(repo, "PostToolUse", read).stdout) == {"cancel": False}
    edit = json.dumps({"taskId": "T1", "postToolUse": {"toolName": "editor", "parameters": {"path": "a.py"}}})
    out = json.loads(cline(repo, "PostToolUse", edit).stdout)
    assert out["cancel"] is False and "snapshot.md" in out["contextModification"]
    # A broken runtime still answers {"cancel":false}.
    (repo / ".agent/hooks/post_edit.sh").write_text("exit 3\n")
    assert json.loads(cline(repo, "PostToolUse", edit).stdout) == {"cancel": False}


# ---- Copilot CLI and .claude/settings.json -----------------------------------------------

def test_copilot_and_claude_inject_once(repo):  # type: ignore[no-untyped-def]
    start = json.dumps({"sessionId": "S", "timestamp": 1, "source": "startup", "cwd": str(repo)})
    claude_under_copilot = run_hook(repo, "pre_task", start, "claude-code", env={"CLAUDECODE": ""})
    assert claude_under_copilot.returncode == 0 and claude_under_copilot.stdout == ""
    cop = run_hook(repo, "pre_task", start, "copilot-cli", "--event=sessionStart")
    check_memory(context_of("copilot-cli", cop.stdout))
    real_claude = run_hook(repo, "pre_task", fixture("claude/SessionStart-startup.json"), "claude-code",
                           env={"CLAUDECODE": "1"})
    check_memory(context_of("claude-code", real_claude.stdout))
    # --show from a terminal is never silenced.
    shown = run_hook(repo, "pre_task", "", "claude-code", "--show", env={"CLAUDECODE": ""})
    check_memory(context_of("claude-code", shown.stdout))
    # The status line is Claude Code's alone (Copilot CLI runs none): printed, nothing logged.
    before = log_lines(repo)
    line = run_hook(repo, "pre_task", fixture("claude/statusline.json"), "claude-code", "--statusline",
                    env={"CLAUDECODE": ""})
    assert line.returncode == 0 and line.stdout.startswith("memory ") and line.stderr == "", line
    assert log_lines(repo) == before


def test_copilot_precompact_then_next_tool_call_reinjects(repo):  # type: ignore[no-untyped-def]
    (repo / ".agent/config.yaml").write_text("reload_turns: 0\n")
    tool = json.dumps({"sessionId": "S2", "timestamp": 1, "toolName": "bash", "toolArgs": "{}"})
    assert run_hook(repo, "on_compact", tool, "copilot-cli", "--event=postToolUse").stdout == ""
    pre = json.dumps({"sessionId": "S2", "timestamp": 2, "trigger": "auto", "transcriptPath": "/nonexistent"})
    proc = run_hook(repo, "on_compact", pre, "copilot-cli", "--event=preCompact")
    assert proc.returncode == 0 and proc.stdout == ""
    proc = run_hook(repo, "on_compact", tool, "copilot-cli", "--event=postToolUse")
    check_memory(context_of("copilot-cli", proc.stdout))
    assert run_hook(repo, "on_compact", tool, "copilot-cli", "--event=postToolUse").stdout == ""


def test_copilot_precompact_then_next_prompt_reinjects(repo):  # type: ignore[no-untyped-def]
    (repo / ".agent/config.yaml").write_text("reload_turns: 0\n")
    prompt = json.dumps({"sessionId": "S3", "timestamp": 1, "prompt": "next"})
    assert run_hook(repo, "on_compact", prompt, "copilot-cli", "--event=userPromptSubmitted").stdout == ""
    pre = json.dumps({"sessionId": "S3", "timestamp": 2, "trigger": "auto", "transcriptPath": "/nonexistent"})
    assert run_hook(repo, "on_compact", pre, "copilot-cli", "--event=preCompact").stdout == ""
    proc = run_hook(repo, "on_compact", prompt, "copilot-cli", "--event=userPromptSubmitted")
    check_memory(context_of("copilot-cli", proc.stdout))
    # Reloaded once: the tool call that follows in the same turn gets nothing more.
    tool = json.dumps({"sessionId": "S3", "timestamp": 3, "toolName": "bash", "toolArgs": "{}"})
    assert run_hook(repo, "on_compact", tool, "copilot-cli", "--event=postToolUse").stdout == ""


def test_gemini_session_start_compress_is_a_compaction(repo):  # type: ignore[no-untyped-def]
    """Gemini CLI names the source "compress" where Claude Code says "compact" (PR #14151; 0.61.0
    has no such source yet): the same reload, notice and sync flag, so the next prompt's lower
    usage is the new baseline, not a second compaction."""
    (repo / ".agent/config.yaml").write_text("reload_turns: 0\n")
    start = json.dumps({"session_id": "G", "hook_event_name": "SessionStart", "source": "compress"})
    out = context_of("gemini-cli", run_hook(repo, "pre_task", start, "gemini-cli").stdout)
    check_memory(out)
    assert "Context was compacted" in out
    assert any("compaction detected (SessionStart source=compact)" in ln for ln in log_lines(repo))
    before = json.dumps({"session_id": "G", "hook_event_name": "BeforeAgent", "prompt": "go"})
    assert run_hook(repo, "on_compact", before, "gemini-cli", env={"AGENT_CONTEXT_LEN": "1000"}).stdout == ""
