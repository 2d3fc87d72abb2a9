"""Shallow clones: a same-version install in a clone --depth 1, where the merge base is
missing, keeps the user's edited hook exactly as a full clone does."""
from __future__ import annotations

from pathlib import Path

from support.cli_runs import _committed
from support.helpers import cli, git


def test_shallow_clone_reinstalls_an_edited_hook_like_a_full_clone(tmp_path: Path) -> None:
    origin = _committed(tmp_path)
    hook = origin / ".agent/hooks/post_edit.sh"
    hook.write_bytes(hook.read_bytes() + b"# my edit\n")
    git(origin, "commit", "-qam", "edit the hook")
    verdicts = []
    for name, depth in (("full", ()), ("shallow", ("--depth", "1"))):
        dest = tmp_path / name
        git(tmp_path, "clone", "-q", *depth, f"file://{origin}", str(dest))
        proc = cli("install", "--yes", str(dest), "--framework", "claude-code",
                   "--platform", "linux")
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert not list(dest.rglob("*.agenthooks-new"))
        assert (dest / ".agent/hooks/post_edit.sh").read_bytes().endswith(b"# my edit\n")
        verdicts.append([ln for ln in proc.stdout.splitlines() if "post_edit.sh" in ln])
    assert verdicts[0] == verdicts[1] and "edited by you" in verdicts[0][0], verdicts
