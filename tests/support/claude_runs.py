"""A Claude Code install on a userland and its hooks run as the host runs them, for the
promise files on hostile hosts, environments, secrets, delimiters, comments and config."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from support.helpers import install, make_repo, payload, run_hook, SAMPLE_SNAPSHOT, SAMPLE_TATTOO, write_memory
from support.userlands import ALL, env_for, USERLANDS


START = {"session_id": "h1", "hook_event_name": "SessionStart", "source": "startup"}
BASH = "/bin/bash"


def repo_for(tmp_path: Path, userland: str) -> tuple[Path, dict[str, str]]:
    platform, _ = USERLANDS[userland]
    repo = make_repo(tmp_path)
    install(repo, "--platform", platform, "--framework", "claude-code")
    write_memory(repo, tattoo=SAMPLE_TATTOO, snapshot=SAMPLE_SNAPSHOT)
    env = {**os.environ, **env_for(userland, tmp_path)}
    return repo, env


def run(repo: Path, hook: str, env: dict[str, str], stdin: object = START, *args: str,
        timeout: float = 20) -> subprocess.CompletedProcess[str]:
    return run_hook(repo, hook, stdin, "claude-code", *args, env=env, inherit=False, bash=BASH, timeout=timeout)


def context(out: str) -> str:
    """The one JSON object on stdout, and the memory inside it."""
    obj = json.loads(out)
    return str(obj["hookSpecificOutput"]["additionalContext"])
