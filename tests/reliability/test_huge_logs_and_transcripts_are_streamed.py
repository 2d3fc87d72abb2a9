"""Huge logs and transcripts, streamed: status and doctor read memory.log line by line, verify
a transcript record by record, each peaking under 80 MB above its run on an empty one."""
from __future__ import annotations

from pathlib import Path

import pytest

from support.cli_runs import _peak_rss_mb
from support.helpers import install, make_repo


def _big(path: Path, line: bytes, size_mb: int) -> None:
    block = line * max(1, (1 << 20) // len(line))
    with open(path, "wb") as fh:
        for _ in range(size_mb):
            fh.write(block)


@pytest.mark.parametrize("command", ["status", "doctor"])
def test_status_and_doctor_stream_a_huge_log(tmp_path: Path, command: str) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code", "--platform", "linux")
    base = _peak_rss_mb(command, str(repo))
    log = repo / ".agent/log/memory.log"
    _big(log, b"[2026-01-02 03:04:05] post_edit claude-code s1: reminded the agent to "
              b"update the snapshot\n", 100)
    peak = _peak_rss_mb(command, str(repo))
    log.unlink()
    assert peak - base < 80, f"{command} peaked at {peak:.0f} MB (base {base:.0f} MB)"


def test_verify_streams_a_huge_transcript(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code", "--platform", "linux")
    path = tmp_path / "session.jsonl"
    head = (b'{"type":"user","sessionId":"s1","message":{"role":"user","content":"go on"}}\n'
            b'{"type":"system","subtype":"compact_boundary","uuid":"b1"}\n')
    path.write_bytes(head)
    base = _peak_rss_mb("verify", str(repo), "--transcript", str(path))
    result = (b'{"type":"user","message":{"role":"user","content":[{"type":"tool_result",'
              b'"tool_use_id":"t1","content":"' + b"x" * 8000 + b'"}]}}\n')
    _big(path, result, 200)
    with open(path, "r+b") as fh:
        fh.write(head)
    peak = _peak_rss_mb("verify", str(repo), "--transcript", str(path))
    path.unlink()
    assert peak - base < 80, f"verify peaked at {peak:.0f} MB (base {base:.0f} MB)"
