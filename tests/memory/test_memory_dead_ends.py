"""Tried and failed (已放弃), the snapshot's optional section of rejected approaches, as the
Python tools read it: lint, show --json, simulate."""
from __future__ import annotations

import json
from pathlib import Path

from support.helpers import SAMPLE_SNAPSHOT, cli, install, make_repo, write_memory

from agenthooks.memory import parse


def with_failed(*entries: str, title: str = "Tried and failed") -> str:
    return SAMPLE_SNAPSHOT + f"\n## {title}\n<!-- hint -->\n" + "".join(f"{e}\n" for e in entries)


def findings(repo: Path) -> list[str]:
    proc = cli("lint", str(repo))
    return [s for s in proc.stdout.splitlines() if ": error: " in s or ": warning: " in s]


def test_the_section_is_optional_and_a_few_short_entries_are_clean(repo: Path) -> None:
    assert findings(repo) == []  # SAMPLE_SNAPSHOT has no such section: still valid
    write_memory(repo, snapshot=with_failed("- redis locks: deadlock under pytest-xdist",
                                            "- mocking the clock: hid the retry bug"))
    assert findings(repo) == []


def test_more_entries_than_the_block_carries_is_a_warning_on_the_oldest(repo: Path) -> None:
    write_memory(repo, snapshot=with_failed(*(f"- approach {i}: too slow" for i in range(5))))
    out = findings(repo)
    first = SAMPLE_SNAPSHOT.count("\n") + 4  # the heading, the hint, then the entries
    assert out == [f".agent/memory/snapshot.md:{first}: warning: 'Tried and failed' has 5 entries: "
                   f"the agent sees only the latest {parse.FAILED_SHOWN}, the 2 older ones (from "
                   "this line) never reach it: delete them, or move one that still binds to Key "
                   "decisions"], out
    assert cli("lint", str(repo)).returncode == 0


def test_a_long_entry_is_a_warning(repo: Path) -> None:
    write_memory(repo, snapshot=with_failed("- short one", "- " + "why " * 120))
    out = findings(repo)
    assert len(out) == 1 and ": warning: entry is 482 characters long: one short line" in out[0], out


def test_zh_heading_and_message(tmp_path: Path) -> None:
    r = make_repo(tmp_path)
    install(r, "--lang", "zh")
    snap = (r / ".agent/memory/snapshot.md").read_text()
    assert "\n## 已放弃\n" in snap and findings(r) == []
    write_memory(r, snapshot=snap + "".join(f"- 方案 {i}：太慢\n" for i in range(4)))
    out = findings(r)
    assert len(out) == 1 and "warning: '已放弃' 有 4 条：agent 只看到最近 3 条，较早的 1 条" in out[0], out


def test_a_dead_end_contradicts_no_rule(repo: Path) -> None:
    # "use tabs" here says it was tried and dropped: the tattoo's "never tabs" agrees.
    write_memory(repo, snapshot=with_failed("- use tabs in the generated files: the linter broke"))
    assert findings(repo) == []
    write_memory(repo, snapshot=SAMPLE_SNAPSHOT.replace(
        "## Key decisions\n", "## Key decisions\n- use tabs in the generated files\n"))
    assert any("contradicts" in s for s in findings(repo))  # the same line as a decision does


def test_show_json_carries_the_section(repo: Path) -> None:
    write_memory(repo, snapshot=with_failed("- redis locks: deadlock", title="Dead ends"))
    data = json.loads(cli("show", "--json", str(repo)).stdout)
    secs = {s["key"]: s for s in data["snapshot"]["sections"]}
    assert secs["failed"]["title"] == "Dead ends"
    assert [i["text"] for i in secs["failed"]["items"]] == ["- redis locks: deadlock"]


def test_simulate_says_what_of_the_section_came_back(repo: Path) -> None:
    write_memory(repo, snapshot=with_failed("- redis locks: deadlock"))
    out = cli("simulate", str(repo)).stdout
    assert "  Tried and failed (" in out and " of 1 lines):" in out, out
    write_memory(repo, snapshot=SAMPLE_SNAPSHOT)
    assert "Tried and failed" not in cli("simulate", str(repo)).stdout
