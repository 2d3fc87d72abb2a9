"""A lock that cannot be taken: a linux render on BusyBox (a flock without -w) keeps the
compaction the host announced; a read-only log folder is logged as such at once, never as
a busy lock; a busy lock keeps the PreCompact flag."""
from __future__ import annotations

import os
import re
import subprocess
import time
from pathlib import Path

import pytest

from support.claude_sessions import BEGIN, context, log, repo_for, RULES, run
from support.helpers import memory_bytes, summary_instructions, unavailable
from support.userlands import USERLANDS


PROMPT = {"session_id": "h1", "hook_event_name": "UserPromptSubmit", "prompt": "go on"}
PRECOMPACT = {"session_id": "h1", "hook_event_name": "PreCompact", "trigger": "auto"}
EDIT = {"session_id": "h1", "hook_event_name": "PostToolUse", "tool_name": "Edit",
        "tool_input": {"file_path": "src/a.py"}}


# --- 2: a lock that cannot be taken never loses the compaction -----------------

@pytest.mark.parametrize("platforms", [("linux",), ("linux", "busybox")], ids=["linux", "linux+busybox"])
def test_a_linux_render_on_busybox_keeps_the_compaction(tmp_path: Path, platforms: tuple[str, ...]) -> None:
    """BusyBox's flock has no -w: the lock fails for a reason other than a holder."""
    repo, env = repo_for(tmp_path, "busybox", *platforms)
    before = memory_bytes(repo)
    assert run(repo, "on_compact", env, PROMPT).returncode == 0
    pre = run(repo, "on_compact", env, PRECOMPACT)
    assert pre.returncode == 0 and summary_instructions(pre.stdout), pre
    state = (repo / ".agent/log/state/h1.state").read_text().splitlines()
    assert state[-1].split()[3] == "pending", state  # the flag is written
    nxt = run(repo, "on_compact", env, PROMPT)
    assert nxt.returncode == 0
    block = context(nxt.stdout)
    assert block.startswith(BEGIN) and all(r in block for r in RULES), block
    assert "compaction detected (the host announced a compaction); memory reloaded" in log(repo), log(repo)
    assert "lock busy" not in log(repo)
    assert memory_bytes(repo) == before


# --- 15: a read-only log folder is said as it is, at once -----------------------

@pytest.mark.parametrize("userland", sorted(USERLANDS))
def test_a_read_only_log_folder_is_not_a_busy_lock(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    assert run(repo, "on_compact", env, PROMPT).returncode == 0
    agent = repo / ".agent"
    old = time.time() - 3600  # a snapshot an hour old: the next edit reminds, under the lock
    os.utime(agent / "memory/snapshot.md", (old, old))
    if os.geteuid() == 0:
        logdir = agent / "log"
        saved = tmp_path / "log-saved"
        os.rename(logdir, saved)
        logdir.mkdir()
        r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(logdir)], capture_output=True)
        if r.returncode != 0:
            unavailable("cannot mount a tmpfs here (needs root with CAP_SYS_ADMIN)")
        subprocess.run(["cp", "-a", f"{saved}/.", str(logdir)], check=True)
        subprocess.run(["mount", "-o", "remount,ro", str(logdir)], check=True)
        undo = lambda: subprocess.run(["umount", "-l", str(logdir)], capture_output=True)  # noqa: E731
    else:
        (agent / "log").chmod(0o555)
        undo = lambda: (agent / "log").chmod(0o755)  # noqa: E731
    try:
        for stdin in (PRECOMPACT, {**PROMPT, "prompt": "CONTEXT CHECKPOINT COMPACTION: summary"}):
            t0 = time.monotonic()
            out = run(repo, "on_compact", env, stdin)
            assert time.monotonic() - t0 < 2 and out.returncode == 0
            assert "lock busy" not in out.stderr, out.stderr
            assert len(out.stderr.splitlines()) <= 1 and ".agent/log is not writable" in out.stderr, out.stderr
        out = run(repo, "post_edit", env, EDIT)
        assert out.returncode == 0 and "was last updated" in out.stdout, out.stdout
        assert "lock busy" not in out.stderr, out.stderr
        assert ".agent/log is not writable" in out.stderr and "reminding without recording it" in out.stderr, out.stderr
    finally:
        undo()


# --- 2: a lock held past lock_timeout_seconds still keeps the PreCompact flag ----

@pytest.mark.parametrize("userland", sorted(USERLANDS))
def test_a_busy_lock_keeps_the_precompact_flag(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    cfg = repo / ".agent/config.yaml"
    cfg.write_text(re.sub(r"(?m)^lock_timeout_seconds:.*$", "lock_timeout_seconds: 1", cfg.read_text()))
    assert run(repo, "on_compact", env, PROMPT).returncode == 0
    logdir = repo / ".agent/log"
    # Another hook holds the lock: flock on .lock (GNU), a live pid in .lock.pid (the portable lock).
    holder = subprocess.Popen(["flock", str(logdir / ".lock"), "sleep", "30"])
    (logdir / ".lock.pid").write_text(f"{holder.pid}\n")
    try:
        time.sleep(0.2)
        pre = run(repo, "on_compact", env, PRECOMPACT)
        assert pre.returncode == 0 and summary_instructions(pre.stdout), pre
    finally:
        holder.kill()
        holder.wait()
        (logdir / ".lock.pid").unlink(missing_ok=True)
    assert "lock busy for 1s; appending the flag without it" in log(repo), log(repo)
    nxt = run(repo, "on_compact", env, PROMPT)
    assert all(r in context(nxt.stdout) for r in RULES)
    assert "compaction detected (the host announced a compaction); memory reloaded" in log(repo), log(repo)
