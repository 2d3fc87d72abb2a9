"""agenthooks in the real Kilo CLI (`kilo run`, Chat Completions, offline): the OpenCode
plugin placed in .kilo/plugins/ (Kilo, a fork of OpenCode, never reads .opencode/).

The plugin's experimental.chat.system.transform pushes the block as a system message before
every request; tool.execute.after appends post_edit's reminder to the tool result; on
session.compacted pre_task runs with source=compact and the next request takes its block.
Automatic compaction comes inside the run once a reply reports more tokens than the model's
context; the run then goes on by itself. `kilo run -c --command compact` compacts by hand."""

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

# Kilo 7.7.9 installs its plugin package in the background whatever it is told, and asks
# api.kilo.ai for its own models; refused, the run goes on.
ALLOWED = ("registry.npmjs.org:443", "api.kilo.ai:443")
COMPACTED = "Context was compacted: memory reloaded from .agent/memory/"


def rewrite(tattoo: str, n: int) -> tuple[str, dict[str, str]]:
    """A rule, and the bash tool call that writes it as tattoo.md's only rule, spelled so
    that its text never shows in the call (which later requests replay)."""
    return (f"E2E-RULE-{7000 + n}-kilo: never use tabs",
            {"command": f"printf '%s\\n' '# rules' \"- E2E-RULE-$((7000 + {n}))-kilo: never use tabs\""
                        f" > {tattoo}", "description": "rewrite the rules"})


def test_kilo_memory_reminder_and_compactions(clis: C.CLIs, sandbox: C.Sandbox,
                                              mock_api: MockAPI) -> None:
    project = H.install(sandbox, "kilo", ".kilo/plugins/agenthooks.ts")
    assert not (sandbox.repo / ".opencode").exists()
    project.make_stale()
    old_rule, tattoo, app = project.rule, project.agent / "memory" / "tattoo.md", str(sandbox.repo / "app.py")
    rule1, cmd1 = rewrite(str(tattoo), 1)
    rule2, cmd2 = rewrite(str(tattoo), 2)
    # Each rewrite's reply reports 19000 prompt tokens against a 19000-token budget (a
    # 20000-token context): Kilo compacts before its next request, and goes on after it.
    mock_api.script("chat", [
        tool("write", {"filePath": app, "content": "def get_user(uid):\n    return uid\n"}),
        tool("edit", {"filePath": app, "oldString": "return uid", "newString": "return int(uid)"}),
        tool("bash", cmd1, input_tokens=19_000),
        tool("bash", cmd2, input_tokens=19_000),
        text("Done.")])
    proc = C.run_kilo(sandbox.repo, sandbox.home, mock_api, "refactor get_user", clis=clis,
                      timeout=240)
    H.ok(proc, mock_api)
    assert (sandbox.repo / "app.py").read_text() == "def get_user(uid):\n    return int(uid)\n"
    assert mock_api.pending("chat") == [], "the agent did not take every scripted step"

    mains = mock_api.main_requests("chat")
    H.assert_memory(mains[0], old_rule, "first request")  # (a)
    assert H.system_blocks(mains[0]) and old_rule in H.system_blocks(mains[0])[0]
    H.assert_reminded_once(project, mock_api, "chat")  # (b)

    # (c) two automatic compactions in the run; the first request after each carries a
    # block reloaded after it (the rule written just before), with the notice; no older rule.
    summaries = mock_api.summary_requests("chat")
    assert len(summaries) == 2, [(r.index, r.kind) for r in mock_api.requests]
    counts = []
    for summary, rule, old in ((summaries[0], rule1, (old_rule,)), (summaries[1], rule2, (old_rule, rule1))):
        after = mock_api.main_after(summary)[0]
        blocks = H.system_blocks(after)
        assert len(blocks) == 1 and rule in blocks[0] and COMPACTED in blocks[0], blocks
        assert not [b for b in H.blocks_in(after.body) for o in old if o in b], H.blocks_in(after.body)
        counts.append(len(H.blocks_in(after.body)))
    assert counts == [1, 1]  # no drift: one block each time
    detected = [ln for ln in project.log() if "compaction detected" in ln]
    assert len(detected) == 2, project.log()

    # By hand: `kilo run -c --command compact` (a summary, no request after it in that run);
    # the compaction is logged once; the next run's first request carries memory read after it.
    rule3 = "E2E-RULE-7003-kilo: never use tabs"
    tattoo.write_text(f"# rules\n- {rule3}\n", encoding="utf-8")
    proc = C.run_cli("kilo", sandbox.repo, sandbox.home, mock_api,
                     ["run", "--auto", "-c", "--command", "compact"], C.KILO_ENV, clis=clis,
                     timeout=240)
    H.ok(proc, mock_api)
    assert len(mock_api.summary_requests("chat")) == 3
    detected = [ln for ln in project.log() if "compaction detected" in ln]
    assert len(detected) == 3 and all("SessionStart source=compact" in ln for ln in detected), project.log()
    mock_api.script("chat", [text("Next: the cache layer.")])
    H.ok(C.run_kilo(sandbox.repo, sandbox.home, mock_api, "what is next?", cont=True, clis=clis,
                    timeout=240), mock_api)
    after = mock_api.main_after(mock_api.summary_requests("chat")[-1])[0]
    assert [rule3 in b for b in H.system_blocks(after)] == [True], H.system_blocks(after)
    H.assert_offline(mock_api, ALLOWED)  # (d)
    H.assert_hooks_exited_0(project)  # (e)
