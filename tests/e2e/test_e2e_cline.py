"""agenthooks in the real Cline CLI (`cline PROMPT`, SDK-based 3.x, Chat Completions,
offline).

Cline passes hook output to the model only from PreToolUse and PostToolUse, as a
<hook_context> user message after the tool result; TaskStart's output is ignored and
UserPromptSubmit does not fire for the initial prompt, so memory rides on the first tool
call. PreCompact never fires. Its agentic compaction (a summary request, then a history
that opens with "Context summary:") writes SESSION.compaction.json in the session's
folder: the next PreToolUse sees a new one and reloads memory."""

from __future__ import annotations

import json
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

# Cline CLI 3.0.65 sends telemetry whatever it is told; refused, the run goes on.
ALLOWED = ("otel.cline.bot:443", "data.cline.bot:443")
CONTEXT_SUMMARY = "Context summary:"


def test_cline_memory_reminder_and_compaction(clis: C.CLIs, sandbox: C.Sandbox,
                                             mock_api: MockAPI) -> None:
    project = H.install(sandbox, "cline", ".clinerules/hooks/PreToolUse",
                        ".clinerules/hooks/PostToolUse")
    project.make_stale()
    old_rule = project.rule
    # The command spells the new rule so that its text never shows in the tool call.
    new_rule = "E2E-RULE-6001-after: never use tabs"
    spelled = "- E2E-RULE-$((6000 + 1))-after: never use tabs"
    tattoo = project.agent / "memory" / "tattoo.md"
    app = str(sandbox.repo / "app.py")
    # The third call carries about 180 kB of arguments and its reply reports 900000 prompt
    # tokens: Cline compacts after it ran. It also rewrites tattoo.md, so the rule in the
    # requests after the compaction can only come from a reload after it.
    pad = [": " + "y" * 60_000] * 3
    mock_api.script("chat", [
        tool("editor", {"path": app, "new_text": "def get_user(uid):\n    return uid\n"}),
        tool("editor", {"path": app, "old_text": "return uid", "new_text": "return int(uid)"}),
        tool("run_commands", {"commands": [
            f"printf '%s\\n' '# rules' \"{spelled}\" > {tattoo}", *pad]}, input_tokens=900_000),
        tool("read_files", {"files": [{"path": app}]}),
        text("Done.")])
    proc = C.run_cline(sandbox.repo, sandbox.home, mock_api, "refactor get_user", clis=clis)
    H.ok(proc, mock_api)

    # (a) memory arrives with the first tool call: in the request carrying its result.
    H.assert_memory(mock_api.request_after_tool("chat", 0), old_rule, "request after the first tool")
    H.assert_reminded_once(project, mock_api, "chat")  # (b)
    assert (sandbox.repo / "app.py").read_text() == "def get_user(uid):\n    return int(uid)\n"
    assert project.log_matching("on_compact", "memory injected with the first tool call")

    # (c) one summary request; Cline's history after it opens with the summary and keeps
    # recent messages (the first tool's <hook_context> with the old rule among them). The
    # new rule arrives with the first tool call after the compaction, after the summary.
    assert len(mock_api.summary_requests("chat")) == 1
    after = mock_api.first_main_after_summary("chat")
    assert after is not None and CONTEXT_SUMMARY in after and mock_api.summary_text in after
    assert new_rule not in after, "memory came back before any hook ran after the compaction"
    reloaded = mock_api.main_after(after)[0]
    H.assert_memory(reloaded, new_rule, "request after the first tool call after the compaction")
    H.assert_after(reloaded, CONTEXT_SUMMARY, new_rule, "the reload")
    H.assert_after(reloaded, mock_api.summary_text, H.RELOADED, "the reload")
    assert len(project.log_matching("on_compact", "compaction detected (a new compaction in"
                                    " Cline's")) == 1, project.log()
    (session,) = (sandbox.home / ".cline" / "data" / "sessions").glob("*/*.compaction.json")
    assert json.loads(session.read_text())["messages"][0]["content"][0]["text"].startswith(
        CONTEXT_SUMMARY)
    H.assert_offline(mock_api, ALLOWED)  # (d)
    # (e) Cline logs nothing about a hook that fails (checked by hand with a hook that
    # exits 3): the product's log is the witness.
    H.assert_hooks_exited_0(project)

