"""Agents built on the Claude Agent SDK (TypeScript and Python) and on the Codex SDK, run
offline against the mock on a repo with agenthooks installed.

The Claude Agent SDK runs the Claude Code binary it ships, which loads the repo's
.claude/settings.json when `settingSources` includes "project" (or is left out: the SDK
then loads every source, as the CLI does). So the claude-code install works as it is:
memory at the start, the reminder after an edit, memory back after a compaction (/compact
sent as a prompt). `settingSources: []` turns every hook off.

The Codex SDK starts `codex exec` with no way to pass --dangerously-bypass-hook-trust, so
Codex skips the repo's untrusted hooks without a word; `codexPathOverride` pointing at a
wrapper that adds the flag (README: Frameworks) runs them."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

try:
    from . import clis as C
    from . import hosts as H
    from .mockapi import MockAPI, edit, text, write
    from .test_agenthooks_e2e import COMPACTED, assert_memory_after_summary, memory_blocks
except ImportError:  # tests/e2e is not a package
    import clis as C  # type: ignore[no-redef]
    import hosts as H  # type: ignore[no-redef]
    from mockapi import MockAPI, edit, text, write  # type: ignore[no-redef]
    from test_agenthooks_e2e import (COMPACTED,  # type: ignore[no-redef]
                                     assert_memory_after_summary, memory_blocks)

pytestmark = pytest.mark.e2e

# An agent on the TypeScript SDK: one query, its messages' session id and result on stdout.
TS_AGENT = """\
import { pathToFileURL } from "node:url"
const { query } = await import(pathToFileURL(process.env.AGENT_SDK).href)
const [prompt, resume, sources] = process.argv.slice(2)
const options = { cwd: process.cwd(), permissionMode: "acceptEdits" }
if (resume) options.resume = resume
if (sources !== "default") options.settingSources = JSON.parse(sources)
for await (const message of query({ prompt, options })) {
  if (message.type === "result") console.log(JSON.stringify({ session_id: message.session_id, result: message.result }))
}
"""

# The same agent on the Python SDK.
PY_AGENT = """\
import asyncio, json, os, sys
from claude_agent_sdk import ClaudeAgentOptions, ResultMessage, query

async def main(prompt, resume, sources):
    kw = {"cwd": os.getcwd(), "permission_mode": "acceptEdits"}
    if resume:
        kw["resume"] = resume
    if sources != "default":
        kw["setting_sources"] = json.loads(sources)
    async for message in query(prompt=prompt, options=ClaudeAgentOptions(**kw)):
        if isinstance(message, ResultMessage):
            print(json.dumps({"session_id": message.session_id, "result": message.result}))

asyncio.run(main(*sys.argv[1:]))
"""

# An agent on the Codex SDK: one thread, one turn; CODEX_PATH (the wrapper, or empty for the
# SDK's own codex) as codexPathOverride.
CODEX_AGENT = """\
import { pathToFileURL } from "node:url"
const { Codex } = await import(pathToFileURL(process.env.AGENT_SDK).href)
const codex = new Codex(process.env.CODEX_PATH ? { codexPathOverride: process.env.CODEX_PATH } : {})
const thread = codex.startThread({ workingDirectory: process.cwd(), sandboxMode: "danger-full-access",
                                   approvalPolicy: "never", model: process.env.CODEX_MODEL })
