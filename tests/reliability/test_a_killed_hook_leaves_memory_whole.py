"""kill -9 at random moments: memory stays byte-identical, injected_context.txt and the
state files are always an old or a new complete version, and a lock left by a killed
hook never blocks a later run past the stale-lock timeout (flock and the portable lock)."""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import time
from pathlib import Path

import pytest

from support.helpers import run_hook
from support.reliability import (BASH, LOCK_PLATFORMS, MARKER_PROMPT, STATE_RE, check_log,
                                 clone, expected_renders, installed, lock_env, memory,
                                 replace_atomic, sized)

RUNS = sized(40, 200)
LOCK_TIMEOUT = 5
# The portable lock breaks an empty lock file after 2 s, a dead holder's at once.
STALE = 3
VERSIONS = [
    {"tattoo.md": f"- rule {i}\n".encode(),
     "snapshot.md": f"## Goal\n- goal {i}\n## Key decisions\n- decision {i}\n".encode(),
     "notes.md": f"- note {i}\n".encode()}
    for i in range(2)
]


def states(repo: Path) -> dict[str, bytes]:
    d = repo / ".agent/log/state"
    return {p.name: p.read_bytes() for p in d.glob("*.state")} if d.is_dir() else {}


def check_state_versions(before: dict[str, bytes], after: dict[str, bytes]) -> None:
    for name, data in after.items():
        if data == b"" and not before.get(name):
            continue  # killed between creating the file and the append: no line, as before
        assert data.endswith(b"\n"), (name, data)
        lines = data.decode().splitlines()
        assert all(STATE_RE.match(ln) for ln in lines), (name, data)
        old = before.get(name, b"")
        # An append of one whole line, a compaction to one line, or nothing.
        assert data == old or (data.startswith(old) and data.count(b"\n") == old.count(b"\n") + 1) \
            or len(lines) == 1, (name, old, data)


@pytest.mark.parametrize("lock", ["flock", "portable", "flock-fails"])
def test_kill_9_at_random_moments(lock: str, tmp_path: Path,
                                  tmp_path_factory: pytest.TempPathFactory) -> None:
    template = installed(tmp_path_factory, "--platform", LOCK_PLATFORMS[lock],
                         # Many compactions per session here: no fresh-session line in the blocks.
                         config={"lock_timeout_seconds": str(LOCK_TIMEOUT), "reload_turns": "0",
                                 "fresh_after_compactions": "0"})
    env = lock_env(lock, tmp_path)
    valid = expected_renders(template, tmp_path / "scratch", [VERSIONS[0]], env)
    valid_1 = expected_renders(template, tmp_path / "scratch1", [VERSIONS[1]], env)
    repo = clone(template, tmp_path / "repo")
    mem = repo / ".agent/memory"
    injected = repo / ".agent/injected_context.txt"
    script = {n: str(repo / ".agent/hooks" / f"{n}.sh") for n in ("pre_task", "on_compact")}
    full_env = {**os.environ, **env}
    rng = random.Random(1234)
    # Learn how long a run takes, so kills land anywhere inside one.
    t0 = time.monotonic()
    run_hook(repo, "on_compact", {"session_id": "warm", "prompt": MARKER_PROMPT}, env=env, bash=BASH,
             text=False)
    span = max(time.monotonic() - t0, 0.01) * 1.2
    killed = completed = 0
    for i in range(RUNS):
        v = i % 2
        for name, data in VERSIONS[v].items():
            replace_atomic(mem / name, data)
        name = ("pre_task", "on_compact")[rng.randrange(2)]
        sid = f"s{rng.randrange(4)}"
        stdin = {"session_id": sid, "source": "compact" if rng.random() < 0.3 else "startup",
                 "prompt": MARKER_PROMPT}
        payload_file = tmp_path / "payload.json"
        payload_file.write_text(json.dumps(stdin))
        news = (valid if v == 0 else valid_1)["pre_task"] | (valid if v == 0 else valid_1)["on_compact"]
        # Each run ends in exactly one kill: a hook that finished before the signal (the
        # signal then hits an exited, unreaped process) is counted as completed, checked
        # like any other, and run again with a shorter delay.
        delay = rng.random() * span
        for attempt in range(30):
            before_mem, before_inj, before_st = memory(repo), (
                injected.read_bytes() if injected.exists() else None), states(repo)
            with open(payload_file, "rb") as fin:
                proc = subprocess.Popen([BASH, script[name]], stdin=fin, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, cwd=repo, env=full_env,
                                        start_new_session=True)
            time.sleep(delay)
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            out, err = proc.communicate(timeout=30)
            assert memory(repo) == before_mem, "memory changed"
            now = injected.read_bytes() if injected.exists() else None
            assert now == before_inj or now in _with_compact_notice(news, repo), (i, now and now[:200])
            check_state_versions(before_st, states(repo))
            if proc.returncode == -signal.SIGKILL:
                killed += 1
                break
            # Not killed: it ran to its end, so it exited 0 with a whole block and no noise.
            assert proc.returncode == 0 and err == b"", (proc.returncode, err)
            assert out in _with_compact_notice(news, repo), out[:200]
            completed += 1
            delay = delay / 2 if attempt < 8 else 0
        else:
            pytest.fail(f"run {i}: the hook ended before every kill")
        if i % 5 == 4 or i == RUNS - 1:
            # A later run is never blocked past the stale-lock timeout by what was killed.
            t1 = time.monotonic()
            ok = run_hook(repo, "on_compact", {"session_id": "after", "prompt": MARKER_PROMPT},
                          env=env, timeout=LOCK_TIMEOUT + STALE + 20, bash=BASH, text=False)
            took = time.monotonic() - t1
            assert ok.returncode == 0 and ok.stdout, ok.stderr
            assert took < STALE + 2, f"blocked {took:.1f}s by a stale lock"
            tail = check_log(repo)[-3:]
            assert not any("lock busy" in ln for ln in tail), tail
    assert killed == RUNS, (killed, completed)
    if lock == "portable":
        assert not (repo / ".agent/log/.lock.pid").exists()


