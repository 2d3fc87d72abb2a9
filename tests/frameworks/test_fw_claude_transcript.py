"""Claude Code's transcript, as on_compact reads it on every prompt: the latest usage in the
tail (compact, as Claude Code writes it, or spaced), and a compaction record after it."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from support.helpers import claude_repo, log_lines, run_hook

SID = "c1"


def usage(n: int, compact: bool = True) -> str:
    rec = {"parentUuid": "p", "message": {"role": "assistant", "content": [{"type": "text", "text": "ok"}],
           "usage": {"input_tokens": 4, "cache_creation_input_tokens": 6, "cache_read_input_tokens": n - 10,
                     "output_tokens": 9, "service_tier": "standard"}},
           "type": "assistant", "timestamp": "2026-12-01T10:00:00.000Z"}
    return json.dumps(rec, separators=(",", ":") if compact else (", ", ": ")) + "\n"


def line(obj: dict) -> str:  # type: ignore[type-arg]
    return json.dumps(obj, separators=(",", ":")) + "\n"


BOUNDARY = line({"parentUuid": None, "type": "system", "subtype": "compact_boundary",
                 "content": "Conversation compacted", "timestamp": "2026-12-01T11:00:00.000Z",
                 "compactMetadata": {"trigger": "auto", "preTokens": 150000}})
PROMPT = line({"type": "user", "message": {"role": "user", "content": "next"}})


def prompt(repo: Path, transcript: Path) -> str:
    # Detection only: these lengths are near the default window, and the flush line they would
    # bring has its own tests (tests/runtime/test_flush.py).
    cfg = repo / ".agent/config.yaml"
    cfg.write_text(re.sub(r"(?m)^flush_at_percent:.*$", "flush_at_percent: 0", cfg.read_text()))
    stdin = json.dumps({"session_id": SID, "hook_event_name": "UserPromptSubmit",
                        "transcript_path": str(transcript), "prompt": "next"}, separators=(",", ":"))
    proc = run_hook(repo, "on_compact", stdin, "claude-code", env={"CLAUDECODE": "1"})
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    return proc.stdout


def recorded(repo: Path) -> list[str]:
    """The context length of each recorded prompt."""
    return [ln.split()[2] for ln in (repo / f".agent/log/state/{SID}.state").read_text().splitlines()]


def test_the_latest_usage_compact_or_spaced_is_the_length(tmp_path: Path) -> None:
    repo = claude_repo(tmp_path)
    t = tmp_path / "t.jsonl"
    t.write_text(usage(90000) + PROMPT + usage(100000) + PROMPT * 3)
    assert prompt(repo, t) == ""
    t.write_text(t.read_text() + usage(110000, compact=False) + PROMPT)
    assert prompt(repo, t) == ""
    # A usage with no token count (null) after it gives no length, not a drop to 0.
    t.write_text(t.read_text() + line({"type": "assistant", "message": {"usage": None}}))
    assert prompt(repo, t) == ""
    assert recorded(repo) == ["100000", "110000", "110000"]
    assert not any("compaction detected" in ln for ln in log_lines(repo))


def test_a_compaction_record_after_the_latest_usage_reloads_memory_once(tmp_path: Path) -> None:
    repo = claude_repo(tmp_path)
    t = tmp_path / "t.jsonl"
    t.write_text(usage(150000) + PROMPT)
    assert prompt(repo, t) == ""
    # Compacted while no hook heard of it: the record comes before any new usage.
    t.write_text(t.read_text() + BOUNDARY + line({"type": "user", "isCompactSummary": True,
                                                  "message": {"content": "summary " * 50}}) + PROMPT)
    assert "memory" in prompt(repo, t).lower()
    detected = [ln for ln in log_lines(repo) if "compaction detected" in ln]
    assert len(detected) == 1 and "a compaction record in the transcript" in detected[0]
    # The conversation goes on: the same record, now before the latest usage, is no news.
    t.write_text(t.read_text() + usage(20000) + PROMPT)
    assert prompt(repo, t) == ""
    t.write_text(t.read_text() + usage(22000) + PROMPT)
    assert prompt(repo, t) == ""
    assert len([ln for ln in log_lines(repo) if "compaction detected" in ln]) == 1
    assert recorded(repo)[-2:] == ["20000", "22000"]


def test_one_compaction_reloads_memory_once_when_the_host_reports_it(tmp_path: Path) -> None:
    """PreCompact, then SessionStart(compact): pre_task reloads. The first prompt after it still
    shows the usage from before the compaction; the first usage after it is the new baseline,
    not a drop."""
    repo = claude_repo(tmp_path)
    t = tmp_path / "t.jsonl"
    t.write_text(usage(150000) + PROMPT)
    assert prompt(repo, t) == ""
    env = {"CLAUDECODE": "1"}
    pre = {"session_id": SID, "hook_event_name": "PreCompact", "trigger": "auto", "transcript_path": str(t)}
    assert run_hook(repo, "on_compact", json.dumps(pre), "claude-code", env=env).returncode == 0
    t.write_text(t.read_text() + BOUNDARY + line({"type": "user", "isCompactSummary": True,
                                                  "message": {"content": "summary " * 50}}))
    start = {"session_id": SID, "hook_event_name": "SessionStart", "source": "compact"}
    assert "memory" in run_hook(repo, "pre_task", json.dumps(start), "claude-code", env=env).stdout.lower()
    t.write_text(t.read_text() + PROMPT)
    assert prompt(repo, t) == ""
    for n in (20000, 21000, 23000):
        t.write_text(t.read_text() + usage(n) + PROMPT)
        assert prompt(repo, t) == ""
    detected = [ln for ln in log_lines(repo) if "compaction detected" in ln]
    assert len(detected) == 1 and "SessionStart source=compact" in detected[0], detected
    assert recorded(repo)[-3:] == ["20000", "21000", "23000"]


@pytest.mark.parametrize("order", ["pre,start,post", "pre,post,start", "post", "pre,post"])
def test_post_compact_is_a_signal_and_one_compaction_reloads_once(tmp_path: Path, order: str) -> None:
    """PostCompact (Claude Code 2.1.76+, Codex): its output reaches no model, so it only flags a
    compaction. Whichever of PreCompact, SessionStart(compact) and PostCompact arrive, and in
    whichever order, memory reloads once: by pre_task when SessionStart comes, else on the next
    prompt."""
    repo = claude_repo(tmp_path)
    t = tmp_path / "t.jsonl"
    t.write_text(usage(150000) + PROMPT)
    assert prompt(repo, t) == ""
    env = {"CLAUDECODE": "1"}
    shown = []
    for step in order.split(","):
        if step == "start":
            start = {"session_id": SID, "hook_event_name": "SessionStart", "source": "compact"}
            shown.append(run_hook(repo, "pre_task", json.dumps(start), "claude-code", env=env).stdout)
            continue
        event = {"pre": "PreCompact", "post": "PostCompact"}[step]
        body = {"session_id": SID, "hook_event_name": event, "trigger": "auto", "transcript_path": str(t)}
        if step == "post":
            body["compact_summary"] = "summary " * 20
            t.write_text(t.read_text() + BOUNDARY + line({"type": "user", "isCompactSummary": True,
                                                          "message": {"content": "summary " * 50}}))
        shown.append(run_hook(repo, "on_compact", json.dumps(body), "claude-code", env=env).stdout)
    for n in (None, 20000, 21000):
        t.write_text(t.read_text() + (usage(n) if n else "") + PROMPT)
        shown.append(prompt(repo, t))
    assert sum("AGENT MEMORY BEGIN" in out for out in shown) == 1, (order, shown)
    assert len([ln for ln in log_lines(repo) if "compaction detected" in ln]) == 1, log_lines(repo)
