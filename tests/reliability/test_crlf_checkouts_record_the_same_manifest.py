"""CRLF checkouts: install in a core.autocrlf=true clone records the manifest the LF side
committed, and a file whose only change is its line endings counts as pristine."""
from __future__ import annotations

from pathlib import Path

from support.cli_runs import _committed
from support.helpers import git, install


def test_crlf_and_lf_checkouts_record_the_same_manifest(tmp_path: Path) -> None:
    origin = _committed(tmp_path)
    manifest = ".agent/.agenthooks.json"
    committed = (origin / manifest).read_bytes()
    crlf = tmp_path / "crlf"
    git(tmp_path, "clone", "-q", "-c", "core.autocrlf=true", str(origin), str(crlf))
    assert b"\r\n" in (crlf / ".claude/settings.json").read_bytes()  # the case is real
    install(crlf, "--framework", "claude-code", "--platform", "linux")
    # The same manifest as committed (in git's view: the checkout converts line ends).
    assert (crlf / manifest).read_bytes().replace(b"\r\n", b"\n") == committed
    assert git(crlf, "status", "--porcelain", "--", manifest).stdout == ""
    # A hook whose only change is its line endings is pristine: updated, not merged.
    hook = origin / ".agent/hooks/post_edit.sh"
    hook.write_bytes(hook.read_bytes().replace(b"\n", b"\r\n"))
    proc = install(origin, "--framework", "claude-code", "--platform", "linux")
    assert "conflict" not in proc.stdout and "merge" not in proc.stdout, proc.stdout
    assert b"\r\n" not in hook.read_bytes()
    assert (origin / manifest).read_bytes() == committed
