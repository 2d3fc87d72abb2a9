"""A fake HOME and links into it from a repo, for the promise files on what agenthooks
reads and writes outside the repo."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from support.helpers import install, make_repo


# Each place a clone may link out of the repo (to a folder, or to a file of the user's).
FOLDERS = (".claude", ".codex", ".gemini", ".cursor", ".github", ".github/hooks", ".clinerules",
           ".clinerules/hooks", ".windsurf", ".windsurf/rules", ".opencode", ".opencode/plugins",
           ".agent", ".agent/hooks", ".agent/hooks/lib", ".agent/memory", ".agent/log",
           ".agent/log/state")


def fake_home(tmp_path: Path) -> Path:
    home = tmp_path / "fakehome"
    for rel, text in ((".claude/settings.json", '{"model": "opus", "hooks": {}}\n'),
                      (".bashrc", "export PS1='$ '\n"), (".aider.conf.yml", "model: gpt\n"),
                      (".ssh/id_ed25519", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaA\n")):
        (home / rel).parent.mkdir(parents=True, exist_ok=True)
        (home / rel).write_text(text)
    return home


def link_out(repo: Path, rel: str, home: Path) -> Path:
    """Move repo/rel (or make it) into the fake HOME and leave a link in its place."""
    place = repo / rel
    target = home / "linked" / rel.replace("/", "__")
    target.parent.mkdir(parents=True, exist_ok=True)
    if place.exists() and not place.is_symlink():
        shutil.move(str(place), str(target))
    elif rel in FOLDERS:
        target.mkdir()
        (target / "users-own.txt").write_text("mine\n")
    else:
        target.write_text('{"users": "own"}\n' if rel.endswith(".json") else "mine: yes\n")
    place.parent.mkdir(parents=True, exist_ok=True)
    place.symlink_to(target)
    return target


_INSTALLED: dict[tuple[str, ...], Path] = {}


def installed_copy(factory: pytest.TempPathFactory, dest: Path, *args: str) -> Path:
    """A repo with agenthooks installed by the real CLI (installed once per ARGS), copied
    to DEST with its .git."""
    if args not in _INSTALLED:
        base = factory.mktemp("installed")
        install(make_repo(base), *args)
        _INSTALLED[args] = base / "repo"
    shutil.copytree(_INSTALLED[args], dest, symlinks=True)
    return dest


def first_line(proc: subprocess.CompletedProcess[str]) -> str:
    lines = [ln for ln in proc.stderr.splitlines() if not ln.startswith(("hint: ", "agenthooks: warning"))]
    assert len(lines) == 1, proc.stderr
    return lines[0]
