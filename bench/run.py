"""`make bench`: the hooks and the installer measured side by side, as ratios against targets.

Every timed figure comes from interleaved runs (A B C A B C ..., the order rotated each round)
after a warm-up, so that the load other work puts on the machine falls on all sides alike;
only the ratios mean anything. Times are wall clock per invocation, spawn to exit, in ms.

Usage: python bench/run.py [--runs N] [--warmup N] [--agents N] [--loops N] [--keep]
Writes bench/results.json beside this file.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from time import perf_counter_ns

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus  # noqa: E402

from agenthooks import config  # noqa: E402
from agenthooks.memory import parse  # noqa: E402

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
BUDGET_TOKENS = config.DEFAULTS["budget_tokens"]  # overwritten from the installed config.yaml
CHAR_CAP = 10_000

# ---------------------------------------------------------------------------------------------
# Running one process with as little harness in the timed interval as possible.


def spawn(argv: list[str], stdin: str = "/dev/null", cwd: str | None = None,
          env: dict[str, str] | None = None, stdout: str = "/dev/null") -> tuple[int, int, int]:
    """(wall ns, CPU ns, exit status) of one run: posix_spawn, stdin from a file, output to a
    file. CPU is user + system time of the process and every child it waited for."""
    actions = [
        (os.POSIX_SPAWN_OPEN, 0, stdin, os.O_RDONLY, 0),
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
# Fixtures: an installed repo with a generated corpus, payloads, and baseline repos.


class Lab:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.home = tmp / "home"
        self.home.mkdir()
        self.env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(self.home),
                    "LANG": "C.UTF-8"}
        self.template = tmp / "installed"
        git_init(self.template)
        proc = subprocess.run([str(AGENTHOOKS), "install", "--yes", "-f", FRAMEWORK, "-p", "linux",
                               str(self.template)], capture_output=True, text=True)
        if proc.returncode != 0:
            raise SystemExit(f"bench: agenthooks install failed:\n{proc.stdout}{proc.stderr}")
        global BUDGET_TOKENS
        budget = config.read(self.template / ".agent/config.yaml")["budget_tokens"]
        BUDGET_TOKENS = budget if isinstance(budget, int) else BUDGET_TOKENS
        self.transcript = tmp / "transcript.jsonl"
        text, self.ctx_len = corpus.transcript(SID, str(self.template))
        self.transcript.write_text(text, encoding="utf-8")

    def repo(self, name: str, scale: int = 1) -> Path:
        repo = self.tmp / name
        shutil.copytree(self.template, repo, symlinks=True)
        write_corpus(repo, scale)
        return repo

    def baseline_repo(self, name: str, scale: int = 1) -> Path:
        repo = self.tmp / name
        (repo / ".agent" / "hooks").mkdir(parents=True)
        (repo / ".agent" / "log").mkdir()
        for f in BASELINES.glob("*.sh"):
            shutil.copy(f, repo / ".agent" / "hooks" / f.name)
        write_corpus(repo, scale)
        return repo

    def payload(self, repo: Path, fixture: str, sid: str = SID, **extra: str) -> str:
        obj = json.loads((FIXTURES / fixture).read_text(encoding="utf-8"))
        obj["cwd"] = str(repo)
        obj["session_id"] = sid
        obj["transcript_path"] = str(self.transcript)
        if "tool_input" in obj:
            obj["tool_input"]["file_path"] = str(repo / "src" / "service.py")
        if isinstance(obj.get("tool_response"), dict) and "filePath" in obj["tool_response"]:
            obj["tool_response"]["filePath"] = str(repo / "src" / "service.py")
        obj.update(extra)
        path = self.tmp / "payloads" / f"{repo.name}-{sid}-{fixture}"
        path.parent.mkdir(exist_ok=True)
        # Hosts send one line of compact JSON.
        path.write_text(json.dumps(obj, separators=(",", ":")), encoding="utf-8")
        return str(path)

    def hook(self, repo: Path, hook: str, payload: str, setup=None, env=None) -> Variant:  # type: ignore[no-untyped-def]
        return Variant([BASH, str(repo / ".agent/hooks" / f"{hook}.sh"), FRAMEWORK], payload,
                       str(repo), {**self.env, **(env or {})}, setup)

    def baseline(self, repo: Path, hook: str, payload: str, setup=None, env=None) -> Variant:  # type: ignore[no-untyped-def]
        return Variant([BASH, f".agent/hooks/{hook}.sh"], payload, str(repo),
                       {**self.env, **(env or {})}, setup)


def git_init(path: Path) -> None:
    path.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True)


def write_corpus(repo: Path, scale: int) -> None:
    mem = repo / ".agent" / "memory"
    mem.mkdir(parents=True, exist_ok=True)
    for name, text in corpus.corpus(scale).items():
        (mem / f"{name}.md").write_text(text, encoding="utf-8")


def state_setter(repo: Path, line: str):  # type: ignore[no-untyped-def]
    """A setup step that puts the session's on_compact state back to one known line."""
    path = repo / ".agent" / "log" / "state" / f"{SID}.state"

    def setup() -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(line + "\n")
    return setup


