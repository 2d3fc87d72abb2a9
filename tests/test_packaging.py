"""The README's install commands, run as written: pipx and uv from a checkout and from a git
URL, pip in a venv, and the pre-commit snippet. Debian's python3 refuses a bare pip install
(PEP 668), so these are what a newcomer there can use."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from support.helpers import ROOT, git, make_repo, require, snapshot_checkout, write_memory

README = (ROOT / "README.md").read_text(encoding="utf-8")


def _block_after(heading: str, lang: str) -> str:
    """The first ```lang block after a heading of the README."""
    section = README[README.index(heading):]
    match = re.search(rf"```{lang}\n(.*?)```", section, re.S)
    assert match, f"no {lang} block under {heading}"
    return match.group(1)


def install_lines() -> list[str]:
    """The install commands, comments dropped, one per line."""
    lines = []
    for raw in _block_after("## Install into a repo", "sh").splitlines():
        line = raw.split("  #")[0].strip()
        if line and not line.startswith("sudo "):
            lines.append(line)
    return lines


def _line(prefix: str) -> str:
    found = [line for line in install_lines() if line.startswith(prefix)]
    assert found, f"the README has no `{prefix}` line"
    return found[0]


@pytest.fixture
def workdir(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """./agenthooks is this checkout; tools install into the test's HOME; caches are shared."""
    src, _ = snapshot_checkout(tmp_path)
    src.rename(tmp_path / "agenthooks")
    cache = tmp_path_factory.getbasetemp() / "pkg-cache"
    home = Path(os.environ["HOME"])
    env = {**os.environ, "PIPX_HOME": str(home / ".local/pipx"), "PIPX_BIN_DIR": str(home / ".local/bin"),
           "UV_TOOL_DIR": str(home / ".local/uv-tools"), "UV_TOOL_BIN_DIR": str(home / ".local/bin"),
           "UV_CACHE_DIR": str(cache / "uv"), "PIP_CACHE_DIR": str(cache / "pip"),
           "PIPX_DEFAULT_PYTHON": shutil.which("python3") or "python3"}
    return tmp_path, env


def _run_readme_line(line: str, cwd: Path, env: dict[str, str], tool: str) -> None:
    """Run the line with bash, as a user pastes it; pipx and uv are the test venv's."""
    tools = os.path.dirname(require("pipx", "pip install pipx"))
    require("uv", "pip install uv")
    proc = subprocess.run(["bash", "-c", line], cwd=cwd, capture_output=True, text=True,
                          env={**env, "PATH": tools + os.pathsep + env["PATH"]}, timeout=600)
    assert proc.returncode == 0, f"{line}\n{proc.stdout}\n{proc.stderr}"
    agenthooks = Path(tool)
    assert agenthooks.exists(), f"{line} did not give {tool}"
    repo = make_repo(cwd, "user-repo")
    done = subprocess.run([str(agenthooks), "install", "--yes", "--framework", "claude-code",
                           str(repo)], cwd=cwd, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    hook = subprocess.run(["bash", ".agent/hooks/pre_task.sh"], cwd=repo, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True)
    assert hook.returncode == 0 and "AGENT MEMORY" in hook.stdout


def test_pipx_from_the_checkout(workdir: tuple[Path, dict[str, str]]) -> None:
    cwd, env = workdir
    _run_readme_line(_line("pipx install ./"), cwd, env, env["PIPX_BIN_DIR"] + "/agenthooks")


def test_pipx_from_a_git_url(workdir: tuple[Path, dict[str, str]]) -> None:
    cwd, env = workdir
    line = _line("pipx install git+")
    git(cwd / "agenthooks", "init", "-q")
    local = line.split()[-1].replace(line.split("git+")[1], (cwd / "agenthooks").as_uri())
    _run_readme_line(f"pipx install {local}", cwd, env, env["PIPX_BIN_DIR"] + "/agenthooks")


def test_uv_tool_from_the_checkout(workdir: tuple[Path, dict[str, str]]) -> None:
    cwd, env = workdir
    _run_readme_line(_line("uv tool install"), cwd, env, env["UV_TOOL_BIN_DIR"] + "/agenthooks")


def test_pip_in_a_venv(workdir: tuple[Path, dict[str, str]]) -> None:
    cwd, env = workdir
    _run_readme_line(_line("python3 -m venv"), cwd, env,
                     os.environ["HOME"] + "/.venvs/agenthooks/bin/agenthooks")


def test_the_pre_commit_snippet_as_written(tmp_path: Path) -> None:
    """The README's local hook, on a PATH that has agenthooks (as pipx would give)."""
    pre_commit = require("pre-commit", "pip install pre-commit (make test installs it)")
    snippet = _block_after("### pre-commit", "yaml")
    assert "rev: <" not in snippet
    repo = make_repo(tmp_path)
    agenthooks = shutil.which("agenthooks", path=os.path.dirname(pre_commit))
    assert agenthooks, "agenthooks is not installed beside pre-commit"
    from support.helpers import install

    install(repo)
    (repo / ".pre-commit-config.yaml").write_text(snippet)
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pc-home"),
           "PATH": os.path.dirname(agenthooks) + os.pathsep + os.environ["PATH"]}
    write_memory(repo, tattoo="# Rules\n- Never push to main\n  unless the release manager asks\n")
    git(repo, "add", "-A")
    bad = subprocess.run([pre_commit, "run", "--all-files"], cwd=repo, env=env,
                         capture_output=True, text=True, timeout=300)
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "continues the rule on line 2" in bad.stdout
    write_memory(repo, tattoo="# Rules\n- Never push to main without the release manager\n")
    git(repo, "add", "-A")
    good = subprocess.run([pre_commit, "run", "--all-files"], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=300)
    assert good.returncode == 0, good.stdout + good.stderr
