"""All or nothing on an unwritable target: a read-only folder install must write to is refused
in one line naming it, before anything is written."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from support.helpers import cli, install, make_repo, unavailable
from support.links_out import first_line
from support.tree import tree


# --- an unwritable target -------------------------------------------------------------------

def mount_ro(where: Path) -> None:
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", str(where)],
                       capture_output=True, text=True)
    if r.returncode != 0:
        unavailable(f"cannot mount a read-only tmpfs here (needs root with CAP_SYS_ADMIN): {r.stderr}")


@pytest.mark.parametrize("where", [".claude", ".codex"])
def test_an_unwritable_target_is_refused_before_the_first_write(tmp_path: Path, where: str) -> None:
    # .claude/ on a first install; .codex/ when an upgrade adds codex (the hooks change too).
    repo = make_repo(tmp_path)
    if where == ".codex":
        install(repo, "--framework", "claude-code")
    (repo / where).mkdir(parents=True, exist_ok=True)
    mount_ro(repo / where)
    try:
        before = tree(repo, (repo / ".git",))
        proc = cli("install", "--yes", str(repo), "--framework", "claude-code", "--framework", "codex")
        assert proc.returncode == 1, proc.stdout + proc.stderr
        line = first_line(proc)
        assert f"{repo / where}: not writable" in line and "nothing was written" in line, line
        assert tree(repo, (repo / ".git",)) == before
    finally:
        subprocess.run(["umount", str(repo / where)], check=False)
