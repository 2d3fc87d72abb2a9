"""memory/parse.py: memory read the way the hooks' awk reads it, the config read the way
the hooks read it, and the hooks' token estimate."""
from __future__ import annotations

from pathlib import Path

import pytest

from agenthooks.errors import UserError
from agenthooks.memory import parse


def mem(tmp_path: Path, text: str) -> parse.MemFile:
    path = tmp_path / "m.md"
    path.write_bytes(text.encode("utf-8"))
    return parse.load_file(path, "m.md")


def test_read_lines_drops_bom_crlf_and_the_final_newline(tmp_path: Path) -> None:
    path = tmp_path / "x.md"
    path.write_bytes("\ufeffa\r\nb\n\nc".encode("utf-8"))
    assert parse.read_lines(path) == ["a", "b", "", "c"]
    path.write_bytes(b"")
    assert parse.read_lines(path) == []


def test_rules_skip_headings_blank_lines_and_html_comments(tmp_path: Path) -> None:
    mf = mem(tmp_path, "# Rules\n\n<!-- a\nmulti-line comment -->\n- one\n<!-- one line -->\n"
                       "#hashtag stays\n- two\n")
    assert [(ln.no, ln.text) for ln in parse.rules(mf)] == [(5, "- one"), (7, "#hashtag stays"),
                                                           (8, "- two")]


def test_an_unclosed_comment_hides_no_rule(tmp_path: Path) -> None:
    mf = mem(tmp_path, "# Rules\n<!-- a\n- hidden -->\n- one\n<!-- never closed\n- two\n# Title\n- three\n"
                       "\n- four\n<!-- to the end\n- five\n")
    assert [ln.text for ln in parse.rules(mf)] == ["- one", "- two", "- three", "- four", "- five"]
    assert [ln.no for ln, ok in parse.content_lines(mf.raw) if ok] == [1, 4, 10]  # as snapshot and notes read


@pytest.mark.parametrize("title, key", [
    ("Goal", "goal"), ("Goals:", "goal"), ("In progress", "progress"), ("in-progress", "progress"),
    ("Key decisions", "decisions"), ("Done", "done"), ("To do", "todo"), ("Next", "todo"),
    ("目标", "goal"), ("进行中：", "progress"), ("关键决策", "decisions"), ("Misc", "other"),
    ("Tried and failed", "failed"), ("Dead ends:", "failed"), ("已放弃", "failed"),
    ("Failed", "other"),
])
def test_section_key(title: str, key: str) -> None:
    assert parse.section_key(title) == key


def test_sections_collect_items_until_a_top_heading(tmp_path: Path) -> None:
    mf = mem(tmp_path, "# Snapshot\n## Goal\nship it\n\n## Done\n- a\n- b\n# Other\nloose\n"
                       "### Todo\n- c\n")
    got = [(s.key, s.title, s.line, [i.text for i in s.items]) for s in parse.sections(mf)]
    assert got == [("goal", "Goal", 2, ["ship it"]), ("done", "Done", 5, ["- a", "- b"]),
                   ("todo", "Todo", 10, ["- c"])]


def test_notes_are_the_content_lines_that_are_not_headings(tmp_path: Path) -> None:
    mf = mem(tmp_path, "# Notes\n<!-- hint -->\n- 2024 one\n\n- two\n")
    assert [ln.text for ln in parse.notes(mf)] == ["- 2024 one", "- two"]


@pytest.mark.parametrize("line, n", [("", 1), ("abc", 1), ("abcd", 2), ("a" * 8, 3),
                                     ("中文", 3), ("中文abcd", 4)])
def test_tokens_is_the_hooks_estimate(line: str, n: int) -> None:
    assert parse.tokens(line) == n


def test_text_tokens_sums_every_line() -> None:
    assert parse.text_tokens("abcd\n中文\n") == 2 + 3 + 1
    assert parse.text_tokens("") == 1


def test_chars_counts_utf16_units_and_the_newline() -> None:
    assert parse.chars("ab") == 3
    assert parse.chars("😀") == 3


def test_find_repo(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="no .agent/ in"):
        parse.find_repo(tmp_path)
    (tmp_path / ".agent/memory").mkdir(parents=True)
    (tmp_path / ".agent/memory/snapshot.md").write_text("## 目标\n做完\n", encoding="utf-8")
    repo = parse.find_repo(tmp_path)
    assert (repo.root, repo.lang, repo.frameworks) == (tmp_path.resolve(), "zh", [])
    assert repo.hook("pre_task") == tmp_path.resolve() / ".agent/hooks/pre_task.sh"
