"""The interactive installer in a real pseudo-terminal, as a user meets it the first time:
a fresh HOME, no agent CLI on PATH, the keys a person presses."""
from __future__ import annotations

import json
import os
import re
import shutil
import sys
from pathlib import Path

import pexpect

from support.helpers import install, make_repo

ENTER = "\r"
TIMEOUT = int(os.environ.get("PEXPECT_TIMEOUT", "60"))  # generous: two cores shared with other test runs


def spawn(repo: Path, home: Path, *args: str, command: str = "install") -> pexpect.spawn:
    """The real CLI on a pty, 200x40, TERM=xterm, PATH holding git and nothing agent-like."""
    bin_ = home / "bin"
    bin_.mkdir(exist_ok=True)
    if not (bin_ / "git").exists():
        (bin_ / "git").symlink_to(str(shutil.which("git")))
    env = {**os.environ, "HOME": str(home), "PATH": str(bin_), "TERM": "xterm",
           "COLUMNS": "200", "LINES": "40"}
    return pexpect.spawn(sys.executable, ["-m", "agenthooks", command, *args], cwd=str(repo),
                         env=env, dimensions=(40, 200), timeout=TIMEOUT, encoding="utf-8")


def expect(child: pexpect.spawn, pattern: str) -> None:
    """child.expect(pattern), answering each cursor position request on the way as a real
    terminal does: prompt_toolkit shows its toolbar (the validation error) only once it
    knows the screen's height."""
    while child.expect([pattern, re.escape(CPR)]) == 1:
        child.send("\x1b[1;1R")


CPR = "\x1b[6n"


def finish(child: pexpect.spawn) -> tuple[str, int]:
    child.expect(pexpect.EOF)
    child.close()
    return str(child.before), int(child.exitstatus if child.exitstatus is not None else -1)


def test_enter_through_the_defaults_in_an_empty_repo_says_how_to_pick(
        tmp_path: Path, isolated_home: Path) -> None:
    repo = make_repo(tmp_path)
    child = spawn(repo, isolated_home)
    expect(child, "a few questions, then the plan")  # one line first says what will happen
    expect(child, "Which systems")
    expect(child, "space to tick, enter to confirm")  # every checkbox shows the keys
    child.send(ENTER)
    expect(child, "Which agent frameworks")
    expect(child, "space to tick, enter to confirm")
    child.send(ENTER)  # nothing is ticked here: say how to pick, in the prompt
    expect(child, "nothing ticked")
    child.send(" " + ENTER)  # tick the first, claude-code
    expect(child, "Language")
    child.send(ENTER)
    expect(child, "Injection budget")
    child.send("\x7f" * 5 + "lots" + ENTER)  # refused in the prompt's toolbar, asked again
    expect(child, "budget must be a whole number")
    child.send("\x7f" * 4 + "500" + ENTER)
    expect(child, "progress board live")
    expect(child, "local: one board per branch and worktree, kept out of git")  # one line each
    child.send(ENTER)  # the default, local
    expect(child, "status line")
    child.send(ENTER)
    expect(child, "Plan for")
    expect(child, r"create\s+\.claude/settings\.json")
    expect(child, r"Write these files\?")
    assert not (repo / ".agent").exists()  # nothing before the deliberate answer
    child.send("y" + ENTER)
    out, rc = finish(child)
    assert rc == 0, out
    assert (repo / ".agent/hooks/pre_task.sh").is_file()
    assert "board: local" in (repo / ".agent/config.yaml").read_text()
    assert "agenthooks show" in out and "tattoo.md" in out and "agenthooks import" in out
    assert "git add .agent .claude" in out and ".codex" not in out


def test_n_then_enter_at_the_status_line_does_not_install(
        tmp_path: Path, isolated_home: Path) -> None:
    repo = make_repo(tmp_path)
    (repo / ".claude").mkdir()  # claude-code pre-ticked, so the status line is asked
    child = spawn(repo, isolated_home)
    for question in ("Which systems", "Which agent frameworks", "Language", "Injection budget",
                     "progress board live"):
        expect(child, question)
        child.send(ENTER)
    expect(child, "status line")
    child.send("n" + ENTER)  # typed fast, in one go: the Enter belongs to this question
    expect(child, "Plan for")
    expect(child, r"\.agent/hooks/pre_task\.sh")
    expect(child, r"Write these files\?")
    # Waiting for its own answer: the status line's Enter did not carry into this one.
    assert child.expect([pexpect.EOF, pexpect.TIMEOUT], timeout=3) == 1
    assert not (repo / ".agent").exists()
    child.send(ENTER)  # Enter alone: the default, no
    out, rc = finish(child)
    assert rc != 0 and "cancelled: nothing was written" in out
    assert not (repo / ".agent").exists() and not (repo / ".claude/settings.json").exists()


def test_a_framework_switch_says_it_unregisters_before_anything_is_written(
        tmp_path: Path, isolated_home: Path) -> None:
    repo = make_repo(tmp_path)
    (repo / ".claude").mkdir()
    install(repo)
    settings = (repo / ".claude/settings.json").read_text()
    child = spawn(repo, isolated_home, "--framework", "codex")
    for question in ("Which systems", "Language", "Injection budget"):
        expect(child, question)
        child.send(ENTER)
    expect(child, "Plan for")
    expect(child, r"unregister claude-code: wired at the last install")
    expect(child, r"Write these files\?")
    child.send("n" + ENTER)
    out, rc = finish(child)
    assert rc != 0 and "cancelled" in out
    assert (repo / ".claude/settings.json").read_text() == settings


