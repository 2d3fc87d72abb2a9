"""The hooks' side of memory health, run for real: session and framework in every log line,
a per-session compaction count, the fresh-session line after fresh_after_compactions, and
`pre_task.sh --statusline` for Claude Code's status line."""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from agenthooks import health
from support.helpers import claude_repo, log_lines, require, run_hook

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "claude" / "statusline.json"
SID = "adc82f09-c3d0-4612-b84c-c15db52dabbf"  # the captured statusLine payload's session
FRESH = "This session was compacted"
LINE_RE = re.compile(r"^memory (\d+)/(\d+) tok · compacted (\d+)x · snapshot (\d+[mhd]) old"
                     r"(?: · ctx (\d+)%)?$")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return claude_repo(tmp_path)


def set_fresh(repo: Path, n: int) -> None:
    cfg = repo / ".agent/config.yaml"
    cfg.write_text(re.sub(r"(?m)^fresh_after_compactions: \d+$", f"fresh_after_compactions: {n}",
                          cfg.read_text()))


def start(repo: Path, sid: str = SID, source: str = "startup") -> subprocess.CompletedProcess[str]:
    return run_hook(repo, "pre_task", {"session_id": sid, "hook_event_name": "SessionStart",
                                       "source": source}, "claude-code")


def prompt(repo: Path, sid: str = SID, event: str = "UserPromptSubmit") -> subprocess.CompletedProcess[str]:
    return run_hook(repo, "on_compact", {"session_id": sid, "hook_event_name": event,
                                         "prompt": "go on"}, "claude-code")


def compact_via_prompt(repo: Path, sid: str = SID) -> str:
    """The host announces a compaction (PreCompact); the next prompt reloads memory."""
    prompt(repo, sid, "PreCompact")
    return prompt(repo, sid).stdout


def statusline(repo: Path, stdin: str | None = None, *args: str) -> subprocess.CompletedProcess[str]:
    proc = run_hook(repo, "pre_task", FIXTURE.read_text() if stdin is None else stdin,
                    "claude-code", "--statusline", *args)
    assert proc.returncode == 0 and proc.stderr == "", proc
    return proc


def test_log_lines_name_hook_framework_and_session(repo: Path) -> None:
    start(repo, "s-1")
    run_hook(repo, "pre_task", "", "--archive")
    lines = log_lines(repo)
    assert re.match(r"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\] pre_task claude-code s-1: memory loaded: ",
                    lines[0]), lines
    assert " pre_task generic default: archived the snapshot" in lines[-1], lines
    # The readers take both forms; the archive line is a CLI action, not an agent's session.
    found = health.from_log(health.read_log(repo / ".agent"))
    assert {(s.framework, s.session_id) for s in found} == {("claude-code", "s-1")}


def test_fresh_session_line_after_n_compactions_once_each(repo: Path) -> None:
    set_fresh(repo, 2)
    start(repo)
    first = compact_via_prompt(repo)
    assert "agenthooks detected a context compaction" in first and FRESH not in first
    # A second compaction, this time through SessionStart(compact).
    second = start(repo, source="compact").stdout
    assert f"{FRESH} 2x: start a fresh session" in second
    assert second.count(FRESH) == 1
    assert FRESH not in prompt(repo).stdout  # the reload SessionStart(compact) made is not counted again
    third = compact_via_prompt(repo)
    assert f"{FRESH} 3x: start" in third
    said = [ln for ln in log_lines(repo) if "recommended a fresh session" in ln]
    assert [ln.split(": ", 1)[1] for ln in said] == [
        "recommended a fresh session after 2 compactions",
        "recommended a fresh session after 3 compactions"]
    # Quiet prompts and a plain start say nothing more.
    prompt(repo)
    assert FRESH not in start(repo).stdout
    assert len([ln for ln in log_lines(repo) if "recommended a fresh" in ln]) == 2
    # Counted per session: another session starts from zero.
    assert FRESH not in compact_via_prompt(repo, "other")


def test_fresh_after_zero_never_recommends(repo: Path) -> None:
    set_fresh(repo, 0)
    start(repo)
    for _ in range(4):
        assert FRESH not in compact_via_prompt(repo)
    assert not [ln for ln in log_lines(repo) if "recommended a fresh" in ln]


