"""Encodings lint names: a memory file in UTF-16 or UTF-32, with a byte order mark or none, is
never called clean: lint names its encoding on line 1."""
from __future__ import annotations

from pathlib import Path

import pytest

from support.helpers import cli, install, make_repo


@pytest.mark.parametrize("enc,bom", [("utf-16-le", b"\xff\xfe"), ("utf-16-be", b"\xfe\xff"),
                                     ("utf-32-le", b"\xff\xfe\x00\x00"), ("utf-16-le", b"")])
def test_lint_warns_on_a_tattoo_that_is_not_utf8(tmp_path: Path, enc: str, bom: bytes) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code", "--platform", "linux")
    tattoo = repo / ".agent/memory/tattoo.md"
    tattoo.write_bytes(bom + "# Rules\n- Indent with 4 spaces\n".encode(enc))
    proc = cli("lint", str(repo))
    assert "memory is clean" not in proc.stdout, proc.stdout
    assert ".agent/memory/tattoo.md:1: warning: not UTF-8" in proc.stdout, proc.stdout
