"""agenthooks end to end: install into a repo, run the real Claude Code / Codex /
Gemini CLI against the mock model API, and read what reached the model.

For each framework the tests prove, from the requests the mock recorded:
  (a) the memory block (delimiter, a tattoo rule, the in-progress item) is in the
      first model request of a session;
  (b) after two scripted edits with a stale snapshot, the post_edit reminder is in
      the request right after the first tool result, and only once;
  (c) after a real compaction the rule and the in-progress item are in the first
      main request after the summary request;
  (d) nothing left loopback and the mock saw no unexpected request;
plus the hooks' lines in .agent/log/memory.log.  For Claude Code and Codex they
also prove that on_compact sees a context-length drop in the real transcript the
CLI wrote (no AGENT_CONTEXT_LEN).
"""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

try:
    from . import clis as C
    from .hosts import Project
    from .mockapi import MockAPI, Request, _texts, edit, text, write
except ImportError:  # tests/e2e is not a package
    import clis as C  # type: ignore[no-redef]
    from hosts import Project  # type: ignore[no-redef]
    from mockapi import MockAPI, Request, _texts, edit, text, write  # type: ignore[no-redef]

pytestmark = pytest.mark.e2e

RULE = "E2E-RULE-7f3: never use tabs"
PROGRESS = "E2E-PROGRESS-c41: refactor get_user"
BEGIN = "===== AGENT MEMORY BEGIN ====="
END = "===== AGENT MEMORY END ====="
REMIND = ".agent/memory/snapshot.md was last updated"
# on_compact's notice when it reloads memory by itself (not through SessionStart).
RELOADED = "agenthooks detected a context compaction and reloaded memory"
# pre_task's notice on SessionStart with source "compact".
COMPACTED = "Context was compacted: memory reloaded from .agent/memory/"

TATTOO = f"# Project hard rules\n- {RULE}\n- E2E-RULE-9b2: every API returns code, data, msg\n"
SNAPSHOT = (
    "# Current task snapshot\n\n## Goal\nE2E-GOAL: make user_service async\n\n## Done\n"
    "- [x] signature: async def get_user(uid: int) -> User\n\n## In progress\n"
    f"- [ ] {PROGRESS}\n\n## Todo\n- cache layer\n\n## Key decisions\n"
    "- raise UserNotFound, never return None\n"
)

# The registration each framework must get from `agenthooks install`:
# (event, hook script) pairs, checked in the shared settings file.
REGISTRATIONS: dict[str, tuple[str, list[tuple[str, str]]]] = {
    "claude-code": (".claude/settings.json", [
        ("SessionStart", "pre_task"), ("UserPromptSubmit", "on_compact"),
        ("PostToolUse", "post_edit"), ("PreCompact", "on_compact"), ("PostCompact", "on_compact")]),
    "codex": (".codex/hooks.json", [
        ("SessionStart", "pre_task"), ("UserPromptSubmit", "on_compact"),
        ("PostToolUse", "post_edit"), ("PreCompact", "on_compact"), ("PostCompact", "on_compact")]),
    "gemini-cli": (".gemini/settings.json", [
        ("SessionStart", "pre_task"), ("BeforeAgent", "on_compact"),
        ("AfterTool", "post_edit"), ("PreCompress", "on_compact")]),
}


# --------------------------------------------------------------------------
# The project under test


def transcript_file(root: Path, pattern: str) -> str:
    """The text of the one transcript the CLI wrote under root."""
    found = sorted(root.rglob(pattern))
    assert len(found) == 1, f"{pattern} under {root}: {found}"
    return found[0].read_text(encoding="utf-8")


def _commands(doc: dict, event: str) -> list[str]:
    return [h.get("command", "") for group in doc.get("hooks", {}).get(event, []) or []
            for h in group.get("hooks", []) or []]


