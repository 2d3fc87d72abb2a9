"""Claude Code's statusLine: registered with --statusline (or yes at the prompt), never
replacing the user's own, taken out by --no-statusline and by uninstall."""
from __future__ import annotations

import json
from pathlib import Path

from agenthooks import answers
from support.helpers import cli, install, make_repo

SETTINGS = ".claude/settings.json"
USERS = '{\n\t"model": "opus",\n\t"statusLine": {"type": "command", "command": "~/bin/mine.sh"}\n}\n'


def settings(repo: Path) -> dict:  # type: ignore[type-arg]
    return json.loads((repo / SETTINGS).read_text(encoding="utf-8"))


def test_statusline_registered_refreshed_and_removed(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    (repo / ".claude").mkdir()
    (repo / SETTINGS).write_text('{\n    "model": "opus"\n}\n', encoding="utf-8")
    before = (repo / SETTINGS).read_bytes()
    install(repo, "--framework", "claude-code", "--statusline")
    line = settings(repo)["statusLine"]
    assert line["type"] == "command" and line["command"].endswith(
        '/.agent/hooks/pre_task.sh" claude-code --statusline')
    assert cli("doctor", str(repo)).returncode == 0
    # The answer is recorded: a later --yes keeps it.
    install(repo)
    assert "statusLine" in settings(repo)
    off = install(repo, "--no-statusline").stdout
    assert "statusLine" not in settings(repo) and "SessionStart" in settings(repo)["hooks"]
    # The verdict says what went, not the general "entries refreshed".
    assert f"  update     {SETTINGS}  (our statusLine removed, yours kept)\n" in off, off
    on = install(repo, "--statusline").stdout
    assert f"  update     {SETTINGS}  (our statusLine added, yours kept)\n" in on, on
    proc = cli("uninstall", str(repo))
    assert proc.returncode == 0, proc.stderr
    assert (repo / SETTINGS).read_bytes() == before  # byte for byte


def test_statusline_off_by_default_with_yes(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code")
    assert "statusLine" not in settings(repo)
    cli("uninstall", str(repo))
    assert not (repo / SETTINGS).exists()


def test_statusline_of_the_users_is_kept_and_said(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    (repo / ".claude").mkdir()
    (repo / SETTINGS).write_text(USERS, encoding="utf-8")
    proc = install(repo, "--framework", "claude-code", "--statusline")
    assert settings(repo)["statusLine"] == {"type": "command", "command": "~/bin/mine.sh"}
    assert f"note: {SETTINGS} already has a statusLine of yours: kept, not replaced" in proc.stdout
    install(repo, "--no-statusline")
    assert settings(repo)["statusLine"] == {"type": "command", "command": "~/bin/mine.sh"}
    cli("uninstall", str(repo))
    assert (repo / SETTINGS).read_text(encoding="utf-8") == USERS


def test_statusline_asked_only_with_claude_code(tmp_path: Path) -> None:
    prompter = answers.ScriptedPrompter({"Which agent": ["claude-code"], "Show memory": False})
    got = answers.resolve(tmp_path, {}, {}, yes=False, prompter=prompter, interactive=True)
    assert got["statusline"] is False
    assert any(m.startswith("Show memory in Claude Code's status line") for m in prompter.asked)
    prompter = answers.ScriptedPrompter({"Which agent": ["codex"]})
    got = answers.resolve(tmp_path, {}, {"statusline": True}, yes=False, prompter=prompter,
                          interactive=True)
    assert got["statusline"] is True  # kept as recorded, not asked
    assert not any(m.startswith("Show memory") for m in prompter.asked)
    # Offered: the prompt's default is yes.
    prompter = answers.ScriptedPrompter({"Which agent": ["claude-code"]})
    assert answers.resolve(tmp_path, {}, {}, yes=False, prompter=prompter,
                           interactive=True)["statusline"] is True
