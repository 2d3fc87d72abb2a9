"""Helpers (no tests) for the upgrade, doctor and uninstall tests: a past release,
and verdict parsing (what a verdict says against
support.tree snapshots)."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

from support.helpers import FIXTURES, cli, git
from support.tree import Entry

V0 = FIXTURES / "templates_v0"
VERDICT_RE = re.compile(r"^  (create|identical|update|merge|conflict|keep|skip|remove|restore)"
                        r"\s+(\S+)(?:  \((.*)\))?$")


def install_v0(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    proc = cli("install", "--yes", str(repo), *args, env={"AGENTHOOKS_TEMPLATES": str(V0)})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc


def upgrade(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    proc = cli("install", "--yes", str(repo), *args)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def verdicts(stdout: str) -> dict[str, tuple[str, str]]:
    out = {}
    for line in stdout.splitlines():
        m = VERDICT_RE.match(line)
        if m:
            out[m.group(2)] = (m.group(1), m.group(3) or "")
    return out


def verdict_lines(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if VERDICT_RE.match(line)]


def commit_all(repo: Path, message: str = "state") -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--allow-empty", "-m", message)


def assert_truthful(before: dict[str, Entry], after: dict[str, Entry],
                    stdout: str) -> None:
    """Each printed verdict matches what happened on disk."""
    for path, (verdict, note) in verdicts(stdout).items():
        was = before.get(path)
        now = after.get(path)
        where = f"{verdict} {path} ({note})"
        if path.endswith("/") or path.startswith("refs/"):  # a folder, a git ref
            continue
        if verdict == "create":
            assert was is None and now is not None, where
        elif verdict in ("identical", "keep"):
            assert was == now, where
        elif verdict == "update":
            assert now is not None and was is not None and was != now, where
        elif verdict == "merge":
            assert now is not None and was is not None and was.data != now.data, where
            assert b"<<<<<<<" not in now.data, where
        elif verdict == "conflict":
            side = path + ".agenthooks-new"
            if "marked in place" in note:
                assert now is not None and b"<<<<<<< " in now.data, where
            elif "new version in" in note or "marked in " + side in note:
                assert was == now and side in after, where
                if "marked in" in note:
                    assert b"<<<<<<< " in after[side].data, where
            else:
                assert was == now, where
        elif verdict == "skip":
            if "moved to" in note:
                assert was is not None and after.get(path + ".legacy", Entry("none")).data == was.data, where
                assert now is not None and now != was, where
            else:
                assert was == now, where
        elif verdict == "remove":
            assert was is not None and now is None, where
        elif verdict == "restore":
            assert now is not None, where


def resolve(text: str, keep: str) -> str:
    """A conflicted text with every hunk resolved to one side ("yours" or "new")."""
    out, side = [], None
    for line in text.splitlines(keepends=True):
        if line.startswith("<<<<<<< "):
            side = "yours"
        elif line.startswith("||||||| ") and side:
            side = "base"
        elif line.startswith("=======") and side:
            side = "new"
        elif line.startswith(">>>>>>> ") and side:
            side = None
        elif side is None or side == keep:
            out.append(line)
    return "".join(out)
