"""The compaction shaped in the real Claude Code (both pins) against the mock: the /compact
summary request carries what the summary must keep (PreCompact's plain output), none of it at
summary_budget_tokens: 0; the first request after the compaction names the edited file and the
user's latest request; PostCompact's compact_summary is audited against the rules and In progress."""
from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

try:
    from . import clis as C
    from .hosts import Project, install
    from .mockapi import MockAPI, _texts, text, write
except ImportError:  # tests/e2e is not a package
    import clis as C  # type: ignore[no-redef]
    from hosts import Project, install  # type: ignore[no-redef]
    from mockapi import MockAPI, _texts, text, write  # type: ignore[no-redef]

pytestmark = pytest.mark.e2e

RULE = "E2E-RULE-7f3: never use tabs"
RULE2 = "E2E-RULE-9b2: every API returns code, data, msg"
PROGRESS = "E2E-PROGRESS-c41: refactor get_user"
REQUEST = "E2E-REQUEST-5d1: now add retries to app.py"
INSTRUCTIONS = "When you summarize this conversation, keep the following verbatim"
TATTOO = f"# Project hard rules\n- {RULE}\n- {RULE2}\n"
SNAPSHOT = ("# Current task snapshot\n\n## Goal\nmake user_service async\n\n## In progress\n"
            f"- [ ] {PROGRESS}\n\n## Key decisions\n- raise UserNotFound, never return None\n")

CLAUDE_PINS = [C.VERSIONS["claude"][1], *C.ALSO.get("claude", [])]


@pytest.fixture(params=CLAUDE_PINS)
def claude_clis(request: pytest.FixtureRequest, clis: C.CLIs) -> C.CLIs:
    return dataclasses.replace(clis, claude=clis.pinned["claude"][request.param])


def claude(sandbox: C.Sandbox, mock: MockAPI, clis: C.CLIs, prompt: str,
           sid: str | None = None) -> subprocess.CompletedProcess[str]:
    proc = C.run_claude(sandbox.repo, sandbox.home, mock, C.claude_prompt(prompt, resume=sid), clis=clis)
    assert proc.returncode == 0 and mock.errors == [], C.describe(proc, mock)
    return proc


def compact_session(sandbox: C.Sandbox, mock: MockAPI, clis: C.CLIs, **config: int) -> Project:
    """A session that writes app.py, is asked REQUEST, then /compact, then one more prompt."""
    project = install(sandbox, "claude-code")
    # One board, memory/snapshot.md (a new install's default is a board per branch).
    cfg = project.agent / "config.yaml"
    cfg.write_text(re.sub(r"(?m)^board: .*$", "board: shared", cfg.read_text(encoding="utf-8")), encoding="utf-8")
    (project.agent / "memory" / "tattoo.md").write_text(TATTOO, encoding="utf-8")
    project.snapshot.write_text(SNAPSHOT, encoding="utf-8")
    if config:
        project.set_config(**config)
    mock.script("claude", [write("app.py", "x = 1\n"), text("Wrote app.py."), text("Will do.")])
    sid = C.session_id(claude(sandbox, mock, clis, "write app.py"))
    claude(sandbox, mock, clis, REQUEST, sid)
    claude(sandbox, mock, clis, "/compact", sid)
    mock.script("claude", [text("Continuing.")])
    claude(sandbox, mock, clis, "what next?", sid)
    assert len(mock.summary_requests("claude")) == 1
    return project


def summary_request_text(mock: MockAPI) -> str:
    return "\n".join(_texts(mock.summary_requests("claude")[0].body))


