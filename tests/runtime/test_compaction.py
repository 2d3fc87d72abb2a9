"""Shaping the host's compaction, from the real hooks in temp git repos on every userland: the
instructions for the summary (PreCompact), the session's working set (the files it edited, the
user's latest request) in the block after a compaction, the summary audited (PostCompact), and
the flush counted against Claude Code's auto-compact window."""
from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

import pytest

from support.helpers import (SAMPLE_SNAPSHOT, SAMPLE_TATTOO, install, log_lines, make_repo,
                             run_hook, write_memory)
from support.userlands import USERLANDS, installed_in

BEGIN = "===== AGENT MEMORY BEGIN ====="
END = "===== AGENT MEMORY END ====="
SECRET = "AKIAIOSFODNN7EXAMPLE"
WORKING = "## Before the compaction (kept by agenthooks)"


@pytest.fixture(params=sorted(USERLANDS))
def land(request: pytest.FixtureRequest, tmp_path: Path):  # type: ignore[no-untyped-def]
    """(repo, env): Claude Code's hooks rendered for the userland's platform, the sample memory."""
    return installed_in(tmp_path, request.param, "--framework", "claude-code", "--framework", "generic",
                        tattoo=SAMPLE_TATTOO, snapshot=SAMPLE_SNAPSHOT, notes="- a note\n")


def hook(repo: Path, env: dict[str, str], name: str, body: dict[str, object], framework: str = "claude-code",
         **extra_env: str) -> str:
    proc = run_hook(repo, name, body, framework, env={**env, **extra_env})
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    return proc.stdout


def ask(repo: Path, env: dict[str, str], text: str, sid: str = "s1", **extra_env: str) -> str:
    return hook(repo, env, "on_compact", {"session_id": sid, "hook_event_name": "UserPromptSubmit",
                                          "cwd": str(repo), "prompt": text}, **extra_env)


def edit(repo: Path, env: dict[str, str], path: str, sid: str = "s1", cwd: Path | None = None) -> str:
    return hook(repo, env, "post_edit", {"session_id": sid, "hook_event_name": "PostToolUse", "tool_name": "Edit",
                                         "cwd": str(cwd or repo), "tool_input": {"file_path": path}})


def pre_compact(repo: Path, env: dict[str, str], sid: str = "s1", framework: str = "claude-code") -> str:
    return hook(repo, env, "on_compact", {"session_id": sid, "hook_event_name": "PreCompact", "trigger": "manual",
                                          "custom_instructions": ""}, framework)


def post_compact(repo: Path, env: dict[str, str], summary: str, sid: str = "s1") -> str:
    return hook(repo, env, "on_compact", {"session_id": sid, "hook_event_name": "PostCompact", "trigger": "manual",
                                          "compact_summary": summary})


def reload_block(repo: Path, env: dict[str, str], sid: str = "s1", source: str = "compact") -> str:
    out = hook(repo, env, "pre_task", {"session_id": sid, "hook_event_name": "SessionStart", "source": source})
    text = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert text.count(BEGIN) == 1 and text.count(END) == 1, text
    return str(text)


def files_of(repo: Path, sid: str = "s1") -> list[str]:
    path = repo / f".agent/log/state/{sid}.files"
    return path.read_text(encoding="utf-8").splitlines() if path.exists() else []


def tune(repo: Path, **values: int) -> None:
    path = repo / ".agent/config.yaml"
    lines = path.read_text(encoding="utf-8").splitlines()
    for key, value in values.items():
        assert any(ln.startswith(f"{key}:") for ln in lines), key
        lines = [f"{key}: {value}" if ln.startswith(f"{key}:") else ln for ln in lines]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def estimate(text: str) -> int:
    """The documented estimate, counted here and not by the hook: per line (newline included),
    one token per CJK-width character, one per 4 other characters, rounded up."""
    total = 0
    for line in text.rstrip("\n").split("\n"):
        wide = sum(1 for c in line if ord(c) >= 0x800)
        total += wide + (len(line) - wide + 1 + 3) // 4
    return total


# --- 1. The instructions for the host's summary ---