def recorded(repo: Path) -> list[str]:
    return list(json.loads((repo / ".agent/.agenthooks.json").read_text())["answers"]["frameworks"])


def test_add_and_remove_keep_the_rest_as_recorded(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    (repo / ".claude").mkdir()
    install(repo)
    install(repo, "--add", "codex")
    assert recorded(repo) == ["claude-code", "codex"]
    dry = install(repo, "--dry-run", "--framework", "codex")
    assert "unregister claude-code" in dry.stdout and recorded(repo) == ["claude-code", "codex"]
    install(repo, "--remove", "claude-code")
    assert recorded(repo) == ["codex"]
    assert "agenthooks" not in (repo / ".claude/settings.json").read_text() \
        if (repo / ".claude/settings.json").exists() else True
    proc = install(repo, "--remove", "codex", check=False)
    assert proc.returncode != 0 and "leaves no framework" in proc.stderr
    assert recorded(repo) == ["codex"]
    proc = install(repo, "--add", "nosuch", check=False)
    assert proc.returncode != 0 and "nosuch" in proc.stderr


def test_the_readme_git_add_line_works_after_a_claude_code_install(tmp_path: Path) -> None:
    import subprocess

    from support.helpers import ROOT

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    line = next(raw for raw in readme.splitlines() if raw.startswith("git add "))
    repo = make_repo(tmp_path)
    (repo / ".claude").mkdir()
    install(repo)
    proc = subprocess.run(["bash", "-c", line.split("&&")[0]], cwd=repo, capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stderr  # no "pathspec '.codex' did not match"


def test_the_rules_in_claude_md_are_counted_offered_ticked_by_the_rule_and_enter_imports(
        tmp_path: Path, isolated_home: Path) -> None:
    repo = make_repo(tmp_path)
    source = "# Notes\n\n- Run make test before every commit.\n- Never push to main directly.\n"
    (repo / "CLAUDE.md").write_text(source, encoding="utf-8")
    child = spawn(repo, isolated_home, "--framework", "generic")
    for question in ("Which systems", "Language", "Injection budget", "progress board live"):
        expect(child, question)
        child.send(ENTER)
    expect(child, r"Write these files\?")
    child.send("y" + ENTER)
    expect(child, r"2 rule\(s\) found in CLAUDE\.md \(1 ticked\)")  # counted first
    expect(child, r"ticked: the rules that say must/never/always/don't, up to 20")
    expect(child, r"Bring these rules from CLAUDE\.md into \.agent/memory/tattoo\.md\?")
    expect(child, r"○ Run make test before every commit\.")  # advice: unticked
    expect(child, r"● Never push to main directly\.")  # binding: ticked before any key
    assert "make test" not in (repo / ".agent/memory/tattoo.md").read_text(encoding="utf-8")
    child.send(ENTER)
    out, rc = finish(child)
    assert rc == 0, out
    assert "imported 1 rule(s) into .agent/memory/tattoo.md from CLAUDE.md" in out
    assert "left 1 rule(s) out: recorded in .agent/imports.txt, not offered again" in out
    tattoo = (repo / ".agent/memory/tattoo.md").read_text(encoding="utf-8")
    assert "- Never push to main directly.\n" in tattoo and "make test" not in tattoo
    assert (repo / "CLAUDE.md").read_text(encoding="utf-8") == source


def test_uninstall_purge_waits_for_enter_after_its_one_key_answer(
        tmp_path: Path, isolated_home: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo)
    child = spawn(repo, isolated_home, "--purge", command="uninstall")
    expect(child, r"memory included\?")
    child.send("y")  # one key: not yet an answer
    assert child.expect([pexpect.EOF, pexpect.TIMEOUT], timeout=3) == 1
    assert (repo / ".agent/memory").is_dir()
    child.send("\x7fn" + ENTER)  # changed its mind before Enter
    out, rc = finish(child)
    assert rc != 0 and "nothing was removed" in out
    assert (repo / ".agent/memory").is_dir()


def test_an_emptied_budget_takes_the_default_and_an_error_shows_beside_the_question(
        tmp_path: Path, isolated_home: Path) -> None:
    from support.terminal import Term

    repo = make_repo(tmp_path)
    term = Term(repo, isolated_home, "--framework", "generic")
    for question in ("Which systems", "Language"):
        term.expect(question)
        term.send(ENTER)
    term.expect("Injection budget")
    term.send("\x7f" * 5 + "lots" + ENTER)  # refused: said on the question's own line
    term.expect("budget must be a whole number, not 'lots'")
    asked = term.row(r"^\? Injection budget")
    said = term.row("budget must be a whole number")
    assert said == asked, term.text()  # not in a toolbar at the foot of the screen
    term.send("\x7f" * 4 + ENTER)  # emptied: the default, no error
    term.expect("progress board live")
    term.send(ENTER)
    term.expect(r"Write these files\?")
    term.send("y" + ENTER)
    out, rc = term.finish()
    assert rc == 0, out
    assert json.loads((repo / ".agent/.agenthooks.json").read_text())["answers"]["budget_tokens"] == 500


def test_a_reinstall_with_nothing_to_write_asks_no_write_question(
        tmp_path: Path, isolated_home: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "generic")
    child = spawn(repo, isolated_home)
    for question in ("Which systems", "Which agent frameworks", "Language", "Injection budget"):
        expect(child, question)
        child.send(ENTER)
    out, rc = finish(child)
    assert rc == 0, out
    assert "Write these files?" not in out and "up to date: nothing changed" in out
