"""agenthooks rule / note (one line onto tattoo.md / notes.md) and agenthooks edit."""
from __future__ import annotations

import json
import os
from pathlib import Path

from support.helpers import cli, log_lines
from support.tree import tree


def mem(repo: Path, name: str) -> bytes:
    return (repo / f".agent/memory/{name}.md").read_bytes()


def test_rule_appends_a_bullet_and_nothing_else(repo: Path) -> None:
    before = mem(repo, "tattoo")
    proc = cli("rule", "Run   make lint before pushing", str(repo))
    assert proc.returncode == 0, proc.stderr
    assert mem(repo, "tattoo") == before + b"- Run make lint before pushing\n"
    assert "added to .agent/memory/tattoo.md: - Run make lint before pushing" in proc.stdout
    assert "rule: added to tattoo.md: - Run make lint before pushing" in log_lines(repo)[-1]
    assert cli("rule", "* Keep its own marker", str(repo)).returncode == 0
    assert mem(repo, "tattoo").endswith(b"\n* Keep its own marker\n")


def test_note_appends_to_notes(repo: Path) -> None:
    before = mem(repo, "notes")
    assert cli("note", "CI is flaky on Fridays", str(repo)).returncode == 0
    assert mem(repo, "notes") == before + b"- CI is flaky on Fridays\n"


def test_multi_line_and_secret_are_refused_with_exit_1(repo: Path) -> None:
    before = tree(repo, mtime=True)
    proc = cli("rule", "one\ntwo", str(repo))
    assert proc.returncode == 1
    assert proc.stderr.startswith("agenthooks: rule not written: more than one line")
    proc = cli("note", "token AKIAABCDEFGHIJKLMNOP", str(repo))
    assert proc.returncode == 1
    assert "note not written: looks like a secret (aws-access-key)" in proc.stderr
    assert "AKIA" not in proc.stdout + proc.stderr.replace("aws-access-key", "")
    assert cli("rule", "   ", str(repo)).returncode == 1
    assert tree(repo, mtime=True) == before


def test_an_empty_note_says_it_is_empty_not_a_word_of_secrets(repo: Path) -> None:
    before = tree(repo, mtime=True)
    for kind in ("note", "rule"):
        proc = cli(kind, "", str(repo))
        assert proc.returncode == 1
        assert proc.stderr.splitlines() == [f"agenthooks: {kind} not written: empty: nothing to write",
                                            f'hint: give the text to write: agenthooks {kind} "TEXT"']
    assert "secret" not in cli("note", "  ", str(repo)).stderr
    assert tree(repo, mtime=True) == before


def test_duplicate_is_not_written_twice(repo: Path) -> None:
    before = tree(repo, mtime=True)
    proc = cli("rule", "every API returns code, data, msg", str(repo))
    assert proc.returncode == 0
    assert "already in .agent/memory/tattoo.md: nothing was written" in proc.stdout
    assert tree(repo, mtime=True) == before
    note = cli("note", "Every API returns code data msg", str(repo))  # a rule, not yet a note
    assert note.returncode == 0 and "added to .agent/memory/notes.md" in note.stdout


def test_a_rule_that_contradicts_tattoo_is_refused_as_lint_would_err(repo: Path) -> None:
    before = tree(repo, mtime=True)
    proc = cli("rule", "Indent with tabs", str(repo))
    assert proc.returncode == 1
    assert proc.stderr.splitlines() == [
        "agenthooks: rule not written: it contradicts .agent/memory/tattoo.md:2: 'Indent with "
        "tabs' vs 'Indent with 4 spaces'; memory files must agree, fix one of them",
        "hint: take the other out first: agenthooks rule --remove 'Indent with 4 spaces, never tabs'"]
    assert tree(repo, mtime=True) == before
    # The snapshot's live sections bind as tattoo does (lint errs on them too).
    live = cli("rule", "never raise UserNotFound", str(repo))
    assert live.returncode == 1 and "contradicts .agent/memory/snapshot.md" in live.stderr
    # The hint, run as written, makes room for the new rule.
    hint = proc.stderr.splitlines()[1].removeprefix("hint: take the other out first: ")
    import shlex
    assert cli(*shlex.split(hint)[1:], str(repo)).returncode == 0
    assert cli("rule", "Indent with tabs", str(repo)).returncode == 0
    assert cli("lint", str(repo)).returncode == 0


def test_long_text_or_a_note_against_a_rule_is_written_with_a_warning(repo: Path) -> None:
    note = cli("note", "never indent with 4 spaces", str(repo))  # notes are checked against rules
    assert "warning: contradicts .agent/memory/tattoo.md:2" in note.stderr
    long = "Keep " + "very " * 90 + "short"
    proc = cli("rule", long, str(repo))
    assert proc.returncode == 0 and "characters long" in proc.stderr


def test_append_adds_a_missing_newline_and_keeps_crlf(repo: Path) -> None:
    p = repo / ".agent/memory/notes.md"
    p.write_bytes(b"# Notes\r\n- last line without newline")
    assert cli("note", "next", str(repo)).returncode == 0
    assert p.read_bytes() == b"# Notes\r\n- last line without newline\r\n- next\r\n"


def editor_script(tmp_path: Path) -> Path:
    out = tmp_path / "argv.json"
    script = tmp_path / "ed.py"
    script.write_text("import json, sys\n"
                      f"open({str(out)!r}, 'w').write(json.dumps(sys.argv[1:]))\n")
    return script


def test_edit_opens_visual_then_editor_on_the_memory_file(repo: Path, tmp_path: Path) -> None:
    script = editor_script(tmp_path)
    out = tmp_path / "argv.json"
    import sys
    env = {"VISUAL": "", "EDITOR": f"{sys.executable} {script} --flag"}
    assert cli("edit", "tattoo", str(repo), env=env).returncode == 0
    assert json.loads(out.read_text()) == ["--flag", str(repo / ".agent/memory/tattoo.md")]
    env = {"VISUAL": f"{sys.executable} {script} --visual", "EDITOR": "false"}
    assert cli("edit", "notes", str(repo), env=env).returncode == 0
    assert json.loads(out.read_text()) == ["--visual", str(repo / ".agent/memory/notes.md")]


def test_edit_defaults_to_tattoo_and_falls_back_to_vi(repo: Path, tmp_path: Path) -> None:
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    out = tmp_path / "vi-argv"
    vi = bin_ / "vi"
    vi.write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" > {out}\n')
    vi.chmod(0o755)
    env = {"VISUAL": "", "EDITOR": "", "PATH": f"{bin_}{os.pathsep}{os.environ['PATH']}"}
    assert cli("edit", cwd=repo, env=env).returncode == 0
    assert Path(out.read_text().strip()).resolve() == (repo / ".agent/memory/tattoo.md").resolve()


def test_edit_unknown_file_and_missing_editor(repo: Path) -> None:
    proc = cli("edit", "snapshots", str(repo))
    assert proc.returncode == 1 and "did you mean snapshot?" in proc.stderr
    proc = cli("edit", "notes", str(repo), env={"VISUAL": "no-such-editor-xyz"})
    assert proc.returncode == 1 and "cannot run editor 'no-such-editor-xyz'" in proc.stderr
