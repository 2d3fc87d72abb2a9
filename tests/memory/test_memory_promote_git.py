"""agenthooks promote (R25) and git-friendly memory (R27)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from support.tree import tree
from support.helpers import cli, git, log_lines, run_hook, write_memory

from agenthooks.memory import parse, promote

NOTES = ("# Scratch notes\n- Run make lint before pushing\n- redis on 6380\n"
         "- run make lint, before pushing!\n- 提交前运行 make lint。\n- RUN  MAKE LINT BEFORE PUSHING\n"
         "- 提交前 运行 make lint\n- 提交前运行make lint；\n- every API returns code, data, msg\n"
         "- Every API returns {code, data, msg}.\n- EVERY API RETURNS CODE DATA MSG\n")


def test_normalisation_en_and_zh() -> None:
    assert promote.key("- Run make lint, before pushing!") == promote.key("RUN  MAKE LINT BEFORE PUSHING")
    assert promote.key("- 提交前运行 make lint。") == promote.key("* 提交前 运行 make lint；")
    assert promote.key("（注意）缓存，端口") == promote.key("注意 缓存 端口")


def test_candidates_with_counts(repo: Path) -> None:
    write_memory(repo, notes=NOTES)
    proc = cli("promote", str(repo), "--list")
    assert proc.returncode == 0
    assert "3x  Run make lint before pushing" in proc.stdout
    assert "3x  提交前运行 make lint。" in proc.stdout
    assert "redis" not in proc.stdout
    assert "(already in tattoo.md)" in proc.stdout  # every API returns ... (sample tattoo)


def test_no_tty_without_yes_exits_2_and_writes_nothing(repo: Path) -> None:
    write_memory(repo, notes=NOTES)
    before = tree(repo, mtime=True)
    proc = cli("promote", str(repo))
    assert proc.returncode == 2
    assert "agenthooks: no terminal" in proc.stderr and "--yes --all" in proc.stderr
    assert tree(repo, mtime=True) == before
    assert cli("promote", str(repo), "--yes").returncode == 2
    assert tree(repo, mtime=True) == before


def test_yes_all_moves_notes_to_tattoo_without_duplicates(repo: Path) -> None:
    write_memory(repo, notes=NOTES)
    proc = cli("promote", str(repo), "--yes", "--all")
    assert proc.returncode == 0, proc.stderr
    tattoo = (repo / ".agent/memory/tattoo.md").read_text()
    assert tattoo.endswith("- Run make lint before pushing\n- 提交前运行 make lint。\n")
    assert tattoo.lower().count("every api returns") == 1  # never duplicated
    notes = (repo / ".agent/memory/notes.md").read_text()
    assert notes == "# Scratch notes\n- redis on 6380\n"
    line = log_lines(repo)[-1]
    assert re.match(r"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\] promote: moved 3 recurring note\(s\) "
                    r"to tattoo.md \(2 new rule\(s\), 9 note line\(s\) removed\)", line), line
    # Idempotent: nothing left to promote, and lint is still clean.
    assert "nothing to promote" in cli("promote", str(repo), "--yes", "--all").stdout
    assert cli("lint", str(repo)).returncode == 0


def test_questionary_checkbox_for_real(repo: Path) -> None:
    write_memory(repo, notes=NOTES)
    r = parse.find_repo(repo)

    def picker(cands):  # the real questionary checkbox on a pipe
        with create_pipe_input() as inp:
            # Down to the 2nd candidate, toggle it, enter.
            inp.send_text("\x1b[B \r")
            return promote.ask_checkbox(cands, input=inp, output=DummyOutput())

    echo: list[str] = []
    rc = promote.run(repo, yes=False, all_=False, min_count=3, list_only=False,
                     echo=echo.append, tty=True, picker=picker)
    assert rc == 0
    left = [c.text for c in promote.candidates(r)]  # the unpicked ones stay in notes
    assert left == ["Run make lint before pushing", "every API returns code, data, msg"]
    tattoo = (repo / ".agent/memory/tattoo.md").read_text()
    notes = (repo / ".agent/memory/notes.md").read_text()
    picked = [s for s in echo if s.startswith("added to tattoo.md: ")]
    assert len(picked) == 1
    rule = picked[0].split(": ", 1)[1]
    assert rule == "- 提交前运行 make lint。"
    assert tattoo.endswith(rule + "\n")
    assert sum(promote.key(s) == promote.key(rule) for s in notes.splitlines()) == 0


def test_questionary_cancel_writes_nothing(repo: Path) -> None:
    write_memory(repo, notes=NOTES)
    before = tree(repo, mtime=True)

    def picker(cands):
        with create_pipe_input() as inp:
            inp.send_text("\x03")  # Ctrl-C
            return promote.ask_checkbox(cands, input=inp, output=DummyOutput())

    with pytest.raises(KeyboardInterrupt):
        promote.run(repo, yes=False, all_=False, min_count=3, list_only=False,
                    echo=lambda s: None, tty=True, picker=picker)
    assert tree(repo, mtime=True) == before


# --- git ---------------------------------------------------------------------------------

def _commit_all(repo: Path, msg: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", msg)


def test_notes_merge_by_union(repo: Path) -> None:
    assert "memory/notes.md merge=union" in (repo / ".agent/.gitattributes").read_text()
    _commit_all(repo, "memory")
    base = git(repo, "rev-parse", "--abbrev-ref", "HEAD").stdout.strip()
    git(repo, "checkout", "-q", "-b", "a")
    notes = repo / ".agent/memory/notes.md"
    notes.write_text(notes.read_text() + "- note from branch a\n")
    _commit_all(repo, "a")
    git(repo, "checkout", "-q", base)
    git(repo, "checkout", "-q", "-b", "b")
    notes.write_text(notes.read_text() + "- note from branch b\n")
    _commit_all(repo, "b")
    merged = git(repo, "merge", "--no-edit", "a", check=False)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    text = notes.read_text()
    assert "- note from branch a\n" in text and "- note from branch b\n" in text
    assert "<<<<<<<" not in text
    assert git(repo, "status", "--porcelain").stdout == ""


def test_runtime_files_never_show_in_git_status(repo: Path) -> None:
    _commit_all(repo, "install")
    sid = {"session_id": "s1"}
    run_hook(repo, "pre_task", {**sid, "hook_event_name": "SessionStart"})
    snap = repo / ".agent/memory/snapshot.md"
    import os
    os.utime(snap, (1, 1))
    run_hook(repo, "post_edit", {**sid, "tool_input": {"file_path": "x.py"}})
    run_hook(repo, "on_compact", {**sid, "hook_event_name": "PreCompact"})
    run_hook(repo, "on_compact", {**sid, "prompt": "go"}, env={"AGENT_CONTEXT_LEN": "100"})
    run_hook(repo, "pre_task", {**sid, "source": "compact"})
    run_hook(repo, "pre_task", "", "--show")
    for cmd in (["show"], ["show", "--json"], ["lint"], ["simulate"]):
        cli(*cmd, str(repo))
    assert (repo / ".agent/injected_context.txt").exists()
    assert list((repo / ".agent/log/state").iterdir())
    assert git(repo, "status", "--porcelain", "--untracked-files=all").stdout == ""
    # Committed memory changes are the only thing that shows up.
    write_memory(repo, notes="- new note\n")
    assert cli("archive", str(repo)).returncode == 0
    status = git(repo, "status", "--porcelain", "--untracked-files=all").stdout.splitlines()
    assert sorted(s[3:] for s in status) == sorted(
        [".agent/memory/notes.md", ".agent/memory/snapshot.md"]
        + [str(p.relative_to(repo)) for p in (repo / ".agent/memory/archive").iterdir()])
