"""agenthooks in the real Factory Droid (`droid exec`, a bring-your-own-key model over Chat
Completions, offline, no login).

Droid reads .factory/hooks.json as the event map itself. SessionStart's and PostToolUse's
`additionalContext` each reach the model as a message of their own. No hook fires on an
automatic compaction (which summarizes the startup memory away): the transcript gets a
compaction_state record, which on_compact reads at the next edit (PostToolUse), reloading
memory there. UserPromptSubmit does not fire for `droid exec`'s prompt, and /compress is
interactive only.

One run: two edits with a stale snapshot, then twice the rules rewritten by a shell command
whose reply reports 900000 prompt tokens (Droid compacts before its next request), each
followed by a read (no reload: memory waits for an edit) and an edit."""

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

# Droid 0.225.2 calls its own service and its telemetry whatever it is told; refused, the
# run goes on.
ALLOWED = ("api.factory.ai:443", "telemetry.factory.ai:443")


def rewrite(tattoo: str, n: int) -> tuple[str, dict[str, str]]:
    """A rule, and the Execute call that writes it as tattoo.md's only rule, spelled so that
    its text never shows in the call (which later requests replay)."""
    return (f"E2E-RULE-{9000 + n}-droid: never use tabs",
            {"command": f"printf '%s\\n' '# rules' \"- E2E-RULE-$((9000 + {n}))-droid: never use tabs\""
                        f" > {tattoo}", "riskLevel": "low", "riskLevelReason": "writes a project file"})


def test_droid_memory_reminder_and_two_auto_compactions(clis: C.CLIs, sandbox: C.Sandbox,
                                                        mock_api: MockAPI) -> None:
    project = H.install(sandbox, "droid", ".factory/hooks.json")
    hooks = json.loads((sandbox.repo / ".factory" / "hooks.json").read_text())
    assert "hooks" not in hooks and "SessionStart" in hooks  # the event map itself
    project.make_stale()
    old_rule, tattoo = project.rule, project.agent / "memory" / "tattoo.md"
    app, other = str(sandbox.repo / "app.py"), str(sandbox.repo / "cache.py")
    rule1, cmd1 = rewrite(str(tattoo), 1)
    rule2, cmd2 = rewrite(str(tattoo), 2)
    big = 900_000
    mock_api.script("chat", [
        tool("Create", {"file_path": app, "content": "def get_user(uid):\n    return uid\n"}),
        tool("Edit", {"file_path": app, "old_str": "return uid", "new_str": "return int(uid)"}),
        tool("Execute", cmd1, input_tokens=big),
        # After compaction 1: a read, then an edit.
        tool("Read", {"file_path": app}),
        tool("Create", {"file_path": other, "content": "CACHE = {}\n"}),
        tool("Execute", cmd2, input_tokens=big),
        # After compaction 2: the same.
        tool("Read", {"file_path": other}),
        tool("Edit", {"file_path": other, "old_str": "CACHE = {}", "new_str": "CACHE: dict = {}"}),
        text("Done.")])
    proc = C.run_droid(sandbox.repo, sandbox.home, mock_api, "refactor get_user", clis=clis,
                       timeout=240)
    H.ok(proc, mock_api)
    assert mock_api.pending("chat") == [], "the agent did not take every scripted step"
    assert (sandbox.repo / "cache.py").read_text() == "CACHE: dict = {}\n"

    mains = mock_api.main_requests("chat")
    H.assert_memory(mains[0], old_rule, "first request")  # (a)
    H.assert_reminded_once(project, mock_api, "chat")  # (b)

    # (c) two automatic compactions. The first summarizes the startup memory away; Droid keeps
    # the latest messages, so the reload after it is still there after the second. Memory read
    # after each (the rule written just before it, with on_compact's notice) comes in the
    # request after the first edit after it, not before, and once: the newest block.
    summaries = mock_api.summary_requests("chat")
    assert len(summaries) == 2, [(r.index, r.kind) for r in mock_api.requests]
    assert H.BEGIN not in mock_api.main_after(summaries[0])[0]
    for summary, rule, old in ((summaries[0], rule1, (old_rule,)),
                               (summaries[1], rule2, (old_rule, rule1))):
        before_edit, after_read, reloaded = mock_api.main_after(summary)[:3]
        assert rule not in before_edit and rule not in after_read, "memory before an edit"
        blocks = H.blocks_in(reloaded.body)
        assert blocks and rule in blocks[-1] and H.RELOADED in blocks[-1], blocks
        assert [b for b in blocks if rule in b] == blocks[-1:]
        assert not [o for o in old if o in blocks[-1]]
        H.assert_after(reloaded, mock_api.summary_text, rule, "the reload")
    # Exactly once per compaction, from the transcript's record.
    detected = H.compactions_detected(project)
    assert len(detected) == 2 and all("a compaction record in Droid's transcript" in ln
                                      for ln in detected), project.log()
    (transcript,) = (sandbox.home / ".factory" / "sessions").glob("*/*.jsonl")
    assert transcript.read_text().count('"type":"compaction_state"') == 2
    H.assert_offline(mock_api, ALLOWED)  # (d)
    H.assert_hooks_exited_0(project)  # (e)
