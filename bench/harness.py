"""The timing harness of `make bench`: where things are, one process run with as little
harness as possible in the timed interval, interleaved runs, their statistics and the table."""
from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path
from time import perf_counter_ns

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
BASELINES = BENCH / "baselines"
FIXTURES = ROOT / "tests" / "fixtures" / "claude"
BIN = Path(sys.prefix) / "bin"
AGENTHOOKS = BIN / "agenthooks"
PRECOMMIT = BIN / "pre-commit"
BASH = shutil.which("bash") or "/bin/bash"
FRAMEWORK = "claude-code"
SID = "1698e1aa-4d58-45b5-94e7-c1d2567a4876"
CHAR_CAP = 10_000

# ---------------------------------------------------------------------------------------------
# Running one process with as little harness in the timed interval as possible.


def spawn(argv: list[str], stdin: str = "/dev/null", cwd: str | None = None,
          env: dict[str, str] | None = None, stdout: str = "/dev/null") -> tuple[int, int, int]:
    """(wall ns, CPU ns, exit status) of one run: posix_spawn, the STDIN file's bytes on a pipe
    (as hosts hand a hook its payload; written before the run: a payload fits a pipe's buffer),
    output to a file. CPU is user + system time of the process and every child it waited for."""
    data = Path(stdin).read_bytes()
    if len(data) > 65536:  # written before the run starts, so it must fit the pipe
        raise SystemExit(f"bench: {stdin} is over 64 KB, more than a pipe holds unread")
    r, w = os.pipe()
    os.write(w, data)
    os.close(w)
    actions = [
        (os.POSIX_SPAWN_DUP2, r, 0),
        (os.POSIX_SPAWN_CLOSE, r),
        (os.POSIX_SPAWN_OPEN, 1, stdout, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644),
        (os.POSIX_SPAWN_OPEN, 2, "/dev/null", os.O_WRONLY, 0),
    ]
    if cwd:
        os.chdir(cwd)
    t0 = perf_counter_ns()
    pid = os.posix_spawn(argv[0], argv, env if env is not None else os.environ,
                         file_actions=actions)
    _, status, ru = os.wait4(pid, 0)
    t1 = perf_counter_ns()
    os.close(r)
    return t1 - t0, int((ru.ru_utime + ru.ru_stime) * 1e9), os.waitstatus_to_exitcode(status)


class Variant:
    def __init__(self, argv: list[str], stdin: str, cwd: str, env: dict[str, str],
                 setup=None) -> None:  # type: ignore[no-untyped-def]
        self.argv, self.stdin, self.cwd, self.env, self.setup = argv, stdin, cwd, env, setup


def interleave(variants: dict[str, Variant], warmup: int,
               runs: int) -> dict[str, list[tuple[int, int]]]:
    """Round-robin over the variants, rotating the order each round; warm-up runs dropped.
    Each sample is (wall ns, CPU ns)."""
    names = list(variants)
    samples: dict[str, list[tuple[int, int]]] = {n: [] for n in names}
    for r in range(warmup + runs):
        k = r % len(names)
        for name in names[k:] + names[:k]:
            v = variants[name]
            if v.setup:
                v.setup()
            ns, cpu, rc = spawn(v.argv, v.stdin, v.cwd, v.env)
            if rc != 0:
                with open(v.stdin, "rb") as f:
                    again = subprocess.run(v.argv, stdin=f, cwd=v.cwd, env=v.env,
                                           capture_output=True, text=True)
                raise SystemExit(f"bench: {name} exited {rc}: {' '.join(v.argv)}\n"
                                 f"{again.stdout[-1500:]}{again.stderr[-1500:]}")
            if r >= warmup:
                samples[name].append((ns, cpu))
    os.chdir(ROOT)
    return samples


def stats(samples: list[tuple[int, int]]) -> dict[str, float]:
    ms = [w / 1e6 for w, _ in samples]
    cpu = [c / 1e6 for _, c in samples]
    return {"median_ms": statistics.median(ms), "min_ms": min(ms), "max_ms": max(ms),
            "cpu_median_ms": statistics.median(cpu), "n": len(ms)}


def pct(ms: list[float], p: float) -> float:
    s = sorted(ms)
    return s[min(len(s) - 1, max(0, round(p / 100 * len(s) + 0.5) - 1))]


def fmt(st: dict[str, float]) -> str:
    return (f"{st['median_ms']:.2f} ms [{st['min_ms']:.2f}..{st['max_ms']:.2f}]"
            f"  CPU {st['cpu_median_ms']:.2f} ms")


# ---------------------------------------------------------------------------------------------
# The table.


class Table:
    def __init__(self) -> None:
        self.rows: list[dict[str, object]] = []
        self.notes: list[str] = []

    def add(self, section: str, figure: str, measured: str, target: str, ok: bool | None,
            **data: object) -> None:
        result = "info" if ok is None else "PASS" if ok else "FAIL"
        self.rows.append({"section": section, "figure": figure, "measured": measured,
                          "target": target, "result": result, **data})

    def render(self) -> str:
        w1 = max(len(r["figure"]) for r in self.rows)  # type: ignore[arg-type]
        w2 = max(len(r["measured"]) for r in self.rows)  # type: ignore[arg-type]
        w3 = max(len(r["target"]) for r in self.rows)  # type: ignore[arg-type]
        lines, last = [], None
        head = f"{'Figure':<{w1}}  {'Measured':<{w2}}  {'Target':<{w3}}  Result"
        lines += [head, "-" * len(head)]
        for r in self.rows:
            if r["section"] != last:
                if last is not None:
                    lines.append("")
                lines.append(f"[{r['section']}]")
                last = r["section"]
            lines.append(f"{r['figure']:<{w1}}  {r['measured']:<{w2}}  {r['target']:<{w3}}  {r['result']}")
        if self.notes:
            lines += ["", "Notes:"] + [f"- {n}" for n in self.notes]
        return "\n".join(lines)


def ratio_row(t: Table, section: str, figure: str, a: dict, b: dict, limit: float | None,
              what: str) -> None:
    """A's median over B's; held to LIMIT, or shown only (None)."""
    r = a["median_ms"] / b["median_ms"]
    rc = a["cpu_median_ms"] / b["cpu_median_ms"]
    t.add(section, figure, f"{r:.2f}x  ({a['median_ms']:.2f} / {b['median_ms']:.2f} ms)  CPU {rc:.2f}x",
          "" if limit is None else f"<= {limit:g}x {what}", None if limit is None else r <= limit,
          ratio=r, cpu_ratio=rc)
