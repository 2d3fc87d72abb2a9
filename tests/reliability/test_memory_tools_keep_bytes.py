"""Memory tools keep bytes: promote changes only the lines it adds or removes (a BOM, CRLF and
bytes that are not UTF-8 stay as they were)."""
from __future__ import annotations

from pathlib import Path

from support.helpers import cli, install, make_repo


def test_promote_changes_only_the_lines_it_adds_or_removes(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code", "--platform", "linux")
    mem = repo / ".agent" / "memory"
    tattoo = b"\xef\xbb\xbf# Rules\r\n- keep caf\xe9 as latin-1\r\n- second rule\r\n"
    note = b"- run make lint before pushing\r\n"
    notes = (b"\xef\xbb\xbf# Notes\r\n- odd \xff\xfe bytes stay\r\n" + note * 3
             + b"- last note, no line end")
    (mem / "tattoo.md").write_bytes(tattoo)
    (mem / "notes.md").write_bytes(notes)
    proc = cli("promote", "--yes", "--all", str(repo))
    assert proc.returncode == 0, proc.stderr
    assert (mem / "tattoo.md").read_bytes() == tattoo + b"- run make lint before pushing\r\n"
    assert (mem / "notes.md").read_bytes() == notes.replace(note, b"")
    # An LF file gets LF lines; a last line with no end gets the file's own.
    (mem / "tattoo.md").write_bytes(b"- a rule\n- no end \xff")
    (mem / "notes.md").write_bytes(b"- x y z\n" * 3)
    assert cli("promote", "--yes", "--all", str(repo)).returncode == 0
    assert (mem / "tattoo.md").read_bytes() == b"- a rule\n- no end \xff\n- x y z\n"
    assert (mem / "notes.md").read_bytes() == b""
