"""The Python CLI on hostile hosts and files: git's location variables, umasks, memory
files in odd encodings, a full disk, shallow and CRLF checkouts, and huge files. Every
test drives the real CLI in temp git repos."""
from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from support.helpers import SAMPLE_SNAPSHOT, cli, git, install, make_repo, write_memory


def test_exported_git_dir_does_not_redirect_install(tmp_path: Path) -> None:
    other = make_repo(tmp_path, "other")
    repo = make_repo(tmp_path, "repo")
    env = {"GIT_DIR": str(other / ".git"), "GIT_WORK_TREE": str(other),
           "GIT_INDEX_FILE": str(other / ".git" / "index")}
    proc = cli("install", "--yes", str(repo), env=env)
    assert proc.returncode == 0, proc.stderr
    assert "not in a git repository" not in proc.stdout + proc.stderr
    # The merge bases went to the repo it was given, none to the other one.
    assert git(repo, "rev-parse", "--verify", "--quiet", "refs/agenthooks/pristine",
               check=False).returncode == 0
    assert git(other, "rev-parse", "--verify", "--quiet", "refs/agenthooks/pristine",
               check=False).returncode != 0
    assert not (other / ".agent").exists()


def _install_under_umask(repo: Path, mask: int) -> None:
    old = os.umask(mask)
    try:
        install(repo, "--framework", "claude-code", "--platform", "linux")
    finally:
        os.umask(old)


@pytest.mark.parametrize("mask", [0o000, 0o022, 0o077])
def test_install_folders_follow_0755_and_a_stricter_umask(tmp_path: Path, mask: int) -> None:
    repo = make_repo(tmp_path)
    _install_under_umask(repo, mask)
    dirs = [p for p in (repo / ".agent").rglob("*") if p.is_dir()] + [repo / ".agent"]
    dirs += [p for p in (repo / ".claude").rglob("*") if p.is_dir()] + [repo / ".claude"]
    names = {str(d.relative_to(repo)) for d in dirs}
    assert {".agent", ".agent/hooks", ".agent/memory", ".agent/log", ".claude"} <= names
    want = 0o755 & ~mask
    for d in dirs:
        assert d.stat().st_mode & 0o777 == want, (d, oct(d.stat().st_mode & 0o777))


