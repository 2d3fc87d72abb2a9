"""`make bench` section 6: this release's hooks against rev 6's, the release before the hooks'
library (tests/fixtures/templates_v3), side by side in one run, each as a ratio to `bash -c :`
and to the other, so that a change of layout cannot slow the hot paths unseen."""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
from pathlib import Path

from harness import AGENTHOOKS, BASH, FRAMEWORK, ROOT, Table, Variant, interleave, ratio_row, stats
from lab import Lab, capture, git_init, state_setter, write_corpus

LAST = ROOT / "tests" / "fixtures" / "templates_v3"  # hooks rev 6
# The readable layout's price against rev 6, the release before the hooks' library: 0.5 to
# 1.2 ms a run, 1.13x to 1.27x (docs/performance.md says where it goes). The limit keeps it
# there: a change that slows a hot path further fails this section.
LIMIT = 1.30


def release_repo(lab: Lab, name: str) -> Path:
    """A repo installed with rev 6's templates and the same corpus."""
    repo = lab.tmp / name
    git_init(repo)
    env = {**os.environ, "AGENTHOOKS_TEMPLATES": str(LAST)}
    proc = subprocess.run([str(AGENTHOOKS), "install", "--yes", "-f", FRAMEWORK, "-p", "linux", str(repo)],
                          capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        raise SystemExit(f"bench: install of rev 6 failed:\n{proc.stdout}{proc.stderr}")
    write_corpus(repo, 1)
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
                   start, str(repo), {**lab.env, "CLAUDECODE": "1"})
    return {
        f"pre_task {tag}": lab.hook(repo, "pre_task", start),
        f"post_edit {tag}": lab.hook(repo, "post_edit", edit),
        f"on_compact quiet {tag}": lab.hook(quiet_env, "on_compact", lab.payload(quiet_env, "UserPromptSubmit.json"),
                                            state_setter(quiet_env, quiet), env_len),
        f"on_compact quiet, transcript {tag}": lab.hook(repo, "on_compact", prompt, state_setter(repo, quiet)),
        f"pre_task --statusline {tag}": line,
    }


def bench_release(lab: Lab, t: Table, args: argparse.Namespace, details: dict) -> None:
    sec = "6. this release against rev 6 (wall ms per run, median [min..max])"
    new = lab.repo("r6-new")
    old = release_repo(lab, "r6-old")
    variants = {"bash -c :": Variant([BASH, "-c", ":"], "/dev/null", str(new), lab.env),
                **figures(lab, new, "now"), **figures(lab, old, "last")}
    s = {k: stats(v) for k, v in interleave(variants, args.warmup, args.runs).items()}
    details["release"] = s
    sec = "6. this release against rev 6 (ratios of medians, same run)"
    for name in ("pre_task", "post_edit", "on_compact quiet", "on_compact quiet, transcript",
                 "pre_task --statusline"):
        now, last, floor = s[f"{name} now"], s[f"{name} last"], s["bash -c :"]
        t.add(sec, f"{name} / bash -c :", f"now {now['median_ms'] / floor['median_ms']:.2f}x, "
              f"rev 6 {last['median_ms'] / floor['median_ms']:.2f}x", "", None)
        ratio_row(t, sec, f"{name}: now / rev 6", now, last, LIMIT, "rev 6")
