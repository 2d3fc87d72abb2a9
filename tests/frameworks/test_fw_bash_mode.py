"""Every registered command starts bash privileged (`bash -p`): it reads no BASH_ENV,
imports no functions and ignores SHELLOPTS from the host's environment. Read from the
files install really wrote, for each framework; and an install over the older
commands (`bash HOOK.sh`) replaces them, and uninstall removes either form."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from support.helpers import cli, install, make_repo
from agenthooks.frameworks import NAMES

JSON_FILES = {"claude-code": ".claude/settings.json", "codex": ".codex/hooks.json",
              "gemini-cli": ".gemini/settings.json", "cursor": ".cursor/hooks.json",
              "copilot-cli": ".github/hooks/agenthooks.json", "windsurf": ".windsurf/hooks.json",
              "qwen-code": ".qwen/settings.json", "droid": ".factory/hooks.json"}
TEXT_FILES = {"cline": (".clinerules/hooks/PreToolUse", ".clinerules/hooks/PostToolUse"),
              "opencode": (".opencode/plugins/agenthooks.ts",),
              "kilo": (".kilo/plugins/agenthooks.ts",), "pi": (".pi/extensions/agenthooks.ts",)}
# Pi's extension starts bash with an argument list: spawn("bash", ["-p", SCRIPT, ...]).
SPAWN = re.compile(r'spawn\("bash", \["(-p)?"?')
UNPRIVILEGED = re.compile(r"\bbash\b(?! -p\b)")


def strings(data: object) -> list[str]:
    if isinstance(data, dict):
        return [s for v in data.values() for s in strings(v)]
    if isinstance(data, list):
        return [s for v in data for s in strings(v)]
    return [data] if isinstance(data, str) else []


def commands(repo: Path, name: str, shown: str) -> list[str]:
    """The commands that start a hook, from the framework's real files (or, for aider's
    refresh and generic, the commands install tells the user to run)."""
    if name in JSON_FILES:
        data = json.loads((repo / JSON_FILES[name]).read_text())
        return [s for s in strings(data) if ".agent/hooks/" in s]
    if name in TEXT_FILES:
        lines = [SPAWN.sub(lambda m: "bash -p " if m.group(1) else "bash ", line)
                 for rel in TEXT_FILES[name] for line in (repo / rel).read_text().splitlines()]
        return [line for line in lines if "bash " in line and not line.lstrip().startswith("//")
                and (".agent/hooks/" in line or "${script}" in line)]
    return [c for c in re.findall(r"`([^`]*)`", shown) if ".agent/hooks/" in c]


EXPECTED = {"claude-code": 7, "codex": 6, "gemini-cli": 4, "cursor": 4, "copilot-cli": 6,
            "windsurf": 1, "cline": 2, "opencode": 1, "aider": 1, "generic": 3, "qwen-code": 2,
            "droid": 6, "kilo": 1, "pi": 1}


def test_every_framework_is_covered() -> None:
    assert sorted(EXPECTED) == sorted(NAMES)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_registered_command_starts_bash_privileged(tmp_path: Path, name: str) -> None:
    repo = make_repo(tmp_path)
    extra = ("--statusline",) if name == "claude-code" else ()
    shown = install(repo, "--framework", name, *extra).stdout
    found = commands(repo, name, shown)
    assert len(found) == EXPECTED[name], found
    for cmd in found:
        assert "bash -p " in cmd and not UNPRIVILEGED.search(cmd), cmd
    if name == "aider":  # its one run at install: pre_task under bash -p, BASH_ENV unread
        assert ".agent/hooks/" not in (repo / ".aider.conf.yml").read_text().replace(
            ".agent/injected_context.txt", "")


def test_aider_install_runs_pre_task_privileged(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    rc = tmp_path / "rc.sh"
    rc.write_text(f": > {tmp_path}/sourced\n")
    proc = cli("install", "--yes", str(repo), "--framework", "aider", env={"BASH_ENV": str(rc)})
    assert proc.returncode == 0, proc.stderr
    assert (repo / ".agent/injected_context.txt").is_file()
    assert not (tmp_path / "sourced").exists()


# copilot-cli's file is wholly ours: an older render is merged from its pristine base
@pytest.mark.parametrize("name", sorted(set(JSON_FILES) - {"copilot-cli"}))
def test_install_replaces_the_older_commands_and_uninstall_removes_them(tmp_path: Path, name: str) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", name)
    path = repo / JSON_FILES[name]
    fresh = path.read_text()
    path.write_text(fresh.replace("bash -p ", "bash "))  # as the release before wrote them
    assert UNPRIVILEGED.search(path.read_text())
    install(repo, "--framework", name)
    assert path.read_text() == fresh  # replaced in place: no duplicate, no older entry left
    path.write_text(fresh.replace("bash -p ", "bash ", 1))  # one older entry among new ones
    assert cli("uninstall", "--yes", str(repo)).returncode == 0
    assert not path.exists() or ".agent/hooks/" not in path.read_text()
