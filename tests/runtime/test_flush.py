"""The flush line before a compaction and the stale-snapshot line at it, from the real hooks."""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

from support.helpers import FIXTURES, claude_repo, install, log_lines, make_repo, run_hook, \
    write_memory, SAMPLE_SNAPSHOT, SAMPLE_TATTOO

FLUSH = "a compaction is near: update .agent/memory/snapshot.md"
STALE = "older than your last edit: check In progress"


def prompt(repo: Path, length: int | None, sid: str = "s1", **extra: str) -> str:
    env = dict(os.environ)
    env.pop("AGENT_CONTEXT_LEN", None)
    if length is not None:
        env["AGENT_CONTEXT_LEN"] = str(length)
    body = {"session_id": sid, "hook_event_name": "UserPromptSubmit", "prompt": "go on", **extra}
    proc = run_hook(repo, "on_compact", body, "claude-code", env=env)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def tune(repo: Path, **values: int) -> None:
    path = repo / ".agent/config.yaml"
    text = path.read_text(encoding="utf-8")
    for key, value in values.items():
        assert f"\n{key}:" in text, key
        lines = [f"{key}: {value}" if ln.startswith(f"{key}:") else ln for ln in text.splitlines()]
        text = "\n".join(lines) + "\n"
    path.write_text(text, encoding="utf-8")


def flushes(repo: Path) -> int:
    return sum("asked the agent to update the snapshot" in ln for ln in log_lines(repo))


def test_one_flush_a_cycle_at_the_default_threshold(tmp_path: Path) -> None:
    repo = claude_repo(tmp_path)
    assert prompt(repo, 100000) == ""
    assert prompt(repo, 149000) == ""
    out = prompt(repo, 150000)  # 75% of the default 200000
    assert FLUSH in out and "context is 75% full" in out
    assert json.loads(out)["hookSpecificOutput"]["hookEventName"] == "UserPromptSubmit"
    assert prompt(repo, 170000) == ""  # once a cycle
    assert "detected a context compaction" in prompt(repo, 40000)
    assert prompt(repo, 100000) == ""
    assert FLUSH in prompt(repo, 180000)  # re-armed by the compaction
    assert flushes(repo) == 2
    assert any("context 90% full (180000 of 200000 tokens)" in ln for ln in log_lines(repo))


def test_the_flush_re_arms_after_a_compaction_above_the_threshold(tmp_path: Path) -> None:
    repo = claude_repo(tmp_path)
    prompt(repo, 100000)
    assert FLUSH in prompt(repo, 160000)
    body = {"session_id": "s1", "hook_event_name": "PreCompact", "trigger": "auto"}
    assert run_hook(repo, "on_compact", body, "claude-code").returncode == 0
    # The host's flag: a reload, though the length measured is still the old one.
    assert "detected a context compaction" in prompt(repo, 165000)
    assert FLUSH in prompt(repo, 166000)  # a new cycle
    assert flushes(repo) == 2


def test_the_flush_re_arms_below_the_threshold(tmp_path: Path) -> None:
    repo = claude_repo(tmp_path)
    prompt(repo, 100000)
    assert FLUSH in prompt(repo, 160000)
    assert prompt(repo, 140000) == ""  # below: re-armed, and no compaction (a 12% drop)
    assert FLUSH in prompt(repo, 152000)
    assert flushes(repo) == 2


def test_a_non_default_threshold_and_zero(tmp_path: Path) -> None:
    repo = claude_repo(tmp_path)
    tune(repo, flush_at_percent=40)
    prompt(repo, 10000)
    assert prompt(repo, 79000) == ""
    assert "context is 40% full" in prompt(repo, 80000)
    tune(repo, flush_at_percent=0)
    prompt(repo, 10000, sid="s2")
    assert prompt(repo, 199000, sid="s2") == ""
    assert flushes(repo) == 1


def test_the_window_from_config(tmp_path: Path) -> None:
    repo = claude_repo(tmp_path)
    tune(repo, context_window_tokens=1000000)
    prompt(repo, 10000)
    assert prompt(repo, 740000) == ""
    assert "context is 76% full" in prompt(repo, 760000)


def test_the_window_from_the_claude_code_status_line(tmp_path: Path) -> None:
    repo = claude_repo(tmp_path)
    run_hook(repo, "pre_task", "", "claude-code")  # makes the state folder
    line = (FIXTURES / "claude" / "statusline.json").read_text(encoding="utf-8")
    sid = json.loads(line)["session_id"]
    assert run_hook(repo, "pre_task", line, "claude-code", "--statusline").returncode == 0
    assert (repo / f".agent/log/state/{sid}.window").read_text().strip() == "1000000"
    prompt(repo, 10000, sid=sid)
    assert prompt(repo, 500000, sid=sid) == ""  # 250% of the default window, 50% of the host's
    assert "context is 80% full" in prompt(repo, 800000, sid=sid)
    # Another session has no window from the host: the default.
    prompt(repo, 10000, sid="other")
    assert FLUSH in prompt(repo, 500000, sid="other")


def codex_transcript(path: Path, tokens: int, window: int) -> None:
    usage = {"input_tokens": tokens, "cached_input_tokens": 0, "output_tokens": 20, "total_tokens": tokens}
    rec = {"timestamp": "2026-12-01T19:11:27.437Z", "type": "event_msg",
           "payload": {"type": "token_count", "info": {"total_token_usage": usage, "last_token_usage": usage,
                                                       "model_context_window": window}}}
    path.write_text(json.dumps(rec, separators=(",", ":")) + "\n", encoding="utf-8")


