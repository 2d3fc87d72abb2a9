"""Bench section 2: the external processes each hook runs (strace -f)."""
from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

from harness import ROOT, SID, Table, Variant, spawn
from lab import Lab, capture, file_setter, state_setter
from suite_latency import statusline


# ---------------------------------------------------------------------------------------------
# 2. External processes per hook (strace).

EXEC_OK = re.compile(r"^(\d+)\s+(?:execve\((\"[^\"]*\")?.*|<\.\.\. execve resumed>.*)\)\s+=\s+0$")
EXEC_START = re.compile(r"^(\d+)\s+execve\(\"([^\"]*)\"")
FORK = re.compile(r"^(\d+)\s+(?:clone3?|vfork|fork)\(.*=\s+(\d+)$|^(\d+)\s+<\.\.\. (?:clone3?|vfork|fork) resumed>.*=\s+(\d+)$")


def trace(v: Variant, out: Path) -> tuple[list[str], int]:
    """Programs the run executed (the bash itself excluded) and how many forks it made."""
    if v.setup:
        v.setup()
    argv = [shutil.which("strace") or "strace", "-f", "-qq", "-o", str(out),
            "-e", "trace=execve,clone,clone3,fork,vfork", *v.argv]
    _, _, rc = spawn(argv, v.stdin, v.cwd, v.env)
    os.chdir(ROOT)
    if rc != 0:
        raise SystemExit(f"bench: strace of {' '.join(v.argv)} exited {rc}")
    progs, started, forks = [], {}, 0
    for line in out.read_text().splitlines():
        m = EXEC_START.match(line)
        if m:
            started[m.group(1)] = m.group(2)
        m = EXEC_OK.match(line)
        if m:
            progs.append(os.path.basename(started.get(m.group(1), "?")))
        if FORK.match(line):
            forks += 1
    return progs[1:], forks


def bench_processes(lab: Lab, t: Table, details: dict) -> None:
    sec = "2. external processes per run (strace -f execve, the bash itself excluded)"
    if not shutil.which("strace"):
        t.add(sec, "strace", "not installed", "", False)
        return
    repo = lab.repo("r2")
    base = lab.baseline_repo("b2")
    p_start = lab.payload(repo, "SessionStart-startup.json")
    p_edit = lab.payload(repo, "PostToolUse-Edit.json")
    p_prompt = lab.payload(repo, "UserPromptSubmit.json")
    b = {n: lab.payload(base, f) for n, f in (("start", "SessionStart-startup.json"),
                                              ("edit", "PostToolUse-Edit.json"),
                                              ("prompt", "UserPromptSubmit.json"))}
    capture(lab.hook(repo, "pre_task", p_start))  # first run scaffolds; measure the steady state
    capture(statusline(lab, repo))  # reads the snapshot's time once
    capture(lab.baseline(base, "pre_task", b["start"]))
    quiet = f"v1 1 {lab.ctx_len} - - 0"
    snap = repo / ".agent/memory/snapshot.md"
    mark = repo / f".agent/log/state/{SID}.remind"

    def stale() -> None:
        old = time.time() - 3600
        os.utime(snap, (old, old))
        mark.unlink(missing_ok=True)

    last_len = base / ".agent/log/last_context_len"
    cases = [
        ("pre_task", lab.hook(repo, "pre_task", p_start), 3),
        # Before post_edit touches the snapshot: the snapshot's time is known (common path).
        ("pre_task --statusline", statusline(lab, repo), 0),
        ("post_edit (no reminder)", lab.hook(repo, "post_edit", p_edit, lambda: os.utime(snap)), 1),
        ("on_compact (nothing detected)", lab.hook(repo, "on_compact", p_prompt,
                                                   state_setter(repo, quiet)), 2),
        ("post_edit (reminder)", lab.hook(repo, "post_edit", p_edit, stale), None),
        ("on_compact (reload)", lab.hook(repo, "on_compact", p_prompt,
                                         state_setter(repo, f"v1 1 {lab.ctx_len} pending - 0")), None),
        ("baseline pre_task", lab.baseline(base, "pre_task", b["start"]), None),
        ("baseline post_edit", lab.baseline(base, "post_edit", b["edit"]), None),
        ("baseline on_compact (nothing detected)", lab.baseline(
            base, "on_compact", b["prompt"], file_setter(last_len, f"{lab.ctx_len}\n"),
            {"AGENT_CONTEXT_LEN": str(lab.ctx_len)}), None),
    ]
    details["processes"] = {}
    for name, v, limit in cases:
        progs, forks = trace(v, lab.tmp / "strace.out")
        details["processes"][name] = {"execve": len(progs), "programs": progs, "forks": forks}
        measured = f"{len(progs)} ({' '.join(progs) or '-'}); {forks} forks"
        t.add(sec, name, measured, f"<= {limit}" if limit is not None else "",
              None if limit is None else len(progs) <= limit)
    os.utime(snap)
