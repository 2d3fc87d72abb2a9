"""`make bench` section 6: this release's hooks beside two past renders for linux and Claude
Code, on the same payloads: instructions per run (callgrind, deterministic), then wall time
as ratios to `bash -c :` and to each other from one interleaved run.

Held: at or below 45f2af4 (bench/45f2af4/: the hooks just before many agents per repo came
in: release 9 with the compaction's shaping, the new hosts and the hardening, without memory
found from the cwd, boards per branch, the changed-under-you line and subagents).
Shown, not held: c583b18 (bench/c583b18/: hooks rev 6, the last release before the hooks'
library), a reference for what the library, the guard and every feature since cost a run
(docs/performance.md, "On what Claude Code sends, and the quiet paths against c583b18,
settled"). The payloads are piped, their keys in Claude Code's order (bench/lab.py)."""
from __future__ import annotations

import argparse
import shutil
import subprocess
from pathlib import Path

import callgrind
from harness import BASH, BENCH, FRAMEWORK, Table, Variant, interleave, ratio_row, stats
from lab import Lab, capture, git_init, state_setter, write_corpus

PAST = BENCH / "c583b18"  # .agent/hooks/ and config.yaml as c583b18 rendered them
BEFORE_AGENTS = BENCH / "45f2af4"  # and as 45f2af4 rendered them (with lib/)
HELD = "45f2af4"
# Against 45f2af4 the instruction counts are held to 1.00; the wall ratios of one run to 1.02,
# the noise of a median of 21 runs on a quiet machine.
BEFORE_LIMIT = 1.02
PATHS = ("pre_task", "post_edit", "on_compact quiet", "on_compact quiet, 48 state lines",
         "on_compact quiet, transcript", "pre_task --statusline")


def past_repo(lab: Lab, name: str, past: Path = PAST) -> Path:
    """A repo holding a past render's hooks and config.yaml (c583b18's), with the same corpus."""
    repo = lab.tmp / name
    git_init(repo)
    shutil.copytree(past / "hooks", repo / ".agent" / "hooks")
    shutil.copy(past / "config.yaml", repo / ".agent" / "config.yaml")
    (repo / ".agent" / "log").mkdir()
    write_corpus(repo, 1)
    subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
    return repo


def figures(lab: Lab, repo: Path, tag: str) -> dict[str, Variant]:
    start = lab.payload(repo, "SessionStart-startup.json")
    edit = lab.payload(repo, "PostToolUse-Edit.json")
    prompt = lab.payload(repo, "UserPromptSubmit.json")
    quiet = f"v1 1 {lab.ctx_len} - - 0"
    capture(lab.hook(repo, "pre_task", start))
    capture(lab.hook(repo, "post_edit", edit))
    quiet_env = repo.with_name(repo.name + "-env")
    shutil.copytree(repo, quiet_env, symlinks=True)
    env_len = {"AGENT_CONTEXT_LEN": str(lab.ctx_len)}
    line = Variant([BASH, str(repo / ".agent/hooks/pre_task.sh"), FRAMEWORK, "--statusline"],
                   lab.payload(repo, "statusline.json"), str(repo), {**lab.env, "CLAUDECODE": "1"})
    capture(line)  # the first status line records the snapshot's time
    return {
        f"pre_task {tag}": lab.hook(repo, "pre_task", start),
        f"post_edit {tag}": lab.hook(repo, "post_edit", edit),
        f"on_compact quiet {tag}": lab.hook(quiet_env, "on_compact", lab.payload(quiet_env, "UserPromptSubmit.json"),
                                            state_setter(quiet_env, quiet), env_len),
        # The state grows a line a prompt until it is rewritten (past 64): halfway there.
        f"on_compact quiet, 48 state lines {tag}": lab.hook(
            quiet_env, "on_compact", lab.payload(quiet_env, "UserPromptSubmit.json"),
            state_setter(quiet_env, "\n".join([quiet] * 48)), env_len),
        f"on_compact quiet, transcript {tag}": lab.hook(repo, "on_compact", prompt, state_setter(repo, quiet)),
        f"pre_task --statusline {tag}": line,
    }


def bench_release(lab: Lab, t: Table, args: argparse.Namespace, details: dict) -> None:
    new = lab.repo("r6-new")
    old = past_repo(lab, "r6-old")
    variants = {"bash -c :": Variant([BASH, "-c", ":"], "/dev/null", str(new), lab.env),
                **figures(lab, new, "now"), **figures(lab, old, "c583b18")}
    sec = f"6. the quiet paths, held to {HELD}, beside c583b18 (instructions per run, callgrind)"
    before = figures(lab, past_repo(lab, "r6-pre", BEFORE_AGENTS), HELD)
    if callgrind.available():
        counts = {k: callgrind.instructions(v) for k, v in {**variants, **before}.items()}
        details["release_instructions"] = counts
        t.add(sec, "bash -c :", f"{counts['bash -c :'] / 1e6:.2f} M", "", None)
        for base in ("c583b18", HELD):
            for name in PATHS:
                now, past = counts[f"{name} now"], counts[f"{name} {base}"]
                label = name if base == "c583b18" else f"{name} (against {base})"
                t.add(sec, label, f"{now / 1e6:.2f} M ({base} {past / 1e6:.2f} M, {now / past:.2f}x)",
                      f"<= {base}" if base == HELD else "", now <= past if base == HELD else None,
                      now=now, past=past)
    else:
        t.add(sec, "valgrind", "not installed (apt-get install valgrind)", "", False)
    if args.instructions_only:
        return
    s = {k: stats(v) for k, v in interleave({**variants, **before}, args.warmup, args.runs).items()}
    details["release"] = s
    sec = f"6. the quiet paths, held to {HELD}, beside c583b18 (wall: ratios of medians, same run)"
    for name in PATHS:
        now, past, floor = s[f"{name} now"], s[f"{name} c583b18"], s["bash -c :"]
        t.add(sec, f"{name} / bash -c :", f"now {now['median_ms'] / floor['median_ms']:.2f}x, "
              f"c583b18 {past['median_ms'] / floor['median_ms']:.2f}x", "", None)
        ratio_row(t, sec, f"{name}: now / c583b18", now, past, None, "c583b18")
    for name in PATHS:
        ratio_row(t, sec, f"{name}: now / {HELD}", s[f"{name} now"], s[f"{name} {HELD}"], BEFORE_LIMIT, HELD)
