"""A huge file with no newline (a sparse file, NUL bytes, a log that lost its newlines)
costs no memory: `verify --transcript` on a 1 GB sparse transcript, `status` and `doctor`
on a 200 MB log (and a 200 MB state file) without a newline each peak under 80 MB above the
same run on small files. Peak memory is the child's own (RUSAGE_CHILDREN of a fresh Python
whose only child it is), never a time."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from support.helpers import install, make_repo

LIMIT_MB = 80
START = (b'{"type":"user","sessionId":"s1","message":{"role":"user","content":"go on"}}\n'
         b'{"type":"system","subtype":"compact_boundary","uuid":"b1"}\n')
LOG = b"[2026-01-02 03:04:05] pre_task claude-code s1: memory loaded (120 tokens)\n"


def peak_mb(*args: str) -> tuple[float, str]:
    """The CLI's peak resident memory in MB, and its stderr's end."""
    code = ("import resource, subprocess, sys; "
            "p = subprocess.run([sys.executable, '-m', 'agenthooks', *sys.argv[1:]], "
            "stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE); "
            "sys.stderr.write(p.stderr.decode('utf-8', 'replace')[-800:]); "
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          timeout=600)
    return int(proc.stdout.strip()) / 1024, proc.stderr  # ru_maxrss: KB on Linux


def sparse(path: Path, size: int, head: bytes = b"") -> None:
    with open(path, "wb") as fh:
        fh.write(head)
        fh.truncate(size)


def test_verify_reads_a_1gb_sparse_transcript_in_bounded_memory(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code", "--platform", "linux")
    path = tmp_path / "session.jsonl"
    path.write_bytes(START)
    base, _ = peak_mb("verify", str(repo), "--transcript", str(path))
    sparse(path, 1 << 30, START)
    peak, err = peak_mb("verify", str(repo), "--transcript", str(path))
    assert "Traceback" not in err and "MemoryError" not in err and "unexpected error" not in err, err
    assert peak - base < LIMIT_MB, f"verify peaked at {peak:.0f} MB (base {base:.0f} MB)"


@pytest.mark.parametrize("command", ["status", "doctor"])
@pytest.mark.parametrize("fill", ["sparse", "text"])
def test_status_and_doctor_read_a_log_without_newlines_in_bounded_memory(
        tmp_path: Path, command: str, fill: str) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code", "--platform", "linux")
    log = repo / ".agent/log/memory.log"
    (repo / ".agent/log/memory.log.1").write_bytes(LOG * 3)
    state = repo / ".agent/log/state/s1.state"
    state.parent.mkdir(parents=True, exist_ok=True)
    state.write_bytes(b"v1 3 1000 - - 0\n")
    base, _ = peak_mb(command, str(repo))
    if fill == "sparse":
        sparse(log, 200 << 20)
        sparse(state, 200 << 20)
    else:
        chunk = b"x" * (1 << 20)
        with open(log, "wb") as fh:
            for _ in range(200):
                fh.write(chunk)
        state.write_bytes(b"v1 3 1000 - - 0\n" + b"9" * (50 << 20))
    peak, err = peak_mb(command, str(repo))
    assert "Traceback" not in err and "unexpected error" not in err, err
    assert peak - base < LIMIT_MB, f"{command} peaked at {peak:.0f} MB (base {base:.0f} MB)"


def hook_peak_mb(repo: Path) -> float:
    """pre_task's peak resident memory in MB (bash and every process it waited for)."""
    code = ("import resource, subprocess, sys; "
            "subprocess.run(['bash', '.agent/hooks/pre_task.sh'], cwd=sys.argv[1], "
            "stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    proc = subprocess.run([sys.executable, "-c", code, str(repo)], capture_output=True, text=True,
                          timeout=600)
    return int(proc.stdout.strip()) / 1024


def test_the_block_build_sizes_a_log_without_newlines_in_bounded_memory(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code", "--platform", "linux")
    base = hook_peak_mb(repo)
    sparse(repo / ".agent/log/memory.log", 200 << 20)
    (repo / ".agent/memory/notes.md").write_text("- a new note: the block is built again\n")
    peak = hook_peak_mb(repo)
    assert peak - base < LIMIT_MB, f"pre_task peaked at {peak:.0f} MB (base {base:.0f} MB)"