def test_pre_compact_tells_the_summarizer_what_to_keep_in_plain_text(land):  # type: ignore[no-untyped-def]
    repo, env = land
    ask(repo, env, 'Fix the "login" bug in src/auth.py\nand\tits test')
    edit(repo, env, str(repo / "src/auth.py"))
    edit(repo, env, str(repo / "tests/test_auth.py"))
    out = pre_compact(repo, env)
    assert not out.startswith("{") and BEGIN not in out  # never JSON, never the block
    lines = out.splitlines()
    assert lines[0].startswith("When you summarize this conversation, keep the following verbatim")
    assert ".agent/memory/ is the durable record" in lines[0]
    assert "- Indent with 4 spaces, never tabs" in lines and "- Every API returns {code, data, msg}" in lines
    assert "- [ ] service get_user (stuck on error handling)" in lines
    assert "- raise UserNotFound, never return None" in lines
    request = [ln for ln in lines if ln.startswith("The user's latest request: ")]
    assert request == ['The user\'s latest request: Fix the "login" bug in src/auth.py and its test']
    assert "The files being edited, latest last: src/auth.py, tests/test_auth.py" in lines
    assert any("instructions for the host's summary: keep 2 of 2 rules, 1 of 1 In progress items" in ln
               for ln in log_lines(repo))
    # The compaction is still flagged for the next prompt, which reloads memory.
    assert BEGIN in ask(repo, env, "go on")


@pytest.mark.parametrize("budget", [400, 150, 100])
def test_the_summary_instructions_fit_their_budget_by_an_independent_count(land, budget):  # type: ignore[no-untyped-def]
    repo, env = land
    word = "the cache layer keys need a tenant prefix"
    write_memory(repo, tattoo="# Rules\n" + "".join(f"- rule {i}: {word}\n" for i in range(6)),
                 snapshot="## Goal\nShip it\n## In progress\n" + "".join(
                     f"- [ ] step {i}: {word}\n" for i in range(30)) + "## Key decisions\n" + "".join(
                     f"- decision {i}: {word}\n" for i in range(10)))
    tune(repo, summary_budget_tokens=budget)
    ask(repo, env, "carry on with the cache " * 20)
    edit(repo, env, str(repo / "src/cache.py"))
    out = pre_compact(repo, env)
    count = estimate(out)
    assert budget * 0.6 <= count <= budget, (count, budget, out)
    if budget == 100:
        # Too small for the rules: one line says where they are; In progress keeps what fits.
        assert "The project's 6 hard rules: they are in .agent/memory/tattoo.md." in out
        assert "- rule 0" not in out and "- [ ] step 0" in out and "more in .agent/memory/snapshot.md" in out
    elif budget == 400:  # the rules kept whole, and at least three In progress items
        assert "- rule 5: " in out and "- [ ] step 2: " in out


def test_no_instructions_at_budget_zero_nor_where_the_host_drops_them(land):  # type: ignore[no-untyped-def]
    repo, env = land
    ask(repo, env, "do the thing")
    # generic (as Codex, Gemini CLI and Copilot CLI): PreCompact's output reaches no model.
    assert pre_compact(repo, env, framework="generic") == ""
    tune(repo, summary_budget_tokens=0)
    assert pre_compact(repo, env) == ""
    assert not any("instructions for the host's summary" in ln for ln in log_lines(repo))