def file_setter(path: Path, text: str):  # type: ignore[no-untyped-def]
    def setup() -> None:
        path.write_text(text)
    return setup


def block_of(stdout: str) -> str:
    """The memory block a hook printed: the additionalContext of its JSON, or the plain text."""
    try:
        return json.loads(stdout)["hookSpecificOutput"]["additionalContext"]
    except (ValueError, KeyError, TypeError):
        return stdout


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def capture(v: Variant) -> str:
    out = Path(v.cwd) / ".bench-out"
    if v.setup:
        v.setup()
    _, _, rc = spawn(v.argv, v.stdin, v.cwd, v.env, stdout=str(out))
    os.chdir(ROOT)
    text = out.read_text(encoding="utf-8", errors="replace")
    out.unlink()
    if rc != 0:
        raise SystemExit(f"bench: {' '.join(v.argv)} exited {rc}")
    return text


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


def ratio_row(t: Table, section: str, figure: str, a: dict, b: dict, limit: float,
              what: str) -> None:
    r = a["median_ms"] / b["median_ms"]
    rc = a["cpu_median_ms"] / b["cpu_median_ms"]
    t.add(section, figure, f"{r:.2f}x  ({a['median_ms']:.2f} / {b['median_ms']:.2f} ms)  CPU {rc:.2f}x",
          f"<= {limit:g}x {what}", r <= limit, ratio=r, cpu_ratio=rc)


# ---------------------------------------------------------------------------------------------
# 1. Hook latency against baselines.


def notes_toggler(repo: Path):  # type: ignore[no-untyped-def]
    """A setup step that edits notes.md before each run, so that every run builds the block."""
    path = repo / ".agent" / "memory" / "notes.md"
    texts = [path.read_text(encoding="utf-8")]
    texts.append(texts[0] + "- one more note, so that the block changes\n")
    turn = [0]

    def setup() -> None:
        turn[0] ^= 1
        path.write_text(texts[turn[0]], encoding="utf-8")
    return setup


def statusline(lab: Lab, repo: Path) -> Variant:
    """pre_task.sh --statusline with the statusLine JSON Claude Code 2.1.197 sends."""
    return Variant([BASH, str(repo / ".agent/hooks/pre_task.sh"), FRAMEWORK, "--statusline"],
                   lab.payload(repo, "statusline.json"), str(repo), lab.env)


