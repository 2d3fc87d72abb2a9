"""simulate drills the envelope of the framework recorded at install: its payloads (event
names) and its output form (JSON for Claude Code, Codex, Gemini CLI)."""
from __future__ import annotations

from pathlib import Path

import pytest

from support.helpers import cli, install, make_repo


@pytest.mark.parametrize("framework", ["claude-code", "gemini-cli"])
def test_simulate_drills_the_installed_framework(tmp_path: Path, framework: str) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", framework)
    proc = cli("simulate", str(repo))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert f"  envelope: {framework} (its payloads and output form)" in lines
    # The hooks log the framework they ran for: the drill really spoke its envelope.
    drilled = [s for s in lines if "agenthooks-drill" in s]
    assert drilled and all(f" {framework} agenthooks-drill" in s for s in drilled), drilled
    assert "FAIL" not in proc.stdout


def test_simulate_says_when_it_falls_back_to_generic(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "cursor")
    proc = cli("simulate", str(repo))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "  envelope: generic (its payloads and output form); cursor: an envelope the " \
           "drill does not speak; drilled with the generic envelope" in proc.stdout.splitlines()
