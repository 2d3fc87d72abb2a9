"""Quiet stderr, on every userland: with no awk on PATH a start exits 0 and logs one line;
a transcript holding NUL bytes leaves on_compact's stderr empty."""
from __future__ import annotations

from pathlib import Path

import pytest

from support.lock_runs import COMPACT, log, repo_for, run, START
from support.userlands import USERLANDS


@pytest.mark.parametrize("userland", sorted(USERLANDS))
def test_no_awk_gives_one_log_line_and_a_quiet_stderr(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    bindir = Path(env["PATH"].split(":")[0])
    noawk = tmp_path / "no-awk"
    noawk.mkdir()
    for tool in bindir.iterdir():
        if tool.name != "awk":
            (noawk / tool.name).symlink_to(tool.resolve())
    env["PATH"] = str(noawk)
    res, _ = run(repo, "pre_task", env, {**START, "source": "startup"})
    assert res.returncode == 0 and res.stderr == ""
    assert log(repo).count("awk failed") == 1, log(repo)


@pytest.mark.parametrize("userland", sorted(USERLANDS))
def test_a_transcript_with_nul_bytes_leaves_stderr_quiet(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    tp = tmp_path / "t.jsonl"
    tp.write_bytes(b'{"type":"user"}\n\x00\x00{"message":{"usage":{"input_tokens":12000}}}\n')
    res, _ = run(repo, "on_compact", env, {**COMPACT, "prompt": "go on", "transcript_path": str(tp)})
    assert res.returncode == 0 and res.stderr == ""
