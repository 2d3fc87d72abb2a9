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

# Fresh virtualenvs, pip, pipx and uv: CI and make stress run these, make test leaves them out.
pytestmark = pytest.mark.slow

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


def _quick_start_with(agenthooks: str, cwd: Path, env: dict[str, str]) -> None:
    """The quick start's steps 2 and 3 (install --yes, show) with the given command, then
    a hook of the repo run by the plugin's dispatcher that the installed package ships."""
    repo = make_repo(cwd, "quick-repo")
    (repo / ".claude").mkdir()
    done = subprocess.run([agenthooks, "install", "--yes", str(repo)], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "create     .claude/settings.json" in done.stdout
    show = subprocess.run([agenthooks, "show", str(repo)], cwd=repo, env=env, capture_output=True,
                          text=True, timeout=120)
    assert show.returncode == 0 and "AGENT MEMORY BEGIN" in show.stdout, show.stderr
    where = subprocess.run([agenthooks, "plugin-path"], env=env, capture_output=True, text=True)
    plugin = Path(where.stdout.strip())
    assert (plugin / ".claude-plugin/plugin.json").is_file(), where.stdout
    payload = '{"session_id":"q","cwd":"' + str(repo) + '","hook_event_name":"SessionStart"}'
    hook = subprocess.run(["bash", "-p", str(plugin / "hooks/dispatch.sh"), "pre_task", "generic"],
                          input=payload, cwd=cwd, capture_output=True, text=True)
    assert "AGENT MEMORY BEGIN" in hook.stdout, hook.stderr


def test_the_wheel_and_the_sdist_install_in_a_clean_venv_and_run_the_quick_start(
        workdir: tuple[Path, dict[str, str]]) -> None:
    """python -m build, as a release is made: both artefacts carry the templates and the
    plugin, install into a venv holding nothing else, and work (no network at hook time)."""
    cwd, env = workdir
    build = require("pyproject-build", "pip install build (make test installs it)")
    dist = cwd / "dist"
    proc = subprocess.run([build, "--outdir", str(dist), str(cwd / "agenthooks")], env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    wheels, sdists = sorted(dist.glob("*.whl")), sorted(dist.glob("*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1, sorted(dist.iterdir())
    import tarfile
    import zipfile

    names = zipfile.ZipFile(wheels[0]).namelist()
    assert "agenthooks/plugin/hooks/dispatch.sh" in names and "agenthooks/templates/hooks/pre_task.sh.j2" in names
    assert "agenthooks/templates/memory/zh/snapshot.md.j2" in names
    members = tarfile.open(sdists[0]).getnames()
    top = members[0].split("/")[0]
    assert f"{top}/.claude-plugin/marketplace.json" in members and f"{top}/plugin/hooks/hooks.json" in members
    for artefact in (wheels[0], sdists[0]):
        venv = cwd / f"venv-{artefact.suffix.strip('.')}"
        subprocess.run([shutil.which("python3") or "python3", "-m", "venv", str(venv)], check=True)
        pip = subprocess.run([str(venv / "bin/pip"), "install", "-q", str(artefact)], env=env,
                             capture_output=True, text=True, timeout=600)
        assert pip.returncode == 0, pip.stdout + pip.stderr
        _quick_start_with(str(venv / "bin/agenthooks"), cwd / venv.name, env)
        # From a folder that is neither the checkout nor the repo: the templates come from the package.
        elsewhere = cwd / f"elsewhere-{venv.name}"
        elsewhere.mkdir()
        target = make_repo(cwd / venv.name, "target")
        done = subprocess.run([str(venv / "bin/agenthooks"), "install", "--yes", str(target)], cwd=elsewhere,
                              env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0 and (target / ".agent/hooks/pre_task.sh").is_file(), done.stderr
        mod = subprocess.run([str(venv / "bin/python"), "-m", "agenthooks", "--version"], cwd=elsewhere,
                             env=env, capture_output=True, text=True)
        assert mod.returncode == 0 and mod.stdout.startswith("agenthooks "), mod.stderr


def test_uvx_from_the_checkout_runs_install_yes(workdir: tuple[Path, dict[str, str]]) -> None:
    """`uvx --from <clone> agenthooks install --yes` in a temp repo: nothing installed on PATH."""
    cwd, env = workdir
    uvx = require("uvx", "pip install uv (make test installs it)")
    repo = make_repo(cwd, "uvx-repo")
    (repo / ".claude").mkdir()
    proc = subprocess.run([uvx, "--from", str(cwd / "agenthooks"), "agenthooks", "install", "--yes"],
                          cwd=repo, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (repo / ".agent/hooks/pre_task.sh").is_file() and (repo / ".claude/settings.json").is_file()
    hook = subprocess.run(["bash", ".agent/hooks/pre_task.sh"], cwd=repo, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True)
    assert hook.returncode == 0 and "AGENT MEMORY" in hook.stdout
    line = _line("uvx --from")  # the README's own line, as written
    proc = subprocess.run(["bash", "-c", line.replace("your-repo", str(repo)) + " --yes"], cwd=cwd,
                          env={**env, "PATH": os.path.dirname(uvx) + os.pathsep + env["PATH"]},
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0 and "up to date" in proc.stdout, proc.stdout + proc.stderr
