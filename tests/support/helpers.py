"""Shared test helpers: temp git repos, the real CLI, the real generated hooks."""
from __future__ import annotations

import json
import shutil
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
HOOKS = ("pre_task", "post_edit", "on_compact")


def git(repo: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True,
                          check=check)


def make_repo(parent: Path, name: str = "repo") -> Path:
    repo = parent / name
    repo.mkdir(parents=True)
    git(repo, "init", "-q")
    return repo


def cli(*args: str, cwd: Path | None = None, input: str | None = None,
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The real CLI, as a user runs it: python -m agenthooks, stdin not a TTY."""
    return subprocess.run([sys.executable, "-m", "agenthooks", *args], cwd=cwd,
                          input=input if input is not None else "", capture_output=True,
                          text=True, env={**os.environ, **(env or {})})


def cli_in_process(*args: str) -> subprocess.CompletedProcess[str]:
    """agenthooks' own entry point (cli.main) called in this process, stdin empty and not a
    TTY, stdout and stderr captured: what cli() gives, without starting Python again (a test
    setting up many repos spends most of its time there). Caches that hold a path's git state
    are cleared first, as a new process starts without them."""
    import contextlib
    import io

    from agenthooks import cli as agenthooks_cli, gitstore

    gitstore._git_prefix.cache_clear()
    out, err = io.StringIO(), io.StringIO()
    stdin, sys.stdin = sys.stdin, io.StringIO("")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = agenthooks_cli.main(list(args))
    finally:
        sys.stdin = stdin
    return subprocess.CompletedProcess(["agenthooks", *args], code, out.getvalue(), err.getvalue())


def install(repo: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """agenthooks install --yes, run in this process (cli_in_process). A new install keeps one
    board, memory/snapshot.md (--board shared), unless ARGS name a board model: most tests are
    about that file; the per-branch boards have tests of their own (tests/runtime/test_boards.py,
    tests/test_boards_git.py)."""
    board = [] if "--board" in args or (repo / ".agent/config.yaml").is_file() else ["--board", "shared"]
    proc = cli_in_process("install", "--yes", str(repo), *board, *args)
    if check and proc.returncode != 0:
        raise AssertionError(f"install failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return proc


def payload(obj: Any) -> Any:
    """A hook's stdin: a string or bytes as they are, anything else as JSON."""
    return obj if isinstance(obj, (str, bytes)) else json.dumps(obj)


def run_hook(repo: Path, hook: str, stdin: Any = "", *args: str, cwd: Path | None = None,
             env: dict[str, str] | None = None, timeout: float = 30, bash: str = "bash",
             unset: tuple[str, ...] = (), fsize: int | None = None,
             text: bool = True, inherit: bool = True) -> subprocess.CompletedProcess[Any]:
    """Run a generated hook the way frameworks do: bash PATH [args] < payload. ENV is added to
    this process's environment (INHERIT=False: ENV is the whole environment), UNSET taken out
    of it; FSIZE caps every file the run writes (RLIMIT_FSIZE, as a full disk would);
    TEXT=False: bytes in, bytes out."""
    script = repo / ".agent" / "hooks" / f"{hook}.sh"
    full_env = {**(os.environ if inherit else {}), **(env or {})}
    for var in unset:
        full_env.pop(var, None)
    data: str | bytes = payload(stdin)
    if not text and not isinstance(data, bytes):
        data = data.encode("utf-8", "surrogateescape")
    limit: Callable[[], None] | None = None
    if fsize is not None:
        import resource

        def limit() -> None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    return subprocess.run([bash, str(script), *args], input=data, cwd=cwd or repo,
                          capture_output=True, text=text, env=full_env, timeout=timeout,
                          preexec_fn=limit)


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def log_lines(repo: Path) -> list[str]:
    path = repo / ".agent" / "log" / "memory.log"
    return path.read_text(encoding="utf-8").splitlines() if path.exists() else []


def memory_bytes(repo: Path) -> dict[str, bytes]:
    """Every file under .agent/memory/, byte for byte, for before/after comparisons."""
    mem = repo / ".agent" / "memory"
    return {str(p.relative_to(mem)): p.read_bytes() for p in sorted(mem.rglob("*")) if p.is_file()}


def write_memory(repo: Path, tattoo: str | None = None, snapshot: str | None = None,
                 notes: str | None = None) -> None:
    mem = repo / ".agent" / "memory"
    mem.mkdir(parents=True, exist_ok=True)
    # In a checkout with core.autocrlf=true (Git for Windows' default), as a Windows editor saves.
    config = repo / ".git" / "config"
    nl = "\r\n" if config.is_file() and "autocrlf = true" in config.read_text() else None
    for name, text in (("tattoo", tattoo), ("snapshot", snapshot), ("notes", notes)):
        if text is not None:
            (mem / f"{name}.md").write_text(text, encoding="utf-8", newline=nl)


SAMPLE_TATTOO = "# Project hard rules\n- Indent with 4 spaces, never tabs\n- Every API returns {code, data, msg}\n"
SAMPLE_SNAPSHOT = (
    "# Current task snapshot\n\n## Goal\nRefactor user_service to async\n\n## Done\n"
    "- [x] signature: async def get_user(uid: int) -> User\n\n## In progress\n"
    "- [ ] service get_user (stuck on error handling)\n\n## Todo\n- cache layer\n\n"
    "## Key decisions\n- raise UserNotFound, never return None\n"
)


def summary_instructions(text: str) -> bool:
    """Is TEXT what Claude Code's PreCompact hands its summarizer: the plain instruction block
    (what the summary must keep), never JSON?"""
    from agenthooks.messages import MESSAGES

    return text.startswith(MESSAGES["en"]["summary_intro"]) and not text.lstrip().startswith("{")


def claude_repo(tmp_path: Path) -> Path:
    """A git repo with the hooks installed for Claude Code on linux and the sample memory."""
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code", "--platform", "linux")
    write_memory(repo, tattoo=SAMPLE_TATTOO, snapshot=SAMPLE_SNAPSHOT, notes="- a note\n")
    return repo


def backdate(repo: Path) -> None:
    """Memory written seconds ago, after the last build: file times are coarse, and a block
    built in the same tick as a memory write is (rightly) not trusted as a cache."""
    now = time.time()
    for p in [repo / ".agent/memory", *(repo / ".agent/memory").glob("*.md")]:
        os.utime(p, (now - 30, now - 30))
    stats = repo / ".agent/log/state/block.stats"
    if stats.exists():
        os.utime(stats, (now - 60, now - 60))


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def require(tool: str, how: str) -> str:
    """The tool's path. A missing tool fails in CI and skips locally, saying how to get it."""
    import shutil

    # The virtualenv's pinned tools come first: a PATH may hold an older system copy.
    path = shutil.which(tool, path=os.path.dirname(sys.executable)) or shutil.which(tool)
    if path:
        return path
    unavailable(f"{tool} is not installed: {how}")
    raise AssertionError("unreachable")


def unavailable(message: str) -> None:
    """Something a test needs is missing: fail in CI, skip (saying why) elsewhere."""
    import pytest

    if in_ci():
        pytest.fail(message)
    pytest.skip(message)


def snapshot_checkout(dest: Path) -> tuple[Path, str]:
    """A git repo holding this checkout's files as one commit (uncommitted edits included),
    so the test exercises exactly the code under test."""
    src = dest / "agenthooks-src"
    files = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-co", "--exclude-standard"],
                           capture_output=True, text=True, check=True).stdout.splitlines()
    for rel in files:
        p = ROOT / rel
        if p.is_file() and not rel.startswith(("tests/", "bench/")):
            (src / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(p, src / rel)
    git(src, "init", "-q")
    git(src, "add", "-A")
    git(src, "commit", "-q", "-m", "snapshot")
    return src, git(src, "rev-parse", "HEAD").stdout.strip()
