"""Nothing agenthooks runs reads to merge, or writes, outside the repo, whatever links,
manifest or special files a clone carries. install, upgrade and uninstall refuse a link
anywhere on the way to a path they touch (a framework's settings folder, .agent/, hooks/,
memory/, log/...), in one line naming it, before their first write; the memory tools refuse a
linked memory file, memory folder, memory.log or log/, and never open a FIFO; a crafted
manifest never makes install or uninstall remove or rewrite a file they do not write; an
unwritable target is refused before anything is written."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from support.helpers import cli, install, make_repo, unavailable
from support.tree import tree

ALL = ("claude-code", "codex", "gemini-cli", "cursor", "copilot-cli", "cline", "windsurf",
       "opencode", "aider", "generic")
FRAMEWORK_ARGS = [a for n in ALL for a in ("--framework", n)]

# Each place a clone may link out of the repo (to a folder, or to a file of the user's).
FOLDERS = (".claude", ".codex", ".gemini", ".cursor", ".github", ".github/hooks", ".clinerules",
           ".clinerules/hooks", ".windsurf", ".windsurf/rules", ".opencode", ".opencode/plugins",
           ".agent", ".agent/hooks", ".agent/hooks/lib", ".agent/memory", ".agent/log",
           ".agent/log/state")
FILES = (".claude/settings.json", ".aider.conf.yml", ".agent/.agenthooks.json", ".agent/config.yaml",
         ".agent/memory/tattoo.md", ".agent/log/memory.log", ".agent/log/trace.log",
         ".agent/hooks/pre_task.sh")


def fake_home(tmp_path: Path) -> Path:
    home = tmp_path / "fakehome"
    for rel, text in ((".claude/settings.json", '{"model": "opus", "hooks": {}}\n'),
                      (".bashrc", "export PS1='$ '\n"), (".aider.conf.yml", "model: gpt\n"),
                      (".ssh/id_ed25519", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaA\n")):
        (home / rel).parent.mkdir(parents=True, exist_ok=True)
        (home / rel).write_text(text)
    return home


def link_out(repo: Path, rel: str, home: Path) -> Path:
    """Move repo/rel (or make it) into the fake HOME and leave a link in its place."""
    place = repo / rel
    target = home / "linked" / rel.replace("/", "__")
    target.parent.mkdir(parents=True, exist_ok=True)
    if place.exists() and not place.is_symlink():
        shutil.move(str(place), str(target))
    elif rel in FOLDERS:
        target.mkdir()
        (target / "users-own.txt").write_text("mine\n")
    else:
        target.write_text('{"users": "own"}\n' if rel.endswith(".json") else "mine: yes\n")
    place.parent.mkdir(parents=True, exist_ok=True)
    place.symlink_to(target)
    return target


_INSTALLED: dict[tuple[str, ...], Path] = {}


def installed_copy(factory: pytest.TempPathFactory, dest: Path, *args: str) -> Path:
    """A repo with agenthooks installed by the real CLI (installed once per ARGS), copied
    to DEST with its .git."""
    if args not in _INSTALLED:
        base = factory.mktemp("installed")
        install(make_repo(base), *args)
        _INSTALLED[args] = base / "repo"
    shutil.copytree(_INSTALLED[args], dest, symlinks=True)
    return dest


def first_line(proc: subprocess.CompletedProcess[str]) -> str:
    lines = [ln for ln in proc.stderr.splitlines() if not ln.startswith(("hint: ", "agenthooks: warning"))]
    assert len(lines) == 1, proc.stderr
    return lines[0]


@pytest.mark.parametrize("rel", FOLDERS + FILES)
def test_install_into_a_clone_with_a_link_writes_nothing(tmp_path: Path, rel: str) -> None:
    home = fake_home(tmp_path)
    repo = make_repo(tmp_path)
    link_out(repo, rel, home)
    before_home, before_repo = tree(home), tree(repo, (repo / ".git",))
    proc = cli("install", "--yes", str(repo), *FRAMEWORK_ARGS)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    line = first_line(proc)
    assert line.startswith("agenthooks: ") and "is a link" in line and rel.split("/")[0] in line, line
    assert tree(home) == before_home
    assert tree(repo, (repo / ".git",)) == before_repo


@pytest.mark.parametrize("rel", FOLDERS + FILES)
def test_upgrade_and_uninstall_with_a_link_write_nothing(tmp_path_factory: pytest.TempPathFactory,
                                                          tmp_path: Path, rel: str) -> None:
    home = fake_home(tmp_path)
    repo = installed_copy(tmp_path_factory, tmp_path / "repo", *FRAMEWORK_ARGS)
    link_out(repo, rel, home)
    before_home, before_repo = tree(home), tree(repo, (repo / ".git",))
    for args in (["install", "--yes", "--lang", "zh"], ["install", "--yes", "--remove", "codex"],
                 ["uninstall", "--yes"], ["uninstall", "--yes", "--purge"]):
        proc = cli(*args, str(repo))
        assert proc.returncode == 1, (args, proc.stdout + proc.stderr)
        line = first_line(proc)
        assert "is a link" in line, (args, line)
        assert tree(home) == before_home, args
        assert tree(repo, (repo / ".git",)) == before_repo, args


# --- the memory tools -------------------------------------------------------------------

def memory_argv(command: str, repo: Path) -> list[str]:
    r = str(repo)
    return {"rule": ["rule", "Keep it simple", r], "note": ["note", "a note", r],
            "promote": ["promote", r, "--yes", "--all"], "import": ["import", r, "--yes"],
            "archive": ["archive", r, "--force"], "edit": ["edit", "tattoo", r],
            "simulate": ["simulate", r]}[command]


COMMANDS = ("rule", "note", "promote", "import", "archive", "edit", "simulate")
MEMORY_LINKS = (".agent", ".agent/memory", ".agent/memory/tattoo.md", ".agent/memory/notes.md",
                ".agent/log", ".agent/log/memory.log")
# What a command neither reads to rewrite nor writes: a link there is none of its business.
UNTOUCHED = {("archive", ".agent/memory/tattoo.md"), ("rule", ".agent/memory/notes.md"),
             ("import", ".agent/memory/notes.md"), ("archive", ".agent/memory/notes.md"),
             ("edit", ".agent/memory/notes.md")}


def memory_repo(factory: pytest.TempPathFactory, tmp_path: Path) -> Path:
    repo = installed_copy(factory, tmp_path / "repo", "--framework", "claude-code")
    mem = repo / ".agent/memory"
    (mem / "notes.md").write_text("- retry the flaky test\n" * 3)
    (mem / "snapshot.md").write_text("# Snapshot\n## Goal\nShip\n## In progress\n- the CLI\n")
    (repo / "CLAUDE.md").write_text("# Rules\n- Use tabs for Makefiles\n")
    return repo


@pytest.mark.parametrize("rel", MEMORY_LINKS)
@pytest.mark.parametrize("command", COMMANDS)
def test_memory_tools_never_write_through_a_link(tmp_path_factory: pytest.TempPathFactory,
                                                 tmp_path: Path, command: str, rel: str) -> None:
    home = fake_home(tmp_path)
    repo = memory_repo(tmp_path_factory, tmp_path)
    link_out(repo, rel, home)
    before = tree(home)
    proc = cli(*memory_argv(command, repo), env={"VISUAL": "true", "EDITOR": "true"})
    if (command, rel) in UNTOUCHED:
        assert proc.returncode == 0, (command, rel, proc.stdout, proc.stderr)
    else:
        assert proc.returncode == 1, (command, rel, proc.stdout, proc.stderr)
        line = first_line(proc)
        assert f"{rel} is a link" in line and "nothing was written" in line or \
            "not archived" in line or "not started" in line or "not run" in line, line
    assert tree(home) == before


def test_note_never_creates_a_links_target(tmp_path_factory: pytest.TempPathFactory,
                                           tmp_path: Path) -> None:
    repo = memory_repo(tmp_path_factory, tmp_path)
    notes = repo / ".agent/memory/notes.md"
    notes.unlink()
    missing = tmp_path / "fakehome" / "created-through-link"
    notes.symlink_to(missing)
    proc = cli("note", "hello", str(repo))
    assert proc.returncode == 1 and "notes.md is a link" in proc.stderr, proc.stderr
    assert not missing.exists() and not missing.is_symlink()


@pytest.mark.parametrize("name", ["tattoo.md", "notes.md"])
@pytest.mark.parametrize("command", ["rule", "note", "promote", "import"])
def test_a_fifo_memory_file_is_refused_without_blocking(tmp_path_factory: pytest.TempPathFactory,
                                                         tmp_path: Path, command: str, name: str) -> None:
    import sys

    repo = memory_repo(tmp_path_factory, tmp_path)
    path = repo / ".agent/memory" / name
    path.unlink()
    os.mkfifo(path)
    try:
        proc = subprocess.run([sys.executable, "-m", "agenthooks", *memory_argv(command, repo)],
                              capture_output=True, text=True, timeout=20, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{command} blocked on a FIFO {name}")
    if (command, f".agent/memory/{name}") in UNTOUCHED:
        assert proc.returncode == 0, proc.stderr
        return
    assert proc.returncode == 1 and f"{name} is not a regular file" in proc.stderr, proc.stderr


# --- a crafted manifest ---------------------------------------------------------------------

def test_a_crafted_manifest_never_removes_or_rewrites_what_we_do_not_write(tmp_path: Path) -> None:
    home = fake_home(tmp_path)
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code")
    victims = {
        "../fakehome/.bashrc": home / ".bashrc",                          # outside, relative
        str(home / ".aider.conf.yml"): home / ".aider.conf.yml",         # outside, absolute
        ".agent/hooks/../../../fakehome/.ssh/id_ed25519": home / ".ssh/id_ed25519",  # not normalised
        "README.md": repo / "README.md",                                 # inside, not ours
        ".agent/memory/notes.md": repo / ".agent/memory/notes.md",       # memory
    }
    (repo / "README.md").write_text("# my project\n")
    (repo / ".agent/memory/notes.md").write_text("- a note of mine\n")
    mpath = repo / ".agent/.agenthooks.json"
    data = json.loads(mpath.read_text())
    for i, (key, path) in enumerate(victims.items()):
        data["files"][key] = {"template": "hooks/pre_task.sh", "rev": 1, "mode": "644",
                              "kind": ("owned", "config")[i % 2],
                              "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}
    data["files"][".claude/settings.json"]["legacy"] = "../../fakehome/.bashrc"
    mpath.write_text(json.dumps(data))
    before = {k: p.read_bytes() for k, p in victims.items()}
    home_before = tree(home)
    up = cli("install", "--yes", str(repo))
    assert up.returncode == 0, up.stdout + up.stderr
    assert "not a file agenthooks writes: ignored" in up.stderr, up.stderr
    assert {k: p.read_bytes() for k, p in victims.items()} == before
    data = json.loads(mpath.read_text())
    data["files"].update({k: {"template": "x", "rev": 1, "kind": "owned", "mode": "644",
                              "sha256": hashlib.sha256(p.read_bytes()).hexdigest()}
                          for k, p in victims.items()})
    mpath.write_text(json.dumps(data))
    down = cli("uninstall", "--yes", str(repo))
    assert down.returncode == 0, down.stdout + down.stderr
    assert "not a file agenthooks writes: ignored" in down.stderr, down.stderr
    assert {k: p.read_bytes() for k, p in victims.items()} == before
    assert tree(home) == home_before


# --- an unwritable target -------------------------------------------------------------------

def mount_ro(where: Path) -> None:
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", str(where)],
                       capture_output=True, text=True)
    if r.returncode != 0:
        unavailable(f"cannot mount a read-only tmpfs here (needs root with CAP_SYS_ADMIN): {r.stderr}")


@pytest.mark.parametrize("where", [".claude", ".codex"])
def test_an_unwritable_target_is_refused_before_the_first_write(tmp_path: Path, where: str) -> None:
    # .claude/ on a first install; .codex/ when an upgrade adds codex (the hooks change too).
    repo = make_repo(tmp_path)
    if where == ".codex":
        install(repo, "--framework", "claude-code")
    (repo / where).mkdir(parents=True, exist_ok=True)
    mount_ro(repo / where)
    try:
        before = tree(repo, (repo / ".git",))
        proc = cli("install", "--yes", str(repo), "--framework", "claude-code", "--framework", "codex")
        assert proc.returncode == 1, proc.stdout + proc.stderr
        line = first_line(proc)
        assert f"{repo / where}: not writable" in line and "nothing was written" in line, line
        assert tree(repo, (repo / ".git",)) == before
    finally:
        subprocess.run(["umount", str(repo / where)], check=False)


def test_import_reads_no_instruction_file_outside_the_repo(tmp_path_factory: pytest.TempPathFactory,
                                                           tmp_path: Path) -> None:
    home = fake_home(tmp_path)
    repo = memory_repo(tmp_path_factory, tmp_path)
    (home / ".claude/CLAUDE.md").write_text("# Mine\n- My private rule from HOME\n")
    (repo / "CLAUDE.md").unlink()
    (repo / "CLAUDE.md").symlink_to(home / ".claude/CLAUDE.md")
    (repo / "docs").mkdir()
    (repo / "docs/agents.md").write_text("# Rules\n- Never commit a rule of the repo untested\n")
    (repo / "AGENTS.md").symlink_to("docs/agents.md")  # a link inside the repo is read
    proc = cli("import", str(repo), "--yes")
    assert proc.returncode == 0, proc.stderr
    tattoo = (repo / ".agent/memory/tattoo.md").read_text()
    assert "Never commit a rule of the repo untested" in tattoo and "My private rule" not in tattoo, proc.stdout
