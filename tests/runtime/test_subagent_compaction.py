"""A compaction signal that carries a subagent's identity (agent_id / agentId) is the
subagent's: logged as such, never counted for the main session, never spending its reload;
`status` shows it apart. On every userland."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from support.helpers import SAMPLE_SNAPSHOT, SAMPLE_TATTOO, cli, install, log_lines, make_repo, run_hook, write_memory
from support.userlands import USERLANDS, env_for, windows_clone

BEGIN = "===== AGENT MEMORY BEGIN ====="


@pytest.fixture(params=sorted(USERLANDS))
def land(request: pytest.FixtureRequest, tmp_path: Path):  # type: ignore[no-untyped-def]
    userland = request.param
    platform, _ = USERLANDS[userland]
    repo = make_repo(tmp_path, "origin" if userland == "windows" else "repo")
    install(repo, "--platform", platform, "--framework", "claude-code")
    write_memory(repo, tattoo=SAMPLE_TATTOO, snapshot=SAMPLE_SNAPSHOT)
    if userland == "windows":
        repo = windows_clone(repo, tmp_path)
    (repo / ".agent/log/state").mkdir(parents=True, exist_ok=True)
    return repo, env_for(userland, tmp_path)


def hook(repo: Path, name: str, payload: dict[str, object], env: dict[str, str]) -> str:
    proc = run_hook(repo, name, payload, "claude-code", env=env)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def prompt(sid: str) -> dict[str, object]:
    return {"session_id": sid, "hook_event_name": "UserPromptSubmit", "prompt": "go on"}


@pytest.mark.parametrize("ids", [{"agent_id": "a1b2", "agent_type": "Explore"},
                                 {"agentId": "a1b2", "agentName": "reviewer"}])
def test_a_subagents_compaction_is_not_the_main_sessions(land, ids):  # type: ignore[no-untyped-def]
    repo, env = land
    hook(repo, "pre_task", {"session_id": "m", "hook_event_name": "SessionStart", "source": "startup"}, env)
    hook(repo, "on_compact", prompt("m"), env)
    for event in ("PreCompact", "PostCompact"):
        out = hook(repo, "on_compact", {"session_id": "m", "hook_event_name": event, "trigger": "auto", **ids}, env)
        assert BEGIN not in out
    # The next prompt of the main session: no reload, nothing counted.
    assert hook(repo, "on_compact", prompt("m"), env) == ""
    kind = ids.get("agent_type") or ids.get("agentName")
    said = [s for s in log_lines(repo) if "subagent compaction" in s]
    assert len(said) == 2 and f"subagent compaction ({kind})" in said[0], log_lines(repo)
    assert not any("compaction announced" in s or "compaction detected" in s for s in log_lines(repo))
    assert not (repo / ".agent/log/state/m.count").exists()
    # The main session's own compaction still reloads, and status keeps the two apart.
    hook(repo, "on_compact", {"session_id": "m", "hook_event_name": "PreCompact", "trigger": "auto"}, env)
    assert BEGIN in hook(repo, "on_compact", prompt("m"), env)
    data = json.loads(cli("status", "--json", str(repo)).stdout)
    session = next(s for s in data["sessions"] if s["session_id"] == "m")
    assert session["compactions"] == 1 and session["subagent_compactions"] == 2
    text = cli("status", str(repo)).stdout
    assert "subagent compactions 2 (not counted)" in text, text
