"""Archive on a full disk: when the fresh snapshot cannot be written whole, agenthooks archive
moves the old one back and says so in one line; snapshot.md is byte-identical."""
from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

from support.helpers import cli, install, make_repo, SAMPLE_SNAPSHOT, write_memory


def _cli_fsize(*args: str, fsize: int) -> subprocess.CompletedProcess[str]:
    """The real CLI with RLIMIT_FSIZE: every write past fsize bytes fails with EFBIG,
    as on a full disk (Python and bash ignore SIGXFSZ)."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    return subprocess.run([sys.executable, "-m", "agenthooks", *args], input="",
                          capture_output=True, text=True, preexec_fn=limit)


def test_archive_on_a_full_disk_changes_nothing(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code", "--platform", "linux")
    write_memory(repo, snapshot=SAMPLE_SNAPSHOT)
    snap = repo / ".agent" / "memory" / "snapshot.md"
    before = snap.read_bytes()
    proc = _cli_fsize("archive", str(repo), fsize=0)
    assert proc.returncode != 0, proc.stdout
    errors = [ln for ln in proc.stderr.splitlines() if ln.startswith("agenthooks:")]
    # The hook says it (it refuses before anything moves), and the CLI's own line follows.
    assert errors and any("nothing archived" in e for e in errors), proc.stderr
    assert snap.read_bytes() == before
    assert not list((repo / ".agent" / "memory").glob("archive/*"))
    # With room, it archives and the fresh snapshot is whole.
    proc = cli("archive", str(repo))
    assert proc.returncode == 0, proc.stderr
    assert [p.read_bytes() for p in (repo / ".agent/memory/archive").glob("*.md")] == [before]
    assert snap.stat().st_size > 0 and b"## In progress" in snap.read_bytes()