def test_the_window_from_the_codex_token_count(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "codex", "--platform", "linux")
    write_memory(repo, tattoo=SAMPLE_TATTOO, snapshot=SAMPLE_SNAPSHOT, notes="- a note\n")
    rollout = tmp_path / "rollout.jsonl"
    env = {k: v for k, v in os.environ.items() if k != "AGENT_CONTEXT_LEN"}

    def ask(tokens: int, window: int) -> str:
        codex_transcript(rollout, tokens, window)
        body = {"session_id": "c1", "hook_event_name": "UserPromptSubmit", "transcript_path": str(rollout)}
        return run_hook(repo, "on_compact", body, "codex", env=env).stdout

    ask(10000, 400000)
    assert FLUSH not in ask(160000, 400000)  # 40% of Codex's window (80% of the default)
    out = ask(320000, 400000)
    assert FLUSH in out and "context is 80% full" in out


def snapshot_age(repo: Path, minutes: float) -> None:
    t = time.time() - minutes * 60
    os.utime(repo / ".agent/memory/snapshot.md", (t, t))


def edit(repo: Path, sid: str = "s1") -> None:
    body = {"session_id": sid, "hook_event_name": "PostToolUse", "tool_name": "Edit",
            "tool_input": {"file_path": str(repo / "src" / "app.py")}}
    assert run_hook(repo, "post_edit", body, "claude-code").returncode == 0


def compact(repo: Path, sid: str = "s1") -> str:
    body = {"session_id": sid, "hook_event_name": "SessionStart", "source": "compact"}
    return json.loads(run_hook(repo, "pre_task", body, "claude-code").stdout)["hookSpecificOutput"][
        "additionalContext"]


def test_a_stale_snapshot_is_said_at_the_compaction(tmp_path: Path) -> None:
    repo = claude_repo(tmp_path)
    run_hook(repo, "pre_task", "", "claude-code")
    snapshot_age(repo, 25)
    edit(repo)
    text = compact(repo)
    assert "snapshot.md is 25 min older than your last edit" in text
    assert any("at the compaction: snapshot.md 25 min older than the last edit" in ln for ln in log_lines(repo))
    # On on_compact's reload too (a drop in the length).
    prompt(repo, 100000, sid="s1")
    assert "snapshot.md is 25 min older" in prompt(repo, 20000, sid="s1")


def test_a_current_snapshot_is_not_called_stale(tmp_path: Path) -> None:
    repo = claude_repo(tmp_path)
    run_hook(repo, "pre_task", "", "claude-code")
    snapshot_age(repo, 25)
    edit(repo)
    snapshot_age(repo, 0)  # the agent updated it after that edit
    assert STALE not in compact(repo)
    # No edit seen in this session: nothing to compare.
    snapshot_age(repo, 25)
    assert STALE not in compact(repo, sid="s2")
    assert not any("older than the last edit" in ln for ln in log_lines(repo))


def test_the_quiet_edit_records_its_time_without_a_process(tmp_path: Path) -> None:
    repo = claude_repo(tmp_path)
    run_hook(repo, "pre_task", "", "claude-code")
    edit(repo)  # the first edit writes the mark
    mark = repo / ".agent/log/state/s1.remind"
    snap, reminded, edited = mark.read_text().split()
    mark.write_text(f"{snap} {reminded} {int(edited) - 300}\n")
    os.utime(mark, (time.time() + 5, time.time() + 5))  # newer than the snapshot: the quiet path
    edit(repo)
    assert abs(int(mark.read_text().split()[2]) - time.time()) < 30


def test_the_flush_and_the_compaction_tell_whether_the_snapshot_changed(tmp_path: Path) -> None:
    repo = claude_repo(tmp_path)
    run_hook(repo, "pre_task", "", "claude-code")
    snapshot_age(repo, 30)
    prompt(repo, 10000)
    assert FLUSH in prompt(repo, 160000)
    compact(repo)
    prompt(repo, 10000)
    assert FLUSH in prompt(repo, 160000)  # the compaction re-armed it
    snapshot_age(repo, -0.05)  # the agent wrote the snapshot after the flush
    compact(repo)
    said = [ln.split(": ", 1)[1] for ln in log_lines(repo) if "since the flush" in ln]
    assert said == ["at the compaction: snapshot not updated since the flush",
                    "at the compaction: snapshot updated since the flush"]


def test_status_shows_flushes_freshness_staleness_and_the_context_use(tmp_path: Path) -> None:
    from support.helpers import cli
    repo = claude_repo(tmp_path)
    run_hook(repo, "pre_task", "", "claude-code")
    snapshot_age(repo, 30)
    edit(repo)
    for n in (20000, 80000, 160000):
        prompt(repo, n)
    compact(repo)  # stale (30 min older than the edit), not updated since the flush
    for n in (30000, 170000):
        prompt(repo, n)
    snapshot_age(repo, -0.05)
    prompt(repo, 40000)  # a drop: on_compact's reload, updated since the flush
    proc = cli("status", str(repo), "--json")
    s = next(s for s in json.loads(proc.stdout)["sessions"] if s["session_id"] == "s1")
    assert (s["flushes"], s["flushed_compactions"], s["snapshot_fresh_after_flush"]) == (2, 2, 1)
    assert s["stale_at_compaction"] == 1
    assert s["context_use"] == [20000, 80000, 160000, 30000, 170000, 40000]
    assert s["compacted_before"] == [3, 5] and s["context_window"] == 200000
    text = cli("status", str(repo), env={"PYTHONIOENCODING": "utf-8"}).stdout
    assert "flushes offered 2; snapshot fresh at 1 of 2 compactions after a flush; stale at 1" in text
    assert "▁▄▇|▂▇|▂" in text
    plain = cli("status", str(repo), env={"PYTHONIOENCODING": "ascii"}).stdout
    assert "_~*|.*|." in plain
