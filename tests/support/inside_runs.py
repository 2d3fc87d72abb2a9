"""A repo on a userland, a folder outside it, and whole sessions of hook runs, for the
promise files on links, inherited shell state, torn memory, session ids and budgets."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

from support.helpers import install, make_repo, payload, run_hook, SAMPLE_SNAPSHOT, SAMPLE_TATTOO, write_memory
from support.userlands import ALL, env_for, USERLANDS


BEGIN, END = "===== AGENT MEMORY BEGIN =====", "===== AGENT MEMORY END ====="
START = {"session_id": "c1", "hook_event_name": "SessionStart", "source": "startup"}
PROMPT = {"session_id": "c1", "hook_event_name": "UserPromptSubmit", "prompt": "go"}
EDIT = {"session_id": "c1", "hook_event_name": "PostToolUse", "tool_input": {"file_path": "src/a.py"}}


def setup(tmp_path: Path, userland: str, framework: str = "generic") -> tuple[Path, dict[str, str], Path]:
    repo = make_repo(tmp_path)
    install(repo, "--platform", USERLANDS[userland][0], "--framework", framework)
    write_memory(repo, tattoo=SAMPLE_TATTOO, snapshot=SAMPLE_SNAPSHOT, notes="- a note\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    return repo, {**os.environ, **env_for(userland, tmp_path)}, outside


def run(repo: Path, hook: str, env: dict[str, str], stdin: object = "", *args: str,
        framework: str = "generic") -> subprocess.CompletedProcess[str]:
    proc = run_hook(repo, hook, stdin, framework, *args, env=env, inherit=False, bash="/bin/bash", timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc
