"""A Claude Code session on a userland (memory with a note), for the promise files on locks
that cannot be taken, signals, kills, budgets, archives and session state."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from support.helpers import install, make_repo, payload, run_hook, SAMPLE_SNAPSHOT, SAMPLE_TATTOO, write_memory
from support.userlands import env_for, USERLANDS


BEGIN = "===== AGENT MEMORY BEGIN ====="
END = "===== AGENT MEMORY END ====="
START = {"session_id": "h1", "hook_event_name": "SessionStart", "source": "startup"}
RULES = ("- Indent with 4 spaces, never tabs", "- Every API returns {code, data, msg}")  # SAMPLE_TATTOO
BASH = "/bin/bash"


def repo_for(tmp_path: Path, userland: str, *platforms: str) -> tuple[Path, dict[str, str]]:
    repo = make_repo(tmp_path)
    args = [a for p in (platforms or (USERLANDS[userland][0],)) for a in ("--platform", p)]
    install(repo, *args, "--framework", "claude-code")
    write_memory(repo, tattoo=SAMPLE_TATTOO, snapshot=SAMPLE_SNAPSHOT, notes="- a note\n")
    return repo, {**os.environ, **env_for(userland, tmp_path)}


def run(repo: Path, hook: str, env: dict[str, str], stdin: object = START, *args: str,
        timeout: float = 20) -> subprocess.CompletedProcess[str]:
    return run_hook(repo, hook, stdin, "claude-code", *args, env=env, inherit=False, bash=BASH, timeout=timeout)


def context(out: str) -> str:
    return str(json.loads(out)["hookSpecificOutput"]["additionalContext"])


def log(repo: Path) -> str:
    f = repo / ".agent/log/memory.log"
    return f.read_text() if f.exists() else ""


# --- 5: a signal takes the block builder's children with it --------------------

SLOW_TR = """#!/bin/bash -p
# A slow disk: tr starts reading after seconds.
: >"{marker}"
sleep 5
exec {tr} "$@"
"""


def session_members(sid: int) -> list[int]:
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if int(fields[3]) == sid and int(d.name) != sid and fields[0] != "Z":  # not a zombie
                out.append(int(d.name))
    return out
