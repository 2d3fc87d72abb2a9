"""agenthooks in the real Pi (`pi --mode rpc`, its embedding protocol; Chat Completions,
offline): the extension .pi/extensions/agenthooks.ts.

Pi rebuilds the system prompt for every prompt; the extension's before_agent_start appends
the block to it, so no compaction summarizes memory away. tool_result appends post_edit's
reminder to an edit's result. On session_compact (an automatic compaction, which Pi runs
after a prompt whose last reply is over its threshold, or `compact`) pre_task runs with
source=compact, and the next prompt's system prompt carries that block.

One process, three prompts and a `compact`: memory changes before each compaction, so a rule
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
    """A rule, and the bash tool call that writes it as tattoo.md's only rule, spelled so
    that its text never shows in the call (which later requests replay)."""
    return (f"E2E-RULE-{8000 + n}-pi: never use tabs",
            {"command": f"printf '%s\\n' '# rules' \"- E2E-RULE-$((8000 + {n}))-pi: never use tabs\""
                        f" > {tattoo}"})


def test_pi_memory_reminder_and_compactions(clis: C.CLIs, sandbox: C.Sandbox,
                                            mock_api: MockAPI) -> None:
    project = H.install(sandbox, "pi", ".pi/extensions/agenthooks.ts")
    project.make_stale()
    old_rule, tattoo, app = project.rule, project.agent / "memory" / "tattoo.md", str(sandbox.repo / "app.py")
    rule1, cmd1 = rewrite(str(tattoo), 1)
    rule2, cmd2 = rewrite(str(tattoo), 2)
    mock_api.script("chat", [
        # Prompt 1: two edits, the rules rewritten, a last reply over the threshold (Pi's
        # 200000-token window less 16384): Pi compacts after the prompt.
        tool("write", {"path": app, "content": "def get_user(uid):\n    return uid\n"}),
        tool("edit", {"path": app, "edits": [{"oldText": "return uid", "newText": "return int(uid)"}]}),
        tool("bash", cmd1),
        text("Done.", input_tokens=190_000),
        # Prompt 2: the rules rewritten again; then `compact`.
        tool("bash", cmd2),
        text("Rules updated."),
        # Prompt 3.
        text("Next: the cache layer.")])
    code, events, err = C.pi_rpc(sandbox.repo, sandbox.home, mock_api, [
        {"type": "prompt", "message": "refactor get_user", "compacts": True},
        {"type": "prompt", "message": "go on"},
        {"type": "compact"},
        {"type": "prompt", "message": "what is next?"}], clis=clis)
    assert code == 0, (err[-3000:], events[-3:])
    assert mock_api.errors == [] and mock_api.pending("chat") == []
    assert (sandbox.repo / "app.py").read_text() == "def get_user(uid):\n    return int(uid)\n"
    assert "Extension error" not in err, err[-3000:]

    mains = mock_api.main_requests("chat")
    H.assert_memory(mains[0], old_rule, "first request")  # (a)
    assert [old_rule in b for b in H.system_blocks(mains[0])] == [True]
    H.assert_reminded_once(project, mock_api, "chat")  # (b)

    # (c) the automatic compaction after prompt 1, then `compact` after prompt 2: the first
    # request after each carries, in its system prompt, the block pre_task built at
    # session_compact, with the rule written just before and the notice.
    summaries = mock_api.summary_requests("chat")
    assert len(summaries) == 2, [(r.index, r.kind) for r in mock_api.requests]
    seen = []
    for summary, rule, old in ((summaries[0], rule1, (old_rule,)), (summaries[1], rule2, (old_rule, rule1))):
        after = mock_api.main_after(summary)[0]
        assert mock_api.summary_text in after
        blocks = H.system_blocks(after)
        assert len(blocks) == 1 and rule in blocks[0] and COMPACTED in blocks[0], blocks
        assert not [b for b in H.blocks_in(after.body) for o in old if o in b], H.blocks_in(after.body)
        seen.append(len(H.blocks_in(after.body)))
    assert seen == [1, 1]  # no drift: one block each time
    detected = H.compactions_detected(project)
    assert len(detected) == 2 and all("SessionStart source=compact" in ln for ln in detected), project.log()
    H.assert_offline(mock_api)  # (d) Pi contacts nothing else
    H.assert_hooks_exited_0(project)  # (e)
