"""The registered commands find the repo without help: from a subfolder with the
framework's variable unset, from a git submodule, and they exit 0 quietly where no
.agent/hooks/ is found."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from support.helpers import SAMPLE_TATTOO, git, install, make_repo, write_memory
from agenthooks.frameworks import codex, cursor

MODS = {m.NAME: m for m in (codex, cursor)}


def commit(repo: Path) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "wip", "--allow-empty")


def run_command(cmd: str, stdin: str, cwd: Path, env: dict[str, str] | None = None
                ) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if not k.endswith("_PROJECT_DIR")}
    return subprocess.run(["bash", "-c", cmd], input=stdin, cwd=cwd, capture_output=True,
                          text=True, env={**full, **(env or {})}, timeout=30)


def test_cursor_command_runs_from_a_subfolder_without_cursor_project_dir(tmp_path):  # type: ignore[no-untyped-def]
    repo = make_repo(tmp_path)
    install(repo, "--framework", "cursor")
    write_memory(repo, tattoo=SAMPLE_TATTOO)
    sub = repo / "src" / "pkg"
    sub.mkdir(parents=True)
    data = json.loads((repo / cursor.PATH).read_text())
    pay = json.dumps({"hook_event_name": "sessionStart", "conversation_id": "c1", "session_id": "s1"})
    proc = run_command(data["hooks"]["sessionStart"][0]["command"], pay, sub)
    assert proc.returncode == 0, proc.stderr
    assert "Indent with 4 spaces" in json.loads(proc.stdout)["additional_context"]
    # post_edit too, and with the variable set the command still works.
    pay = json.dumps({"hook_event_name": "postToolUse", "conversation_id": "c1",
                      "tool_name": "Write", "tool_input": {"file_path": "src/a.py"}})
    proc = run_command(data["hooks"]["postToolUse"][0]["command"], pay, sub,
                       {"CURSOR_PROJECT_DIR": str(repo)})
    assert proc.returncode == 0, proc.stderr


def test_codex_command_runs_from_a_submodule_folder(tmp_path):  # type: ignore[no-untyped-def]
    lib = make_repo(tmp_path, "lib")
    (lib / "lib.py").write_text("x = 1\n")
    commit(lib)
    repo = make_repo(tmp_path)
    git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(lib), "vendor/lib")
    commit(repo)
    install(repo, "--framework", "codex")
    write_memory(repo, tattoo=SAMPLE_TATTOO)
    cmd = json.loads((repo / codex.PATH).read_text())["hooks"]["SessionStart"][0]["hooks"][0]["command"]
    pay = json.dumps({"hook_event_name": "SessionStart", "source": "startup", "session_id": "s1",
                      "cwd": str(repo / "vendor/lib")})
    proc = run_command(cmd, pay, repo / "vendor" / "lib")
    assert proc.returncode == 0, proc.stderr
    assert "Indent with 4 spaces" in json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]


@pytest.mark.parametrize("name", ["codex", "cursor"])
def test_a_command_outside_any_repo_with_memory_exits_0(tmp_path, name):  # type: ignore[no-untyped-def]
    repo = make_repo(tmp_path)
    install(repo, "--framework", name)
    data = json.loads((repo / MODS[name].PATH).read_text())
    first = next(iter(data["hooks"].values()))[0]
    cmd = first["hooks"][0]["command"] if "hooks" in first else first["command"]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    proc = run_command(cmd, "{}", elsewhere, {"GIT_CEILING_DIRECTORIES": str(tmp_path)})
    assert proc.returncode == 0 and proc.stdout == "", proc.stdout + proc.stderr
