"""agenthooks in the real GitHub Copilot CLI (`copilot -p`, Responses API, offline).

Copilot CLI fires sessionStart after userPromptSubmitted in -p mode, runs the repo's
.github/hooks/*.json, appends tool-hook output to the tool result and prompt-hook output
to the prompt inside <system_reminder>, and never passes preCompact output on. Its
automatic compaction runs inside a turn, while a tool call runs: preCompact fires, the
summary request goes out, and the next request opens with "Some of the conversation
history has been summarized". No hook event fires after it: memory comes back with the
next tool result or the next prompt, whichever is first.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

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

SUMMARIZED = "Some of the conversation history has been summarized"
# Copilot CLI 1.0.102 offline contacts nothing: no CONNECT is allowed.
ALLOWED: tuple[str, ...] = ()
# Memory as Copilot passes it on from postToolUse: appended to the tool's result.
IN_TOOL_RESULT = "Additional guidance from postToolUse hooks:\\n" + H.BEGIN


def copilot(sandbox: C.Sandbox, mock: MockAPI, clis: C.CLIs, prompt: str,
            **kw: object) -> subprocess.CompletedProcess[str]:
    proc = C.run_copilot(sandbox.repo, sandbox.home, mock, prompt, clis=clis, **kw)  # type: ignore[arg-type]
    H.ok(proc, mock)
    return proc


def hook_failures(home: Path) -> list[str]:
    """(e), Copilot's side: its log names every hook that failed or exited non-zero."""
    return [ln for log in sorted((home / ".copilot" / "logs").glob("*.log"))
            for ln in log.read_text(errors="replace").splitlines()
            if "[ERROR] [rust:hooks]" in ln]


def create(path: Path, content: str, **kw: int) -> object:
    return tool("create", {"path": str(path), "file_text": content}, **kw)


def edit(path: Path, old: str, new: str) -> object:
    return tool("edit", {"path": str(path), "old_str": old, "new_str": new})


def view(path: Path) -> object:
    return tool("view", {"path": str(path)})


def order(mock: MockAPI) -> list[tuple[int, str, bool]]:
    """Each request's index, kind and whether it held the summary: which one came when."""
    return [(r.index, r.kind, SUMMARIZED in r) for r in mock.requests]


def test_copilot_memory_and_reminder(clis: C.CLIs, sandbox: C.Sandbox,
                                     mock_api: MockAPI) -> None:
    project = H.install(sandbox, "copilot-cli", ".github/hooks/agenthooks.json")
    project.make_stale()
    app = sandbox.repo / "app.py"
    mock_api.script("codex", [create(app, "def get_user(uid):\n    return uid\n"),
                              edit(app, "return uid", "return int(uid)"), text("Edited.")])
    copilot(sandbox, mock_api, clis, "refactor get_user")

    H.assert_memory(mock_api.main_requests("codex")[0], project.rule, "first request")  # (a)
    H.assert_reminded_once(project, mock_api, "codex")  # (b)
    assert app.read_text() == "def get_user(uid):\n    return int(uid)\n"
    H.assert_offline(mock_api, ALLOWED)  # (d)
    H.assert_hooks_exited_0(project)  # (e)
    assert hook_failures(sandbox.home) == []


def test_copilot_auto_compaction_then_tool_result_and_next_prompt(
        clis: C.CLIs, sandbox: C.Sandbox, mock_api: MockAPI) -> None:
    project = H.install(sandbox, "copilot-cli", ".github/hooks/agenthooks.json")
    app = sandbox.repo / "app.py"
    # A reply reporting 90000 input tokens against a 20000-token window: Copilot compacts
    # while the next tool call (the edit) runs, inside the same turn. The summary runs
    # beside the agent loop and may come back only after the edit's result went out: the
    # view after it gives the loop one more request, the one that then holds the summary
    # (with the edit's result the last, a slow summary lands after the run, in no request).
    mock_api.script("codex", [create(app, "x = 1\n", input_tokens=90_000),
                              edit(app, "x = 1", "x = 2"), view(app), text("Edited.")])
    old_rule = project.rule
    sid = C.copilot_session(copilot(sandbox, mock_api, clis, "write app.py",
                                    max_prompt_tokens=20_000))

    assert len(mock_api.summary_requests("codex")) == 1
    # The summary runs beside the agent loop: the first request built on it is the first
    # that holds it.
    after = next((r for r in mock_api.main_requests("codex") if SUMMARIZED in r), None)
    assert after is not None, f"no main request held Copilot's summary: {order(mock_api)}"
    assert mock_api.summary_text in after
    # (c) the compacted history opens with the summary; the memory rides on the result
    # of the tool call that ran during the compaction, after the summary.
    H.assert_memory(after, old_rule, "first request after the compaction")
    H.assert_after(after, SUMMARIZED, H.BEGIN, "first request after the compaction")
    H.assert_after(after, mock_api.summary_text, IN_TOOL_RESULT, "tool result")
    assert H.RELOADED in after
    assert project.log_matching("on_compact", "compaction announced by the host (preCompact)")
    assert len(project.log_matching("on_compact", "compaction detected")) == 1, project.log()

    # The next prompt after a compaction with no tool call after it (the create's hook
    # runs before Copilot sees the usage and compacts), then a resumed prompt. userPromptSubmitted reloads memory into the
    # prompt's <system_reminder>, read anew (the new rule).
    mock_api.script("codex", [create(sandbox.repo / "b.py", "y = 1\n", input_tokens=90_000),
                              text("Wrote b.py.")])
    copilot(sandbox, mock_api, clis, "write b.py", resume=sid, max_prompt_tokens=20_000)
    assert len(mock_api.summary_requests("codex")) == 2
    assert len(project.log_matching("on_compact", "compaction announced")) == 2
    new_rule = project.new_rule()
    mock_api.script("codex", [text("Next.")])
    copilot(sandbox, mock_api, clis, "what next?", resume=sid)
    last = mock_api.main_requests("codex")[-1]
    prompt = next(i for i in reversed(last.body["input"])
                  if i.get("role") == "user" and "what next?" in str(i))
    reminder = prompt["content"][0]["text"]
    assert "<system_reminder>" in reminder and H.RELOADED in reminder, reminder
    assert new_rule in reminder and H.BEGIN in reminder, reminder
    assert len(project.log_matching("on_compact", "compaction detected")) == 2, project.log()
    H.assert_offline(mock_api, ALLOWED)  # (d)
    H.assert_hooks_exited_0(project)  # (e)
    assert hook_failures(sandbox.home) == []
