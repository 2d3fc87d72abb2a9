"""agenthooks in the real Qwen Code (`qwen`, Chat Completions, offline, Node 22).

Qwen Code puts SessionStart's context into the system prompt, replacing the one before: the
block is in every request and no compaction summarizes it away. After a compaction (automatic,
or /compress) it fires SessionStart with source compact asynchronously, so the first request
after the compaction still carries the block from before and the next one the reloaded block.
PostToolUse's context is appended to the tool result.

One process (`--input-format stream-json`), three prompts: the first writes and edits app.py
with a stale snapshot, rewrites tattoo.md and reports 175000 prompt tokens, so Qwen Code
compacts before its next request; the agent then rewrites tattoo.md again; the second prompt
is /compress; the third asks what is next. Memory changes before each compaction, so a rule
in the requests after it can only come from a reload after it."""

from __future__ import annotations

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

COMPACTED = "Context was compacted: memory reloaded from .agent/memory/"


def rewrite(tattoo: str, n: int) -> tuple[str, dict[str, str]]:
    """A rule, and the shell command that writes it as tattoo.md's only rule, spelled so
    that its text never shows in the tool call (which later requests replay)."""
    return (f"E2E-RULE-{6000 + n}-after: never use tabs",
            {"command": f"printf '%s\\n' '# rules' \"- E2E-RULE-$((6000 + {n}))-after: never use tabs\""
                        f" > {tattoo}"})


def test_qwen_memory_reminder_and_two_compactions(clis: C.CLIs, sandbox: C.Sandbox,
                                                  mock_api: MockAPI) -> None:
    project = H.install(sandbox, "qwen-code", ".qwen/settings.json")
    project.make_stale()
    # Qwen Code gives up a compaction whose summary reports fewer tokens than it had.
    mock_api.summary_input_tokens = 175_000
    old_rule, tattoo, app = project.rule, project.agent / "memory" / "tattoo.md", str(sandbox.repo / "app.py")
    rule1, cmd1 = rewrite(str(tattoo), 1)
    rule2, cmd2 = rewrite(str(tattoo), 2)
    mock_api.script("chat", [
        tool("write_file", {"file_path": app, "content": "def get_user(uid):\n    return uid\n"}),
        tool("edit", {"file_path": app, "old_string": "return uid", "new_string": "return int(uid)"}),
        tool("run_shell_command", cmd1, input_tokens=175_000),
        # The first request after the compaction: it still carries the block from before.
        tool("read_file", {"file_path": app}),
        # The second: the reloaded block. The agent rewrites the rules again.
        tool("run_shell_command", cmd2),
        text("Done."),
        # The prompt after /compress.
        text("Next: the cache layer.")])
    code, events, err = C.qwen_turns(sandbox.repo, sandbox.home, mock_api,
                                     ["refactor get_user", "/compress", "what is next?"], clis=clis)
    assert code == 0, (err[-3000:], events[-3:])
    assert mock_api.errors == []
    assert (sandbox.repo / "app.py").read_text() == "def get_user(uid):\n    return int(uid)\n"
    assert mock_api.pending("chat") == [], "the agent did not take every scripted step"

    # (a) memory in the system prompt of the first request.
    mains = mock_api.main_requests("chat")
    H.assert_memory(mains[0], old_rule, "first request")
    assert any(old_rule in b for b in H.system_blocks(mains[0]))
    # (b) the write's reminder in the tool result the next request carries, once.
    H.assert_reminded_once(project, mock_api, "chat")
    result = [m for m in mock_api.request_after_tool("chat", 0).body["messages"] if m["role"] == "tool"]
    assert H.REMIND in str(result[0]["content"]), result

    # (c) the automatic compaction, then /compress: one summary request each.
    summaries = mock_api.summary_requests("chat")
    assert len(summaries) == 2, [(r.index, r.kind) for r in mock_api.requests]
    between = [r for r in mock_api.main_after(summaries[0]) if r.index < summaries[1].index]
    first = between[0]
    # The first request after it: Qwen Code runs SessionStart(compact) while the turn goes on,
    # so the block from before is still there (the rule written before the compaction is not).
    assert [old_rule in b for b in H.system_blocks(first)] == [True]
    assert rule1 not in first.json_text.replace(cmd1["command"], "")
    # Once the hook has answered (the next request, or the one after on a busy machine): the
    # reloaded block, with the notice, replacing the old one, in every request from then on.
    at = [i for i, r in enumerate(between) if any(COMPACTED in b for b in H.system_blocks(r))]
    assert at and at[0] in (1, 2), [H.system_blocks(r) for r in between]
    second = between[at[0]]
    for request in between[at[0]:]:
        blocks = H.system_blocks(request)
        assert len(blocks) == 1 and rule1 in blocks[0] and COMPACTED in blocks[0], blocks
        assert all(old_rule not in b for b in H.blocks_in(request.body)), H.blocks_in(request.body)
    # After /compress: the next prompt's first request has the block reloaded after it.
    after = mock_api.main_after(summaries[1])[0]
    blocks2 = H.system_blocks(after)
    assert len(blocks2) == 1 and rule2 in blocks2[0] and COMPACTED in blocks2[0], blocks2
    assert all(rule1 not in b and old_rule not in b for b in H.blocks_in(after.body))
    # Exactly once per compaction, both by SessionStart(compact); no drift: one block each.
    detected = [ln for ln in project.log() if "compaction detected" in ln]
    assert len(detected) == 2 and all("SessionStart source=compact" in ln for ln in detected), project.log()
    assert len(H.blocks_in(second.body)) == len(H.blocks_in(after.body)) == 1
    H.assert_offline(mock_api)  # (d) Qwen Code contacts nothing else
    H.assert_hooks_exited_0(project)  # (e)
