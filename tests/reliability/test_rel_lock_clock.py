"""The lock and the clock, on every userland (GNU, BusyBox, macOS-like): whatever sits in
the lock's place, a hook waits at most lock_timeout_seconds; a lock tool is used by what it
accepts, not by what the system calls itself."""
from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest

from support.helpers import SAMPLE_SNAPSHOT, SAMPLE_TATTOO, install, make_repo, payload, write_memory
from support.reliability import failing_flock_path, start_together
from support.userlands import USERLANDS, env_for

BEGIN = "===== AGENT MEMORY BEGIN ====="
COMPACT = {"session_id": "l1", "hook_event_name": "UserPromptSubmit",
           "prompt": "CONTEXT CHECKPOINT COMPACTION"}
START = {"session_id": "l1", "hook_event_name": "SessionStart", "source": "compact"}
EDIT = {"session_id": "l1", "hook_event_name": "PostToolUse",
        "tool_input": {"file_path": "src/a.py"}}
# BusyBox flock: -s -x -u -n only; -w is a usage error (exit 1), as on Alpine.
BUSYBOX_FLOCK = r"""#!/bin/bash
for a in "$@"; do
  case $a in -w|-E|-[!sxun]*) echo "flock: unrecognized option: ${a#-}" >&2
    echo "Usage: flock [-sxun] FD | { FILE [-c] PROG ARGS }" >&2; exit 1 ;; esac
done
exec /usr/bin/flock "$@"
"""


def repo_for(tmp_path: Path, userland: str, platform: str | None = None) -> tuple[Path, dict[str, str]]:
    repo = make_repo(tmp_path)
    plats = (platform or USERLANDS[userland][0]).split(",")
    install(repo, *[a for p in plats for a in ("--platform", p)], "--framework", "claude-code")
    write_memory(repo, tattoo=SAMPLE_TATTOO, snapshot=SAMPLE_SNAPSHOT)
    return repo, {**os.environ, **env_for(userland, tmp_path)}


def run(repo: Path, hook: str, env: dict[str, str], stdin: object,
        timeout: float = 30) -> tuple[subprocess.CompletedProcess[str], float]:
    t0 = time.monotonic()
    res = subprocess.run(["/bin/bash", f".agent/hooks/{hook}.sh", "claude-code"], input=payload(stdin),
                         cwd=repo, env=env, capture_output=True, text=True, timeout=timeout)
    return res, time.monotonic() - t0


def log(repo: Path) -> str:
    f = repo / ".agent/log/memory.log"
    return f.read_text() if f.exists() else ""


def fifo(p: Path) -> None:
    os.mkfifo(p)


def folder(p: Path) -> None:
    (p / "x").mkdir(parents=True)


def dead_pid_and_break_folder(p: Path) -> None:
    p.write_text("999999\n")
    (p.parent / ".lock.pid.break").mkdir()


def link(p: Path) -> None:
    p.symlink_to(p.parent / "elsewhere")


def garbage(p: Path) -> None:
    p.write_bytes(b"\x00zz\n")


STUCK = {"fifo": fifo, "folder": folder, "dead-pid-break-folder": dead_pid_and_break_folder,
         "link": link, "garbage": garbage}


@pytest.mark.parametrize("kind", sorted(STUCK))
@pytest.mark.parametrize("hook,stdin", [("on_compact", COMPACT), ("pre_task", START), ("post_edit", EDIT)])
@pytest.mark.parametrize("userland", sorted(USERLANDS))
def test_any_lock_file_is_waited_for_at_most_the_timeout(tmp_path: Path, userland: str, hook: str,
                                                         stdin: object, kind: str) -> None:
    # The repro's platform set: macOS and Linux (the portable lock and flock both rendered).
    repo, env = repo_for(tmp_path, userland, "macos" if userland == "macos" else "linux,macos")
    (repo / ".agent/config.yaml").write_text((repo / ".agent/config.yaml").read_text() +
                                             "lock_timeout_seconds: 2\n")
    STUCK[kind](repo / ".agent/log/.lock.pid")  # the portable lock
    if kind != "dead-pid-break-folder":
        STUCK[kind](repo / ".agent/log/.lock")  # flock's file
    for attempt in range(2):  # a stuck lock must not cost the timeout on every run
        res, took = run(repo, hook, env, stdin)
        assert res.returncode == 0 and res.stderr == ""
        assert took < 2 + 3, f"{kind}: took {took:.1f}s"
        # Nothing a hook could be waiting for: cleared at once, not waited out on every run.
        assert kind not in ("fifo", "folder", "link") or took < 1.5, f"{kind}: took {took:.1f}s"
    if hook != "post_edit":
        assert BEGIN in res.stdout


