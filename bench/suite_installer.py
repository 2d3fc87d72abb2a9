"""Bench section 5: agenthooks install against pre-commit install, with profiles."""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

from harness import AGENTHOOKS, BENCH, PRECOMMIT, Table, Variant, fmt, interleave, stats
from lab import Lab, git_init


# ---------------------------------------------------------------------------------------------
# 5. Installer against pre-commit install.


def bench_installer(lab: Lab, t: Table, args: argparse.Namespace, details: dict) -> None:
    sec = "5. installer on a fresh git repo (wall ms, median [min..max])"
    if not PRECOMMIT.exists():
        t.add(sec, "pre-commit", "not installed in the venv", "", False)
        return
    counter = {"n": 0}
    env = {**lab.env, "PRE_COMMIT_HOME": str(lab.tmp / "pre-commit-cache")}

    def fresh(v: Variant, tag: str):  # type: ignore[no-untyped-def]
        def setup() -> None:
            counter["n"] += 1
            repo = lab.tmp / "installs" / f"{tag}-{counter['n']}"
            git_init(repo)
            v.cwd = str(repo)
            if tag == "agenthooks":
                v.argv[-1] = str(repo)
        return setup

    ah = Variant([str(AGENTHOOKS), "install", "--yes", "."], "/dev/null", str(lab.tmp), env)
    ah.setup = fresh(ah, "agenthooks")
    pc = Variant([str(PRECOMMIT), "install"], "/dev/null", str(lab.tmp), env)
    pc.setup = fresh(pc, "pre-commit")
    py = Variant([sys.executable, "-c", "pass"], "/dev/null", str(lab.tmp), env)
    runs = max(15, args.installer_runs)
    s = {k: stats(v) for k, v in interleave({"agenthooks install --yes": ah,
                                             "pre-commit install": pc,
                                             "python -c pass": py}, 2, runs).items()}
    details["installer"] = s
    for name, st in s.items():
        t.add(sec, name, fmt(st), "", None)
    a, b = s["agenthooks install --yes"], s["pre-commit install"]
    r = a["median_ms"] / b["median_ms"]
    t.add(sec, "agenthooks / pre-commit", f"{r:.2f}x  ({a['median_ms']:.0f} / {b['median_ms']:.0f} ms)",
          "<= 1.2x", r <= 1.2, ratio=r)
    details["installer_profile"] = {
        "agenthooks": importtime([sys.executable, "-X", "importtime", str(AGENTHOOKS), "install",
                                  "--yes", str(lab.tmp / "installs" / "profile-ah")], env, lab),
        "pre-commit": importtime([sys.executable, "-X", "importtime", str(PRECOMMIT), "install"],
                                 env, lab, cwd=lab.tmp / "installs" / "profile-pc"),
    }
    prof_repo = lab.tmp / "installs" / "profile-cprofile"
    git_init(prof_repo)
    proc = subprocess.run([sys.executable, str(BENCH / "profile_install.py"), str(prof_repo)],
                          env=env, capture_output=True, text=True)
    try:
        details["installer_cprofile"] = json.loads(proc.stderr.strip().splitlines()[-1])
    except (ValueError, IndexError):
        details["installer_cprofile"] = {"error": proc.stderr[-2000:]}
    if r > 1.2:
        cp = details["installer_cprofile"]
        if "phases_s" in cp:
            phases = ", ".join(f"{k} {v * 1000:.0f}" for k, v in
                               sorted(cp["phases_s"].items(), key=lambda x: -x[1]))
            gits = {}
            for g in cp["git"]:
                gits[g] = gits.get(g, 0) + 1
            t.notes.append(f"agenthooks install under cProfile ({cp['total_s'] * 1000:.0f} ms, "
                           f"inflated by the profiler), cumulative ms: {phases}")
            t.notes.append(f"agenthooks install spawns {len(cp['git'])} git processes: "
                           + ", ".join(f"{k} x{v}" for k, v in gits.items()))
        for tool in ("agenthooks", "pre-commit"):
            prof = details["installer_profile"][tool]
            top = ", ".join(f"{n} {ms:.0f}" for n, ms in prof["top"][:7])
            t.notes.append(f"{tool} imports, ms of self time per package (python -X importtime, "
                           f"one run): {prof['total_ms']:.0f} in all: {top}")


def importtime(argv: list[str], env: dict[str, str], lab: Lab, cwd: Path | None = None) -> dict:
    """One run under python -X importtime: self time (ms) summed per distribution's top-level
    package (the standard library as one group), and the heaviest single imports."""
    repo = cwd or Path(argv[-1])
    git_init(repo)
    proc = subprocess.run(argv, cwd=repo, env=env, capture_output=True, text=True)
    groups: dict[str, float] = {}
    heavy = []
    for line in proc.stderr.splitlines():
        m = re.match(r"import time:\s+(\d+) \|\s+(\d+) \| ( *)(\S+)", line)
        if not m:
            continue
        name, self_ms, cum_ms = m.group(4), int(m.group(1)) / 1000, int(m.group(2)) / 1000
        top = name.split(".")[0]
        key = "stdlib" if top.lstrip("_") in sys.stdlib_module_names or top in sys.stdlib_module_names else top
        groups[key] = groups.get(key, 0.0) + self_ms
        heavy.append((name, cum_ms, len(m.group(3)) // 2))
    top = sorted(groups.items(), key=lambda x: -x[1])
    return {"total_ms": sum(groups.values()), "top": top,
            "heaviest": sorted(heavy, key=lambda x: -x[1])[:25]}
