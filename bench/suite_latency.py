"""Bench section 1: hook latency against the baselines and `bash -c :`."""
from __future__ import annotations

import argparse
from pathlib import Path

from harness import BASH, FRAMEWORK, Table, Variant, fmt, interleave, ratio_row, stats
from lab import Lab, capture, file_setter, state_setter


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