def install(sandbox: C.Sandbox, framework: str) -> Project:
    """`agenthooks install --yes --framework X` in the sandbox repo, then known memory."""
    # One board, memory/snapshot.md: these runs prove what each host delivers; the boards per
    # branch have tests of their own (tests/runtime/test_boards.py, tests/test_boards_git.py).
    proc = subprocess.run([sys.executable, "-m", "agenthooks", "install", "--yes", "--board", "shared",
                           "--framework", framework, str(sandbox.repo)],
                          cwd=sandbox.repo, capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, f"install failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
    reg_path, wanted = REGISTRATIONS[framework]
    reg = sandbox.repo / reg_path
    assert reg.is_file(), (f"`agenthooks install --framework {framework}` wrote no {reg_path}"
                           f" (agenthooks/frameworks/ has no wiring for it?):\n{proc.stdout}")
    doc = json.loads(reg.read_text())
    for event, hook in wanted:
        assert any(f"{hook}.sh" in cmd for cmd in _commands(doc, event)), (
            f"{reg_path}: {event} does not run .agent/hooks/{hook}.sh:\n{reg.read_text()}")
    for hook in ("pre_task", "post_edit", "on_compact"):
        assert (sandbox.repo / ".agent" / "hooks" / f"{hook}.sh").is_file()
    project = Project(sandbox.repo, framework)
    (project.agent / "memory" / "tattoo.md").write_text(TATTOO, encoding="utf-8")
    project.snapshot.write_text(SNAPSHOT, encoding="utf-8")
    return project


# --------------------------------------------------------------------------
# Assertions on what reached the model


def ok(proc: subprocess.CompletedProcess[str], mock: MockAPI) -> None:
    assert proc.returncode == 0, C.describe(proc, mock)
    assert mock.errors == [], C.describe(proc, mock)


def has_memory(req: Request | None) -> bool:
    return req is not None and all(s in req for s in (BEGIN, RULE, PROGRESS))


def assert_memory(req: Request | None, what: str) -> None:
    assert req is not None, f"no {what}"
    missing = [s for s in (BEGIN, RULE, PROGRESS) if s not in req]
    assert not missing, f"{what} lacks {missing}:\n{req.json_text[:6000]}"


def memory_blocks(req: Request, after: str | None = None) -> list[str]:
    """The memory blocks in req, in the order of the request's text, and only those
    after the first occurrence of `after` (e.g. the compaction summary) when given."""
    joined = "\n".join(_texts(req.body))
    if after is not None:
        assert after in joined, f"{after!r} not in the request:\n{joined[:6000]}"
        joined = joined[joined.index(after):]
    return re.findall(re.escape(BEGIN) + ".*?" + re.escape(END), joined, re.S)


def assert_memory_after_summary(req: Request | None, mock: MockAPI, what: str,
                                markers: tuple[str, ...] = (RULE, PROGRESS)) -> list[str]:
    """A block with the current markers occurs after the summary text in req, wherever the
    host version places it (before or after the next prompt). Returns all of req's blocks."""
    assert req is not None, f"no {what}"
    later = memory_blocks(req, after=mock.summary_text)
    assert any(all(m in b for m in markers) for b in later), (
        f"{what}: no block with {markers} after the summary; blocks after it: {later}")
    return memory_blocks(req)


def assert_offline(mock: MockAPI) -> None:
    assert mock.refused == [], f"requests tried to leave loopback: {mock.refused}"
    assert mock.errors == [], mock.errors


def assert_reminded_once(project: Project, mock: MockAPI, dialect: str) -> None:
    """(b): the reminder is in the request after the first tool result, and once only."""
    first = mock.request_after_tool(dialect, 0)
    second = mock.request_after_tool(dialect, 1)
    assert first is not None and second is not None, [
        (r.index, r.kind, r.reply and r.reply.kind) for r in mock.requests]
    assert REMIND in first, f"no post_edit reminder after the first edit:\n{first.json_text[-6000:]}"
    last = mock.main_requests(dialect)[-1]
    # Later requests replay the history: a second reminder would show up twice.
    assert last.json_text.count(REMIND) == 1, last.json_text[-6000:]
    assert len(project.log_matching("post_edit", "reminded the agent")) == 1, project.log()


# --------------------------------------------------------------------------
# Claude Code

CLAUDE_PINS = [C.VERSIONS["claude"][1], *C.ALSO.get("claude", [])]


@pytest.fixture(params=CLAUDE_PINS)
def claude_clis(request: pytest.FixtureRequest, clis: C.CLIs) -> C.CLIs:
    """The CLIs with `claude` at each pinned version in turn."""
    return dataclasses.replace(clis, claude=clis.pinned["claude"][request.param])


def claude(sandbox: C.Sandbox, mock: MockAPI, clis: C.CLIs, prompt: str,
           sid: str | None = None) -> subprocess.CompletedProcess[str]:
    proc = C.run_claude(sandbox.repo, sandbox.home, mock, C.claude_prompt(prompt, resume=sid),
                        clis=clis)
    ok(proc, mock)
    return proc


def test_claude_memory_and_reminder(claude_clis: C.CLIs, sandbox: C.Sandbox,
                                    mock_api: MockAPI) -> None:
    project = install(sandbox, "claude-code")
    project.make_stale()
    mock_api.script("claude", [write("app.py", "def get_user(uid):\n    return uid\n"),
                               edit("app.py", "return uid", "return int(uid)"),
                               text("Edited app.py.")])
    claude(sandbox, mock_api, claude_clis, "refactor get_user")

    assert_memory(mock_api.main_requests("claude")[0], "first Claude request")  # (a)
    assert_reminded_once(project, mock_api, "claude")  # (b)
    assert (sandbox.repo / "app.py").read_text() == "def get_user(uid):\n    return int(uid)\n"
    assert project.log_matching("pre_task", "memory loaded: tattoo=")
    assert_offline(mock_api)  # (d)


def test_claude_manual_compact_reloads_memory(claude_clis: C.CLIs, sandbox: C.Sandbox,
                                              mock_api: MockAPI) -> None:
    # Headless Claude Code 2.1.197 does not auto-compact (the mock's huge usage and
    # CLAUDE_AUTOCOMPACT_PCT_OVERRIDE are ignored), so this is a manual /compact:
    # PreCompact, the summary request, then SessionStart(compact).
    project = install(sandbox, "claude-code")
    mock_api.script("claude", [write("app.py", "x = 1\n"), text("Wrote app.py."),
                               text("Second answer.")])
    sid = C.session_id(claude(sandbox, mock_api, claude_clis, "write app.py"))
    claude(sandbox, mock_api, claude_clis, "second question", sid)  # /compact needs two turns
    claude(sandbox, mock_api, claude_clis, "/compact", sid)
    mock_api.script("claude", [text("Continuing.")])
    claude(sandbox, mock_api, claude_clis, "what next?", sid)

    assert len(mock_api.summary_requests("claude")) == 1
    after = mock_api.first_main_after_summary("claude")
    assert_memory_after_summary(after, mock_api, "first Claude request after /compact")  # (c)
    assert_memory(after, "first Claude request after /compact")
    assert project.log_matching("on_compact", "compaction announced by the host (PreCompact)")
    assert project.log_matching(
        "pre_task", "compaction detected (SessionStart source=compact); memory reloaded")
    # SessionStart(compact) already reloaded: on_compact must not reload a second time, neither
    # on PostCompact (which 2.1.197 fires after it) nor on the next prompt.
    assert project.log_matching("on_compact", "(PostCompact); memory was already reloaded"), project.log()
    assert not project.log_matching("on_compact", "compaction detected"), project.log()
    assert COMPACTED in after and RELOADED not in after, after.json_text[-6000:]
    assert_offline(mock_api)  # (d)


def test_claude_context_drop_from_transcript(claude_clis: C.CLIs, sandbox: C.Sandbox,
                                             mock_api: MockAPI) -> None:
    """on_compact reads the latest usage from the transcript Claude Code wrote."""
    project = install(sandbox, "claude-code")
    mock_api.script("claude", [text("Big context.", input_tokens=120_000),
                               text("Small context.", input_tokens=3_000),
                               text("After the drop.")])
    sid = C.session_id(claude(sandbox, mock_api, claude_clis, "first question"))
    # Prompt 2: the transcript's latest usage is 120000 (the baseline).
    claude(sandbox, mock_api, claude_clis, "second question", sid)
    assert not project.log_matching("on_compact", "compaction detected"), project.log()
    # Prompt 3: the latest usage is now 3000, a drop of more than drop_percent (40).
    claude(sandbox, mock_api, claude_clis, "third question", sid)

    assert project.log_matching(
        "on_compact", "compaction detected (context length dropped 120000 -> 3000)"), project.log()
    # The numbers came from the transcript Claude Code wrote (the CLI env has no
    # AGENT_CONTEXT_LEN): its assistant records carry the usage the mock reported.
    transcript = transcript_file(sandbox.home / ".claude" / "projects", f"{sid}.jsonl")
    assert '"input_tokens":120000' in transcript and '"input_tokens":3000' in transcript
    last = mock_api.main_requests("claude")[-1]
    assert RELOADED in last
    assert_memory(last, "Claude request after the drop")
    assert_offline(mock_api)


# --------------------------------------------------------------------------
# Codex


def codex(sandbox: C.Sandbox, mock: MockAPI, clis: C.CLIs, args: list[str],
          **config: object) -> subprocess.CompletedProcess[str]:
    proc = C.run_codex(sandbox.repo, sandbox.home, mock, args, clis=clis, **config)
    ok(proc, mock)
    return proc


def test_codex_memory_and_reminder(clis: C.CLIs, sandbox: C.Sandbox,
                                   mock_api: MockAPI) -> None:
    project = install(sandbox, "codex")
    project.make_stale()
    mock_api.script("codex", [write("app.py", "def get_user(uid):\n    return uid\n"),
                              edit("app.py", "return uid", "return int(uid)"),
                              text("Edited app.py.")])
    codex(sandbox, mock_api, clis, ["refactor get_user"])

    assert_memory(mock_api.main_requests("codex")[0], "first Codex request")  # (a)
    assert_reminded_once(project, mock_api, "codex")  # (b)
    assert (sandbox.repo / "app.py").read_text() == "def get_user(uid):\n    return int(uid)\n"
    assert project.log_matching("pre_task", "memory loaded: tattoo=")
    assert_offline(mock_api)  # (d)


def _estimate(block: str) -> int:
    """The block's tokens as the README documents the estimate, counted here."""
    wide = [sum(1 for c in ln if ord(c) >= 0x800) for ln in block.split("\n")]
    return sum(w + (len(ln) - w + 4) // 4 for w, ln in zip(wide, block.split("\n")))


def test_codex_block_stays_inline_with_a_large_budget(clis: C.CLIs, sandbox: C.Sandbox,
                                                      mock_api: MockAPI) -> None:
    """Codex moves hook output over ~2,500 tokens to a file: with budget_tokens 4000 and
    more memory than that (Chinese: a token a character, so the 10,000-character cap alone
    would let ~9,000 tokens through), the whole block still reaches the model inline."""
    project = install(sandbox, "codex")
    filler = "缓存层的键需要加上租户前缀以免数据串号"
    project.snapshot.write_text(SNAPSHOT + "".join(f"- [ ] step {i}: {filler}\n" for i in range(200)))
    (project.agent / "memory" / "notes.md").write_text(
        "".join(f"- note {i}: {filler}\n" for i in range(90)), encoding="utf-8")
    (project.agent / "config.yaml").write_text("budget_tokens: 4000\nnotes_count: 80\n")
    mock_api.script("codex", [text("Done.")])
    codex(sandbox, mock_api, clis, ["what is next?"])

    first = mock_api.main_requests("codex")[0]
    assert_memory(first, "first Codex request")
    blocks = memory_blocks(first)
    assert len(blocks) == 1 and RULE in blocks[0], blocks
    assert 1900 <= _estimate(blocks[0]) <= 2400, _estimate(blocks[0])
    assert "older notes left out for the budget" in blocks[0]
    assert project.log_matching("pre_task", "over what codex shows inline: kept to 2400")
    assert_offline(mock_api)


def test_codex_auto_compact_reloads_memory(clis: C.CLIs, sandbox: C.Sandbox,
                                           mock_api: MockAPI) -> None:
    project = install(sandbox, "codex")
    # A huge reported usage after the first tool call crosses the auto-compact limit.
    mock_api.script("codex", [write("app.py", "x = 1\n", input_tokens=900_000),
                              edit("app.py", "x = 1", "x = 2"), text("Edited.")])
    codex(sandbox, mock_api, clis, ["write app.py"], auto_compact_token_limit=5000)

    assert len(mock_api.summary_requests("codex")) == 1
    after = mock_api.first_main_after_summary("codex")
    assert after is not None and mock_api.summary_text in after
    assert_memory(after, "first Codex request after auto-compaction")  # (c)
    assert COMPACTED in after, after.json_text[-6000:]  # through SessionStart(compact)
    assert (sandbox.repo / "app.py").read_text() == "x = 2\n"
    assert project.log_matching("on_compact", "compaction announced by the host (PreCompact)")
    assert project.log_matching(
        "pre_task", "compaction detected (SessionStart source=compact); memory reloaded")
    assert_offline(mock_api)  # (d)


def test_codex_context_drop_from_transcript(clis: C.CLIs, sandbox: C.Sandbox,
                                            mock_api: MockAPI) -> None:
    """on_compact reads last_token_usage from the rollout file Codex wrote."""
    project = install(sandbox, "codex")
    mock_api.script("codex", [text("Big context.", input_tokens=120_000),
                              text("Small context.", input_tokens=3_000),
                              text("After the drop.")])
    first = codex(sandbox, mock_api, clis, ["first question"],
                  auto_compact_token_limit=10_000_000)
    sid = C.session_id(first)
    codex(sandbox, mock_api, clis, ["resume", sid, "second question"])
    assert not project.log_matching("on_compact", "compaction detected"), project.log()
    codex(sandbox, mock_api, clis, ["resume", sid, "third question"])

    assert project.log_matching(
        "on_compact", "compaction detected (context length dropped 120000 -> 3000)"), project.log()
    # The numbers came from the rollout file (the CLI env has no AGENT_CONTEXT_LEN).
    transcript = transcript_file(sandbox.home / ".codex" / "sessions", f"rollout-*{sid}.jsonl")
    assert re.search(r'"last_token_usage":\{"input_tokens":3000\b', transcript), transcript[-3000:]
    last = mock_api.main_requests("codex")[-1]
    assert RELOADED in last
    assert_memory(last, "Codex request after the drop")
    assert_offline(mock_api)


# --------------------------------------------------------------------------
# Gemini CLI


def gemini(sandbox: C.Sandbox, mock: MockAPI, clis: C.CLIs, prompt: str,
           sid: str | None = None) -> subprocess.CompletedProcess[str]:
    proc = C.run_gemini(sandbox.repo, sandbox.home, mock, C.gemini_prompt(prompt, resume=sid),
                        clis=clis)
    ok(proc, mock)
    return proc


def test_gemini_memory_and_reminder(clis: C.CLIs, sandbox: C.Sandbox,
                                    mock_api: MockAPI) -> None:
    project = install(sandbox, "gemini-cli")
    project.make_stale()
    C.setup_gemini_home(sandbox.home)
    mock_api.script("gemini", [write("app.py", "def get_user(uid):\n    return uid\n"),
                               edit("app.py", "return uid", "return int(uid)"),
                               text("Edited app.py.")])
    gemini(sandbox, mock_api, clis, "refactor get_user")

    assert_memory(mock_api.main_requests("gemini")[0], "first Gemini request")  # (a)
    assert_reminded_once(project, mock_api, "gemini")  # (b)
    assert (sandbox.repo / "app.py").read_text() == "def get_user(uid):\n    return int(uid)\n"
    assert project.log_matching("pre_task", "memory loaded: tattoo=")
    assert_offline(mock_api)  # (d)


def test_gemini_compression_reloads_memory(clis: C.CLIs, sandbox: C.Sandbox,
                                           mock_api: MockAPI) -> None:
    """Gemini CLI 0.61 has no post-compression event: SessionStart has no "compact"
    source, and PreCompress fires before every request (compressing or not) and its
    output never reaches the model.  So nothing can react *after* the compression
    within the turn that compresses.  What agenthooks can do runs on the per-prompt
    hook (BeforeAgent -> on_compact), whose context is part of the new user message
    and so survives the compression of the history before it:

    1. the periodic reload (reload_turns: 1 = every prompt) puts the memory into the
       compressing turn itself: BeforeAgent runs before the compression, so no signal
       of this turn's compression exists yet and only the periodic reload covers it;
    2. the transcript-derived signal: the chat file records the compressed history
       (a record holding the <state_snapshot> summary), so on_compact on the *next*
       prompt detects the compaction from the transcript.

    (The resumed runs here also fire SessionStart(resume), which reloads memory too;
    in an interactive session compression happens without any SessionStart, so the
    test checks for on_compact's own notice.)"""
    project = install(sandbox, "gemini-cli")
    project.set_config(reload_turns=1)
    # One turn never compresses (no split point); each resumed turn does.
    C.setup_gemini_home(sandbox.home, compression_threshold=0.0001)
    mock_api.script("gemini", [write("app.py", "x = 1\n"), text("Wrote it."),
                               text("Second answer."), text("Third answer.")])
    sid = C.session_id(gemini(sandbox, mock_api, clis, "write app.py"))
    assert mock_api.summary_requests("gemini") == []
    gemini(sandbox, mock_api, clis, "second question", sid)

    assert mock_api.summary_requests("gemini"), "Gemini did not compress the resumed turn"
    after = mock_api.first_main_after_summary("gemini")
    assert after is not None and mock_api.summary_text in after
    assert_memory(after, "first Gemini request after compression")  # (c)
    assert RELOADED in after, after.json_text[-6000:]  # on_compact's copy (BeforeAgent)
    assert project.log_matching("on_compact", "compaction detected (periodic reload after 1 prompts)")
    assert not project.log_matching("on_compact", "compaction record"), project.log()

    # The next prompt: the compaction is now visible in the transcript (this signal
    # takes precedence over the periodic one in the log line).
    gemini(sandbox, mock_api, clis, "third question", sid)
    assert project.log_matching(
        "on_compact", "compaction detected (a compaction record in the transcript)"), project.log()
    last = mock_api.main_requests("gemini")[-1]
    assert RELOADED in last and has_memory(last), last.json_text[-6000:]
    assert_offline(mock_api)  # (d)
