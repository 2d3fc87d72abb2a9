"""The real CLI under limits, for the promise files on the CLI's hostile hosts and files."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from support.helpers import git, install, make_repo


def _committed(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path, "origin")
    install(repo, "--framework", "claude-code", "--platform", "linux")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "agenthooks")
    return repo


def _peak_rss_mb(*args: str) -> float:
    """The CLI's peak resident memory, in MB: run from a fresh Python whose only child it
    is, read from that Python's RUSAGE_CHILDREN."""
    code = ("import resource, subprocess, sys; "
            "p = subprocess.run([sys.executable, '-m', 'agenthooks', *sys.argv[1:]], "
            "stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE); "
            "sys.stderr.write(p.stderr.decode()[-500:]); "
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True)
    assert "Traceback" not in proc.stderr, proc.stderr
    return int(proc.stdout.strip()) / 1024  # ru_maxrss is in KB on Linux
