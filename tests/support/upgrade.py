"""Helpers (no tests) for the upgrade, doctor and uninstall tests: a past release as its
install left a repo (tests/fixtures/release_rev*), and verdict parsing (what a verdict says
against support.tree snapshots)."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

from agenthooks import gitstore, manifest
from support.helpers import FIXTURES, cli, git
from support.tree import Entry

VERDICT_RE = re.compile(r"^  (create|identical|update|merge|conflict|keep|skip|remove|restore)"
                        r"\s+(\S+)(?:  \((.*)\))?$")


def install_release(repo: Path, fixture: Path, *, store: bool = True) -> None:
    """A past release as its install left REPO (FIXTURE: the tree it wrote, as users have
    it): its files byte for byte with their modes, the log folder the hooks make, and, with
    STORE in a git repo, the pristine renders its install kept as merge bases (git's object
    store, under refs/agenthooks/pristine)."""
    for src in sorted(fixture.rglob("*")):
        rel = src.relative_to(fixture)
        if src.is_file() and rel.parts[0] in (".agent", ".claude"):
            (repo / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, repo / rel)
    (repo / ".agent/log").mkdir(exist_ok=True)
    (repo / ".agent/log/memory.log").touch()
    records = json.loads((repo / manifest.PATH).read_text(encoding="utf-8"))["files"]
    pristine = [(repo / rel).read_bytes() for rel, rec in sorted(records.items())
                if manifest.kind(rec) != "config"]
    assert [manifest.blob_id(t) for t in pristine] == \
        [rec["blob"] for _rel, rec in sorted(records.items()) if manifest.kind(rec) != "config"]
    if store:
        assert gitstore.store_blobs(repo, pristine) is None


def install_v0(repo: Path, framework: str = "generic", *, store: bool = True) -> None:
    """The first release (hooks rev 1), as `install --yes` left it (the generic framework),
    or with --framework claude-code."""
    install_release(repo, FIXTURES / ("release_rev1" if framework == "generic" else "release_rev1_claude"),
                    store=store)


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
