"""A subagent gets lean memory at its start (SubagentStart in Claude Code and Codex, subagentStart
in Copilot CLI): the rules and the board's In progress items, redacted, within
subagent_budget_tokens, never the notes; the agent types in subagent_skip get nothing; the
session's own block and state are left as they were. A compaction event that names an agent is
the subagent's: not counted as the session's and no reload spent on it. On every userland."""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from support.helpers import FIXTURES, SAMPLE_SNAPSHOT, cli, log_lines, run_hook
from support.userlands import USERLANDS, installed_in

RULES = ("# Project hard rules\n- Indent with 4 spaces, never tabs\n- Every API returns {code, data, msg}\n"
         "- Deploy key ghp_abcdefghijklmnopqrstuvwxyz0123456789 is never pasted\n")
NOTES = "- a scratch note the subagent must not get\n"
HEAD = "Project memory for this subagent"


def subagent(agent_type: str, sid: str = "s1", event: str = "SubagentStart") -> dict[str, str]:
    return {"session_id": sid, "hook_event_name": event, "agent_id": "a7f3", "agent_type": agent_type}


@pytest.fixture(params=sorted(USERLANDS))
def land(request: pytest.FixtureRequest, tmp_path: Path):  # type: ignore[no-untyped-def]
    """(repo, env): installed for Claude Code, Codex and Copilot CLI, with rules, a board and
    notes; the session s1 has started and got its block."""
    repo, env = installed_in(tmp_path, request.param, "--framework", "claude-code", "--framework", "codex",
                             tattoo=RULES, snapshot=SAMPLE_SNAPSHOT, notes=NOTES)
    start = {"session_id": "s1", "hook_event_name": "SessionStart", "source": "startup"}
    assert run_hook(repo, "pre_task", start, "claude-code", env=env).returncode == 0
    return repo, env


def context(proc: subprocess.CompletedProcess[str], event: str = "SubagentStart") -> str:
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    if not proc.stdout:
        return ""
    out = json.loads(proc.stdout)["hookSpecificOutput"]
    assert out["hookEventName"] == event
    return str(out["additionalContext"])


def set_key(config: Path, key: str, value: str) -> None:
    text, n = re.subn(rf"(?m)^{key}:.*$", f"{key}: {value}", config.read_text())
    assert n == 1, key
    config.write_text(text)


def session_files(repo: Path) -> dict[str, bytes]:
    """The session's published block and state, to show a subagent leaves them alone."""
    files = [repo / ".agent/injected_context.txt", *sorted((repo / ".agent/log/state").iterdir())]
    return {p.name: p.read_bytes() for p in files if p.is_file() and p.name != "config.values"}


def test_a_subagent_gets_the_rules_and_in_progress_and_never_the_notes(land) -> None:  # type: ignore[no-untyped-def]
    repo, env = land
    before = session_files(repo)
    block = context(run_hook(repo, "pre_task", subagent("general-purpose"), "claude-code", env=env))
    assert block.startswith("===== AGENT MEMORY BEGIN =====\n" + HEAD) and block.endswith("===== AGENT MEMORY END =====")
    assert "- Indent with 4 spaces, never tabs" in block and "- Every API returns {code, data, msg}" in block
    assert "- [ ] service get_user (stuck on error handling)" in block
    # Secrets never reach the model; the notes, the goal and the decisions stay with the session.
    assert "ghp_" not in block and "[redacted by agenthooks" in block
    for other in ("scratch note", "Refactor user_service", "raise UserNotFound", "cache layer"):
        assert other not in block, other
    assert session_files(repo) == before
    line = [ln for ln in log_lines(repo) if "subagent general-purpose started" in ln][-1]
    tokens = int(re.search(r"\((\d+) tokens\)", line).group(1))  # type: ignore[union-attr]
    assert "told 3 of 3 rules, 1 of 1 In progress items" in line and 0 < tokens <= 300
    # Codex takes the same JSON (plain text there is "invalid subagent start JSON output").
    assert context(run_hook(repo, "pre_task", subagent("default"), "codex", env=env)) == block