def test_promote_changes_only_the_lines_it_adds_or_removes(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code", "--platform", "linux")
    mem = repo / ".agent" / "memory"
    tattoo = b"\xef\xbb\xbf# Rules\r\n- keep caf\xe9 as latin-1\r\n- second rule\r\n"
    note = b"- run make lint before pushing\r\n"
    notes = (b"\xef\xbb\xbf# Notes\r\n- odd \xff\xfe bytes stay\r\n" + note * 3
             + b"- last note, no line end")
    (mem / "tattoo.md").write_bytes(tattoo)
    (mem / "notes.md").write_bytes(notes)
    proc = cli("promote", "--yes", "--all", str(repo))
    assert proc.returncode == 0, proc.stderr
    assert (mem / "tattoo.md").read_bytes() == tattoo + b"- run make lint before pushing\r\n"
    assert (mem / "notes.md").read_bytes() == notes.replace(note, b"")
    # An LF file gets LF lines; a last line with no end gets the file's own.
    (mem / "tattoo.md").write_bytes(b"- a rule\n- no end \xff")
    (mem / "notes.md").write_bytes(b"- x y z\n" * 3)
    assert cli("promote", "--yes", "--all", str(repo)).returncode == 0
    assert (mem / "tattoo.md").read_bytes() == b"- a rule\n- no end \xff\n- x y z\n"
    assert (mem / "notes.md").read_bytes() == b""


def _cli_fsize(*args: str, fsize: int) -> subprocess.CompletedProcess[str]:
    """The real CLI with RLIMIT_FSIZE: every write past fsize bytes fails with EFBIG,
    as on a full disk (Python and bash ignore SIGXFSZ)."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    return subprocess.run([sys.executable, "-m", "agenthooks", *args], input="",
                          capture_output=True, text=True, preexec_fn=limit)


def test_archive_on_a_full_disk_changes_nothing(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code", "--platform", "linux")
    write_memory(repo, snapshot=SAMPLE_SNAPSHOT)
    snap = repo / ".agent" / "memory" / "snapshot.md"
    before = snap.read_bytes()
    proc = _cli_fsize("archive", str(repo), fsize=0)
    assert proc.returncode != 0, proc.stdout
    errors = [ln for ln in proc.stderr.splitlines() if ln.startswith("agenthooks:")]
    # The hook says it (it refuses before anything moves), and the CLI's own line follows.
    assert errors and any("nothing archived" in e for e in errors), proc.stderr
    assert snap.read_bytes() == before
    assert not list((repo / ".agent" / "memory").glob("archive/*"))
    # With room, it archives and the fresh snapshot is whole.
    proc = cli("archive", str(repo))
    assert proc.returncode == 0, proc.stderr
    assert [p.read_bytes() for p in (repo / ".agent/memory/archive").glob("*.md")] == [before]
    assert snap.stat().st_size > 0 and b"## In progress" in snap.read_bytes()


def _committed(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path, "origin")
    install(repo, "--framework", "claude-code", "--platform", "linux")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "agenthooks")
    return repo


def test_crlf_and_lf_checkouts_record_the_same_manifest(tmp_path: Path) -> None:
    origin = _committed(tmp_path)
    manifest = ".agent/.agenthooks.json"
    committed = (origin / manifest).read_bytes()
    crlf = tmp_path / "crlf"
    git(tmp_path, "clone", "-q", "-c", "core.autocrlf=true", str(origin), str(crlf))
    assert b"\r\n" in (crlf / ".claude/settings.json").read_bytes()  # the case is real
    install(crlf, "--framework", "claude-code", "--platform", "linux")
    # The same manifest as committed (in git's view: the checkout converts line ends).
    assert (crlf / manifest).read_bytes().replace(b"\r\n", b"\n") == committed
    assert git(crlf, "status", "--porcelain", "--", manifest).stdout == ""
    # A hook whose only change is its line endings is pristine: updated, not merged.
    hook = origin / ".agent/hooks/post_edit.sh"
    hook.write_bytes(hook.read_bytes().replace(b"\n", b"\r\n"))
    proc = install(origin, "--framework", "claude-code", "--platform", "linux")
    assert "conflict" not in proc.stdout and "merge" not in proc.stdout, proc.stdout
    assert b"\r\n" not in hook.read_bytes()
    assert (origin / manifest).read_bytes() == committed


def test_shallow_clone_reinstalls_an_edited_hook_like_a_full_clone(tmp_path: Path) -> None:
    origin = _committed(tmp_path)
    hook = origin / ".agent/hooks/post_edit.sh"
    hook.write_bytes(hook.read_bytes() + b"# my edit\n")
    git(origin, "commit", "-qam", "edit the hook")
    verdicts = []
    for name, depth in (("full", ()), ("shallow", ("--depth", "1"))):
        dest = tmp_path / name
        git(tmp_path, "clone", "-q", *depth, f"file://{origin}", str(dest))
        proc = cli("install", "--yes", str(dest), "--framework", "claude-code",
                   "--platform", "linux")
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert not list(dest.rglob("*.agenthooks-new"))
        assert (dest / ".agent/hooks/post_edit.sh").read_bytes().endswith(b"# my edit\n")
        verdicts.append([ln for ln in proc.stdout.splitlines() if "post_edit.sh" in ln])
    assert verdicts[0] == verdicts[1] and "edited by you" in verdicts[0][0], verdicts


@pytest.mark.parametrize("enc,bom", [("utf-16-le", b"\xff\xfe"), ("utf-16-be", b"\xfe\xff"),
                                     ("utf-32-le", b"\xff\xfe\x00\x00"), ("utf-16-le", b"")])
def test_lint_warns_on_a_tattoo_that_is_not_utf8(tmp_path: Path, enc: str, bom: bytes) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code", "--platform", "linux")
    tattoo = repo / ".agent/memory/tattoo.md"
    tattoo.write_bytes(bom + "# Rules\n- Indent with 4 spaces\n".encode(enc))
    proc = cli("lint", str(repo))
    assert "memory is clean" not in proc.stdout, proc.stdout
    assert ".agent/memory/tattoo.md:1: warning: not UTF-8" in proc.stdout, proc.stdout


def test_lint_reads_a_huge_user_tattoo_in_part(tmp_path: Path, isolated_home: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code", "--platform", "linux")
    user = isolated_home / ".agent/memory/tattoo.md"
    user.parent.mkdir(parents=True)
    user.write_bytes(b"- Always run the tests, then the linter, then commit\n" * 1_000_000)
    assert user.stat().st_size > 50_000_000
    proc = cli("lint", str(repo))
    assert "~/.agent/memory/tattoo.md:1: warning: over 256 KB: read in part" in proc.stdout, \
        proc.stdout
    # Read in part: lint's peak memory stays far below the file's 52 MB.
    peak = _peak_rss_mb("lint", str(repo))
    user.write_bytes(b"- Always run the tests\n")
    base = _peak_rss_mb("lint", str(repo))
    assert peak - base < 20, f"lint peaked at {peak:.0f} MB (a small file: {base:.0f} MB)"
    user.unlink()


def _peak_rss_mb(*args: str) -> float:
    """The CLI's peak resident memory, in MB: run from a fresh Python whose only child it
    is, read from that Python's RUSAGE_CHILDREN."""
    code = ("import resource, subprocess, sys; "
            "p = subprocess.run([sys.executable, '-m', 'agenthooks', *sys.argv[1:]], "
            "stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE); "
            "sys.stderr.write(p.stderr.decode()[-500:]); "
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True)
    assert "Traceback" not in proc.stderr, proc.stderr
    return int(proc.stdout.strip()) / 1024  # ru_maxrss is in KB on Linux


def _big(path: Path, line: bytes, size_mb: int) -> None:
    block = line * max(1, (1 << 20) // len(line))
    with open(path, "wb") as fh:
        for _ in range(size_mb):
            fh.write(block)


@pytest.mark.parametrize("command", ["status", "doctor"])
def test_status_and_doctor_stream_a_huge_log(tmp_path: Path, command: str) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code", "--platform", "linux")
    base = _peak_rss_mb(command, str(repo))
    log = repo / ".agent/log/memory.log"
    _big(log, b"[2026-01-02 03:04:05] post_edit claude-code s1: reminded the agent to "
              b"update the snapshot\n", 100)
    peak = _peak_rss_mb(command, str(repo))
    log.unlink()
    assert peak - base < 80, f"{command} peaked at {peak:.0f} MB (base {base:.0f} MB)"


def test_verify_streams_a_huge_transcript(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code", "--platform", "linux")
    path = tmp_path / "session.jsonl"
    head = (b'{"type":"user","sessionId":"s1","message":{"role":"user","content":"go on"}}\n'
            b'{"type":"system","subtype":"compact_boundary","uuid":"b1"}\n')
    path.write_bytes(head)
    base = _peak_rss_mb("verify", str(repo), "--transcript", str(path))
    result = (b'{"type":"user","message":{"role":"user","content":[{"type":"tool_result",'
              b'"tool_use_id":"t1","content":"' + b"x" * 8000 + b'"}]}}\n')
    _big(path, result, 200)
    with open(path, "r+b") as fh:
        fh.write(head)
    peak = _peak_rss_mb("verify", str(repo), "--transcript", str(path))
    path.unlink()
    assert peak - base < 80, f"verify peaked at {peak:.0f} MB (base {base:.0f} MB)"
