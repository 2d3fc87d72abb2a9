"""Nothing outside the repo: install, upgrade and uninstall refuse a link anywhere on the way
to a path they read to merge or write (a framework's settings folder, .agent/, hooks/,
memory/, log/...), in one line naming it, before their first write; the repo and HOME stay
byte-identical."""
from __future__ import annotations

from pathlib import Path

import pytest

from support.helpers import cli, make_repo
from support.links_out import fake_home, first_line, FOLDERS, installed_copy, link_out
from support.tree import tree


ALL = ("claude-code", "codex", "gemini-cli", "cursor", "copilot-cli", "cline", "windsurf",
       "opencode", "aider", "generic")
FRAMEWORK_ARGS = [a for n in ALL for a in ("--framework", n)]
FILES = (".claude/settings.json", ".aider.conf.yml", ".agent/.agenthooks.json", ".agent/config.yaml",
         ".agent/memory/tattoo.md", ".agent/log/memory.log", ".agent/log/trace.log",
         ".agent/hooks/pre_task.sh")


@pytest.mark.parametrize("rel", FOLDERS + FILES)
def test_install_into_a_clone_with_a_link_writes_nothing(tmp_path: Path, rel: str) -> None:
    home = fake_home(tmp_path)
    repo = make_repo(tmp_path)
    link_out(repo, rel, home)
    before_home, before_repo = tree(home), tree(repo, (repo / ".git",))
    proc = cli("install", "--yes", str(repo), *FRAMEWORK_ARGS)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    line = first_line(proc)
    assert line.startswith("agenthooks: ") and "is a link" in line and rel.split("/")[0] in line, line
    assert tree(home) == before_home
    assert tree(repo, (repo / ".git",)) == before_repo


@pytest.mark.parametrize("rel", FOLDERS + FILES)
def test_upgrade_and_uninstall_with_a_link_write_nothing(tmp_path_factory: pytest.TempPathFactory,
                                                          tmp_path: Path, rel: str) -> None:
    home = fake_home(tmp_path)
    repo = installed_copy(tmp_path_factory, tmp_path / "repo", *FRAMEWORK_ARGS)
    link_out(repo, rel, home)
    before_home, before_repo = tree(home), tree(repo, (repo / ".git",))
    for args in (["install", "--yes", "--lang", "zh"], ["install", "--yes", "--remove", "codex"],
                 ["uninstall", "--yes"], ["uninstall", "--yes", "--purge"]):
        proc = cli(*args, str(repo))
        assert proc.returncode == 1, (args, proc.stdout + proc.stderr)
        line = first_line(proc)
        assert "is a link" in line, (args, line)
        assert tree(home) == before_home, args
        assert tree(repo, (repo / ".git",)) == before_repo, args
