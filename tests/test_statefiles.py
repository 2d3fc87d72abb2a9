"""The hooks' state files round-trip: the real hooks write each one (bash), the declaration
in agenthooks/statefiles.py reads it back field by field (Python), and the values are the
ones the run had."""
from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest

from agenthooks import config, health, render, statefiles
from support.helpers import SAMPLE_SNAPSHOT, SAMPLE_TATTOO, install, log_lines, make_repo, run_hook, \
    write_memory

STATE = Path(".agent/log/state")
START = {"session_id": "rt", "hook_event_name": "SessionStart", "source": "startup"}
PROMPT = {"session_id": "rt", "hook_event_name": "UserPromptSubmit", "prompt": "go"}


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    r = make_repo(tmp_path)
    install(r, "--framework", "claude-code")
    write_memory(r, tattoo=SAMPLE_TATTOO, snapshot=SAMPLE_SNAPSHOT, notes="- n1\n- n2\n")
    return r


def hook(repo: Path, name: str, stdin: dict, **env: str) -> None:  # type: ignore[type-arg]
    proc = run_hook(repo, name, stdin, "claude-code", env={"CLAUDECODE": "1", **env})
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr


def test_config_values_round_trip(repo: Path) -> None:
    (repo / ".agent/config.yaml").write_text(
        "budget_tokens: 777\nnotes_count: 4\nsummary_markers: 'one|two words'\n")
    hook(repo, "pre_task", START)
    head, markers = (repo / STATE / "config.values").read_text().split("\n")[:2]
    got = statefiles.config_values(render.TEMPLATE_REVS["hooks/pre_task.sh"]).parse(head)
    assert got is not None and got["BUDGET"] == "777" and got["NOTES"] == "4"
    assert got["ENABLED"] == "1" and markers == "one|two words"
    assert got["FRESH"] == str(config.DEFAULTS["fresh_after_compactions"])
    # Another release's tag is not this release's format.
    assert statefiles.config_values(1).parse(head) is None


def test_block_figures_round_trip(repo: Path) -> None:
    hook(repo, "pre_task", START)
    last = statefiles.LAST.parse((repo / STATE / "last.block").read_text())
    block = statefiles.BLOCK.parse((repo / STATE / "block.stats").read_text())
    assert last and block and last["budget"] == block["build_budget"] == "500"
    assert last["figures"] == block["figures"]
    figures = statefiles.STATS.parse(block["figures"])
    assert figures is not None
    m = re.search(r"tattoo=(\d+) lines .*notes=(\d+)/(\d+), ~(\d+) tokens of 500, (\d+) chars",
                  log_lines(repo)[-1])
    assert m, log_lines(repo)[-1]
    assert (figures["tattoo"], figures["notes_shown"], figures["notes"], figures["tokens"],
            figures["chars"]) == m.groups()
    published = (repo / ".agent/injected_context.txt").read_text()
    assert block["chars"] == str(len(published)) and block["notes"] == "5"
    assert health.block_stats(repo / ".agent") == {
        "tokens": int(figures["tokens"]), "budget": 500, "chars": int(figures["chars"])}


def test_state_and_count_round_trip(repo: Path) -> None:
    hook(repo, "on_compact", PROMPT, AGENT_CONTEXT_LEN="90000")
    hook(repo, "on_compact", PROMPT, AGENT_CONTEXT_LEN="91000")
    lines = (repo / STATE / "rt.state").read_text().splitlines()
    last = statefiles.STATE.parse(lines[-1])
    assert last == {"turn": "2", "length": "91000", "pending": "-", "boundary": "-", "sync": "0",
                    "flushed": "0"}
    assert health._state_turn(repo / ".agent", "rt") == 2
    hook(repo, "on_compact", {**PROMPT, "hook_event_name": "PreCompact"})
    assert statefiles.STATE.parse((repo / STATE / "rt.state").read_text().splitlines()[-1])["pending"] \
        == "pending"
    hook(repo, "on_compact", PROMPT, AGENT_CONTEXT_LEN="3000")
    assert statefiles.COUNT.parse((repo / STATE / "rt.count").read_text()) == {"compactions": "1"}
    assert statefiles.STATE.parse((repo / STATE / "rt.state").read_text().splitlines()[-1])["turn"] == "0"


def test_remind_round_trip(repo: Path) -> None:
    snap = repo / ".agent/memory/snapshot.md"
    old = time.time() - 3600
    os.utime(snap, (old, old))
    before = int(time.time())
    hook(repo, "post_edit", {"session_id": "rt", "hook_event_name": "PostToolUse",
                             "tool_input": {"file_path": str(repo / "a.py")}})
    got = statefiles.REMIND.parse((repo / STATE / "rt.remind").read_text())
    assert got and got["snapshot_time"] == str(int(old)) and int(got["reminded"]) >= before
    assert int(got["edited"]) >= before


def test_a_past_release_line_still_parses_with_the_added_field_empty(repo: Path) -> None:
    assert statefiles.STATE.parse("v1 3 90000 - - 0") == {
        "turn": "3", "length": "90000", "pending": "-", "boundary": "-", "sync": "0", "flushed": ""}
    assert statefiles.STATE.parse("v1 3 90000 - -") is None
    assert statefiles.REMIND.parse("100 0") == {"snapshot_time": "100", "reminded": "0", "edited": ""}
    # And the hooks read one: a past release's state line, then a flush at the threshold.
    (repo / STATE).mkdir(parents=True, exist_ok=True)
    (repo / STATE / "rt.state").write_text("v1 3 90000 - - 0\n")
    out = run_hook(repo, "on_compact", PROMPT, "claude-code", env={"AGENT_CONTEXT_LEN": "160000"}).stdout
    assert "context is 80% full" in out
    last = statefiles.STATE.parse((repo / STATE / "rt.state").read_text().splitlines()[-1])
    assert last and last["turn"] == "4" and int(last["flushed"]) > 0


def test_every_log_line_the_hooks_wrote_parses(repo: Path) -> None:
    hook(repo, "pre_task", START)
    hook(repo, "on_compact", PROMPT, AGENT_CONTEXT_LEN="junk")
    lines = log_lines(repo)
    assert len(lines) >= 2
    parsed = [statefiles.LOG.parse(ln) for ln in lines]
    assert all(parsed), lines
    assert {p["hook"] for p in parsed if p} == {"pre_task", "on_compact"}
    assert all(p["framework"] == "claude-code" and p["session"] == "rt" for p in parsed if p)


def test_the_declarations_render_the_bash_side() -> None:
    """A field added to a declaration reaches the bash writer and reader: both come from it."""
    text = "\n".join(pf.text for pf in render.plan({"platforms": ["linux"], "frameworks": ["claude-code"],
                                                   "lang": "en", "budget_tokens": 500}))
    def writes(fmt: statefiles.Format | statefiles.LogFormat) -> bool:
        return re.search(r"printf -v \w+ " + re.escape(fmt.printf), text) is not None

    reads = [f'printf -v "${{_prefix}}{field}"' in text for field in statefiles.STATE.fields]
    assert writes(statefiles.STATE) and all(reads), reads
    assert f"set -- {statefiles.STATE.tag} {' '.join(statefiles.STATE.defaults)}" in text
    assert writes(statefiles.REMIND) and writes(statefiles.LAST) and writes(statefiles.WINDOW)
    assert writes(statefiles.BLOCK) and writes(statefiles.LOG)
