"""Every test runs with a throwaway HOME and git identity, so nothing real is touched."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

# tests/support/ (helpers, userlands, bash32, memory, reliability, upgrade) is imported as
# `support.<name>` from every test folder.
sys.path.insert(0, str(Path(__file__).resolve().parent))

def _chosen_awk() -> str | None:
    """AGENTHOOKS_AWK=mawk (gawk, original-awk, a path): that awk is `awk` for the whole run,
    first on PATH, as it would be on a machine whose awk it is (make test-awk runs each)."""
    import shutil
    import tempfile

    chosen = os.environ.get("AGENTHOOKS_AWK", "")
    if not chosen:
        return None
    found = shutil.which(chosen)
    if found is None:
        raise pytest.UsageError(f"AGENTHOOKS_AWK={chosen}: no such program on PATH")
    bindir = Path(tempfile.mkdtemp(prefix="agenthooks-awk-"))
    (bindir / "awk").symlink_to(found)
    os.environ["PATH"] = f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}"
    return found


CHOSEN_AWK = _chosen_awk()

# The real-CLI cache lives outside every test's throwaway HOME.
os.environ.setdefault(
    "AGENTHOOKS_E2E_CACHE", str(Path(os.path.expanduser("~")) / ".cache" / "agenthooks-e2e"))


@pytest.fixture(autouse=True)
def isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path_factory.mktemp("home")
    gitconfig = home / ".gitconfig"
    gitconfig.write_text("[user]\n\tname = Test\n\temail = test@example.invalid\n"
                         "[init]\n\tdefaultBranch = main\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(gitconfig))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for var in ("GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"):
        monkeypatch.setenv(var, "Test")
    for var in ("GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"):
        monkeypatch.setenv(var, "test@example.invalid")
    monkeypatch.delenv("AGENT_CONTEXT_LEN", raising=False)
    monkeypatch.delenv("AGENTHOOKS_FRAMEWORK", raising=False)
    os.environ.pop("CLAUDE_PROJECT_DIR", None)
    return home


# The userlands the runtime tests run on: GNU alone by default (a few minutes on 2 cores);
# every userland (GNU, BusyBox, macOS-like with bash 3.2, Git Bash) in CI, under make stress,
# or with AGENTHOOKS_USERLANDS=all (or a comma list: gnu,macos).
USERLAND_PARAMS = ("userland", "land")


def selected_userlands() -> set[str] | None:
    from support.helpers import in_ci

    chosen = os.environ.get("AGENTHOOKS_USERLANDS", "")
    if chosen == "all" or (not chosen and (in_ci() or os.environ.get("AGENTHOOKS_STRESS", "") not in ("", "0"))):
        return None
    return set((chosen or "gnu").split(","))


def full_run() -> bool:
    """CI, make stress or AGENTHOOKS_FULL=1: the slow tests (marked slow: fresh virtualenvs,
    pip, pipx, uv and pre-commit environments; marked e2e: the real agent CLIs) run too.
    make test leaves them out, so it ends in a few minutes on 2 cores."""
    from support.helpers import in_ci

    return in_ci() or any(os.environ.get(v, "") not in ("", "0")
                          for v in ("AGENTHOOKS_STRESS", "AGENTHOOKS_FULL"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Left out: the runs for a userland not chosen, the stress-only tests outside make stress,
    and the slow and end-to-end tests outside a full run."""
    chosen = selected_userlands()
    stress = os.environ.get("AGENTHOOKS_STRESS", "") not in ("", "0")
    full = full_run()
    keep, drop = [], []
    for item in items:
        params = getattr(item, "callspec", None)
        lands = {v for k, v in (params.params.items() if params else ()) if k in USERLAND_PARAMS}
        unchosen = chosen is not None and bool(lands - chosen)
        slow = not full and bool(item.get_closest_marker("slow") or item.get_closest_marker("e2e"))
        (drop if unchosen or slow or (item.get_closest_marker("stress") and not stress) else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def pytest_report_header(config: pytest.Config) -> list[str]:
    import shutil

    chosen = selected_userlands()
    awk = f"awk: {CHOSEN_AWK or shutil.which('awk')} (AGENTHOOKS_AWK=mawk|gawk|original-awk: " \
          f"make test-awk runs each); LANG={os.environ.get('LANG', '')} " \
          f"LC_ALL={os.environ.get('LC_ALL', '')}"
    slow = ("slow and e2e tests: run" if full_run() else
            "slow and e2e tests: left out (AGENTHOOKS_FULL=1, make stress and CI run them)")
    if chosen is None:
        return ["userlands: all (gnu, busybox, macos with bash 3.2, windows)", awk, slow]
    return [f"userlands: {', '.join(sorted(chosen))} (AGENTHOOKS_USERLANDS=all, make stress "
            "and CI run every one)", awk, slow]


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One line, not one per test, when the end-to-end tests skipped for want of the CLIs."""
    skipped = [r for r in terminalreporter.stats.get("skipped", [])
               if "make e2e-deps" in str(getattr(r, "longrepr", ""))]
    if skipped:
        reason = str(skipped[0].longrepr[-1]).removeprefix("Skipped: ")
        terminalreporter.write_line(f"e2e: {len(skipped)} tests skipped: {reason}")
