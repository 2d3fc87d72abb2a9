"""agenthooks in the real OpenCode (`opencode run`, Chat Completions, offline): the
first run of the plugin .opencode/plugins/agenthooks.ts in a real host.

OpenCode loads .opencode/plugins/*.ts with no build step. The plugin's
experimental.chat.system.transform runs before every model request and pushes the block
as a system message; tool.execute.after appends post_edit's reminder to the tool
result; experimental.session.compacting adds on_compact's instructions (what the summary must
keep) to the summary prompt; after session.compacted the next request runs pre_task with
source=compact.
Automatic compaction comes inside the run once a reply reports more tokens than the
model's context: a summary request, then the run continues by itself ("What did we do
so far?", the summary as the assistant's answer)."""

from __future__ import annotations

import subprocess

import pytest

try:
    from . import clis as C
    from . import hosts as H
    from .mockapi import MockAPI, text, tool
except ImportError:  # tests/e2e is not a package
    import clis as C  # type: ignore[no-redef]
    import hosts as H  # type: ignore[no-redef]
    from mockapi import MockAPI, text, tool  # type: ignore[no-redef]

pytestmark = pytest.mark.e2e

# OpenCode 1.18.33 installs @opencode-ai/plugin in the background (for ~/.config/opencode
# and for the repo's .opencode/) whatever it is told; refused, the run goes on.
ALLOWED = ("registry.npmjs.org:443",)
COMPACTED = "Context was compacted: memory reloaded from .agent/memory/"


def test_opencode_memory_reminder_and_compaction(clis: C.CLIs, sandbox: C.Sandbox,
                                                 mock_api: MockAPI) -> None:
    project = H.install(sandbox, "opencode", ".opencode/plugins/agenthooks.ts")
    project.make_stale()
    app = str(sandbox.repo / "app.py")
    # The read's reply reports 90000 prompt tokens against a 20000-token context: OpenCode
    # compacts before its next request.
    mock_api.script("chat", [
        tool("write", {"filePath": app, "content": "def get_user(uid):\n    return uid\n"}),
        tool("edit", {"filePath": app, "oldString": "return uid", "newString": "return int(uid)"}),
        tool("read", {"filePath": app}, input_tokens=90_000),
        text("Continuing after the summary.")])
    proc = C.run_opencode(sandbox.repo, sandbox.home, mock_api, "refactor get_user", clis=clis)
    H.ok(proc, mock_api)
    mains = mock_api.main_requests("chat")

    H.assert_memory(mains[0], project.rule, "first request")  # (a)
    # (b): the write's reminder in the next request, once; the edit (same snapshot
    # age, within the reminder interval) adds none.
    H.assert_reminded_once(project, mock_api, "chat")
    assert (sandbox.repo / "app.py").read_text() == "def get_user(uid):\n    return int(uid)\n"

    # (c): one summary request; the first request after it carries the summary (as the
    # assistant's answer to "What did we do so far?") and pre_task's compact block as a
    # system message, which OpenCode places before the conversation.
    assert len(mock_api.summary_requests("chat")) == 1
    # experimental.session.compacting: on_compact's instructions are in the summary request,
    # with the rule and the files being edited (the plugin's post_edit calls kept them).
    asked = mock_api.summary_requests("chat")[0].json_text
    assert "When you summarize this conversation, keep the following verbatim" in asked, asked[-6000:]
    assert project.rule in asked and "The files being edited, latest last: app.py" in asked, asked[-6000:]
    assert project.log_matching("on_compact", "instructions for the host's summary: keep 1 of 1 rules")
    after = mock_api.first_main_after_summary("chat")
    assert after is not None and mock_api.summary_text in after
    H.assert_memory(after, project.rule, "first request after the compaction")
    assert COMPACTED in after
    H.assert_after(after, H.BEGIN, mock_api.summary_text, "first request after the compaction")
    system = [m for m in after.body["messages"] if m["role"] == "system"]
    assert any(COMPACTED in m["content"] for m in system), system
    assert project.log_matching(
        "pre_task", "compaction detected (SessionStart source=compact); memory reloaded")
    H.assert_offline(mock_api, ALLOWED)  # (d)
    H.assert_hooks_exited_0(project)  # (e)
    assert "plugin" not in proc.stderr.lower() or "error" not in proc.stderr.lower(), proc.stderr
