"""Framework wiring tests: one install per framework set, cloned per test (install is slow)."""
from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Callable

import pytest

from support.helpers import cli, git

ALL = ("claude-code", "codex", "gemini-cli", "cursor", "copilot-cli", "cline", "windsurf",
       "opencode", "kilo", "pi", "qwen-code", "droid", "aider", "generic")


@pytest.fixture(scope="session")
def _installed(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Path]:
    cache: dict[tuple[str, ...], Path] = {}
    home = tmp_path_factory.mktemp("fwhome")
    (home / ".gitconfig").write_text("[user]\n\tname = Test\n\temail = t@example.invalid\n")
    env = {"HOME": str(home), "GIT_CONFIG_GLOBAL": str(home / ".gitconfig"),
           "GIT_CONFIG_NOSYSTEM": "1"}

    def build(names: tuple[str, ...]) -> Path:
        if names not in cache:
            base = tmp_path_factory.mktemp("fwbase") / "repo"
            base.mkdir()
            old = {k: os.environ.get(k) for k in env}
            os.environ.update(env)
            try:
                git(base, "init", "-q")
                args = [a for n in names for a in ("--framework", n)]
                # One board, memory/snapshot.md: these tests are about the hosts' payloads.
                proc = cli("install", "--yes", "--board", "shared", str(base), *args, env=env)
                assert proc.returncode == 0, proc.stdout + proc.stderr
            finally:
                for k, v in old.items():
                    if v is None:
                        os.environ.pop(k, None)
                    else:
                        os.environ[k] = v
            cache[names] = base
        return cache[names]

    return build


@pytest.fixture
def installed(_installed: Callable[..., Path], tmp_path: Path) -> Callable[..., Path]:
    """installed("claude-code", ...) -> a fresh copy of a repo with those frameworks."""
    def make(*names: str) -> Path:
        dest = tmp_path / ("repo-" + "-".join(names))
        shutil.copytree(_installed(tuple(names)), dest, symlinks=True)
        return dest
    return make
