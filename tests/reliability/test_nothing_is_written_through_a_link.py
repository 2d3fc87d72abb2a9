"""Nothing written through a link, on every userland: session state, a PreCompact's state
folder and the debug trace are never written through a link out of the repository."""
from __future__ import annotations

from pathlib import Path

import pytest

from support.inside_runs import ALL, EDIT, PROMPT, run, setup, START


PRECOMPACT = {"session_id": "c1", "hook_event_name": "PreCompact", "trigger": "auto"}


def snapshot_of(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() if p.is_file() else b"<dir>"
            for p in sorted(folder.rglob("*"))}


def session(repo: Path, env: dict[str, str]) -> None:
    """A whole session: start, prompts, an edit, the host's compaction, the reload."""
    for hook, stdin in (("pre_task", START), ("on_compact", PROMPT), ("post_edit", EDIT),
                        ("on_compact", PRECOMPACT), ("on_compact", PROMPT),
                        ("pre_task", {**START, "source": "compact"})):
        run(repo, hook, env, stdin)


# --- writes: never through a link out of the repository ---

@pytest.mark.parametrize("userland", ALL)
def test_session_state_is_never_written_through_a_linked_state_folder(tmp_path: Path, userland: str) -> None:
    repo, env, outside = setup(tmp_path, userland)
    (repo / ".agent/log").mkdir(exist_ok=True)
    (repo / ".agent/log/state").symlink_to(outside)
    session(repo, env)
    assert snapshot_of(outside) == {}


@pytest.mark.parametrize("userland", ALL)
def test_a_precompact_makes_no_state_folder_in_a_linked_log(tmp_path: Path, userland: str) -> None:
    repo, env, outside = setup(tmp_path, userland)
    import shutil
    shutil.rmtree(repo / ".agent/log")
    (repo / ".agent/log").symlink_to(outside)
    run(repo, "on_compact", env, PRECOMPACT)
    run(repo, "on_compact", env, PROMPT)
    assert snapshot_of(outside) == {}


@pytest.mark.parametrize("userland", ALL)
def test_the_debug_trace_never_goes_through_a_linked_trace_log(tmp_path: Path, userland: str) -> None:
    repo, env, outside = setup(tmp_path, userland)
    victim = outside / "victim.txt"
    victim.write_text("victim\n")
    (repo / ".agent/log").mkdir(exist_ok=True)
    (repo / ".agent/log/trace.log").symlink_to(victim)
    for hook, stdin in (("pre_task", START), ("on_compact", PROMPT), ("post_edit", EDIT)):
        proc = run(repo, hook, {**env, "AGENTHOOKS_DEBUG": "1"}, stdin)
        assert proc.stderr == ""
    assert victim.read_text() == "victim\n"
