"""`make bench`: the hooks and the installer measured side by side, as ratios against targets.

Every timed figure comes from interleaved runs (A B C A B C ..., the order rotated each round)
after a warm-up, so that the load other work puts on the machine falls on all sides alike;
only the ratios mean anything. Times are wall clock per invocation, spawn to exit, in ms.

Usage: python bench/run.py [--runs N] [--warmup N] [--agents N] [--loops N] [--keep]
                           [--only SECTIONS] [--instructions-only]
Writes bench/results.json beside this file.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# The suites import the harness, the fixtures and the corpus as top-level modules.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import BASH, BENCH, FRAMEWORK, ROOT, Table  # noqa: E402
from lab import Lab  # noqa: E402
from suite_contention import bench_contention, worker  # noqa: E402
from suite_continuity import bench_continuity  # noqa: E402
from suite_growth import bench_growth  # noqa: E402
from suite_installer import bench_installer  # noqa: E402
from suite_latency import bench_latency  # noqa: E402
from suite_processes import bench_processes  # noqa: E402
from suite_release import bench_release  # noqa: E402



def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=21, help="counted runs per figure (>= 15)")
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--installer-runs", type=int, default=15)
    ap.add_argument("--agents", type=int, default=16)
    ap.add_argument("--loops", type=int, default=20, help="prompts per agent in the contention run")
    ap.add_argument("--only", default="1234567", help="sections to run, e.g. 13 (7: the real agent CLIs)")
    ap.add_argument("--keep", action="store_true", help="keep the scratch folder")
    ap.add_argument("--instructions-only", action="store_true",
                    help="section 6: the callgrind counts alone, no timed runs")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.worker)
        return 0
    if args.runs < 15:
        ap.error("--runs must be at least 15")
    t0 = time.monotonic()
    tmp = Path(tempfile.mkdtemp(prefix="agenthooks-bench-"))
    table = Table()
    details: dict = {}
    try:
        lab = Lab(tmp)
        if "1" in args.only:
            bench_latency(lab, table, args, details)
        if "2" in args.only:
            bench_processes(lab, table, details)
        if "3" in args.only:
            bench_growth(lab, table, args, details)
        if "4" in args.only:
            bench_contention(lab, table, args, details)
        if "5" in args.only:
            bench_installer(lab, table, args, details)
        if "6" in args.only:
            bench_release(lab, table, args, details)
        if "7" in args.only:
            bench_continuity(table, args, details)
    finally:
        os.chdir(ROOT)
        if args.keep:
            print(f"scratch kept in {tmp}", file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    elapsed = time.monotonic() - t0
    meta = {
        "when": time.strftime("%Y-%m-%d %H:%M:%S"), "elapsed_s": round(elapsed, 1),
        "cpus": os.cpu_count(), "machine": platform.machine(), "python": platform.python_version(),
        "bash": subprocess.run([BASH, "-c", "echo $BASH_VERSION"], capture_output=True,
                               text=True).stdout.strip(),
        "awk": os.path.realpath(shutil.which("awk") or "awk"),
        "runs": args.runs, "warmup": args.warmup, "agents": args.agents, "loops": args.loops,
        "framework": FRAMEWORK, "platform": "linux",
        "commit": subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                                 capture_output=True, text=True).stdout.strip(),
        "templates_modified": bool(subprocess.run(
            ["git", "-C", str(ROOT), "status", "--porcelain", "--", "templates"],
            capture_output=True, text=True).stdout.strip()),
    }
    print(f"agenthooks bench: {meta['cpus']} CPUs, bash {meta['bash']}, awk={meta['awk']}; "
          f"{args.runs} interleaved runs after {args.warmup} warm-up per figure; {elapsed:.0f} s; "
          f"commit {meta['commit']}{' + uncommitted template edits' if meta['templates_modified'] else ''}")
    print(table.render())
    fails = [r["figure"] for r in table.rows if r["result"] == "FAIL"]
    print(f"\n{len(fails)} of {sum(1 for r in table.rows if r['result'] != 'info')} targets failed"
          + (": " + "; ".join(fails) if fails else ""))
    (BENCH / "results.json").write_text(json.dumps(
        {"meta": meta, "rows": table.rows, "notes": table.notes, "details": details}, indent=2, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
