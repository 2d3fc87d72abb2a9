"""Instructions per hook run, counted by valgrind's callgrind: the same count on every run,
whatever else the machine is doing, so two renders compare to the instruction."""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from harness import ROOT, Variant


def available() -> bool:
    return shutil.which("valgrind") is not None


def instructions(v: Variant) -> int:
    """Instructions of one run of v (its setup first): the bash and every subshell it forks.
    A program it execs (tail, stat, awk) is not counted: the process counts say how many."""
    if v.setup:
        v.setup()
    with tempfile.TemporaryDirectory(prefix="agenthooks-cg-") as tmp:
        argv = [shutil.which("valgrind") or "valgrind", "--tool=callgrind", "--trace-children=no",
                f"--callgrind-out-file={tmp}/cg.%p", *v.argv]
        # The payload on a pipe, as hosts hand it to a hook (bash reads a pipe otherwise than a file).
        proc = subprocess.run(argv, input=Path(v.stdin).read_bytes(), cwd=v.cwd, env=v.env, capture_output=True)
        os.chdir(ROOT)
        if proc.returncode != 0:
            raise SystemExit(f"bench: callgrind of {' '.join(v.argv)} exited {proc.returncode}:\n"
                             f"{proc.stderr.decode(errors='replace')[-1500:]}")
        total = 0
        for out in Path(tmp).glob("cg.*"):
            for line in out.read_text(errors="replace").splitlines():
                if line.startswith("summary:"):
                    total += int(line.split()[1])
        return total
