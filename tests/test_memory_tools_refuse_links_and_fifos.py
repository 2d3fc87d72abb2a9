"""Memory tools refuse links and FIFOs: rule, note, promote, import, archive, edit and simulate
refuse a linked .agent/, memory folder, memory file, log/ or memory.log in one line naming
it, never open a FIFO, and import reads no instruction file linked out of the repo."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from support.helpers import cli
from support.links_out import fake_home, first_line, installed_copy, link_out
from support.tree import tree


# --- the memory tools -------------------------------------------------------------------

def memory_argv(command: str, repo: Path) -> list[str]:
    r = str(repo)
    return {"rule": ["rule", "Keep it simple", r], "note": ["note", "a note", r],
            "promote": ["promote", r, "--yes", "--all"], "import": ["import", r, "--yes"],
            "archive": ["archive", r, "--force"], "edit": ["edit", "tattoo", r],
            "simulate": ["simulate", r]}[command]


COMMANDS = ("rule", "note", "promote", "import", "archive", "edit", "simulate")
MEMORY_LINKS = (".agent", ".agent/memory", ".agent/memory/tattoo.md", ".agent/memory/notes.md",
                ".agent/log", ".agent/log/memory.log")


# What a command neither reads to rewrite nor writes: a link there is none of its business.
UNTOUCHED = {("archive", ".agent/memory/tattoo.md"), ("rule", ".agent/memory/notes.md"),
             ("import", ".agent/memory/notes.md"), ("archive", ".agent/memory/notes.md"),
             ("edit", ".agent/memory/notes.md")}


def memory_repo(factory: pytest.TempPathFactory, tmp_path: Path) -> Path:
    repo = installed_copy(factory, tmp_path / "repo", "--framework", "claude-code")
    mem = repo / ".agent/memory"
    (mem / "notes.md").write_text("- retry the flaky test\n" * 3)
    (mem / "snapshot.md").write_text("# Snapshot\n## Goal\nShip\n## In progress\n- the CLI\n")
    (repo / "CLAUDE.md").write_text("# Rules\n- Use tabs for Makefiles\n")
    return repo


@pytest.mark.parametrize("rel", MEMORY_LINKS)
@pytest.mark.parametrize("command", COMMANDS)
def test_memory_tools_never_write_through_a_link(tmp_path_factory: pytest.TempPathFactory,
                                                 tmp_path: Path, command: str, rel: str) -> None:
    home = fake_home(tmp_path)
    repo = memory_repo(tmp_path_factory, tmp_path)
    link_out(repo, rel, home)
    before = tree(home)
    proc = cli(*memory_argv(command, repo), env={"VISUAL": "true", "EDITOR": "true"})
    if (command, rel) in UNTOUCHED:
        assert proc.returncode == 0, (command, rel, proc.stdout, proc.stderr)
    else:
        assert proc.returncode == 1, (command, rel, proc.stdout, proc.stderr)
        line = first_line(proc)
        assert f"{rel} is a link" in line and "nothing was written" in line or \
            "not archived" in line or "not started" in line or "not run" in line, line
    assert tree(home) == before


def test_note_never_creates_a_links_target(tmp_path_factory: pytest.TempPathFactory,
                                           tmp_path: Path) -> None:
    repo = memory_repo(tmp_path_factory, tmp_path)
    notes = repo / ".agent/memory/notes.md"
    notes.unlink()
    missing = tmp_path / "fakehome" / "created-through-link"
    notes.symlink_to(missing)
    proc = cli("note", "hello", str(repo))
    assert proc.returncode == 1 and "notes.md is a link" in proc.stderr, proc.stderr
    assert not missing.exists() and not missing.is_symlink()


@pytest.mark.parametrize("name", ["tattoo.md", "notes.md"])
@pytest.mark.parametrize("command", ["rule", "note", "promote", "import"])
def test_a_fifo_memory_file_is_refused_without_blocking(tmp_path_factory: pytest.TempPathFactory,
                                                         tmp_path: Path, command: str, name: str) -> None:
    import sys

    repo = memory_repo(tmp_path_factory, tmp_path)
    path = repo / ".agent/memory" / name
    path.unlink()
    os.mkfifo(path)
    try:
        proc = subprocess.run([sys.executable, "-m", "agenthooks", *memory_argv(command, repo)],
                              capture_output=True, text=True, timeout=20, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{command} blocked on a FIFO {name}")
    if (command, f".agent/memory/{name}") in UNTOUCHED:
        assert proc.returncode == 0, proc.stderr
        return
    assert proc.returncode == 1 and f"{name} is not a regular file" in proc.stderr, proc.stderr


def test_import_reads_no_instruction_file_outside_the_repo(tmp_path_factory: pytest.TempPathFactory,
                                                           tmp_path: Path) -> None:
    home = fake_home(tmp_path)
    repo = memory_repo(tmp_path_factory, tmp_path)
    (home / ".claude/CLAUDE.md").write_text("# Mine\n- My private rule from HOME\n")
    (repo / "CLAUDE.md").unlink()
    (repo / "CLAUDE.md").symlink_to(home / ".claude/CLAUDE.md")
    (repo / "docs").mkdir()
    (repo / "docs/agents.md").write_text("# Rules\n- Never commit a rule of the repo untested\n")
    (repo / "AGENTS.md").symlink_to("docs/agents.md")  # a link inside the repo is read
    proc = cli("import", str(repo), "--yes")
    assert proc.returncode == 0, proc.stderr
    tattoo = (repo / ".agent/memory/tattoo.md").read_text()
    assert "Never commit a rule of the repo untested" in tattoo and "My private rule" not in tattoo, proc.stdout