@pytest.mark.parametrize("userland", sorted(USERLANDS))
def test_a_dead_holder_without_rm_is_waited_for_at_most_the_timeout(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland, "macos" if userland == "macos" else "linux,macos")
    (repo / ".agent/config.yaml").write_text((repo / ".agent/config.yaml").read_text() +
                                             "lock_timeout_seconds: 2\n")
    (repo / ".agent/log/.lock.pid").write_text("999999\n")
    bindir = Path(env["PATH"].split(":")[0])
    norm = tmp_path / "no-rm"
    norm.mkdir()
    for tool in bindir.iterdir():
        if tool.name not in ("rm", "flock"):
            (norm / tool.name).symlink_to(tool.resolve())
    env["PATH"] = str(norm)
    res, took = run(repo, "on_compact", env, COMPACT, timeout=15)
    assert res.returncode == 0 and res.stderr == "" and BEGIN in res.stdout
    assert took < 2 + 3


def test_busybox_flock_without_w_falls_back_to_the_portable_lock(tmp_path: Path) -> None:
    repo, env = repo_for(tmp_path, "busybox", "linux,busybox")
    bindir = Path(env["PATH"].split(":")[0])
    (bindir / "flock").unlink(missing_ok=True)
    (bindir / "flock").write_text(BUSYBOX_FLOCK)
    (bindir / "flock").chmod(0o755)
    res, _ = run(repo, "on_compact", env, {"session_id": "l1", "hook_event_name": "PreCompact",
                                           "trigger": "auto"})
    assert res.returncode == 0 and res.stderr == ""
    assert "lock busy" not in log(repo)
    # The compaction was announced under the lock: the next prompt reloads memory.
    nxt, _ = run(repo, "on_compact", env, {**COMPACT, "prompt": "go on"})
    assert BEGIN in nxt.stdout, log(repo)


def test_parallel_edits_remind_once_when_flock_fails(tmp_path: Path) -> None:
    """A linux render whose flock fails at once (a broken or foreign flock, not a holder) takes
    the portable lock: the ten edits still remind once, never all writing unlocked."""
    repo, env = repo_for(tmp_path, "gnu")
    env = {**env, "PATH": failing_flock_path(tmp_path / "failing-flock-bin")}
    snap = repo / ".agent/memory/snapshot.md"
    old = time.time() - 3 * 3600
    os.utime(snap, (old, old))
    run(repo, "pre_task", env, {**START, "source": "startup"})
    edit = tmp_path / "edit.json"
    edit.write_text(payload(EDIT))
    outs = start_together(repo, env, "post_edit", edit, tmp_path)
    assert all(err == "" for _, err in outs)
    assert sum(1 for out, _ in outs if out.strip()) == 1, log(repo)
    assert "lock busy" not in log(repo) and "without the lock" not in log(repo)


@pytest.mark.parametrize("userland", sorted(USERLANDS))
def test_parallel_edits_with_a_stale_snapshot_remind_once(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    snap = repo / ".agent/memory/snapshot.md"
    old = time.time() - 3 * 3600
    os.utime(snap, (old, old))
    run(repo, "pre_task", env, {**START, "source": "startup"})  # the session starts: its state folder
    edit = tmp_path / "edit.json"
    edit.write_text(payload(EDIT))
    outs = start_together(repo, env, "post_edit", edit, tmp_path)
    assert all(err == "" for _, err in outs)
    assert sum(1 for out, _ in outs if out.strip()) == 1, log(repo)


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
