"""agenthooks install --user / uninstall --user: the dispatcher in the user's data folder,
registered in each host's user-level settings, merged like the project files and taken out
byte for byte; never written through a link out of the user's folders; and doctor on a repo
the plugin or a user-level install covers."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from agenthooks import dispatch
from support.helpers import claude_repo, cli, install, make_repo
from support.tree import tree

BEGIN = "===== AGENT MEMORY BEGIN ====="


def user(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return cli(*args, env=env)


CLAUDE_TEXT = ('{\r\n\t"model": "opus",\r\n\t"permissions": {"allow": ["Bash(ls)"]},\r\n\t"hooks": {\r\n'
               '\t\t"SessionStart": [{"hooks": [{"type": "command", "command": "echo mine"}]}],\r\n'
               '\t\t"Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]\r\n'
               '\t}\r\n}\r\n')
CODEX_TEXT = '\ufeff{\n  // my hooks\n  "hooks": {}\n}'


@pytest.mark.parametrize("claude,codex", [(CLAUDE_TEXT, CODEX_TEXT), (None, None), ("{}", "{}\n")],
                         ids=["crlf-tabs-bom-comments", "absent", "empty"])
def test_install_then_uninstall_gives_the_users_settings_back_byte_for_byte(
        isolated_home: Path, claude: str | None, codex: str | None) -> None:
    if claude is not None:
        (isolated_home / ".claude").mkdir()
        (isolated_home / ".claude/settings.json").write_bytes(claude.encode())
        (isolated_home / ".codex").mkdir()
        (isolated_home / ".codex/hooks.json").write_bytes(codex.encode())  # type: ignore[union-attr]
    before = tree(isolated_home)
    done = user("install", "--user", "--framework", "claude-code", "--framework", "codex")
    assert done.returncode == 0, done.stderr
    settings = (isolated_home / ".claude/settings.json").read_bytes().decode()
    hooks = (isolated_home / ".codex/hooks.json").read_bytes().decode()
    script = dispatch.user_dir() / "dispatch.sh"
    assert script.read_bytes() == dispatch.script_bytes()
    for text, name in ((settings, "claude-code"), (hooks, "codex")):
        body = json.loads(text.lstrip("\ufeff").replace("// my hooks", ""))
        commands = [h["command"] for groups in body["hooks"].values() for g in groups for h in g["hooks"]]
        assert f"bash -p '{script}' pre_task {name}" in commands
        assert f"bash -p '{script}' post_edit {name}" in commands
    if claude is not None and claude.strip() != "{}":
        assert "echo mine" in settings and "notify-send done" in settings and '"model": "opus"' in settings
        assert settings.count("\r\n") == settings.count("\n")  # CRLF kept on every line
        assert hooks.startswith("\ufeff{\n  // my hooks")
    again = user("install", "--user")  # the recorded hosts; nothing changes
    assert again.returncode == 0 and "create" not in again.stdout and "update" not in again.stdout
    gone = user("uninstall", "--user")
    assert gone.returncode == 0, gone.stderr
    assert tree(isolated_home) == before


def test_it_follows_the_hosts_home_variables(isolated_home: Path, tmp_path: Path) -> None:
    env = {"CLAUDE_CONFIG_DIR": str(tmp_path / "cc"), "CODEX_HOME": str(tmp_path / "cx"),
           "XDG_DATA_HOME": str(tmp_path / "data")}
    done = user("install", "--user", "--framework", "claude-code", "--framework", "codex", env=env)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "data/agenthooks/dispatch.sh").is_file()
    assert "data/agenthooks/dispatch.sh' pre_task" in (tmp_path / "cc/settings.json").read_text()
    assert (tmp_path / "cx/hooks.json").is_file()
    assert not (isolated_home / ".claude").exists() and not (isolated_home / ".codex").exists()
    assert user("uninstall", "--user", env=env).returncode == 0
    assert not any(p.is_file() for p in tmp_path.rglob("*"))


def test_the_registered_command_runs_the_repos_hooks_from_any_folder(isolated_home: Path,
                                                                      tmp_path: Path) -> None:
    assert user("install", "--user", "--framework", "claude-code").returncode == 0
    repo = claude_repo(tmp_path)
    (repo / ".claude/settings.json").unlink()  # the repo registers nothing itself
    (repo / "src").mkdir()
    settings = json.loads((isolated_home / ".claude/settings.json").read_text())
    [group] = settings["hooks"]["SessionStart"]
    payload = json.dumps({"session_id": "u1", "cwd": str(repo / "src"),
                          "hook_event_name": "SessionStart", "source": "startup"})
    # As Claude Code runs it: sh -c COMMAND, from the session's folder.
    proc = subprocess.run(["sh", "-c", group["hooks"][0]["command"]], input=payload, text=True,
                          capture_output=True, cwd=repo / "src",
                          env={**os.environ, "CLAUDE_PROJECT_DIR": str(repo / "src")})
    assert proc.returncode == 0 and BEGIN in proc.stdout, proc.stderr


def test_a_dropped_host_is_unregistered_and_its_file_given_back(isolated_home: Path) -> None:
    (isolated_home / ".codex").mkdir()
    (isolated_home / ".codex/hooks.json").write_text('{"hooks": {"Stop": []}}\n')
    assert user("install", "--user", "--framework", "claude-code", "--framework", "codex").returncode == 0
    proc = user("install", "--user", "--framework", "claude-code")
    assert proc.returncode == 0 and "codex: not selected now" in proc.stdout, proc.stdout
    assert (isolated_home / ".codex/hooks.json").read_text() == '{"hooks": {"Stop": []}}\n'
    assert "dispatch.sh" in (isolated_home / ".claude/settings.json").read_text()


def test_a_link_out_of_the_users_folders_is_never_written_through(isolated_home: Path,
                                                                   tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "settings.json").write_text('{"model": "x"}\n')
    (isolated_home / ".claude").symlink_to(outside)
    proc = user("install", "--user", "--framework", "claude-code")
    assert proc.returncode == 1
    assert "leads out of your folders" in proc.stderr and str(outside) in proc.stderr
    assert (outside / "settings.json").read_text() == '{"model": "x"}\n'
    assert not (isolated_home / ".local").exists()  # refused before the first write


def test_a_link_inside_the_home_folder_is_followed_and_stays_a_link(isolated_home: Path) -> None:
    dotfiles = isolated_home / "dotfiles"
    dotfiles.mkdir()
    (dotfiles / "claude.json").write_text('{"model": "x"}\n')
    (isolated_home / ".claude").mkdir()
    (isolated_home / ".claude/settings.json").symlink_to(dotfiles / "claude.json")
    before = tree(isolated_home)
    assert user("install", "--user", "--framework", "claude-code").returncode == 0
    assert (isolated_home / ".claude/settings.json").is_symlink()
    assert "dispatch.sh" in (dotfiles / "claude.json").read_text()
    assert user("uninstall", "--user").returncode == 0
    assert tree(isolated_home) == before


def test_a_host_without_user_level_hooks_is_refused_by_name(isolated_home: Path) -> None:
    proc = user("install", "--user", "--framework", "cursor")
    assert proc.returncode == 1
    assert "cursor is not a framework with user-level hooks" in proc.stderr
    assert "claude-code, codex" in proc.stderr
    assert not (isolated_home / ".local").exists()
    bad = user("install", "--user", "--framework", "nope")
    assert bad.returncode == 1 and "nope is not a framework agenthooks knows" in bad.stderr
    assert user("install", "--user", ".").returncode != 0  # no repo with --user


def test_dry_run_writes_nothing(isolated_home: Path) -> None:
    before = tree(isolated_home)
    proc = user("install", "--user", "--framework", "codex", "--dry-run")
    assert proc.returncode == 0 and "create" in proc.stdout and "dry run" in proc.stdout
    assert tree(isolated_home) == before


def test_uninstall_user_with_nothing_installed_says_so(isolated_home: Path) -> None:
    proc = user("uninstall", "--user")
    assert proc.returncode == 1 and "nothing to uninstall" in proc.stderr


# --- doctor, beyond the repo ----------------------------------------------------------

def test_doctor_in_a_repo_without_agent_says_how_to_add_memory(isolated_home: Path,
                                                             tmp_path: Path) -> None:
    plain = make_repo(tmp_path, "plain")
    proc = cli("doctor", str(plain))
    assert proc.returncode == 1
    assert "no memory here yet" in proc.stdout
    assert "agenthooks install --local" in proc.stdout and "agenthooks install (" in proc.stdout
    assert user("install", "--user", "--framework", "claude-code").returncode == 0
    proc = cli("doctor", str(plain))
    assert "stay(s) silent here until it has one" in proc.stdout, proc.stdout


def test_doctor_says_memory_comes_once_where_the_repo_registers_it_too(isolated_home: Path,
                                                                      tmp_path: Path) -> None:
    repo = claude_repo(tmp_path)
    assert user("install", "--user", "--framework", "claude-code").returncode == 0
    proc = cli("doctor", str(repo))
    assert proc.returncode == 0, proc.stdout
    assert "step(s) aside where .claude/settings.json is loaded, so memory comes once" in proc.stdout


def test_doctor_flags_a_repo_whose_hooks_would_run_twice(isolated_home: Path, tmp_path: Path) -> None:
    """User settings that run a repo's hooks directly (not through the dispatcher) plus the
    repo's own registration: Claude Code runs both (their commands differ)."""
    repo = claude_repo(tmp_path)
    (isolated_home / ".claude").mkdir()
    direct = {"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command":
              'bash "$PWD/.agent/hooks/pre_task.sh" claude-code'}]}]}}
    (isolated_home / ".claude/settings.json").write_text(json.dumps(direct))
    proc = cli("doctor", str(repo))
    assert proc.returncode == 1
    assert "memory is injected twice" in proc.stdout, proc.stdout


def test_doctor_flags_a_missing_or_old_dispatcher(isolated_home: Path, tmp_path: Path) -> None:
    repo = claude_repo(tmp_path)
    assert user("install", "--user", "--framework", "claude-code").returncode == 0
    script = dispatch.user_dir() / "dispatch.sh"
    script.write_bytes(script.read_bytes().replace(b"# agenthooks 0.", b"# agenthooks 0.0.", 1))
    assert "is from agenthooks 0.0." in cli("doctor", str(repo)).stdout
    script.unlink()
    proc = cli("doctor", str(repo))
    assert proc.returncode == 1 and "which is missing: run agenthooks install --user" in proc.stdout


def test_doctor_names_a_host_the_hooks_were_not_rendered_for(isolated_home: Path,
                                                            tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "codex")
    assert user("install", "--user", "--framework", "claude-code").returncode == 0
    proc = cli("doctor", str(repo))
    assert "rendered without claude-code" in proc.stdout
    assert "agenthooks install --add claude-code" in proc.stdout
