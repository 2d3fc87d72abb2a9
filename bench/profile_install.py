"""Where `agenthooks install --yes DIR` spends its time: one run under cProfile, in-process.

Usage: python bench/profile_install.py DIR   (DIR a fresh git repo). Prints JSON: total seconds,
the cumulative seconds of a few known phases, and the git commands the run spawned.
"""
from __future__ import annotations

import cProfile
import json
import pstats
import subprocess
import sys
import time

PHASES = {
    # (file suffix, function name) -> label
    ("typer/_coercion.py", "build_runtime_param"): "typer: parameter coercion (imports pydantic)",
    ("agenthooks/render.py", "plan"): "agenthooks.render.plan (Jinja compiles the templates)",
    ("jinja2/environment.py", "get_template"): "jinja2 get_template",
    ("subprocess.py", "run"): "subprocess.run (git)",
    ("agenthooks/install.py", "run"): "agenthooks.install.run (all the work)",
}


def main() -> int:
    target = sys.argv[1]
    gits: list[str] = []
    real_run = subprocess.run

    def counting_run(args, *a, **kw):  # type: ignore[no-untyped-def]
        if isinstance(args, (list, tuple)) and args and str(args[0]).endswith("git"):
            gits.append(" ".join(str(x) for x in args[3:5] if x))
        return real_run(args, *a, **kw)

    subprocess.run = counting_run  # type: ignore[assignment]
    sys.argv = ["agenthooks", "install", "--yes", target]
    prof = cProfile.Profile()
    t0 = time.perf_counter()
    prof.enable()
    try:
        from agenthooks import cli
        cli.main()
    except SystemExit:
        pass
    finally:
        prof.disable()
    total = time.perf_counter() - t0
    phases: dict[str, float] = {}
    st = pstats.Stats(prof)
    for (path, _line, func), row in st.stats.items():  # type: ignore[attr-defined]
        for (suffix, name), label in PHASES.items():
            if func == name and path.endswith(suffix):
                phases[label] = phases.get(label, 0.0) + row[3]
    json.dump({"total_s": total, "phases_s": phases, "git": gits}, sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
