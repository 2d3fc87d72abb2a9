"""Hardening, round 3 (the hooks' side), on every userland where it applies (GNU, BusyBox,
macOS-like): a lock that cannot be taken keeps the compaction, a signal takes the block
builder's children with it, small budgets keep the rules and stay within budget, an archive
on a full disk loses nothing, old session state is pruned, and a read-only log folder is
said as it is. Nothing may hang, corrupt stdout, leak a secret, or touch memory."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

from support.helpers import SAMPLE_SNAPSHOT, SAMPLE_TATTOO, install, make_repo, memory_bytes, payload, \
    summary_instructions, unavailable, write_memory
from support.userlands import USERLANDS, env_for

BEGIN = "===== AGENT MEMORY BEGIN ====="
END = "===== AGENT MEMORY END ====="
START = {"session_id": "h1", "hook_event_name": "SessionStart", "source": "startup"}
PROMPT = {"session_id": "h1", "hook_event_name": "UserPromptSubmit", "prompt": "go on"}
PRECOMPACT = {"session_id": "h1", "hook_event_name": "PreCompact", "trigger": "auto"}
EDIT = {"session_id": "h1", "hook_event_name": "PostToolUse", "tool_name": "Edit",
        "tool_input": {"file_path": "src/a.py"}}
RULES = ("- Indent with 4 spaces, never tabs", "- Every API returns {code, data, msg}")  # SAMPLE_TATTOO
BASH = "/bin/bash"


def repo_for(tmp_path: Path, userland: str, *platforms: str) -> tuple[Path, dict[str, str]]:
    repo = make_repo(tmp_path)
    args = [a for p in (platforms or (USERLANDS[userland][0],)) for a in ("--platform", p)]
    install(repo, *args, "--framework", "claude-code")
    write_memory(repo, tattoo=SAMPLE_TATTOO, snapshot=SAMPLE_SNAPSHOT, notes="- a note\n")
    return repo, {**os.environ, **env_for(userland, tmp_path)}


def run(repo: Path, hook: str, env: dict[str, str], stdin: object = START, *args: str,
        timeout: float = 20) -> subprocess.CompletedProcess[str]:
    return subprocess.run([BASH, f".agent/hooks/{hook}.sh", "claude-code", *args], input=payload(stdin),
                          cwd=repo, env=env, capture_output=True, text=True, timeout=timeout)


def context(out: str) -> str:
    return str(json.loads(out)["hookSpecificOutput"]["additionalContext"])


def log(repo: Path) -> str:
    f = repo / ".agent/log/memory.log"
    return f.read_text() if f.exists() else ""


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


# --- 5: a signal takes the block builder's children with it --------------------

SLOW_TR = """#!/bin/bash -p
# A slow disk: tr starts reading after seconds.
: >"{marker}"
sleep 5
exec {tr} "$@"
"""


def session_members(sid: int) -> list[int]:
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if int(fields[3]) == sid and int(d.name) != sid and fields[0] != "Z":  # not a zombie
                out.append(int(d.name))
    return out


@pytest.mark.parametrize("sig", ["TERM", "INT", "HUP"])
@pytest.mark.parametrize("userland", sorted(USERLANDS))
def test_a_signal_while_reading_a_huge_notes_leaves_no_child(tmp_path: Path, userland: str, sig: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    with (repo / ".agent/memory/notes.md").open("wb") as f:
        f.write(b"- an old note\n" * (40 << 16))  # 35 MB: read through tail and tr
    before = memory_bytes(repo)
    slow = tmp_path / "slow-bin"
    slow.mkdir()
    marker = tmp_path / "tr-started"
    import shutil
    tr = shutil.which("tr", path=env["PATH"])
    (slow / "tr").write_text(SLOW_TR.format(marker=marker, tr=tr))
    (slow / "tr").chmod(0o755)
    env["PATH"] = f"{slow}:{env['PATH']}"
    stdin = tmp_path / "payload.json"
    stdin.write_text(payload(START))
    with stdin.open("rb") as f:
        proc = subprocess.Popen([BASH, ".agent/hooks/pre_task.sh", "claude-code"], cwd=repo, env=env,
                                stdin=f, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 10
        while not marker.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        assert marker.exists(), "the builder never started"
        time.sleep(0.1)
        proc.send_signal(getattr(signal, f"SIG{sig}"))
        out, err = proc.communicate(timeout=3)  # never waits for the slow reader
        assert proc.returncode in (0, -getattr(signal, f"SIG{sig}")), (proc.returncode, err)
        deadline = time.monotonic() + 0.5
        while session_members(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert session_members(proc.pid) == []
    finally:
        for pid in session_members(proc.pid):
            os.kill(pid, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    # Nothing torn: no temp file left, the published block absent or whole, memory untouched.
    agent = repo / ".agent"
    assert not [p.name for p in agent.rglob("*") if ".tmp" in p.name or p.name.startswith(".injected")]
    published = agent / "injected_context.txt"
    assert not published.exists() or published.read_text().rstrip("\n").endswith(END)
    assert out == b"" or out.decode().rstrip("\n").endswith("}")
    assert memory_bytes(repo) == before


@pytest.mark.parametrize("userland", sorted(USERLANDS))
def test_a_hook_killed_outright_leaves_no_temp_file_past_the_next_build(tmp_path: Path, userland: str) -> None:
    """SIGKILL runs no trap: the builder's temp file is left behind; the next build sweeps it,
    and only it (a temp file named for a hook still running stays)."""
    repo, env = repo_for(tmp_path, userland)
    (repo / ".agent/memory/notes.md").write_bytes(b"- an old note\n" * 30000)  # read through tail and tr
    slow = tmp_path / "slow-bin"
    slow.mkdir()
    marker = tmp_path / "tr-started"
    import shutil
    (slow / "tr").write_text(SLOW_TR.format(marker=marker, tr=shutil.which("tr", path=env["PATH"])))
    (slow / "tr").chmod(0o755)
    stdin = tmp_path / "payload.json"
    stdin.write_text(payload(START))
    with stdin.open("rb") as f:
        proc = subprocess.Popen([BASH, ".agent/hooks/pre_task.sh", "claude-code"], cwd=repo,
                                env={**env, "PATH": f"{slow}:{env['PATH']}"}, stdin=f,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    agent = repo / ".agent"
    try:
        deadline = time.monotonic() + 10
        while not marker.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        assert marker.exists(), "the builder never started"
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=3)
    finally:
        for pid in session_members(proc.pid):
            os.kill(pid, signal.SIGKILL)
    left = [p.name for p in agent.iterdir() if p.name.startswith(".injected_context.txt.")]
    assert left and all(n.startswith(f".injected_context.txt.{proc.pid}.") for n in left), left
    running = agent / f".injected_context.txt.{os.getpid()}.1"  # this test's own pid: alive
    running.write_text("a build in progress\n")
    write_memory(repo, notes="- a newer note\n")  # the block must be built again
    out = run(repo, "pre_task", env)
    assert out.returncode == 0 and "a newer note" in out.stdout
    assert sorted(p.name for p in agent.iterdir() if p.name.startswith(".injected_context.txt.")) == [running.name]


# --- 8: small budgets keep the rules and never pass the budget -----------------

@pytest.mark.parametrize("budget", [50, 80, 120, 150, 200])
@pytest.mark.parametrize("userland", sorted(USERLANDS))
def test_a_small_budget_keeps_the_rules_and_is_never_passed(tmp_path: Path, userland: str, budget: int) -> None:
    repo, env = repo_for(tmp_path, userland)
    cfg = repo / ".agent/config.yaml"
    cfg.write_text(re.sub(r"(?m)^budget_tokens:.*$", f"budget_tokens: {budget}", cfg.read_text()))
    for stdin, hook in ((START, "pre_task"), ({**START, "source": "compact"}, "pre_task")):
        out = run(repo, hook, env, stdin)
        block = context(out.stdout)
        lines = block.splitlines()
        assert lines[0] == BEGIN and lines[-1] == END, block
        assert all(r in lines for r in RULES), block  # the rules alone are far under the budget
        assert "rules are left out" not in block
        tokens = [int(m) for m in re.findall(r"~(\d+) tokens of (\d+)", log(repo))[-1]]
        assert tokens[1] == budget and tokens[0] <= budget, log(repo)


# --- 9: pre_task.sh --archive on a full disk loses nothing ---------------------

@pytest.mark.parametrize("userland", sorted(USERLANDS))
def test_archive_on_a_full_disk_changes_nothing(tmp_path: Path, userland: str) -> None:
    import resource

    repo, env = repo_for(tmp_path, userland)
    snap = repo / ".agent/memory/snapshot.md"
    before = memory_bytes(repo)

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    proc = subprocess.run([BASH, ".agent/hooks/pre_task.sh", "claude-code", "--archive"], input="",
                          cwd=repo, env=env, capture_output=True, text=True, timeout=20, preexec_fn=limit)
    assert proc.returncode == 0 and proc.stdout == "", proc
    said = [ln for ln in proc.stderr.splitlines() if ln.startswith("agenthooks:")]
    assert len(said) == 1 and "nothing archived" in said[0], proc.stderr
    assert memory_bytes(repo) == before  # the snapshot whole, no archive file, not even an empty one
    # With room, it archives, and the fresh snapshot is whole.
    proc = run(repo, "pre_task", env, "", "--archive")
    assert proc.returncode == 0 and "archived: .agent/memory/archive/" in proc.stdout, proc
    assert [p.read_bytes() for p in (repo / ".agent/memory/archive").glob("*.md")] == [before["snapshot.md"]]
    assert b"## In progress" in snap.read_bytes()
    assert not [p for p in snap.parent.iterdir() if p.name.startswith(".")]


# --- 15: old session state is pruned, off the quiet path -----------------------

@pytest.mark.parametrize("userland", sorted(USERLANDS))
def test_old_session_state_is_pruned(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    assert run(repo, "pre_task", env).returncode == 0
    sdir = repo / ".agent/log/state"
    old, recent = time.time() - 40 * 86400, time.time() - 86400
    for i in range(300):
        for ext in ("state", "remind", "built", "count"):
            p = sdir / f"old{i}.{ext}"
            p.write_text("x\n")
            os.utime(p, (old, old))
            q = sdir / f"new{i % 20}.{ext}"
            q.write_text("x\n")
            os.utime(q, (recent, recent))
    kept = sorted(p.name for p in sdir.iterdir() if not p.name.startswith(("old", "new")))
    (repo / ".agent/memory/notes.md").write_text("- a new note\n")  # the next start builds
    assert "- a new note" in context(run(repo, "pre_task", env).stdout)
    names = sorted(p.name for p in sdir.iterdir())
    assert not [n for n in names if n.startswith("old")], names[:10]
    assert len([n for n in names if n.startswith("new")]) == 80
    assert all(n in names for n in kept)


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
