"""CLI error paths: every bad input of every command (discovered from `agenthooks --help`,
so new commands are covered too) exits non-zero with one clear line (plus at most one
`hint:` line), never a traceback, and writes nothing; `--help` of every command works."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from support.tree import tree

from support.helpers import cli, git, unavailable


def commands() -> list[str]:
    out = cli("--help").stdout
    section = out.split("Commands:", 1)[1]
    return re.findall(r"(?m)^  ([a-z][a-z-]*)\s", section)


COMMANDS = commands()


def check_error(proc: subprocess.CompletedProcess[str]) -> None:
    assert proc.returncode != 0, proc.stdout
    assert "Traceback" not in proc.stderr + proc.stdout
    err = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert 1 <= len(err) <= 2, err
    assert err[0].startswith("agenthooks: "), err
    assert all(ln.startswith("hint: ") for ln in err[1:]), err


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    r = tmp_path / "repo"
    r.mkdir()
    git(r, "init", "-q")
    (tmp_path / "a-file").write_text("x\n")
    return r


def test_commands_are_discovered() -> None:
    assert "install" in COMMANDS and len(COMMANDS) >= 1


@pytest.mark.parametrize("command", COMMANDS)
def test_help_and_usage_errors(command: str, repo: Path, tmp_path: Path) -> None:
    before = tree(tmp_path)
    h = cli(command, "--help", cwd=repo)
    assert h.returncode == 0 and "Usage:" in h.stdout and not h.stderr, h.stderr
    check_error(cli(command, "--no-such-option", cwd=repo))
    usage = h.stdout.split("\n", 1)[0]
    if "DIR" in usage:
        for bad in (tmp_path / "missing", tmp_path / "a-file", tmp_path / "a-file" / "sub"):
            check_error(cli(command, str(bad), cwd=repo))
    assert tree(tmp_path) == before


BAD_INSTALL = {
    "unknown-framework": ["--framework", "vim"],
    "unknown-platform": ["--platform", "amiga"],
    "unknown-lang": ["--lang", "fr"],
    "budget-abc": ["--budget", "abc"],
    "budget-negative": ["--budget", "-5"],
    "budget-huge": ["--budget", "18446744073709551616"],
    "budget-float": ["--budget", "1e9"],
    "budget-empty": ["--budget", ""],
    "budget-missing-value": ["--budget"],
    "conflict-bad": ["--conflict", "both"],
}


@pytest.mark.parametrize("args", BAD_INSTALL.values(), ids=BAD_INSTALL.keys())
def test_install_bad_flags(args: list[str], repo: Path, tmp_path: Path) -> None:
    before = tree(tmp_path)
    check_error(cli("install", "--yes", str(repo), *args))
    assert tree(tmp_path) == before


@pytest.mark.parametrize("case", ["config-invalid-yaml", "config-not-mapping",
                                  "manifest-invalid-json", "manifest-not-object",
                                  "dir-read-only-mount"])
def test_install_bad_state(case: str, repo: Path, tmp_path: Path) -> None:
    agent = repo / ".agent"
    agent.mkdir()
    if case == "config-invalid-yaml":
        (agent / "config.yaml").write_text("budget_tokens: [1, 2\n  : : :\n")
    elif case == "config-not-mapping":
        (agent / "config.yaml").write_text("- a\n- b\n")
    elif case == "manifest-invalid-json":
        (agent / ".agenthooks.json").write_text('{"files": {')
    elif case == "manifest-not-object":
        (agent / ".agenthooks.json").write_text("[1, 2]\n")
    else:
        # Root ignores chmod: a read-only tmpfs is what really refuses writes.
        agent.rmdir()
        r = subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", str(repo)],
                           capture_output=True)
        if r.returncode != 0:
            unavailable("cannot mount a read-only tmpfs here (needs root with CAP_SYS_ADMIN)")
    try:
        before = tree(tmp_path)
        check_error(cli("install", "--yes", str(repo)))
        assert tree(tmp_path) == before
    finally:
        if case == "dir-read-only-mount":
            subprocess.run(["umount", "-l", str(repo)], capture_output=True)


@pytest.mark.parametrize("args", [[], ["-h"], ["--help"]], ids=["bare", "-h", "--help"])
def test_bare_and_short_help_print_the_whole_help(args: list[str], repo: Path) -> None:
    proc = cli(*args, cwd=repo)
    assert proc.returncode == 0 and not proc.stderr, proc.stderr
    assert proc.stdout.startswith("Usage: agenthooks [OPTIONS] COMMAND [ARGS]...\n")
    assert "Commands:" in proc.stdout and len(proc.stdout.splitlines()) > 10
    assert cli("show", "-h", cwd=repo).stdout.startswith("Usage: agenthooks show ")


# Every command that takes DIR, with what it may write: run on a subfolder, it works on the
# repo's top level, never on a nested .agent/ of its own.
SUBFOLDER = {
    "install": ["--dry-run", "--yes"], "doctor": [], "show": [], "status": [], "lint": [],
    "simulate": [], "promote": ["--list"], "uninstall": ["--dry-run"],
}


@pytest.mark.parametrize("command", sorted(SUBFOLDER))
def test_dir_as_a_subfolder_means_the_repos_top_level(command: str, repo: Path) -> None:
    proc = cli("install", "--yes", str(repo))
    assert proc.returncode == 0, proc.stderr
    sub = repo / "src" / "deep"
    sub.mkdir(parents=True)
    given = cli(command, str(sub), *SUBFOLDER[command], cwd=repo.parent)
    inside = cli(command, *SUBFOLDER[command], cwd=sub)
    assert "Traceback" not in given.stderr
    assert given.returncode == inside.returncode == 0, given.stdout + given.stderr
    def same(out: str) -> str:  # the drill's log lines carry their second
        return re.sub(r"\[\d{4}-\d\d-\d\d [\d:]{8}\]", "[T]", out.replace(str(repo), "R"))
    assert same(given.stdout) == same(inside.stdout)
    assert not (repo / "src" / ".agent").exists() and not (sub / ".agent").exists()
    if command == "install":
        assert f"Would write in {repo}:" in given.stdout or "nothing to change" in given.stdout
