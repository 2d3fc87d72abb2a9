"""Timed session starts on a userland, for the promise files on huge memory files and
clock steps."""
from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from support.helpers import install, make_repo, payload, run_hook, SAMPLE_SNAPSHOT, SAMPLE_TATTOO, write_memory
from support.userlands import env_for, USERLANDS


BEGIN = "===== AGENT MEMORY BEGIN ====="
START = {"session_id": "h1", "hook_event_name": "SessionStart", "source": "startup"}
PROGRESS = "- [ ] service get_user (stuck on error handling)"  # in SAMPLE_SNAPSHOT


def repo_for(tmp_path: Path, userland: str) -> tuple[Path, dict[str, str]]:
    repo = make_repo(tmp_path)
    install(repo, "--platform", USERLANDS[userland][0], "--framework", "claude-code")
    write_memory(repo, tattoo=SAMPLE_TATTOO, snapshot=SAMPLE_SNAPSHOT, notes="- a note\n")
    return repo, {**os.environ, **env_for(userland, tmp_path)}


def run(repo: Path, env: dict[str, str], timeout: float = 60) -> tuple[subprocess.CompletedProcess[str], float]:
    t0 = time.monotonic()
    res = run_hook(repo, "pre_task", START, "generic", env=env, inherit=False, bash="/bin/bash", timeout=timeout)
    return res, time.monotonic() - t0