def _with_compact_notice(news: set[bytes], repo: Path) -> set[bytes]:
    """pre_task with source=compact carries one more line (the compaction notice)."""
    from agenthooks.messages import MESSAGES

    notice = MESSAGES["en"]["compacted"].encode()
    out = set(news)
    for b in news:
        lines = b.split(b"\n")
        if len(lines) > 2:
            out.add(b"\n".join(lines[:2] + [notice] + lines[2:]))
    return out


@pytest.mark.parametrize("leftover", ["dead-pid", "empty", "garbage", "break-file-dead"])
def test_portable_lock_left_behind(leftover: str, tmp_path: Path,
                                   tmp_path_factory: pytest.TempPathFactory) -> None:
    template = installed(tmp_path_factory, "--platform", "macos",
                         config={"lock_timeout_seconds": str(LOCK_TIMEOUT), "reload_turns": "0"})
    env = lock_env("portable", tmp_path)
    repo = clone(template, tmp_path / "repo")
    plock = repo / ".agent/log/.lock.pid"
    dead = subprocess.Popen(["true"])
    dead.wait()
    if leftover == "dead-pid":
        plock.write_text(f"{dead.pid}\n")
    elif leftover == "empty":
        plock.write_text("")
        os.utime(plock, (time.time() - STALE, time.time() - STALE))
    elif leftover == "garbage":
        plock.write_text("not a pid\n")
        old = time.time() - (LOCK_TIMEOUT * 4 + 11)
        os.utime(plock, (old, old))
    else:
        plock.write_text(f"{dead.pid}\n")
        (repo / ".agent/log/.lock.pid.break").write_text(f"{dead.pid}\n")
    t0 = time.monotonic()
    proc = run_hook(repo, "on_compact", {"session_id": "s", "prompt": MARKER_PROMPT}, env=env, bash=BASH,
                    text=False)
    took = time.monotonic() - t0
    assert proc.returncode == 0 and proc.stdout
    assert took < STALE + 1.5, took
    lines = check_log(repo)
    assert any("removed" in ln for ln in lines) and not any("lock busy" in ln for ln in lines)
    assert not plock.exists()