def test_statusline_from_the_hooks_state(repo: Path) -> None:
    assert statusline(repo).stdout == "\n"  # no block built yet: an empty line
    start(repo)
    line = statusline(repo).stdout
    m = LINE_RE.match(line.rstrip("\n"))
    assert m and line.endswith("\n") and line.count("\n") == 1, line
    stats = health.block_stats(repo / ".agent")
    assert stats is not None
    assert (int(m.group(1)), int(m.group(2)), m.group(3), m.group(4), m.group(5)) == (
        stats["tokens"], 500, "0", "0m", "0")
    compact_via_prompt(repo)
    start(repo, source="compact")
    line = statusline(repo).stdout.rstrip("\n")
    m = LINE_RE.match(line)
    # Right after a reload the block carries a notice; the figures stay those of the last block.
    assert m and m.group(3) == "2", line
    payload = json.loads(FIXTURE.read_text())
    payload["context_window"]["used_percentage"] = 37
    assert LINE_RE.match(statusline(repo, json.dumps(payload)).stdout.rstrip()).group(5) == "37"
    # Another session's count is its own.
    payload["session_id"] = "someone-else"
    assert LINE_RE.match(statusline(repo, json.dumps(payload)).stdout.rstrip()).group(3) == "0"


def test_statusline_snapshot_age(repo: Path) -> None:
    import os
    import time

    start(repo)
    snap = repo / ".agent/memory/snapshot.md"
    for ago, shown in ((12 * 60 + 5, "12m"), (3 * 3600 + 60, "3h"), (3 * 86400, "3d")):
        past = time.time() - ago
        os.utime(snap, (past, past))
        # A snapshot given an older time is seen once something else changes (as for the
        # block cache): here, the status line's record of its time goes.
        (repo / ".agent/log/state/snapshot.mtime").unlink(missing_ok=True)
        line = statusline(repo).stdout.rstrip()
        assert LINE_RE.match(line) and LINE_RE.match(line).group(4) == shown, (ago, line)


@pytest.mark.parametrize("stdin", ["", "not json", "{" * 5000, '{"session_id": "../../x"}', '{"session_id": "a:b"}'])
def test_statusline_bad_input_is_one_line_and_silent(repo: Path, stdin: str) -> None:
    start(repo)
    out = statusline(repo, stdin).stdout
    assert out.count("\n") == 1 and (out == "\n" or LINE_RE.match(out.rstrip())), out
    assert not (repo / ".agent/log/state/x.count").exists()


def test_statusline_broken_state_is_an_empty_line(repo: Path) -> None:
    start(repo)
    before = log_lines(repo)
    (repo / ".agent/log/state/block.stats").write_text("garbage\n")
    (repo / ".agent/log/state/last.block").write_text("garbage\n")
    assert statusline(repo).stdout == "\n"
    for bad in ("5:00 1 2 3 4 478 9\n", "500 1 2 3 4 4:78 9\n"):
        (repo / ".agent/log/state/last.block").write_text(bad)
        assert statusline(repo).stdout == "\n"
    (repo / ".agent/log/state/snapshot.mtime").write_text("1:2\n")
    (repo / ".agent/log/state/last.block").write_text("500 1 2 3 4 478 9\n")
    assert statusline(repo).stdout == "\n"
    assert log_lines(repo) == before  # the status line writes no log line


def test_statusline_spawns_nothing_on_the_common_path(repo: Path, tmp_path: Path) -> None:
    strace = require("strace", "apt-get install strace")
    start(repo)
    statusline(repo)  # the first run after a snapshot change reads its time once
    out = tmp_path / "sl.strace"
    subprocess.run([strace, "-f", "-qq", "-e", "trace=execve", "-o", str(out), "bash",
                    str(repo / ".agent/hooks/pre_task.sh"), "claude-code", "--statusline"],
                   input=FIXTURE.read_text(), text=True, capture_output=True, check=True)
    calls = [ln for ln in out.read_text().splitlines() if 'execve("' in ln and "= 0" in ln]
    assert len(calls) == 1, calls  # the bash itself


def test_status_gives_the_last_block_after_a_reload_too(repo: Path) -> None:
    start(repo)
    start(repo, source="compact")
    # The build with a notice leaves the cache's figures empty; the last block's are kept.
    assert (repo / ".agent/log/state/block.stats").read_text() == ""
    stats = health.block_stats(repo / ".agent")
    assert stats is not None and stats["budget"] == 500 and 50 < stats["tokens"] <= 500
    assert stats["chars"] == len((repo / ".agent/injected_context.txt").read_text())