def test_a_render_without_a_summarizing_host_prints_nothing_at_pre_compact(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--platform", "linux", "--framework", "codex", "--framework", "gemini-cli")
    write_memory(repo, tattoo=SAMPLE_TATTOO, snapshot=SAMPLE_SNAPSHOT)
    text = (repo / ".agent/hooks/on_compact.sh").read_text()
    assert "ah_summary" not in text
    for framework, event in (("codex", "PreCompact"), ("gemini-cli", "PreCompress")):
        proc = run_hook(repo, "on_compact", {"session_id": "s", "hook_event_name": event}, framework)
        assert proc.returncode == 0 and proc.stdout == ""


# --- 2. The working set ---

def test_the_working_set_is_bounded_deduplicated_and_latest_last(land):  # type: ignore[no-untyped-def]
    repo, env = land
    tune(repo, working_set_files=3)
    for name in ("a.py", "b.py", "a.py", "c.py", "d.py", "c.py"):
        edit(repo, env, str(repo / "src" / name))
    assert files_of(repo) == ["src/a.py", "src/d.py", "src/c.py"]
    # A relative path is taken from the payload's cwd.
    edit(repo, env, "util.py", cwd=repo / "lib")
    assert files_of(repo) == ["src/d.py", "src/c.py", "lib/util.py"]


@pytest.mark.parametrize("path", [
    "/etc/passwd", "../outside.py", "src/../../x.py", ".env", "config/.env.production", "deploy/id_rsa",
    "certs/server.pem", "config/credentials.json", "app/Secrets.yaml", ".agent/memory/snapshot.md",
])
def test_paths_outside_the_repo_and_secrets_files_are_left_out(land, path):  # type: ignore[no-untyped-def]
    repo, env = land
    edit(repo, env, str(repo / "src/main.py"))
    edit(repo, env, path if path.startswith(("/", "..")) else str(repo / path))
    assert files_of(repo) == ["src/main.py"]


def test_repeated_edits_of_the_last_file_write_nothing(land):  # type: ignore[no-untyped-def]
    repo, env = land
    edit(repo, env, str(repo / "src/a.py"))
    listed = repo / ".agent/log/state/s1.files"
    old = time.time() - 100
    os.utime(listed, (old, old))
    for _ in range(3):
        edit(repo, env, str(repo / "src/a.py"))
    assert listed.stat().st_mtime == old and files_of(repo) == ["src/a.py"]
    edit(repo, env, str(repo / "src/b.py"))
    assert listed.stat().st_mtime > old


def test_parallel_sessions_keep_their_own_working_sets(land):  # type: ignore[no-untyped-def]
    repo, env = land

    def session(sid: str) -> None:
        for i in range(6):
            edit(repo, env, str(repo / f"{sid}/f{i}.py"), sid=sid)
        ask(repo, env, f"the request of {sid}", sid=sid)

    threads = [threading.Thread(target=session, args=(sid,)) for sid in ("s1", "s2", "s3")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for sid in ("s1", "s2", "s3"):
        assert files_of(repo, sid) == [f"{sid}/f{i}.py" for i in range(6)]
        block = reload_block(repo, env, sid)
        assert f"the request of {sid}" in block
        assert all(f"the request of {other}" not in block for other in ("s1", "s2", "s3") if other != sid)


def test_the_block_after_a_compaction_names_the_working_set(land):  # type: ignore[no-untyped-def]
    repo, env = land
    ask(repo, env, "first request")
    ask(repo, env, 'Now add "retries" to the client\tplease')  # overwrites the first
    edit(repo, env, str(repo / "src/client.py"))
    start = reload_block(repo, env, source="startup")
    assert WORKING not in start and "src/client.py" not in start  # a new session: not its business
    block = reload_block(repo, env)
    assert WORKING in block
    assert "Files you were editing, latest last: src/client.py" in block
    assert "The user's latest request: Now add \"retries\" to the client please\n" in block
    assert "first request" not in block
    # After the rules and In progress, before the footer.
    assert block.index("stuck on error handling") < block.index(WORKING) < block.index("Full files:")
    # A reload detected at a prompt carries it too; the request named is the one before this prompt.
    out = ask(repo, env, "the newest prompt", AGENT_CONTEXT_LEN="100000")
    assert out == ""
    out = ask(repo, env, "after the drop", AGENT_CONTEXT_LEN="10000")
    text = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert "Files you were editing, latest last: src/client.py" in text
    assert "The user's latest request: the newest prompt" in text
    assert '"prompt": "after the drop"' in (repo / ".agent/log/state/s1.request").read_text()


def test_the_block_names_the_first_300_characters_of_the_request(land):  # type: ignore[no-untyped-def]
    repo, env = land
    ask(repo, env, "x" * 290 + "é" * 40 + "TAILMARK")
    kept = (repo / ".agent/log/state/s1.request").read_text(encoding="utf-8", errors="replace")
    assert kept.startswith('"prompt": "xxx') and len(kept) <= 320  # as the payload had it, cut
    block = reload_block(repo, env)
    assert "The user's latest request: " + "x" * 290 in block and "TAILMARK" not in block
    # A slash command and a payload with no prompt keep the request before them.
    ask(repo, env, "/compact")
    hook(repo, env, "on_compact", {"session_id": "s1", "hook_event_name": "PreCompact"})
    assert "The user's latest request: " + "x" * 290 in reload_block(repo, env)


def test_a_request_that_holds_a_secret_is_redacted(land):  # type: ignore[no-untyped-def]
    repo, env = land
    ask(repo, env, f"deploy with key {SECRET} today")
    edit(repo, env, str(repo / "src/deploy.py"))
    for text in (reload_block(repo, env), pre_compact(repo, env)):
        assert SECRET not in text and "deploy with key" not in text
        assert "looks like a secret" in text and "src/deploy.py" in text


BUDGET = 290


def test_the_working_set_is_cut_before_the_rules_and_in_progress(land):  # type: ignore[no-untyped-def]
    repo, env = land
    tune(repo, budget_tokens=BUDGET)
    ask(repo, env, "a long request that goes on " * 10)
    for i in range(8):
        edit(repo, env, str(repo / f"src/module_with_a_long_name_{i}.py"))
    block = reload_block(repo, env)
    assert "Indent with 4 spaces" in block and "stuck on error handling" in block
    assert "The user's latest request" not in block
    assert "lines left out for the budget: read .agent/log/state/s1." in block
    assert estimate(block) <= BUDGET


def test_working_set_files_zero_keeps_nothing(land):  # type: ignore[no-untyped-def]
    repo, env = land
    tune(repo, working_set_files=0)
    ask(repo, env, "a request")
    edit(repo, env, str(repo / "src/a.py"))
    assert not (repo / ".agent/log/state/s1.files").exists()
    assert not (repo / ".agent/log/state/s1.request").exists()
    assert WORKING not in reload_block(repo, env)


def test_the_working_set_is_pruned_with_the_session_state(land):  # type: ignore[no-untyped-def]
    repo, env = land
    ask(repo, env, "an old request", sid="old")
    edit(repo, env, str(repo / "src/a.py"), sid="old")
    state = repo / ".agent/log/state"
    for i in range(800):
        (state / f"other{i}.remind").write_text("")
    month_ago = time.time() - 40 * 86400
    for name in ("old.files", "old.request", "old.state"):
        os.utime(state / name, (month_ago, month_ago))
    reload_block(repo, env, sid="new", source="startup")  # a build prunes
    assert not (state / "old.files").exists() and not (state / "old.request").exists()


# --- 3. The summary audited ---

def test_a_summary_that_drops_a_rule_and_the_in_progress_item_is_named_once(land):  # type: ignore[no-untyped-def]
    repo, env = land
    pre_compact(repo, env)
    reload_block(repo, env)
    summary = "The user refactors user_service to async. Indent with 4 spaces, never tabs."
    assert post_compact(repo, env, summary) == ""
    audit = [ln for ln in log_lines(repo) if "summary audit:" in ln]
    assert len(audit) == 1
    assert "kept 1 of 2 rules, 0 of 1 In progress items" in audit[0]
    assert 'dropped rule 2 "Every API returns {code, data, msg}"' in audit[0]
    assert "In progress item 1 missing" in audit[0]
    out = ask(repo, env, "go on")
    text = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert text.startswith("agenthooks: the compaction summary left out rule 2")
    assert 'In progress item 1 ("service get_user (stuck on error handling)")' in text
    assert ask(repo, env, "and on") == ""  # said once


def test_a_summary_that_keeps_everything_reports_nothing_missing(land):  # type: ignore[no-untyped-def]
    repo, env = land
    pre_compact(repo, env)
    reload_block(repo, env)
    summary = ("Rules: indent with 4 spaces, never tabs; every API returns {code, data, msg}.\n"
               "Still in progress: the service get_user, stuck on error handling (not done yet).")
    assert post_compact(repo, env, summary) == ""
    audit = [ln for ln in log_lines(repo) if "summary audit:" in ln]
    assert len(audit) == 1 and audit[0].endswith("kept 2 of 2 rules, 1 of 1 In progress items")
    assert not (repo / ".agent/log/state/s1.audit").exists()
    assert ask(repo, env, "go on") == ""


def test_a_summary_that_calls_the_in_progress_item_done_is_named(land):  # type: ignore[no-untyped-def]
    repo, env = land
    reload_block(repo, env)
    summary = ("Indent with 4 spaces, never tabs. Every API returns {code, data, msg}. "
               "The service get_user error handling is now done and tested.")
    post_compact(repo, env, summary)
    audit = [ln for ln in log_lines(repo) if "summary audit:" in ln][-1]
    assert "kept 2 of 2 rules, 1 of 1 In progress items; In progress item 1 called done" in audit
    text = json.loads(ask(repo, env, "go on"))["hookSpecificOutput"]["additionalContext"]
    assert "calls In progress item 1" in text and "done, which the board does not" in text


def test_a_long_summary_is_read_past_the_first_16_kb(land):  # type: ignore[no-untyped-def]
    repo, env = land
    reload_block(repo, env)
    summary = "filler words about nothing. " * 1200 + "Indent with 4 spaces, never tabs."
    post_compact(repo, env, summary)
    audit = [ln for ln in log_lines(repo) if "summary audit:" in ln][-1]
    assert "kept 1 of 2 rules" in audit and "dropped rule 2" in audit


# --- 4. The flush against Claude Code's auto-compact window ---

@pytest.mark.parametrize("extra,flushes", [
    ({}, False),
    ({"CLAUDE_CODE_AUTO_COMPACT_WINDOW": "100000"}, True),
    ({"CLAUDE_CODE_AUTO_COMPACT_WINDOW": "400000"}, False),  # above the model's: the model's wins
    ({"CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": "50"}, True),
    ({"CLAUDE_CODE_AUTO_COMPACT_WINDOW": "junk", "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": "x"}, False),
])
def test_the_flush_counts_against_the_auto_compact_window(land, extra, flushes):  # type: ignore[no-untyped-def]
    repo, env = land
    ask(repo, env, "go", AGENT_CONTEXT_LEN="10000", **extra)
    out = ask(repo, env, "go", AGENT_CONTEXT_LEN="80000", **extra)  # 40% of 200000; 80% of 100000
    assert ("a compaction is near" in out) == flushes, out
    if flushes:
        assert any("context 80% full (80000 of 100000 tokens)" in ln for ln in log_lines(repo))


def test_a_compaction_record_after_the_usage_reloads_once(land):  # type: ignore[no-untyped-def]
    """Claude Code's transcript: a compact_boundary record after the last usage is one
    compaction (memory reloaded); that usage predates it, so the smaller length the next prompt
    reads is the new baseline, not a second drop (the state line's sync field)."""
    repo, env = land
    chat = repo.parent / "chat.jsonl"

    def add(record: dict[str, object]) -> None:
        with chat.open("a", encoding="utf-8") as f:
            f.write(json.dumps(record, separators=(",", ":")) + "\n")

    def usage(tokens: int) -> dict[str, object]:
        return {"type": "assistant", "message": {"usage": {
            "input_tokens": 3, "cache_creation_input_tokens": 0, "cache_read_input_tokens": tokens}}}

    def prompt() -> str:
        return hook(repo, env, "on_compact", {"session_id": "s1", "hook_event_name": "UserPromptSubmit",
                                              "cwd": str(repo), "prompt": "go", "transcript_path": str(chat)})

    add(usage(90000))
    assert prompt() == ""
    add({"type": "system", "subtype": "compact_boundary", "timestamp": "2026-12-05T10:00:00.000Z"})
    assert BEGIN in prompt()
    state = (repo / ".agent/log/state/s1.state").read_text().splitlines()[-1].split()
    assert state[4:6] == ["2026-12-05T10:00:00.000Z", "1"], state  # the record's time, and sync
    add(usage(20000))
    assert prompt() == ""
    reloads = [ln for ln in log_lines(repo) if "compaction detected" in ln]
    assert len(reloads) == 1 and "a compaction record in the transcript" in reloads[0], reloads