const turn = await thread.run(process.argv[2])
console.log(JSON.stringify({ thread: thread.id, response: turn.finalResponse }))
"""

# The wrapper the README documents for the Codex SDK: `codex exec` with the repo's hooks trusted.
CODEX_WRAPPER = """\
#!/bin/sh
# codex-with-hooks: the Codex CLI, with the repo's hooks trusted for `codex exec`.
[ "$1" = exec ] && shift && set -- exec --dangerously-bypass-hook-trust "$@"
exec codex "$@"
"""


def claude_agent(kind: str, clis: C.CLIs, sandbox: C.Sandbox, mock: MockAPI, prompt: str,
                 resume: str = "", sources: str = "default") -> dict[str, Any]:
    """Run the TypeScript ("ts") or Python ("py") agent in the repo; its result line."""
    script = sandbox.tmp / f"agent.{'mjs' if kind == 'ts' else 'py'}"
    script.write_text(TS_AGENT if kind == "ts" else PY_AGENT, encoding="utf-8")
    C.setup_claude_home(sandbox.home)
    env = C.claude_env(sandbox.home, mock, clis.bin_dir)
    if kind == "ts":
        env["AGENT_SDK"] = str(clis.home("claude-agent-sdk-ts") / "node_modules" /
                               "@anthropic-ai" / "claude-agent-sdk" / "sdk.mjs")
        cmd = ["node", str(script)]
    else:
        cmd = [str(clis.home("claude-agent-sdk-py") / "bin" / "python"), str(script)]
    proc = C._run([*cmd, prompt, resume, sources], sandbox.repo, env, 120)
    assert proc.returncode == 0, C.describe(proc, mock)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    assert lines, C.describe(proc, mock)
    return json.loads(lines[-1])  # type: ignore[no-any-return]


@pytest.mark.parametrize("kind", ["ts", "py"])
def test_claude_agent_sdk_agent_gets_memory_and_settingsources_empty_turns_it_off(
        kind: str, clis: C.CLIs, sandbox: C.Sandbox, mock_api: MockAPI) -> None:
    project = H.install(sandbox, "claude-code", ".claude/settings.json")
    project.make_stale()
    mock_api.script("claude", [write("app.py", "def get_user(uid):\n    return uid\n"),
                               edit("app.py", "return uid", "return int(uid)"),
                               text("Edited app.py."), text("Second answer.")])
    sid = claude_agent(kind, clis, sandbox, mock_api, "refactor get_user")["session_id"]
    H.assert_memory(mock_api.main_requests("claude")[0], project.rule, "the agent's first request")
    H.assert_reminded_once(project, mock_api, "claude")
    assert (sandbox.repo / "app.py").read_text() == "def get_user(uid):\n    return int(uid)\n"

    # A compaction (/compact as a prompt, in the same session), then the next prompt: memory
    # read after it, after the summary, with SessionStart(compact)'s notice. (Each query is a
    # process of its own: the resumed one adds SessionStart(resume)'s block, as `claude -p
    # --resume` does.)
    claude_agent(kind, clis, sandbox, mock_api, "second question", sid)
    rule = project.new_rule()
    claude_agent(kind, clis, sandbox, mock_api, "/compact", sid)
    assert len(mock_api.summary_requests("claude")) == 1
    mock_api.script("claude", [text("Continuing.")])
    claude_agent(kind, clis, sandbox, mock_api, "what next?", sid)
    after = mock_api.first_main_after_summary("claude")
    blocks = assert_memory_after_summary(after, mock_api, "the first request after /compact",
                                         (rule, H.PROGRESS))
    assert COMPACTED in after and len(blocks) <= 2, blocks
    detected = H.compactions_detected(project)
    assert len(detected) == 1 and "SessionStart source=compact" in detected[0], project.log()

    # settingSources: [] (setting_sources=[]): no hook runs, no memory, nothing logged.
    logged = len(project.log())
    before = len(mock_api.requests)
    mock_api.script("claude", [write("other.py", "x = 1\n"), text("Wrote other.py.")])
    claude_agent(kind, clis, sandbox, mock_api, "write other.py", sources="[]")
    new = [r for r in mock_api.main_requests("claude") if r.index >= before]
    assert len(new) == 2 and not [r for r in new if H.BEGIN in r or H.REMIND in r]
    assert (sandbox.repo / "other.py").read_text() == "x = 1\n"
    assert len(project.log()) == logged, project.log()[logged:]
    H.assert_offline(mock_api)
    H.assert_hooks_exited_0(project)


def codex_agent(clis: C.CLIs, sandbox: C.Sandbox, mock: MockAPI, prompt: str,
                wrapper: Path | None) -> subprocess.CompletedProcess[str]:
    script = sandbox.tmp / "codex-agent.mjs"
    script.write_text(CODEX_AGENT, encoding="utf-8")
    # The mock as the model provider, the repo trusted, plugins and apps off (they call out).
    C.setup_codex_home(sandbox.home, sandbox.repo, mock,
                       extra="[features]\nplugins = false\napps = false")
    home = clis.home("codex-sdk")
    env = C.codex_env(sandbox.home, mock, home / "node_modules" / ".bin")
    env.update({"AGENT_SDK": str(home / "node_modules" / "@openai" / "codex-sdk" / "dist" / "index.js"),
                "CODEX_PATH": str(wrapper or ""), "CODEX_MODEL": C.CODEX_MODEL})
    proc = C._run(["node", str(script), prompt], sandbox.repo, env, 120)
    assert proc.returncode == 0, C.describe(proc, mock)
    return proc


def test_codex_sdk_agent_gets_memory_through_the_documented_wrapper(
        clis: C.CLIs, sandbox: C.Sandbox, mock_api: MockAPI) -> None:
    project = H.install(sandbox, "codex", ".codex/hooks.json")
    project.make_stale()
    # Without the wrapper: the SDK's `codex exec` skips the untrusted hooks, silently.
    mock_api.script("codex", [text("No hooks here.")])
    codex_agent(clis, sandbox, mock_api, "what is the task?", None)
    (plain,) = mock_api.main_requests("codex")
    assert H.BEGIN not in plain and project.log_matching("pre_task", "memory loaded") == []

    wrapper = sandbox.tmp / "codex-with-hooks"
    wrapper.write_text(CODEX_WRAPPER, encoding="utf-8")
    wrapper.chmod(0o755)
    mock_api.script("codex", [write("app.py", "def get_user(uid):\n    return uid\n"),
                              edit("app.py", "return uid", "return int(uid)"),
                              text("Edited app.py.")])
    codex_agent(clis, sandbox, mock_api, "refactor get_user", wrapper)
    first = mock_api.main_requests("codex")[1]
    H.assert_memory(first, project.rule, "the wrapped agent's first request")
    assert len(memory_blocks(first)) == 1
    reminded = [r for r in mock_api.main_requests("codex")[2:] if H.REMIND in r]
    assert reminded, "no reminder after the edit"
    assert (sandbox.repo / "app.py").read_text() == "def get_user(uid):\n    return int(uid)\n"
    H.assert_offline(mock_api)
    H.assert_hooks_exited_0(project)
    assert os.access(wrapper, os.X_OK)
