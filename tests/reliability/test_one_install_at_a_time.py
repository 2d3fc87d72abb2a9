"""One install at a time: parallel installs wait for each other (or refuse, saying so), and
end with registrations and renders that agree, a healthy doctor, and no file recorded as
edited by the user. doctor fails on hooks rendered for another framework set and on a file
recorded as edited that is the pristine render."""
from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from support.helpers import cli, install, make_repo

from agenthooks import manifest


def start(repo: Path, *args: str, wait: str = "60") -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "agenthooks", "install", "--yes", str(repo), *args],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "AGENTHOOKS_LOCK_WAIT": wait})


def recorded(repo: Path) -> dict:  # type: ignore[type-arg]
    return json.loads((repo / manifest.PATH).read_text())


@pytest.mark.parametrize("adds", [("gemini-cli", "cursor"), ("gemini-cli", "cursor", "codex")])
def test_parallel_installs_wait_for_each_other_and_end_healthy(tmp_path: Path, adds: tuple[str, ...]) -> None:
    repo = make_repo(tmp_path)
    (repo / ".claude").mkdir()
    install(repo, "--framework", "claude-code")
    procs = [start(repo, "--add", name) for name in adds]
    outs = [(p.wait(timeout=300), *p.communicate()) for p in procs]
    done = ["claude-code"]
    for name, (rc, out, err) in zip(adds, outs):
        assert rc == 0 or "refused" in err, (name, rc, out, err)
        if rc == 0:
            done.append(name)
        else:
            assert err.count("\n") <= 3, err  # the waiting line, the refusal, its hint
    data = recorded(repo)
    assert sorted(data["answers"]["frameworks"]) == sorted(done)
    assert not list(repo.rglob("*.agenthooks-new"))
    edited = [rel for rel, rec in data["files"].items()
              if manifest.kind(rec) == "owned" and (repo / rel).is_file()
              and not manifest.is_pristine((repo / rel).read_bytes(), rec)]
    assert edited == []  # nothing recorded as edited by the user
    doctor = cli("doctor", str(repo))
    assert doctor.returncode == 0, doctor.stdout
    for name in done:
        assert f"ok    framework {name}: " in doctor.stdout


def test_a_second_run_waits_briefly_then_refuses_with_one_line(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "generic")
    before = (repo / manifest.PATH).read_bytes()
    fd = os.open(repo, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # another run holds the repo
        proc = start(repo, "--add", "codex", wait="1")
        rc, (out, err) = proc.wait(timeout=60), proc.communicate()
        assert rc == 1, (out, err)
        lines = err.splitlines()
        assert lines[0].startswith("agenthooks: another install, upgrade or uninstall is running")
        assert lines[1] == (f"agenthooks: another agenthooks install, upgrade or uninstall is "
                            f"still running in {repo}: install refused, nothing was written")
        assert (repo / manifest.PATH).read_bytes() == before
        gone = subprocess.run([sys.executable, "-m", "agenthooks", "uninstall", str(repo)],
                              capture_output=True, text=True,
                              env={**os.environ, "AGENTHOOKS_LOCK_WAIT": "0"})
        assert gone.returncode == 1 and "uninstall refused" in gone.stderr
        # Let go while a run waits: it goes on, and says it waited.
        waiting = start(repo, "--add", "codex", wait="60")
        assert waiting.stderr is not None
        first = waiting.stderr.readline()  # it says it waits: then the other run ends
        assert "waiting for it (60 s at most)" in first, first
        fcntl.flock(fd, fcntl.LOCK_UN)
        rc, (out, err) = waiting.wait(timeout=120), waiting.communicate()
        assert rc == 0, err
        assert "waited for the other run to finish; going on" in err
    finally:
        os.close(fd)
    assert sorted(recorded(repo)["answers"]["frameworks"]) == ["codex", "generic"]
    dry = cli("install", "--dry-run", str(repo))  # a dry run reads only: never waits
    assert dry.returncode == 0


def test_doctor_fails_when_the_hooks_do_not_serve_a_registered_framework(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "a")
    install(repo, "--framework", "claude-code", "--framework", "cursor")
    assert cli("doctor", str(repo)).returncode == 0
    other = make_repo(tmp_path / "b")
    install(other, "--framework", "gemini-cli")
    for p in (other / ".agent/hooks").rglob("*"):  # hooks rendered for another set
        if p.is_file():
            (repo / p.relative_to(other)).write_bytes(p.read_bytes())
    doctor = cli("doctor", str(repo))
    assert doctor.returncode == 1
    assert "fail  hooks for cursor: cursor is registered, but" in doctor.stdout
    line = next(ln for ln in doctor.stdout.splitlines() if "hooks for cursor" in ln)
    fix = line.split("are lost): ", 1)[1]
    assert fix.startswith("rm .agent/hooks/") and "&& agenthooks install --restore " in fix
    for ln in doctor.stdout.splitlines():  # every such line's command, as written
        if "rendered without it" in ln:
            rm, again = ln.split("are lost): ", 1)[1].split(" && ")
            for rel in rm.split()[1:]:
                (repo / rel).unlink(missing_ok=True)
            assert cli(*again.split()[1:], "--yes", str(repo)).returncode == 0
    assert cli("doctor", str(repo)).returncode == 0, cli("doctor", str(repo)).stdout


def test_doctor_fails_on_a_file_recorded_as_edited_that_is_the_pristine_render(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code")
    data = recorded(repo)
    for rel in (".agent/hooks/lib/say.sh", ".agent/hooks/pre_task.sh"):
        data["files"][rel]["sha256"] = "0" * 64  # as another run's render left it
    (repo / manifest.PATH).write_text(json.dumps(data, indent=2))
    doctor = cli("doctor", str(repo))
    assert doctor.returncode == 1
    for rel in (".agent/hooks/lib/say.sh", ".agent/hooks/pre_task.sh"):
        assert (f"{rel} is recorded as edited by you, but it is exactly what agenthooks "
                "renders") in doctor.stdout
    install(repo)
    assert cli("doctor", str(repo)).returncode == 0