def test_claude_summary_request_carries_what_to_keep(claude_clis: C.CLIs, sandbox: C.Sandbox,
                                                     mock_api: MockAPI) -> None:
    project = compact_session(sandbox, mock_api, claude_clis)
    asked = summary_request_text(mock_api)
    assert INSTRUCTIONS in asked, asked[-6000:]
    tail = asked[asked.index(INSTRUCTIONS):]
    for needle in (RULE, RULE2, PROGRESS, "raise UserNotFound", f"The user's latest request: {REQUEST}",
                   "The files being edited, latest last: app.py"):
        assert needle in tail, (needle, tail[:3000])
    assert project.log_matching("on_compact", "instructions for the host's summary: keep 2 of 2 rules"), project.log()
    # The first request after the compaction: the block names the edited file and the request.
    after = mock_api.first_main_after_summary("claude")
    assert after is not None
    joined = "\n".join(_texts(after.body))
    assert "Files you were editing, latest last: app.py" in joined, joined[-6000:]
    assert f"The user's latest request: {REQUEST}" in joined, joined[-6000:]
    assert mock_api.refused == [] and mock_api.errors == []


def test_claude_summary_request_carries_nothing_at_budget_zero(claude_clis: C.CLIs, sandbox: C.Sandbox,
                                                               mock_api: MockAPI) -> None:
    project = compact_session(sandbox, mock_api, claude_clis, summary_budget_tokens=0)
    asked = summary_request_text(mock_api)
    assert INSTRUCTIONS not in asked and "E2E-RULE-9b2" not in asked.split("CRITICAL")[-1]
    assert not project.log_matching("on_compact", "instructions for the host's summary"), project.log()


def agenthooks(project: Project, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The real CLI, with the sandbox's HOME (where Claude Code wrote its transcript)."""
    return subprocess.run([sys.executable, "-m", "agenthooks", *args, str(project.repo)],
                          capture_output=True, text=True, env={**os.environ, "HOME": str(home)})


@pytest.mark.parametrize("kept", [False, True])
def test_claude_post_compact_audits_the_summary(claude_clis: C.CLIs, sandbox: C.Sandbox,
                                                mock_api: MockAPI, kept: bool) -> None:
    mock_api.summary_text = (f"MOCK-SUMMARY: wrote app.py. Rules: {RULE}; {RULE2}. In progress: {PROGRESS}."
                             if kept else "MOCK-SUMMARY: the earlier conversation wrote app.py.")
    project = compact_session(sandbox, mock_api, claude_clis)
    audit = project.log_matching("on_compact", "summary audit:")
    assert len(audit) == 1, project.log()
    status = json.loads(agenthooks(project, sandbox.home, "status", "--json").stdout)
    audits = [a for s in status["sessions"] for a in s["summary_audits"]]
    assert len(audits) == 1 and audits[0]["rules"] == 2 and audits[0]["progress"] == 1, status
    verify = agenthooks(project, sandbox.home, "verify")
    said = [ln for ln in verify.stdout.splitlines() if "the host's summary at" in ln]
    assert len(said) == 1, verify.stdout + verify.stderr
    if kept:
        assert audit[0].endswith("kept 2 of 2 rules, 1 of 1 In progress items"), audit
        assert audits[0]["dropped_rules"] == [] and audits[0]["missing_progress"] == []
        assert said[0].startswith("  ok ") and said[0].endswith(": nothing missing"), said
    else:
        assert [r["n"] for r in audits[0]["dropped_rules"]] == [1, 2]
        assert audits[0]["missing_progress"] == [{"n": 1, "text": PROGRESS}]
        assert said[0].startswith("  note ") and f"In progress item 1 missing ({PROGRESS})" in said[0], said
        assert f"dropped rule 1 ({RULE})" in said[0] and "dropped rule 2" in said[0]
        text = agenthooks(project, sandbox.home, "status").stdout
        assert "compaction summary at " in text and f"In progress item 1 missing ({PROGRESS})" in text, text
        assert "kept 0 of 2 rules, 0 of 1 In progress items" in audit[0], audit
        assert 'dropped rule 1 "E2E-RULE-7f3: never use tabs"' in audit[0]
        assert "In progress item 1 missing" in audit[0]
        # The next prompt says it once, beside the block the SessionStart reload gave.
        last = mock_api.main_requests("claude")[-1]
        assert "the compaction summary left out rule 1" in last.json_text, last.json_text[-6000:]
