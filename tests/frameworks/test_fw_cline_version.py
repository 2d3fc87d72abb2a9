"""The Cline version install's hint names is the one the README (and the frameworks guide)
names, and the one the end-to-end tests pin."""
from __future__ import annotations

import re
from pathlib import Path

from support.helpers import cli, make_repo

ROOT = Path(__file__).resolve().parents[2]
VERSION = re.compile(r"Cline(?: CLI)? (\d+\.\d+\.\d+)")


def test_install_hint_readme_and_pins_name_one_cline_version(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    proc = cli("install", "--yes", "--framework", "cline", str(repo))
    assert proc.returncode == 0, proc.stderr
    hint = set(VERSION.findall(proc.stdout.replace("\n", " ")))
    readme = set(VERSION.findall((ROOT / "README.md").read_text(encoding="utf-8")))
    guide = set(VERSION.findall((ROOT / "docs/frameworks.md").read_text(encoding="utf-8")))
    pinned = set(re.findall(r"^cline@(\S+)$", (ROOT / "tests/e2e/pins.txt").read_text(),
                            re.M))
    assert len(hint) == 1 and hint == readme == guide == pinned, (hint, readme, guide, pinned)
