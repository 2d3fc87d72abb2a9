"""Session ids, on every userland: ids that clean alike keep their own state; one session's
compaction never reloads another."""
from __future__ import annotations

from pathlib import Path

import pytest

from support.inside_runs import ALL, BEGIN, PROMPT, run, setup


# --- session ids ---

@pytest.mark.parametrize("pair", [("team/alpha", "team_alpha"), ("a" * 80 + "-one", "a" * 80 + "-two"),
                                  ("default", ""), ("x y", "x_y")])
@pytest.mark.parametrize("userland", ALL)
def test_session_ids_alike_after_cleaning_keep_their_own_state(tmp_path: Path, userland: str,
                                                               pair: tuple[str, str]) -> None:
    repo, env, _ = setup(tmp_path, userland)
    first, second = pair

    def prompt(sid: str, **extra: str) -> str:
        body = {**PROMPT, **extra}
        if sid:
            body["session_id"] = sid
        else:
            del body["session_id"]
        return run(repo, "on_compact", env, body).stdout

    prompt(first)
    prompt(second)
    # The host announces a compaction in the first session only: the second's next prompt
    # does not reload, and the first's does.
    prompt(first, hook_event_name="PreCompact")
    assert BEGIN not in prompt(second)
    assert BEGIN in prompt(first)
    names = sorted(p.name for p in (repo / ".agent/log/state").glob("*.state"))
    assert len(names) == 2 and all(len(n) <= 80 + len(".state") for n in names), names