def test_copilot_cli_gets_it_as_a_flat_additional_context(tmp_path: Path) -> None:
    repo, env = installed_in(tmp_path, "gnu", "--framework", "copilot-cli", tattoo=RULES, snapshot=SAMPLE_SNAPSHOT)
    payload = {"sessionId": "c1", "agentId": "x1", "agentName": "task", "agentType": "task", "cwd": str(repo)}
    proc = run_hook(repo, "pre_task", payload, "copilot-cli", "--event=subagentStart", env=env)
    assert proc.returncode == 0 and set(json.loads(proc.stdout)) == {"additionalContext"}
    assert json.loads(proc.stdout)["additionalContext"].startswith("===== AGENT MEMORY BEGIN =====\n" + HEAD)
    explore = {**payload, "agentType": "explore", "agentName": "explore"}
    assert run_hook(repo, "pre_task", explore, "copilot-cli", "--event=subagentStart", env=env).stdout == ""


def test_the_skipped_agent_types_get_nothing_in_any_case(land) -> None:  # type: ignore[no-untyped-def]
    repo, env = land
    for agent_type in ("Explore", "explore", "EXPLORER"):
        assert context(run_hook(repo, "pre_task", subagent(agent_type), "claude-code", env=env)) == "", agent_type
    assert any("subagent Explore started; no memory (its type is in subagent_skip)" in ln for ln in log_lines(repo))
    config = repo / ".agent/config.yaml"
    set_key(config, "subagent_skip", '"Plan"')
    assert HEAD in context(run_hook(repo, "pre_task", subagent("Explore"), "claude-code", env=env))
    assert context(run_hook(repo, "pre_task", subagent("plan"), "claude-code", env=env)) == ""


def test_the_block_keeps_within_subagent_budget_tokens_and_zero_turns_it_off(land) -> None:  # type: ignore[no-untyped-def]
    repo, env = land
    many = "".join(f"- rule number {i}: always check the thing called widget-{i} before a merge\n" for i in range(40))
    (repo / ".agent/memory/tattoo.md").write_text(many)
    config = repo / ".agent/config.yaml"
    set_key(config, "subagent_budget_tokens", "150")
    block = context(run_hook(repo, "pre_task", subagent("general-purpose"), "claude-code", env=env))
    # A token is at most four characters here (ASCII): the block is at most 4 x the budget.
    assert "- rule number 0:" in block and "- rule number 39:" not in block and len(block) <= 4 * 150 + 4, block
    assert re.search(r"\[\.\.\. \d+ rules left out for the budget: read \.agent/memory/tattoo\.md\]", block)
    # The first In progress item stays while rules go (with the pointer above): it is the task.
    assert block.endswith("- [ ] service get_user (stuck on error handling)\n===== AGENT MEMORY END =====")
    # Smaller budgets: fewer rules, never over; below the least there is to say, nothing.
    said = []
    for budget in range(40, 160, 10):
        set_key(config, "subagent_budget_tokens", str(budget))
        tiny = context(run_hook(repo, "pre_task", subagent("general-purpose"), "claude-code", env=env))
        assert len(tiny) <= 4 * budget + 4 and (not tiny or "rules left out for the budget" in tiny), (budget, tiny)
        said.append(tiny.count("- rule number"))
    assert said[0] == 0 and said == sorted(said) and said[-1] > 0, said
    set_key(config, "subagent_budget_tokens", "0")
    assert context(run_hook(repo, "pre_task", subagent("general-purpose"), "claude-code", env=env)) == ""
    assert "no memory (subagent_budget_tokens is 0)" in log_lines(repo)[-1]


