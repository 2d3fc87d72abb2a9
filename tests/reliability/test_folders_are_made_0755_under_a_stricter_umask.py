"""Folder modes: every folder install creates is 0755 at every level, masked by a stricter umask."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from support.helpers import install, make_repo


def _install_under_umask(repo: Path, mask: int) -> None:
    old = os.umask(mask)
    try:
        install(repo, "--framework", "claude-code", "--platform", "linux")
    finally:
        os.umask(old)


@pytest.mark.parametrize("mask", [0o000, 0o022, 0o077])
def test_install_folders_follow_0755_and_a_stricter_umask(tmp_path: Path, mask: int) -> None:
    repo = make_repo(tmp_path)
    _install_under_umask(repo, mask)
    dirs = [p for p in (repo / ".agent").rglob("*") if p.is_dir()] + [repo / ".agent"]
    dirs += [p for p in (repo / ".claude").rglob("*") if p.is_dir()] + [repo / ".claude"]
    names = {str(d.relative_to(repo)) for d in dirs}
    assert {".agent", ".agent/hooks", ".agent/memory", ".agent/log", ".claude"} <= names
    want = 0o755 & ~mask
    for d in dirs:
        assert d.stat().st_mode & 0o777 == want, (d, oct(d.stat().st_mode & 0o777))