def bench_latency(lab: Lab, t: Table, args: argparse.Namespace, details: dict) -> None:
    sec = "1. hook latency (wall ms per run, median [min..max])"
    # One repo per figure, so that no figure's writes change another's path.
    r = {name: lab.repo(f"r1-{name}") for name in
         ("start", "changed", "edit", "quiet", "quiet-env", "reload", "reload-env", "biglog")}
    base = lab.baseline_repo("b1")
    log = r["biglog"] / ".agent/log/memory.log"
    line = "[2025-06-11 10:00:00] pre_task: memory loaded: tattoo=22 lines snapshot=60 lines notes=5/200, ~480 tokens of 500, 2400 chars\n"
    big = line * (250 * 1024 // len(line))
    p = {name: {k: lab.payload(repo, f) for k, f in (("start", "SessionStart-startup.json"),
                                                    ("edit", "PostToolUse-Edit.json"),
                                                    ("prompt", "UserPromptSubmit.json"))}
         for name, repo in r.items()}
    b_start = lab.payload(base, "SessionStart-startup.json")
    b_edit = lab.payload(base, "PostToolUse-Edit.json")
    b_prompt = lab.payload(base, "UserPromptSubmit.json")
    quiet = f"v1 1 {lab.ctx_len} - - 0"
    pend = f"v1 1 {lab.ctx_len} pending - 0"
    last_len = base / ".agent/log/last_context_len"
    env_len = {"AGENT_CONTEXT_LEN": str(lab.ctx_len)}
    # pre_task runs first in every session; later runs see a steady state.
    for name, repo in r.items():
        capture(lab.hook(repo, "pre_task", p[name]["start"]))
        capture(lab.hook(repo, "post_edit", p[name]["edit"]))
    capture(lab.baseline(base, "pre_task", b_start))
    variants = {
        "bash -c :": Variant([BASH, "-c", ":"], p["start"]["prompt"], str(r["start"]), lab.env),
        "pre_task": lab.hook(r["start"], "pre_task", p["start"]["start"]),
        "pre_task, memory changed": lab.hook(r["changed"], "pre_task", p["changed"]["start"],
                                             notes_toggler(r["changed"])),
        "baseline pre_task": lab.baseline(base, "pre_task", b_start),
        "post_edit": lab.hook(r["edit"], "post_edit", p["edit"]["edit"]),
        "baseline post_edit": lab.baseline(base, "post_edit", b_edit),
        "on_compact quiet": lab.hook(r["quiet-env"], "on_compact", p["quiet-env"]["prompt"],
                                     state_setter(r["quiet-env"], quiet), env_len),
        "baseline on_compact quiet": lab.baseline(base, "on_compact", b_prompt,
                                                  file_setter(last_len, f"{lab.ctx_len}\n"),
                                                  env_len),
        "on_compact quiet, transcript": lab.hook(r["quiet"], "on_compact", p["quiet"]["prompt"],
                                                 state_setter(r["quiet"], quiet)),
        "on_compact reload (pending flag)": lab.hook(r["reload"], "on_compact",
                                                     p["reload"]["prompt"],
                                                     state_setter(r["reload"], pend)),
        "on_compact reload (AGENT_CONTEXT_LEN drop)": lab.hook(
            r["reload-env"], "on_compact", p["reload-env"]["prompt"],
            state_setter(r["reload-env"], quiet), {"AGENT_CONTEXT_LEN": str(lab.ctx_len // 4)}),
        "baseline on_compact reload": lab.baseline(base, "on_compact", b_prompt,
                                                   file_setter(last_len, f"{lab.ctx_len}\n"),
                                                   {"AGENT_CONTEXT_LEN": str(lab.ctx_len // 4)}),
        "pre_task, memory.log at 250 KB": lab.hook(r["biglog"], "pre_task", p["biglog"]["start"],
                                                   file_setter(log, big)),
        "pre_task --statusline": statusline(lab, r["start"]),
    }
    s = {k: stats(v) for k, v in interleave(variants, args.warmup, args.runs).items()}
    details["latency"] = s
    for name in variants:
        t.add(sec, name, fmt(s[name]), "", None)
    sec = "1. hook latency ratios (ratio of medians, same run)"
    ratio_row(t, sec, "pre_task / baseline pre_task", s["pre_task"], s["baseline pre_task"],
              0.35, "baseline")
    ratio_row(t, sec, "pre_task / bash -c :", s["pre_task"], s["bash -c :"], 4, "bash -c :")
    ratio_row(t, sec, "post_edit / baseline post_edit", s["post_edit"], s["baseline post_edit"],
              0.5, "baseline")
    # The floor is a bash that does nothing: on_compact runs on every prompt.
    ratio_row(t, sec, "on_compact quiet / bash -c :", s["on_compact quiet"], s["bash -c :"],
              2.0, "bash -c :")
    # What Claude Code runs on every prompt: the length from a ~350 KB transcript's tail.
    ratio_row(t, sec, "on_compact quiet, transcript / bash -c :",
              s["on_compact quiet, transcript"], s["bash -c :"], 3.0, "bash -c :")
    # Claude Code runs the status line command every few hundred milliseconds.
    ratio_row(t, sec, "pre_task --statusline / bash -c :", s["pre_task --statusline"],
              s["bash -c :"], 2.0, "bash -c :")
    info = [("on_compact quiet", "baseline on_compact quiet"),
            ("pre_task, memory changed", "baseline pre_task"),
            ("pre_task, memory changed", "bash -c :"),
            ("on_compact quiet, transcript", "baseline on_compact quiet"),
            # The floor: a bash hook that does nothing at all, against the same baseline.
            ("bash -c :", "baseline on_compact quiet"),
            ("bash -c :", "baseline post_edit"),
            ("on_compact reload (pending flag)", "baseline on_compact reload"),
            ("pre_task, memory.log at 250 KB", "pre_task")]
    info += [(name, "bash -c :") for name in ("post_edit", "on_compact reload (pending flag)")]
    for a, b in info:
        q = s[a]["median_ms"] / s[b]["median_ms"]
        t.add(sec, f"{a} / {b}", f"{q:.2f}x", "", None, ratio=q)


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


# ---------------------------------------------------------------------------------------------
# 3. Growth with memory size.


def bench_growth(lab: Lab, t: Table, args: argparse.Namespace, details: dict) -> None:
    sec = f"3. growth with memory size (block from pre_task's output; budget {BUDGET_TOKENS} tokens)"
    variants: dict[str, Variant] = {}
    blocks = {}
    for scale in (1, 10, 100):
        repo = lab.repo(f"r3-{scale}x", scale)
        base = lab.baseline_repo(f"b3-{scale}x", scale)
        hv = lab.hook(repo, "pre_task", lab.payload(repo, "SessionStart-startup.json"))
        bv = lab.baseline(base, "pre_task", lab.payload(base, "SessionStart-startup.json"))
        blocks[scale] = (block_of(capture(hv)), capture(bv))
        variants[f"pre_task {scale}x"] = hv
        variants[f"baseline pre_task {scale}x"] = bv
    s = {k: stats(v) for k, v in interleave(variants, args.warmup, args.runs).items()}
    details["growth"] = {"timing": s, "blocks": {}}
    for scale, (block, bblock) in blocks.items():
        mem = sum(len(x) for x in corpus.corpus(scale).values())
        chars, toks = utf16_len(block), parse.text_tokens(block)
        bchars, btoks = utf16_len(bblock), parse.text_tokens(bblock)
        details["growth"]["blocks"][f"{scale}x"] = {
            "memory_chars": mem, "block_chars": chars, "block_tokens": toks,
            "baseline_chars": bchars, "baseline_tokens": btoks}
        t.add(sec, f"block {scale}x (memory {mem:,} chars)",
              f"{chars:,} chars ~{toks:,} tokens (baseline {bchars:,} chars ~{btoks:,} tokens)",
              f"<= {BUDGET_TOKENS} tokens, <= {CHAR_CAP:,} chars",
              toks <= BUDGET_TOKENS and chars <= CHAR_CAP)
    for scale in (1, 10, 100):
        a, b = s[f"pre_task {scale}x"], s[f"baseline pre_task {scale}x"]
        t.add(sec, f"pre_task {scale}x", f"{fmt(a)}; baseline {b['median_ms']:.2f} ms", "", None)
    r = s["pre_task 100x"]["median_ms"] / s["pre_task 1x"]["median_ms"]
    t.add(sec, "pre_task 100x / pre_task 1x", f"{r:.2f}x", "<= 1.5x", r <= 1.5, ratio=r)
    r10 = s["pre_task 10x"]["median_ms"] / s["pre_task 1x"]["median_ms"]
    t.add(sec, "pre_task 10x / pre_task 1x", f"{r10:.2f}x", "", None, ratio=r10)


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
        procs.append(subprocess.Popen([sys.executable, __file__, "--worker", str(sp)],
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


# ---------------------------------------------------------------------------------------------


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=21, help="counted runs per figure (>= 15)")
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--installer-runs", type=int, default=15)
    ap.add_argument("--agents", type=int, default=16)
    ap.add_argument("--loops", type=int, default=20, help="prompts per agent in the contention run")
    ap.add_argument("--only", default="12345", help="sections to run, e.g. 13")
    ap.add_argument("--keep", action="store_true", help="keep the scratch folder")
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
