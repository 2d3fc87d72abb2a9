"""Lock files of any kind, on every userland: whatever sits in the lock's place (a FIFO, a
folder, a link, garbage, a dead holder), a hook waits at most lock_timeout_seconds; a lock
tool is used by what it accepts (BusyBox's flock has no -w)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from support.lock_runs import COMPACT, EDIT, log, repo_for, run, START
from support.userlands import USERLANDS


BEGIN = "===== AGENT MEMORY BEGIN ====="


# BusyBox flock: -s -x -u -n only; -w is a usage error (exit 1), as on Alpine.
BUSYBOX_FLOCK = r"""#!/bin/bash
for a in "$@"; do
  case $a in -w|-E|-[!sxun]*) echo "flock: unrecognized option: ${a#-}" >&2
    echo "Usage: flock [-sxun] FD | { FILE [-c] PROG ARGS }" >&2; exit 1 ;; esac
done
exec /usr/bin/flock "$@"
"""


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
