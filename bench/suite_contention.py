"""Bench section 4: N agents running the hooks in one repo at once."""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

from harness import BASH, BENCH, FRAMEWORK, SID, Table, pct, spawn
from lab import Lab


# ---------------------------------------------------------------------------------------------
# 4. Contention: N agents in one repo.


def worker(spec_path: str) -> None:
    """One agent: pre_task at session start and every fifth prompt (another session starting),
    per prompt on_compact and two edits. Prints {hook: [ns, ...]}."""
    spec = json.loads(Path(spec_path).read_text())
    env = spec["env"]
    hooks = spec["hooks"]
    out: dict[str, list[int]] = {"pre_task": [], "on_compact": [], "post_edit": []}

    def run(hook: str, payload: str) -> None:
        ns, _, rc = spawn([BASH, hooks[hook], FRAMEWORK], payload, spec["cwd"], env)
        if rc != 0:
            out.setdefault("failed", []).append(rc)  # type: ignore[arg-type]
        out[hook].append(ns)

    while time.time() < spec["start_at"]:
        time.sleep(0.005)
    run("pre_task", spec["payloads"]["start"])
    for i in range(spec["loops"]):
        run("on_compact", spec["payloads"]["prompt"])
        run("post_edit", spec["payloads"]["edit"])
        run("post_edit", spec["payloads"]["edit"])
        if i % 5 == 4:
            run("pre_task", spec["payloads"]["start"])
    print(json.dumps(out))


def bench_contention(lab: Lab, t: Table, args: argparse.Namespace, details: dict) -> None:
    sec = f"4. contention: {args.agents} agents in one repo, {args.loops} prompts each (ms)"
    repo = lab.repo("r4")
    snap = repo / ".agent/memory/snapshot.md"
    old = time.time() - 3600
    os.utime(snap, (old, old))  # stale: each session takes the lock once to remind
    log = repo / ".agent/log/memory.log"
    log.write_text("")
    procs = []
    start_at = time.time() + 1.0 + 0.05 * args.agents
    for a in range(args.agents):
        sid = f"bench-agent-{a:02d}-{SID[:8]}"
        spec = {
            "env": lab.env, "cwd": str(repo), "loops": args.loops, "start_at": start_at,
            "hooks": {h: str(repo / ".agent/hooks" / f"{h}.sh")
                      for h in ("pre_task", "on_compact", "post_edit")},
            "payloads": {
                "start": lab.payload(repo, "SessionStart-startup.json", sid),
                "prompt": lab.payload(repo, "UserPromptSubmit.json", sid),
                "edit": lab.payload(repo, "PostToolUse-Edit.json", sid),
            },
        }
        sp = lab.tmp / f"agent-{a}.json"
        sp.write_text(json.dumps(spec))
        procs.append(subprocess.Popen([sys.executable, str(BENCH / "run.py"), "--worker", str(sp)],
                                      stdout=subprocess.PIPE, text=True))
    results = []
    for p in procs:
        out, _ = p.communicate()
        if p.returncode != 0:
            raise SystemExit("bench: a contention worker failed")
        results.append(json.loads(out))
    lines = log.read_text(encoding="utf-8", errors="replace").splitlines()
    skipped = sum(1 for ln in lines if "skipped writes" in ln or "skipped the reminder" in ln)
    errors = sum(1 for ln in lines if "internal error" in ln)
    failed = sum(len(r.get("failed", [])) for r in results)
    reloads = sum(1 for ln in lines if "on_compact: compaction detected" in ln)
    reminders = sum(1 for ln in lines if "reminded the agent" in ln)
    injected = (repo / ".agent/injected_context.txt").read_text(encoding="utf-8")
    intact = injected.startswith("===== AGENT MEMORY BEGIN") and \
        injected.rstrip("\n").endswith("===== AGENT MEMORY END =====")
    bad_state = 0
    for sf in (repo / ".agent/log/state").glob("*.state"):
        for ln in sf.read_text().splitlines():
            if not re.fullmatch(r"v1 \d+ \d+ \S+ \S+ [01]", ln):
                bad_state += 1
    details["contention"] = {"skipped": skipped, "internal_errors": errors, "failed_runs": failed,
                             "reloads": reloads, "reminders": reminders,
                             "bad_state_lines": bad_state, "injected_intact": intact, "hooks": {}}
    for hook in ("pre_task", "on_compact", "post_edit"):
        ms = [x / 1e6 for r in results for x in r[hook]]
        p50, p99 = pct(ms, 50), pct(ms, 99)
        details["contention"]["hooks"][hook] = {"n": len(ms), "p50_ms": p50, "p99_ms": p99,
                                                "max_ms": max(ms)}
        t.add(sec, f"{hook} p50 / p99 ({len(ms)} runs)", f"{p50:.1f} / {p99:.1f} ms (max {max(ms):.1f})",
              "p99 <= 1000 ms", p99 <= 1000)
    t.add(sec, "runs that skipped writes (memory.log)", f"{skipped}", "0", skipped == 0)
    t.add(sec, "internal errors / nonzero exits", f"{errors} / {failed}", "0 / 0",
          errors == 0 and failed == 0)
    t.add(sec, "torn state lines / injected_context intact", f"{bad_state} / {'yes' if intact else 'no'}",
          "0 / yes", bad_state == 0 and intact)
    t.add(sec, "reloads / reminders logged", f"{reloads} / {reminders}", "", None)
