"""The published block as a cache (templates/hooks/_cache.sh.j2): a session start with
unchanged memory prints injected_context.txt as it stands, and anything that could change the
block makes pre_task build it again."""
from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest

from agenthooks import statefiles

from support.helpers import (SAMPLE_SNAPSHOT, SAMPLE_TATTOO, backdate, install, log_lines, make_repo,
                     run_hook, write_memory)

START = json.dumps({"session_id": "s", "hook_event_name": "SessionStart", "source": "startup"})
STATS = ".agent/log/state/block.stats"


def cached(repo: Path) -> bool:
    """Would the next pre_task print the published block as it stands?"""
    stats = (repo / STATS)
    return stats.is_file() and statefiles.BLOCK.parse(stats.read_text()) is not None


def built(repo: Path, *args: str, home: Path | None = None) -> str:
    """A run that had to build: the figures are rewritten after it."""
    backdate(repo)
    env = {"HOME": str(home)} if home else None
    proc = run_hook(repo, "pre_task", START, *args, env=env)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    return proc.stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code", "--framework", "codex", "--framework", "cursor",
            "--platform", "linux")
    write_memory(repo, tattoo=SAMPLE_TATTOO, snapshot=SAMPLE_SNAPSHOT, notes="- first\n")
    return repo


@pytest.mark.parametrize("framework", ["generic", "claude-code", "codex", "cursor"])
def test_the_cached_block_is_the_built_one_byte_for_byte(repo: Path, framework: str) -> None:
    first = built(repo, framework)
    assert cached(repo)
    log = len(log_lines(repo))
    stamp = (repo / STATS).stat().st_mtime_ns
    again = run_hook(repo, "pre_task", START, framework)
    assert again.stdout == first
    assert (repo / STATS).stat().st_mtime_ns == stamp  # printed from the cache: no build
    # The audit line is the build's, word for word.
    lines = log_lines(repo)
    assert len(lines) == log + 1 and lines[-1].split("] ", 1)[1] == lines[-2].split("] ", 1)[1]


def test_every_memory_edit_shows_at_the_next_start(repo: Path) -> None:
    """Edits right after a build (same clock tick) must never leave the old block in place."""
    for i in range(12):
        write_memory(repo, notes=f"- note number {i}\n")
        out = run_hook(repo, "pre_task", START).stdout
        assert f"note number {i}" in out, (i, out)
        assert f"note number {i}" in (repo / ".agent/injected_context.txt").read_text()


@pytest.mark.parametrize("change", ["nothing", "tattoo", "snapshot", "notes", "new file",
                                    "removed file", "builder", "stats", "block"])
def test_a_change_makes_it_build_again(repo: Path, change: str) -> None:
    built(repo)
    assert cached(repo)
    stats = repo / STATS
    before = stats.stat().st_mtime_ns
    mem = repo / ".agent/memory"
    later = time.time() + 5
    want = "first"
    if change in ("tattoo", "snapshot", "notes"):
        path = mem / f"{change}.md"
        path.write_text(path.read_text() + "- added by hand\n")
        os.utime(path, (later, later))
        want = "added by hand"
    elif change == "new file":
        (mem / "archive").mkdir()
        os.utime(mem, (later, later))
    elif change == "removed file":
        (mem / "notes.md").unlink()
        want = "(no notes"
    elif change == "builder":
        awk = repo / ".agent/hooks/lib/clean.awk"
        os.utime(awk, (later, later))
    elif change == "stats":
        stats.write_text("garbage\n")
        before = stats.stat().st_mtime_ns
    elif change == "block":
        # Another hook published a different block since the figures were written.
        block = repo / ".agent/injected_context.txt"
        block.write_text(block.read_text().replace("first", "FIRST-EDITED"))
    out = run_hook(repo, "pre_task", START).stdout
    rebuilt = stats.stat().st_mtime_ns != before
    assert rebuilt == (change != "nothing")
    assert "FIRST-EDITED" not in out
    if change != "removed file":
        assert want in out
    else:
        assert not (mem / "notes.md").exists() and "has no notes.md" in out
    assert "memory loaded" in log_lines(repo)[-1]


def test_user_rules_appearing_or_going_rebuild(repo: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    built(repo, home=home)
    assert cached(repo)
    user = home / ".agent/memory/tattoo.md"
    user.parent.mkdir(parents=True)
    user.write_text("- user rule: answer in English\n")
    past = time.time() - 120
    os.utime(user, (past, past))  # older than the build: only its presence is new
    out = run_hook(repo, "pre_task", START, env={"HOME": str(home)}).stdout
    assert "user rule: answer in English" in out
    built(repo, home=home)
    user.unlink()
    out = run_hook(repo, "pre_task", START, env={"HOME": str(home)}).stdout
    assert "user rule" not in out


def test_a_reload_notice_is_never_served_to_a_plain_start(repo: Path) -> None:
    plain = built(repo)
    compact = json.dumps({"session_id": "s", "hook_event_name": "SessionStart", "source": "compact"})
    after = run_hook(repo, "pre_task", compact).stdout
    assert after != plain and not cached(repo)
    assert after.splitlines()[2] not in plain  # the compaction notice
    assert run_hook(repo, "pre_task", START).stdout == plain


def test_an_edited_config_still_builds_with_its_values(repo: Path) -> None:
    built(repo)
    cfg = repo / ".agent/config.yaml"
    cfg.write_text(cfg.read_text().replace("notes_count: 5", "notes_count: 0"))
    backdate(repo)
    out = run_hook(repo, "pre_task", START).stdout
    assert "- first" not in out
    cfg.write_text(cfg.read_text().replace("notes_count: 0", "notes_count: 5"))
    assert "- first" in run_hook(repo, "pre_task", START).stdout


def test_show_never_writes_the_figures(repo: Path) -> None:
    run_hook(repo, "pre_task", START)
    (repo / STATS).unlink()
    run_hook(repo, "pre_task", "", "--show")
    assert not (repo / STATS).exists()


def test_a_build_that_read_memory_before_a_change_is_not_reused(repo: Path, tmp_path: Path) -> None:
    """Another agent's build can rewrite the figures while this one's awk still reads: the
    change in between must leave no figures that would make this (stale) block reusable."""
    real_awk = shutil.which("awk")
    assert real_awk
    shim = tmp_path / "bin"
    shim.mkdir()
    notes = repo / ".agent/memory/notes.md"
    # awk reads memory; then memory changes; then another build starts over the figures.
    (shim / "awk").write_text(
        "#!/bin/sh\n"
        f'out=$("{real_awk}" "$@")\nrc=$?\n'
        "sleep 0.05\n"
        f"printf -- '- written while awk read\\n' >> '{notes}'\n"
        "sleep 0.05\n"
        f": > '{repo / STATS}'\n"
        'printf "%s\\n" "$out"\nexit $rc\n')
    (shim / "awk").chmod(0o755)
    built(repo)
    write_memory(repo, notes="- first\n- second\n")
    published = (repo / ".agent/injected_context.txt").read_text()
    raced = run_hook(repo, "pre_task", START, env={"PATH": f"{shim}:{os.environ['PATH']}"})
    # Memory changed after each read began: the block built from it, or the block published
    # before (never a mix), and never a block that names the line written meanwhile.
    assert raced.returncode == 0
    assert "second" in raced.stdout or raced.stdout == published
    assert "written while awk read" not in raced.stdout
    assert not cached(repo)
    assert "written while awk read" in run_hook(repo, "pre_task", START).stdout
