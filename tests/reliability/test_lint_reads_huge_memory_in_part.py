"""Huge memory, bounded reads: lint reads what the hooks read of a memory file, its first
256 KB (notes.md: its last), says so, and takes seconds on a 50 MB file."""
from __future__ import annotations

from pathlib import Path

from support.cli_runs import _peak_rss_mb
from support.helpers import cli, install, make_repo


def test_lint_reads_a_huge_user_tattoo_in_part(tmp_path: Path, isolated_home: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code", "--platform", "linux")
    user = isolated_home / ".agent/memory/tattoo.md"
    user.parent.mkdir(parents=True)
    user.write_bytes(b"- Always run the tests, then the linter, then commit\n" * 1_000_000)
    assert user.stat().st_size > 50_000_000
    proc = cli("lint", str(repo))
    assert "~/.agent/memory/tattoo.md:1: warning: over 256 KB: read in part" in proc.stdout, \
        proc.stdout
    # Read in part: lint's peak memory stays far below the file's 52 MB.
    peak = _peak_rss_mb("lint", str(repo))
    user.write_bytes(b"- Always run the tests\n")
    base = _peak_rss_mb("lint", str(repo))
    assert peak - base < 20, f"lint peaked at {peak:.0f} MB (a small file: {base:.0f} MB)"
    user.unlink()
