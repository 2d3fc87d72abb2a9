"""Bench section 3: pre_task and its block as memory grows."""
from __future__ import annotations

import argparse

import corpus
from harness import CHAR_CAP, Table, Variant, fmt, interleave, stats
from lab import Lab, block_of, capture, utf16_len

from agenthooks.memory import parse


# ---------------------------------------------------------------------------------------------
# 3. Growth with memory size.


def bench_growth(lab: Lab, t: Table, args: argparse.Namespace, details: dict) -> None:
    sec = f"3. growth with memory size (block from pre_task's output; budget {lab.budget} tokens)"
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
              f"<= {lab.budget} tokens, <= {CHAR_CAP:,} chars",
              toks <= lab.budget and chars <= CHAR_CAP)
    for scale in (1, 10, 100):
        a, b = s[f"pre_task {scale}x"], s[f"baseline pre_task {scale}x"]
        t.add(sec, f"pre_task {scale}x", f"{fmt(a)}; baseline {b['median_ms']:.2f} ms", "", None)
    r = s["pre_task 100x"]["median_ms"] / s["pre_task 1x"]["median_ms"]
    t.add(sec, "pre_task 100x / pre_task 1x", f"{r:.2f}x", "<= 1.5x", r <= 1.5, ratio=r)
    r10 = s["pre_task 10x"]["median_ms"] / s["pre_task 1x"]["median_ms"]
    t.add(sec, "pre_task 10x / pre_task 1x", f"{r10:.2f}x", "", None, ratio=r10)
