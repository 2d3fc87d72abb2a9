"""Comments never swallow memory: a comment ends at the first line holding --> and never
passes a blank line; an unclosed one hides no rule, and lint reports it."""
from __future__ import annotations

from pathlib import Path

import pytest

from support.claude_runs import ALL, context, repo_for, run
from support.helpers import SAMPLE_TATTOO, write_memory


# --- comments never swallow memory --------------------------------------------

@pytest.mark.parametrize("userland", ALL)
def test_a_note_holding_an_arrow_hides_nothing(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    write_memory(repo, notes="# n\n<!-- the template's comment -->\n- note one\n- note two\n"
                             "- map a --> b in the router\n- note four\n")
    block = context(run(repo, "pre_task", env, "", "--show").stdout)
    assert "latest 4 of 4" in block, block
    for note in ("- note one", "- note two", "- map a --> b in the router", "- note four"):
        assert note in block, note


@pytest.mark.parametrize("userland", ALL)
def test_an_unclosed_comment_hides_only_its_paragraph(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    write_memory(repo, tattoo="# Project hard rules\n<!-- Only rules whose violation means a\n"
                              "     rollback (the closing arrow was deleted)\n\n"
                              "- Indent with 4 spaces\n- Every API returns {code, data, msg}\n",
                 snapshot="## Goal\n<!-- the goal\n\n- ship it\n## In progress\n- the parser\n")
    block = context(run(repo, "pre_task", env, "", "--show").stdout)
    assert "no project rules yet" not in block, block
    assert "- Indent with 4 spaces" in block and "- Every API returns" in block, block
    assert "- ship it" in block and "- the parser" in block, block
    assert "rollback (the closing arrow" in block  # a tattoo's unclosed comment hides no line after it


@pytest.mark.parametrize("userland", ALL)
def test_an_unclosed_comment_in_tattoo_hides_no_rule(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    write_memory(repo, tattoo="# Project hard rules\n<!-- closed\n- inside a closed comment\n-->\n"
                              "- Rule one\n<!-- the arrow was deleted\n- Rule two\n- Rule three\n")
    block = context(run(repo, "pre_task", env, "", "--show").stdout)
    for rule in ("- Rule one", "- Rule two", "- Rule three"):
        assert rule in block, block
    assert "inside a closed comment" not in block, block


def test_lint_flags_comments_that_hide_memory(tmp_path: Path) -> None:
    from support.helpers import cli

    repo, _ = repo_for(tmp_path, "gnu")
    write_memory(repo, tattoo="# Project hard rules\n<!-- unclosed\n- hidden rule\n\n- Rule\n"
                              "<!-- closed --> - after the arrow\n")
    out = cli("lint", str(repo)).stdout
    assert (".agent/memory/tattoo.md:2: error: '<!--' is not closed by '-->' before the next blank "
            "line: lines 2-3 are loaded as rules") in out, out
    assert ".agent/memory/tattoo.md:6: warning: text after '-->'" in out, out
    write_memory(repo, tattoo=SAMPLE_TATTOO, notes="- a --> b\n")
    assert "'-->'" not in cli("lint", str(repo)).stdout  # an arrow in a note is text
