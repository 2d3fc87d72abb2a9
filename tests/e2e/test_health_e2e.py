"""Memory health end to end: `agenthooks verify` and `status` on the transcripts the real
Claude Code, Codex and Gemini CLI wrote in sessions with real compactions, one of them
with memory deliberately not re-injected (the hooks disabled before the compaction)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

try:
    from . import clis as C
    from .mockapi import MockAPI, text, write
    from .test_agenthooks_e2e import claude, codex, gemini, install
except ImportError:  # tests/e2e is not a package
    import clis as C  # type: ignore[no-redef]
    from mockapi import MockAPI, text, write  # type: ignore[no-redef]
    from test_agenthooks_e2e import claude, codex, gemini, install  # type: ignore[no-redef]

pytestmark = pytest.mark.e2e


def agenthooks(sandbox: C.Sandbox, *args: str) -> subprocess.CompletedProcess[str]:
    """The real CLI, seeing the hosts' folders the sandboxed agents wrote."""
    home = str(sandbox.home)
    env = {**os.environ, "HOME": home, "CLAUDE_CONFIG_DIR": os.path.join(home, ".claude"),
           "CODEX_HOME": os.path.join(home, ".codex"), "GEMINI_CLI_HOME": ""}
    proc = subprocess.run([sys.executable, "-m", "agenthooks", *args], cwd=sandbox.repo,
                          capture_output=True, text=True, timeout=60, env=env,
                          stdin=subprocess.DEVNULL)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def verified(sandbox: C.Sandbox, *args: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    proc = agenthooks(sandbox, "verify", str(sandbox.repo), "--json", *args)
    return proc.returncode, json.loads(proc.stdout)


def disable(repo: Path) -> None:
    cfg = repo / ".agent" / "config.yaml"
    cfg.write_text(cfg.read_text(encoding="utf-8").replace("enabled: true", "enabled: false"),
                   encoding="utf-8")


def claude_compacted(sandbox: C.Sandbox, mock: MockAPI, clis: C.CLIs, *,
                     reinject: bool = True) -> str:
    install(sandbox, "claude-code")
    mock.script("claude", [write("app.py", "x = 1\n"), text("Wrote app.py."),
                           text("Second answer.")])
    sid = C.session_id(claude(sandbox, mock, clis, "write app.py"))
    claude(sandbox, mock, clis, "second question", sid)
    if not reinject:
        disable(sandbox.repo)
    claude(sandbox, mock, clis, "/compact", sid)
    mock.script("claude", [text("Continuing.")])
    claude(sandbox, mock, clis, "what next?", sid)
    assert len(mock.summary_requests("claude")) == 1
    return sid


def test_claude_verify_and_status_after_compact(clis: C.CLIs, sandbox: C.Sandbox,
                                                mock_api: MockAPI) -> None:
    sid = claude_compacted(sandbox, mock_api, clis)
    rc, data = verified(sandbox)  # no path: this repo's latest session
    assert rc == 0, data
    assert data["host"] == "claude-code" and data["session_id"] == sid
    assert [(c["memory_followed"], c["turns_later"]) for c in data["compactions"]] == [(True, 0)]
    proc = agenthooks(sandbox, "verify", str(sandbox.repo))
    assert proc.returncode == 0 and "verified: every compaction was followed by memory" in proc.stdout

    status = json.loads(agenthooks(sandbox, "status", str(sandbox.repo), "--json").stdout)
    s = status["sessions"][0]
    assert (s["framework"], s["session_id"]) == ("claude-code", sid), status
    assert s["compactions"] == 1 and s["compaction_events"][0]["signal"] == "host event"
    assert s["reloads"] == 1 and s["loads"] >= 2 and s["memory_tokens"] > 0
    assert s["prompts"] == 3 and s["context_tokens"] is not None
    assert s["transcript"] == str(next((sandbox.home / ".claude" / "projects").rglob(f"{sid}.jsonl")))


def test_claude_verify_fails_when_memory_was_not_reinjected(clis: C.CLIs, sandbox: C.Sandbox,
                                                            mock_api: MockAPI) -> None:
    sid = claude_compacted(sandbox, mock_api, clis, reinject=False)
    # The model really did not get it back after the summary.
    after = mock_api.first_main_after_summary("claude")
    assert after is not None and "AGENT MEMORY BEGIN" not in after
    path = next((sandbox.home / ".claude" / "projects").rglob(f"{sid}.jsonl"))
    rc, data = verified(sandbox, "--transcript", str(path))
    assert rc == 1, data
    assert [c["memory_followed"] for c in data["compactions"]] == [False]
    proc = agenthooks(sandbox, "verify", str(sandbox.repo), "--transcript", str(path))
    assert proc.returncode == 1
    assert "not verified: compaction 1 (" in proc.stdout and "FAIL  compaction 1" in proc.stdout


def test_codex_verify_after_auto_compact_and_without_memory(clis: C.CLIs, sandbox: C.Sandbox,
                                                            mock_api: MockAPI) -> None:
    install(sandbox, "codex")
    mock_api.script("codex", [write("app.py", "x = 1\n", input_tokens=900_000), text("Done.")])
    sid = C.session_id(codex(sandbox, mock_api, clis, ["write app.py"],
                             auto_compact_token_limit=5000))
    assert len(mock_api.summary_requests("codex")) == 1
    rc, data = verified(sandbox)
    assert rc == 0, data
    assert data["host"] == "codex" and data["session_id"] == sid
    assert [c["memory_followed"] for c in data["compactions"]] == [True]
    s = json.loads(agenthooks(sandbox, "status", str(sandbox.repo), "--json").stdout)["sessions"][0]
    assert (s["framework"], s["session_id"], s["compactions"]) == ("codex", sid, 1), s
    assert s["prompts"] == 1 and s["context_tokens"] is not None and s["context_percent"] is not None
    # A second session with the hooks off: compacted, and memory never came back.
    disable(sandbox.repo)
    mock_api.script("codex", [write("b.py", "y = 1\n", input_tokens=900_000), text("Done.")])
    other = C.session_id(codex(sandbox, mock_api, clis, ["write b.py"],
                               auto_compact_token_limit=5000))
    assert other != sid
    path = next((sandbox.home / ".codex" / "sessions").rglob(f"rollout-*{other}.jsonl"))
    rc, data = verified(sandbox, "--transcript", str(path))
    assert rc == 1 and data["compactions"][0]["memory_followed"] is False, data


def test_gemini_verify_after_compression(clis: C.CLIs, sandbox: C.Sandbox,
                                         mock_api: MockAPI) -> None:
    project = install(sandbox, "gemini-cli")
    project.set_config(reload_turns=1)
    C.setup_gemini_home(sandbox.home, compression_threshold=0.0001)
    mock_api.script("gemini", [write("app.py", "x = 1\n"), text("Wrote it."),
                               text("Second answer."), text("Third answer.")])
    sid = C.session_id(gemini(sandbox, mock_api, clis, "write app.py"))
    gemini(sandbox, mock_api, clis, "second question", sid)
    gemini(sandbox, mock_api, clis, "third question", sid)
    assert mock_api.summary_requests("gemini")
    # A resumed session may go on in a new chat file: verify reads the newest.
    rc, data = verified(sandbox)
    assert rc == 0, data
    assert data["host"] == "gemini-cli" and data["session_id"] == sid
    assert len(data["compactions"]) >= 1
    assert all(c["memory_followed"] for c in data["compactions"])
    s = json.loads(agenthooks(sandbox, "status", str(sandbox.repo), "--json").stdout)["sessions"][0]
    assert (s["framework"], s["session_id"]) == ("gemini-cli", sid), s
    # Each compression is seen on the prompt after it (the transcript's summary record).
    assert s["compactions"] >= 1 and s["compaction_events"][0]["signal"] == "transcript boundary"
    assert s["periodic_reloads"] >= 1 and s["prompts"] is not None


def test_claude_fresh_session_line_reaches_the_model(clis: C.CLIs, sandbox: C.Sandbox,
                                                     mock_api: MockAPI) -> None:
    project = install(sandbox, "claude-code")
    project.set_config(fresh_after_compactions=1)
    mock_api.script("claude", [text("One."), text("Two.")])
    sid = C.session_id(claude(sandbox, mock_api, clis, "first question"))
    claude(sandbox, mock_api, clis, "second question", sid)
    claude(sandbox, mock_api, clis, "/compact", sid)
    mock_api.script("claude", [text("Continuing.")])
    claude(sandbox, mock_api, clis, "what next?", sid)
    after = mock_api.first_main_after_summary("claude")
    line = "This session was compacted 1x: start a fresh session when you can"
    assert after is not None and line in after, after and after.json_text[-4000:]
    assert after.json_text.count(line) == 1
    assert project.log_matching("pre_task", "recommended a fresh session after 1 compactions")
    s = json.loads(agenthooks(sandbox, "status", str(sandbox.repo), "--json").stdout)["sessions"][0]
    assert s["session_id"] == sid and s["fresh_session_recommended"] is True
    doctor = agenthooks(sandbox, "doctor", str(sandbox.repo)).stdout
    assert f"the last session ({sid}) was compacted 1x" in doctor
