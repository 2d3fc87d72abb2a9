"""Whatever locale a user's shell exports, the hooks build the same block (they run awk
under LC_ALL=C: bytes) and the memory tools read memory the same way. Run under each
awk with make test-awk (AGENTHOOKS_AWK); en_US.UTF-8 and zh_CN.UTF-8 are exercised where
the machine has them (LOCPATH may name a folder localedef built them into)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from support.helpers import SAMPLE_SNAPSHOT, claude_repo, cli, run_hook, write_memory

LOCALES = ("C", "C.UTF-8", "en_US.UTF-8", "zh_CN.UTF-8")
TATTOO = ("# Project hard rules\n- Indent with 4 spaces, never tabs\n- 必须使用 pnpm，禁止 npm\n"
          "- Café names keep their accents\n")


def env_for(locale: str) -> dict[str, str]:
    # LC_ALL empty is no setting at all (POSIX): LANG decides, as in a user's shell.
    return {"LANG": locale, "LC_ALL": "", "LC_CTYPE": "", "LC_COLLATE": ""}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    r = claude_repo(tmp_path)
    write_memory(r, tattoo=TATTOO, snapshot=SAMPLE_SNAPSHOT,
                 notes="- 数据库在 6380 端口\n- a note with a tab\there\n")
    with open(r / ".agent/memory/notes.md", "ab") as fh:
        fh.write(b"- bytes that are not UTF-8: \xff\xfe end\n")
    return r


def test_the_block_is_the_same_in_every_locale(repo: Path) -> None:
    blocks = {}
    for locale in LOCALES:
        proc = run_hook(repo, "pre_task", "", "--show", env=env_for(locale))
        assert proc.returncode == 0 and proc.stderr == "", (locale, proc.stderr)
        blocks[locale] = proc.stdout
    assert "必须使用 pnpm，禁止 npm" in blocks["C"] and "Café" in blocks["C"]
    assert "===== AGENT MEMORY END =====" in blocks["C"]
    assert {loc: b == blocks["C"] for loc, b in blocks.items()} == {loc: True for loc in LOCALES}


def test_the_memory_tools_agree_in_every_locale(repo: Path) -> None:
    shown = {}
    for locale in LOCALES:
        env = {**env_for(locale), "PYTHONIOENCODING": os.environ.get("PYTHONIOENCODING", "")}
        show = cli("show", str(repo), env=env)
        assert show.returncode == 0, (locale, show.stderr)
        shown[locale] = show.stdout
        lint = cli("lint", str(repo), env=env)
        assert lint.returncode == 0, (locale, lint.stdout, lint.stderr)
    assert len(set(shown.values())) == 1