def test_a_subagents_compaction_is_not_the_sessions(land) -> None:  # type: ignore[no-untyped-def]
    repo, env = land
    before = session_files(repo)
    pre = {**subagent("general-purpose", event="PreCompact"), "trigger": "auto"}
    assert run_hook(repo, "on_compact", pre, "claude-code", env=env).stdout == ""
    # Its own SessionStart(compact), where a host sends one: its lean block again, not the session's.
    again = context(run_hook(repo, "pre_task", {**subagent("general-purpose", event="SessionStart"),
                                                "source": "compact"}, "claude-code", env=env), "SessionStart")
    assert again.startswith("===== AGENT MEMORY BEGIN =====\n" + HEAD)
    post = {**subagent("general-purpose", event="PostCompact"), "compact_summary": "the subagent's summary"}
    assert run_hook(repo, "on_compact", post, "claude-code", env=env).stdout == ""
    assert session_files(repo) == before
    # The session's next prompt: no reload spent, nothing counted.
    prompt = {"session_id": "s1", "hook_event_name": "UserPromptSubmit", "prompt": "go on"}
    assert run_hook(repo, "on_compact", prompt, "claude-code", env=env).stdout == ""
    assert not (repo / ".agent/log/state/s1.count").exists()
    status = json.loads(cli("status", "--json", str(repo)).stdout)
    session = next(s for s in status["sessions"] if s["session_id"] == "s1")
    assert (session["compactions"], session["subagent_compactions"]) == (0, 1)
    assert "its subagents' compactions 1 (not counted)" in cli("status", str(repo)).stdout
    # The session's own compaction still counts, and reloads.
    pre = {"session_id": "s1", "hook_event_name": "PreCompact", "trigger": "auto"}
    run_hook(repo, "on_compact", pre, "claude-code", env=env)
    reload = run_hook(repo, "on_compact", prompt, "claude-code", env=env)
    assert "Project memory (.agent/memory/" in reload.stdout
    assert (repo / ".agent/log/state/s1.count").read_text().split()[0] == "1"


def test_a_compaction_announced_with_the_sessions_ids_but_no_record_in_its_transcript_is_a_subagents(
        land, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Claude Code may announce a subagent's compaction with the parent's ids and no agent named
    (anthropics/claude-code #91910): the session's own leaves a compact_boundary record in its
    transcript, which the next prompt looks for."""
    repo, env = land
    lines = (FIXTURES / "transcripts/claude-compact.jsonl").read_text().splitlines(keepends=True)
    before, boundary = "".join(lines[:6]), lines[10]
    assert '"subtype":"compact_boundary"' in boundary and '"usage"' in before
    transcript = tmp_path / "session.jsonl"
    transcript.write_text(before)

    def event(name: str, **extra: str) -> subprocess.CompletedProcess[str]:
        hook = "pre_task" if name == "SessionStart" else "on_compact"
        payload = {"session_id": "s1", "hook_event_name": name, "transcript_path": str(transcript), **extra}
        return run_hook(repo, hook, payload, "claude-code", env=env)

    def count() -> str:
        path = repo / ".agent/log/state/s1.count"
        return path.read_text().strip() if path.exists() else "0"

    def compactions() -> tuple[int, int]:
        data = json.loads(cli("status", "--json", str(repo)).stdout)
        s = next(s for s in data["sessions"] if s["session_id"] == "s1")
        return s["compactions"], s["subagent_compactions"]

    event("UserPromptSubmit", prompt="one")
    # PreCompact, SessionStart(compact) with the session's ids: counted, as nothing tells yet.
    event("PreCompact", trigger="auto")
    assert HEAD not in context(event("SessionStart", source="compact"), "SessionStart")
    assert count() == "1"
    # The next prompt finds no compaction record in the transcript: a subagent's; given back.
    assert event("UserPromptSubmit", prompt="two").stdout == ""
    assert count() == "0" and compactions() == (0, 1)
    # The session's own: the record lands after the hooks ran; the count stays.
    event("PreCompact", trigger="auto")
    event("SessionStart", source="compact")
    transcript.write_text(before + boundary)
    event("UserPromptSubmit", prompt="three")
    event("UserPromptSubmit", prompt="four")
    assert count() == "1" and compactions() == (1, 1)
    # Announced only (no SessionStart reload), no new record: no reload spent on it.
    event("PreCompact", trigger="auto")
    assert "Project memory (.agent/memory/" not in event("UserPromptSubmit", prompt="five").stdout
    assert count() == "1" and compactions() == (1, 2)
    # A new record: the session's, reloaded at the next prompt.
    event("PreCompact", trigger="auto")
    transcript.write_text(before + boundary + boundary.replace("19:11:10.706Z", "19:40:00.000Z"))
    assert "Project memory (.agent/memory/" in event("UserPromptSubmit", prompt="six").stdout
    assert count() == "2" and compactions() == (2, 2)
