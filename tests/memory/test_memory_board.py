"""agenthooks board: the progress board (snapshot.md) from the command line, one line at a
time, with the checks `rule` makes; an In progress item moves to Done."""
from __future__ import annotations

from pathlib import Path

import pytest

from support.helpers import SAMPLE_SNAPSHOT, cli, install, log_lines, make_repo, write_memory
from support.tree import tree

from agenthooks.memory import board, parse


def snap(repo: Path) -> str:
    return (repo / ".agent/memory/snapshot.md").read_text(encoding="utf-8")


def test_each_section_gets_its_line_at_its_end(repo: Path) -> None:
    for verb, text in (("goal", "Ship the async API"), ("doing", "Port get_orders"),
                       ("todo", "Benchmark the cache"), ("decide", "Pagination by cursor, not offset"),
                       ("tried", "Thread pool: deadlocked the event loop")):
        proc = cli("board", verb, text, str(repo))
        assert proc.returncode == 0, (verb, proc.stderr)
        assert " in .agent/memory/snapshot.md: " in proc.stdout
    secs = {s.key: [ln.text for ln in s.items] for s in parse.sections(parse.load_file(
        repo / ".agent/memory/snapshot.md", ""))}
    assert secs["goal"] == ["Refactor user_service to async", "- Ship the async API"]
    assert secs["progress"] == ["- [ ] service get_user (stuck on error handling)",
                                "- [ ] Port get_orders"]  # the section's own checkbox style
    assert secs["todo"] == ["- cache layer", "- Benchmark the cache"]
    assert secs["decisions"][-1] == "- Pagination by cursor, not offset"
    assert secs["failed"] == ["- Thread pool: deadlocked the event loop"]  # section added
    assert snap(repo).endswith("\n\n## Tried and failed\n- Thread pool: deadlocked the event loop\n")
    assert "board: added to In progress: - [ ] Port get_orders" in log_lines(repo)[1]
    assert cli("lint", str(repo)).returncode == 0


def test_done_moves_an_in_progress_item_by_number_or_words(repo: Path) -> None:
    assert cli("board", "doing", "Port get_orders", str(repo)).returncode == 0
    listing = cli("board", "list", str(repo)).stdout
    assert "    1. service get_user (stuck on error handling)\n    2. Port get_orders\n" in listing
    proc = cli("board", "done", "2", str(repo))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "moved to Done: - [x] Port get_orders\n"
    proc = cli("board", "done", "service get_user", str(repo))  # its words (a unique part)
    assert proc.returncode == 0 and "moved to Done" in proc.stdout
    secs = {s.key: [ln.text for ln in s.items] for s in parse.sections(parse.load_file(
        repo / ".agent/memory/snapshot.md", ""))}
    assert secs["progress"] == []
    assert secs["done"][-2:] == ["- [x] Port get_orders",
                                 "- [x] service get_user (stuck on error handling)"]
    other = cli("board", "done", "Wrote the migration guide", str(repo))  # not in progress: added
    assert other.returncode == 0 and "added to Done" in other.stdout
    missing = cli("board", "done", "7", str(repo))
    assert missing.returncode == 1 and "In progress has no item 7" in missing.stderr


def test_the_checks_of_rule_apply(repo: Path) -> None:
    before = tree(repo, mtime=True)
    secret = cli("board", "decide", "deploy key AKIAABCDEFGHIJKLMNOP", str(repo))
    assert secret.returncode == 1 and "looks like a secret" in secret.stderr
    two = cli("board", "doing", "one\ntwo", str(repo))
    assert two.returncode == 1 and "more than one line" in two.stderr
    empty = cli("board", "todo", "", str(repo))
    assert empty.returncode == 1 and "empty" in empty.stderr
    clash = cli("board", "decide", "Indent with tabs", str(repo))  # against tattoo.md
    assert clash.returncode == 1 and "contradicts .agent/memory/tattoo.md:2" in clash.stderr
    assert tree(repo, mtime=True) == before
    dup = cli("board", "todo", "Cache layer.", str(repo))
    assert dup.returncode == 0 and "already on the board" in dup.stdout
    assert tree(repo, mtime=True) == before
    # History is no rule: Tried and failed may say what a rule forbids.
    assert cli("board", "tried", "Indent with tabs: the linter rejected it", str(repo)).returncode == 0


def test_crlf_bom_and_a_missing_final_newline_are_kept(repo: Path) -> None:
    path = repo / ".agent/memory/snapshot.md"
    path.write_bytes(b"\xef\xbb\xbf# Snapshot\r\n\r\n## Goal\r\nX\r\n\r\n## In progress\r\n- a")
    assert cli("board", "doing", "b", str(repo)).returncode == 0
    assert cli("board", "decide", "c", str(repo)).returncode == 0
    assert path.read_bytes() == (b"\xef\xbb\xbf# Snapshot\r\n\r\n## Goal\r\nX\r\n\r\n"
                                 b"## In progress\r\n- a\r\n- b\r\n\r\n## Key decisions\r\n- c\r\n")


def test_chinese_headings(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--lang", "zh")
    assert cli("board", "doing", "迁移 get_orders", str(repo)).returncode == 0
    assert cli("board", "done", "1", str(repo)).returncode == 0
    text = snap(repo)
    assert "## 已完成\n- 迁移 get_orders\n" in text and "## 进行中\n\n" in text


def test_never_through_a_link(repo: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.md"
    outside.write_text(SAMPLE_SNAPSHOT)
    path = repo / ".agent/memory/snapshot.md"
    path.unlink()
    path.symlink_to(outside)
    proc = cli("board", "doing", "x", str(repo))
    assert proc.returncode == 1 and "is a link" in proc.stderr
    assert outside.read_text() == SAMPLE_SNAPSHOT


def test_the_board_file_is_resolved_in_one_place(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    other = repo / ".agent/memory/board-main.md"
    other.write_text(SAMPLE_SNAPSHOT)
    monkeypatch.setattr(board, "board_file", lambda r: other)
    placed = board.add(parse.find_repo(repo), "doing", "Elsewhere")
    assert placed is not None and "- [ ] Elsewhere" in other.read_text()
    assert "Elsewhere" not in snap(repo)
    assert any("Elsewhere" in ln for ln in board.listing(parse.find_repo(repo)))


def test_bare_board_lists(repo: Path) -> None:
    proc = cli("board", cwd=repo)
    assert proc.returncode == 0 and proc.stdout.startswith(".agent/memory/snapshot.md:\n  Goal\n")
    write_memory(repo, snapshot="# empty\n")
    assert cli("board", "doing", "first", str(repo)).returncode == 0
    assert snap(repo) == "# empty\n\n## In progress\n- first\n"
