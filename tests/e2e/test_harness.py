"""Smoke tests that prove the e2e harness itself: mock API, proxy trap, and the
real Claude Code / Codex / Gemini CLIs running project hooks offline."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
from pathlib import Path

import pytest

try:
    from . import clis as C
    from .mockapi import MockAPI, edit, text, tool, write
except ImportError:  # tests/e2e is not a package
    import clis as C  # type: ignore[no-redef]
    from mockapi import MockAPI, edit, text, tool, write  # type: ignore[no-redef]

pytestmark = pytest.mark.e2e

PROBE = r"""#!/usr/bin/env bash
# Probe hook: log the event, answer with JSON additionalContext
# "PROBE-<Event>" (plus "-<source>" when the payload has one).
event="$1"; log="$2"
input=$(cat)
src=$(printf '%s' "$input" | sed -n 's/.*"source" *: *"\([a-z]*\)".*/\1/p' | head -n 1)
printf '%s %s\n' "$event" "$src" >>"$log"
marker="PROBE-$event"
if [ -n "$src" ]; then marker="$marker-$src"; fi
printf '{"hookSpecificOutput":{"hookEventName":"%s","additionalContext":"%s"}}\n' \
  "$event" "$marker"
"""


class Probe:
    """A probe hook script outside the repo, and the log of its invocations."""

    def __init__(self, root: Path):
        self.script = root / "probe.sh"
        self.log = root / "probe-events.log"
        self.script.write_text(PROBE)
        self.script.chmod(0o755)

    def command(self, event: str) -> dict[str, str]:
        # Gemini runs hooks with a sanitized env: everything goes on the command line.
        return {"type": "command", "command": f"bash {self.script} {event} {self.log}"}

    def events(self) -> list[str]:
        if not self.log.exists():
            return []
        return [line.strip() for line in self.log.read_text().splitlines()]


@pytest.fixture
def probe(sandbox: C.Sandbox) -> Probe:
    return Probe(sandbox.root)


def _ok(proc, mock: MockAPI) -> None:
    assert proc.returncode == 0, C.describe(proc, mock)
    assert mock.errors == [], C.describe(proc, mock)


# --------------------------------------------------------------------------
# The mock by itself (no CLI needed)


def _post(mock: MockAPI, path: str, body: dict) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", mock.port, timeout=10)
    conn.request("POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"})
    resp = conn.getresponse()
    out = resp.read().decode()
    conn.close()
    return resp.status, out


def _sse_events(payload: str) -> list[dict]:
    return [json.loads(line[6:]) for line in payload.splitlines() if line.startswith("data: ")]


def test_mock_refuses_outbound_traffic() -> None:
    with MockAPI() as mock:
        with socket.create_connection(("127.0.0.1", mock.port), timeout=10) as sock:
            sock.sendall(b"CONNECT api.anthropic.com:443 HTTP/1.1\r\nHost: api.anthropic.com:443\r\n\r\n")
            assert sock.recv(100).startswith(b"HTTP/1.1 403")
        conn = http.client.HTTPConnection("127.0.0.1", mock.port, timeout=10)
        conn.request("GET", "http://example.com/x")
        assert conn.getresponse().status == 403
        conn.close()
        assert mock.refused == ["api.anthropic.com:443", "http://example.com/x"]
        assert mock.requests == []


def test_mock_wire_formats_and_summaries(tmp_path: Path) -> None:
    with MockAPI(workdir=tmp_path) as mock:
        mock.script("claude", [write("a.txt", "hi\n", input_tokens=42), text("bye")])
        mock.script("codex", [write("a.txt", "hi\n")])
        mock.script("gemini", [edit("a.txt", "hi", "yo")])

        summary = {"stream": True, "messages": [{"role": "user", "content": [
            {"type": "text", "text": "CRITICAL: Respond with TEXT ONLY. Do NOT call any tools."}]}]}
        status, out = _post(mock, "/v1/messages?beta=true", summary)
        assert status == 200 and mock.summary_text in out
        status, out = _post(mock, "/v1/messages?beta=true", {"stream": True, "messages": [
            {"role": "user", "content": "write a.txt"}]})
        events = _sse_events(out)
        assert [e["type"] for e in events] == [
            "message_start", "content_block_start", "content_block_delta", "content_block_stop",
            "message_delta", "message_stop"]
        assert events[0]["message"]["usage"]["input_tokens"] == 42
        assert events[1]["content_block"]["name"] == "Write"
        assert json.loads(events[2]["delta"]["partial_json"]) == {
            "file_path": str(tmp_path / "a.txt"), "content": "hi\n"}
        assert events[4]["delta"]["stop_reason"] == "tool_use"

        status, out = _post(mock, "/v1/responses", {"stream": True, "input": [
            {"type": "message", "role": "user",
             "content": [{"type": "input_text", "text": "write a.txt"}]}]})
        events = _sse_events(out)
        assert [e["type"] for e in events] == [
            "response.created", "response.output_item.added", "response.output_item.done",
            "response.completed"]
        item = events[2]["item"]
        assert item["type"] == "custom_tool_call" and item["name"] == "apply_patch"
        assert item["input"] == "*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch\n"

        status, out = _post(mock, "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
                            {"contents": [{"role": "user", "parts": [{"text": "go"}]}],
                             "tools": [{"functionDeclarations": []}]})
        call = _sse_events(out)[0]["candidates"][0]["content"]["parts"][0]["functionCall"]
        assert call["name"] == "replace" and call["args"]["old_string"] == "hi"
        status, out = _post(mock, "/v1beta/models/gemini-2.5-flash:generateContent", {
            "contents": [{"role": "user", "parts": [{"text": "route"}]}],
            "generationConfig": {"responseJsonSchema": {"type": "object", "properties": {
                "reasoning": {"type": "string"},
                "next_speaker": {"type": "string", "enum": ["model", "user"]}}}}})
        answer = json.loads(json.loads(out)["candidates"][0]["content"]["parts"][0]["text"])
        assert answer == {"reasoning": "mock", "next_speaker": "user"}

        assert [r.kind for r in mock.requests] == ["summary", "main", "main", "main", "utility"]
        assert mock.pending("claude")[0].text == "bye"
        assert mock.find("write a.txt", dialect="codex")
        assert mock.refused == []


# --------------------------------------------------------------------------
# Real CLIs: hooks reach the model


def test_claude_hooks(clis: C.CLIs, sandbox: C.Sandbox, mock_api: MockAPI, probe: Probe) -> None:
    C.write_json(sandbox.repo / ".claude" / "settings.json", {"hooks": {
        "SessionStart": [{"hooks": [probe.command("SessionStart")]}],
        "PostToolUse": [{"matcher": "Write|Edit|MultiEdit",
                         "hooks": [probe.command("PostToolUse")]}],
    }})
    mock_api.script("claude", [write("hello.txt", "hello world\n", preamble="Writing."),
                               text("Wrote hello.txt.")])
    proc = C.run_claude(sandbox.repo, sandbox.home, mock_api,
                        C.claude_prompt("write hello.txt"), clis=clis)
    _ok(proc, mock_api)
    mains = mock_api.main_requests("claude")
    assert "PROBE-SessionStart-startup" in mains[0]
    after_tool = mock_api.request_after_tool("claude")
    assert after_tool is not None and "PROBE-PostToolUse" in after_tool
    assert (sandbox.repo / "hello.txt").read_text() == "hello world\n"
    assert C.json_output(proc)["result"] == "Wrote hello.txt."
    assert mock_api.refused == []


def test_codex_hooks(clis: C.CLIs, sandbox: C.Sandbox, mock_api: MockAPI, probe: Probe) -> None:
    C.write_json(sandbox.repo / ".codex" / "hooks.json", {"hooks": {
        "SessionStart": [{"hooks": [probe.command("SessionStart")]}],
        "PostToolUse": [{"matcher": "apply_patch", "hooks": [probe.command("PostToolUse")]}],
    }})
    mock_api.script("codex", [write("hello.txt", "hello world\n"), text("Wrote hello.txt.")])
    proc = C.run_codex(sandbox.repo, sandbox.home, mock_api, ["write hello.txt"], clis=clis)
    _ok(proc, mock_api)
    assert "PROBE-SessionStart-startup" in mock_api.main_requests("codex")[0]
    after_tool = mock_api.request_after_tool("codex")
    assert after_tool is not None and "PROBE-PostToolUse" in after_tool
    assert (sandbox.repo / "hello.txt").read_text() == "hello world\n"
    assert mock_api.refused == []


def test_gemini_hooks(clis: C.CLIs, sandbox: C.Sandbox, mock_api: MockAPI, probe: Probe) -> None:
    C.write_json(sandbox.repo / ".gemini" / "settings.json", {"hooks": {
        "SessionStart": [{"hooks": [probe.command("SessionStart")]}],
        "AfterTool": [{"matcher": "write_file|replace", "hooks": [probe.command("AfterTool")]}],
    }})
    C.setup_gemini_home(sandbox.home)
    mock_api.script("gemini", [write("hello.txt", "hello world\n"), text("Wrote hello.txt.")])
    proc = C.run_gemini(sandbox.repo, sandbox.home, mock_api,
                        C.gemini_prompt("write hello.txt"), clis=clis)
    _ok(proc, mock_api)
    assert "PROBE-SessionStart-startup" in mock_api.main_requests("gemini")[0]
    after_tool = mock_api.request_after_tool("gemini")
    assert after_tool is not None and "PROBE-AfterTool" in after_tool
    assert (sandbox.repo / "hello.txt").read_text() == "hello world\n"
    assert C.json_output(proc)["response"] == "Wrote hello.txt."
    assert mock_api.refused == []


# --------------------------------------------------------------------------
# Real CLIs: compaction


def test_claude_manual_compact(clis: C.CLIs, sandbox: C.Sandbox, mock_api: MockAPI,
                               probe: Probe) -> None:
    C.write_json(sandbox.repo / ".claude" / "settings.json", {"hooks": {
        "SessionStart": [{"hooks": [probe.command("SessionStart")]}],
        "PreCompact": [{"hooks": [probe.command("PreCompact")]}],
        "PostCompact": [{"hooks": [probe.command("PostCompact")]}],
    }})
    run = lambda prompt, sid=None: C.run_claude(  # noqa: E731
        sandbox.repo, sandbox.home, mock_api, C.claude_prompt(prompt, resume=sid), clis=clis)
    mock_api.script("claude", [write("hello.txt", "hello world\n"), text("Wrote it.")])
    first = run("write hello.txt")
    _ok(first, mock_api)
    sid = C.session_id(first)
    mock_api.script("claude", [text("Second answer.")])
    _ok(run("second question", sid), mock_api)  # /compact needs two turn groups
    _ok(run("/compact", sid), mock_api)
    _ok(run("what next?", sid), mock_api)

    summaries = mock_api.summary_requests("claude")
    assert len(summaries) == 1
    after = mock_api.first_main_after_summary("claude")
    assert after is not None
    assert "PROBE-SessionStart-compact" in after
    assert mock_api.summary_text in after
    assert "PROBE-SessionStart-startup" not in after
    # PostCompact fires too, after SessionStart(compact) (2.1.197). Whether its output reaches
    # the model is not asserted: one run showed it in the next request. The hooks use it only as
    # a signal and print nothing for it.
    events = probe.events()
    assert events.index("PreCompact") < events.index("SessionStart compact") < events.index("PostCompact"), events
    assert mock_api.refused == []


def test_codex_auto_compact(clis: C.CLIs, sandbox: C.Sandbox, mock_api: MockAPI,
                            probe: Probe) -> None:
    C.write_json(sandbox.repo / ".codex" / "hooks.json", {"hooks": {
        "SessionStart": [{"hooks": [probe.command("SessionStart")]}],
        "PreCompact": [{"hooks": [probe.command("PreCompact")]}],
        "PostCompact": [{"hooks": [probe.command("PostCompact")]}],
    }})
    # A huge reported usage after the first tool call crosses the auto-compact limit.
    mock_api.script("codex", [write("hello.txt", "hello world\n", input_tokens=900_000),
                              edit("hello.txt", "world", "e2e"), text("Edited.")])
    proc = C.run_codex(sandbox.repo, sandbox.home, mock_api, ["write hello.txt"], clis=clis,
                       auto_compact_token_limit=5000)
    _ok(proc, mock_api)
    summaries = mock_api.summary_requests("codex")
    assert len(summaries) == 1
    after = mock_api.first_main_after_summary("codex")
    assert after is not None
    assert "PROBE-SessionStart-compact" in after
    assert mock_api.summary_text in after
    assert (sandbox.repo / "hello.txt").read_text() == "hello e2e\n"
    events = probe.events()
    assert "PreCompact" in events and "SessionStart compact" in events, events
    assert "PostCompact" in events, events
    assert mock_api.refused == []


def test_gemini_compression_on_resume(clis: C.CLIs, sandbox: C.Sandbox, mock_api: MockAPI,
                                      probe: Probe) -> None:
    C.write_json(sandbox.repo / ".gemini" / "settings.json", {"hooks": {
        "SessionStart": [{"hooks": [probe.command("SessionStart")]}],
        "PreCompress": [{"hooks": [probe.command("PreCompress")]}],
    }})
    # One turn never compresses (no split point); the resumed turn does.
    C.setup_gemini_home(sandbox.home, compression_threshold=0.0001)
    mock_api.script("gemini", [write("hello.txt", "hello world\n"), text("Wrote it.")])
    first = C.run_gemini(sandbox.repo, sandbox.home, mock_api,
                         C.gemini_prompt("write hello.txt"), clis=clis)
    _ok(first, mock_api)
    assert mock_api.summary_requests("gemini") == []
    sid = C.session_id(first)
    mock_api.script("gemini", [text("Second answer.")])
    second = C.run_gemini(sandbox.repo, sandbox.home, mock_api,
                          C.gemini_prompt("second question", resume=sid), clis=clis)
    _ok(second, mock_api)

    summaries = mock_api.summary_requests("gemini")
    assert any("<state_snapshot>" in json.dumps(r.body.get("systemInstruction"))
               for r in summaries)
    after = mock_api.first_main_after_summary("gemini")
    assert after is not None and mock_api.summary_text in after
    # Gemini has no SessionStart(compact): only this run's resume context survives.
    assert "PROBE-SessionStart-resume" in after
    # 0.61.0 has no SessionStart source "compress" (its name for compact, in later releases).
    assert "PreCompress" in probe.events() and "SessionStart compress" not in probe.events()
    assert mock_api.refused == []


def test_tool_reply_is_sent_verbatim(tmp_path: Path) -> None:
    with MockAPI(workdir=tmp_path) as mock:
        mock.script("codex", [tool("exec_command", {"cmd": "true"})])
        _, out = _post(mock, "/v1/responses", {"stream": True, "input": []})
        item = _sse_events(out)[2]["item"]
        assert item["type"] == "function_call" and json.loads(item["arguments"]) == {"cmd": "true"}



def test_namespaced_call_and_replies_routed_by_task(tmp_path: Path) -> None:
    """A function of a namespace tool names it; a request whose user message (or a parent
    agent's message) holds a routed task takes that task's script, tool results not counted."""
    def codex_input(*items: dict) -> dict:
        return {"stream": True, "input": list(items)}

    def said(text_: str) -> dict:
        return {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text_}]}

    with MockAPI(workdir=tmp_path) as mock:
        mock.script("codex", [tool("spawn_agent", {"message": "TASK-1"}, namespace="collaboration"),
                              text("main")])
        mock.script_for("codex", "TASK-1", [text("child")])
        _, out = _post(mock, "/v1/responses", codex_input(said("go")))
        item = _sse_events(out)[2]["item"]
        assert item["type"] == "function_call" and item["namespace"] == "collaboration"
        # The parent's next request echoes TASK-1 in a call and its output: not routed.
        _, out = _post(mock, "/v1/responses", codex_input(said("go"), item, {
            "type": "function_call_output", "call_id": item["call_id"], "output": "TASK-1"}))
        assert _sse_events(out)[2]["item"]["content"][0]["text"] == "main"
        # The child: its task arrives in an agent_message, encrypted on the wire.
        _, out = _post(mock, "/v1/responses", codex_input({
            "type": "agent_message", "author": "/root", "recipient": "/root/c",
            "content": [{"type": "encrypted_content", "encrypted_content": "TASK-1"}]}))
        assert _sse_events(out)[2]["item"]["content"][0]["text"] == "child"
        mock.script_for("claude", "TASK-2", [text("claude child")])
        _, out = _post(mock, "/v1/messages?beta=true", {"stream": False, "messages": [
            {"role": "user", "content": [{"type": "text", "text": "TASK-2"}]}]})
        assert json.loads(out)["content"][0]["text"] == "claude child"
        assert mock.pending("codex") == []

def test_proxy_trap_catches_real_cli(clis: C.CLIs, sandbox: C.Sandbox, mock_api: MockAPI) -> None:
    # Proves `refused == []` elsewhere is meaningful: without the nonessential-traffic
    # switch Claude tries api.anthropic.com through the proxy, and the mock refuses it.
    proc = C.run_claude(sandbox.repo, sandbox.home, mock_api, C.claude_prompt("hi"),
                        clis=clis, env={"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": None})
    _ok(proc, mock_api)
    assert mock_api.refused and all(r.endswith(":443") for r in mock_api.refused)
    assert len(mock_api.main_requests("claude")) == 1


def _fake_npm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An npm on PATH that only records being run, and an empty CLI cache."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    called = tmp_path / "npm-called"
    (bin_dir / "npm").write_text(f"#!/bin/sh\ntouch {called}\nexit 1\n")
    (bin_dir / "npm").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    monkeypatch.setenv("AGENTHOOKS_E2E_CACHE", str(tmp_path / "cache"))
    return called


def test_missing_clis_skip_locally_without_downloading(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    called = _fake_npm(tmp_path, monkeypatch)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception) as skip:
        C.require_clis()
    assert "make e2e-deps" in str(skip.value) and C.INSTALL_SIZE in str(skip.value)
    assert not called.exists(), "the tests must never download the CLIs themselves"


def test_missing_clis_fail_in_ci(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    called = _fake_npm(tmp_path, monkeypatch)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception) as failed:
        C.require_clis()
    assert "make e2e-deps" in str(failed.value)
    assert not called.exists()


def test_pins_are_one_list_for_make_and_the_tests() -> None:
    makefile = (Path(__file__).parents[2] / "Makefile").read_text()
    assert "E2E_PINS := tests/e2e/pins.txt" in makefile
    assert set(C.NPM_SPECS) | set(C.PIP_SPECS) == {
        word for line in C.PINS.read_text().splitlines() if line and not line.startswith("#")
        for word in line.split() if not word.endswith("/")}
    assert "pip:*)" in makefile  # `make e2e-deps` sends the PyPI lines to pip
    assert {"claude", "codex", "gemini", "copilot", "opencode", "cline", "aider", "qwen", "kilo",
            "pi", "droid", "claude-agent-sdk-ts", "claude-agent-sdk-py", "codex-sdk"} <= set(C.VERSIONS)


def test_make_installs_each_pin_where_the_tests_look(tmp_path: Path) -> None:
    """`make e2e-deps` puts a package's further versions in folders of their own, and the
    specs of a `FOLDER/` line together in that folder (a pip one: its virtualenv), the same
    places ensure_clis() reads, so two versions of one CLI live side by side."""
    assert C.ALSO, "pins.txt pins no package twice"
    assert C.FOLDERS, "pins.txt has no FOLDER/ line"
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "npm").write_text('#!/bin/sh\necho "npm $*"\n')
    (bin_dir / "npm").chmod(0o755)
    cache = tmp_path / "cache"
    venvs = [tmp_path / "venv"] + [cache / C.FOLDERS[n] for n, (pkg, _) in C.VERSIONS.items()
                                   if pkg.startswith(C.PIP) and n in C.FOLDERS]
    for venv in venvs:  # a PyPI pin goes to pip, faked here too
        pip = venv / "bin" / "pip"
        pip.parent.mkdir(parents=True)
        pip.write_text(f'#!/bin/sh\necho "pip {venv} $*"\n')
        pip.chmod(0o755)
    proc = subprocess.run(["make", "-s", "e2e-deps", f"E2E_CACHE={cache}",
                           f"E2E_PIP_VENV={venvs[0]}"],
                          cwd=Path(__file__).parents[2], capture_output=True, text=True,
                          env={**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"})
    assert proc.returncode == 0, proc.stderr
    prefixes = {spec: line.split()[3] for line in proc.stdout.splitlines()
                if line.startswith("npm install") for spec in line.split()[7:]}
    assert set(prefixes) == set(C.NPM_SPECS), proc.stdout
    for name, vers in C.ALSO.items():
        pkg, first = C.VERSIONS[name]
        assert prefixes[f"{pkg}@{first}"] == str(cache)
        for ver in vers:
            assert prefixes[f"{pkg}@{ver}"] == str(C.version_prefix(cache, pkg, ver))
    pips = {line.split()[-1]: line.split()[1] for line in proc.stdout.splitlines()
            if line.startswith("pip ")}
    assert set(pips) == {spec[len(C.PIP):] for spec in C.PIP_SPECS}, proc.stdout
    for name, (pkg, ver) in C.VERSIONS.items():
        where = C.home_of(cache, name)
        if pkg.startswith(C.PIP):
            expected = str(where) if name in C.FOLDERS else str(venvs[0])
            assert pips[f"{pkg[len(C.PIP):]}=={ver}"] == expected
        else:
            assert prefixes[f"{pkg}@{ver}"] == str(where), name
