"""Hook runs timed on a userland, for the promise files on lock files, parallel reminders
and a quiet stderr."""
from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from support.helpers import install, make_repo, payload, run_hook, SAMPLE_SNAPSHOT, SAMPLE_TATTOO, write_memory
from support.userlands import env_for, USERLANDS


COMPACT = {"session_id": "l1", "hook_event_name": "UserPromptSubmit",
           "prompt": "CONTEXT CHECKPOINT COMPACTION"}
START = {"session_id": "l1", "hook_event_name": "SessionStart", "source": "compact"}
EDIT = {"session_id": "l1", "hook_event_name": "PostToolUse",
        "tool_input": {"file_path": "src/a.py"}}


def repo_for(tmp_path: Path, userland: str, platform: str | None = None) -> tuple[Path, dict[str, str]]:
    repo = make_repo(tmp_path)
    plats = (platform or USERLANDS[userland][0]).split(",")
    install(repo, *[a for p in plats for a in ("--platform", p)], "--framework", "claude-code")
    write_memory(repo, tattoo=SAMPLE_TATTOO, snapshot=SAMPLE_SNAPSHOT)
    return repo, {**os.environ, **env_for(userland, tmp_path)}


def run(repo: Path, hook: str, env: dict[str, str], stdin: object,
        timeout: float = 30) -> tuple[subprocess.CompletedProcess[str], float]:
    t0 = time.monotonic()
    res = run_hook(repo, hook, stdin, "claude-code", env=env, inherit=False, bash="/bin/bash", timeout=timeout)
    return res, time.monotonic() - t0


def log(repo: Path) -> str:
    f = repo / ".agent/log/memory.log"
    return f.read_text() if f.exists() else ""
