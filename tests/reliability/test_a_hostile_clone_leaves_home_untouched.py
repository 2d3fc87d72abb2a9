"""A cloned repository that commits links to the user's HOME in every place agenthooks reads
or writes: the settings folders of the ten frameworks (and aider's file), .agent/ itself,
hooks/ and hooks/lib/, memory/ and each memory file, memory/archive/, log/, log/state/,
memory.log, trace.log, injected_context.txt, config.yaml and the manifest. install, upgrade,
every memory command and uninstall leave the fake HOME byte-identical (each one that would
write through a link refuses in one line). A whole hook session in the clone (start, prompts,
an edit, PreCompact, the reload after the compaction, with AGENTHOOKS_DEBUG=1), on every
userland, must leave it byte-identical too."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from support.helpers import SAMPLE_SNAPSHOT, SAMPLE_TATTOO, cli, git, install, make_repo, payload, run_hook, write_memory
from support.tree import tree
from support.userlands import USERLANDS, env_for

FRAMEWORKS = ("claude-code", "codex", "gemini-cli", "cursor", "copilot-cli", "cline", "windsurf",
              "opencode", "aider", "generic")
SETTINGS = (".claude", ".codex", ".gemini", ".cursor", ".github", ".clinerules", ".windsurf",
            ".opencode", ".aider.conf.yml")
# Three clones cover every place (a link inside a linked folder would never be reached).
LAYOUTS = {
    # The frameworks' settings, and .agent/ itself as the user's own ~/.agent.
    "settings": {**{rel: f"dot{rel}" for rel in SETTINGS}, ".agent": ".agent"},
    # .agent/ real; its folders are links.
    "folders": {".agent/hooks": "shared-hooks", ".agent/memory": "vault", ".agent/log": ".local/state/logs"},
    # The folders real; their files (and the inner folders) are links.
    "files": {".agent/hooks/lib": "lib", ".agent/memory/tattoo.md": ".ssh/id_ed25519",
              ".agent/memory/snapshot.md": ".bashrc", ".agent/memory/notes.md": ".aws/credentials",
              ".agent/memory/archive": "archive", ".agent/log/state": ".cache/state",
              ".agent/log/memory.log": ".profile", ".agent/log/trace.log": ".bash_history",
              ".agent/injected_context.txt": ".netrc", ".agent/config.yaml": ".config/agenthooks.yaml",
              ".agent/.agenthooks.json": ".config/manifest.json"},
}
HOME_FILES = {".ssh/id_ed25519": "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAA\n"
                                 "-----END OPENSSH PRIVATE KEY-----\n",
              ".bashrc": "export PS1='$ '\n", ".aws/credentials": "[default]\naws_access_key_id = AKIA0000\n",
              ".profile": "umask 022\n", ".bash_history": "ls\n", ".netrc": "machine x login y\n",
              ".agent/memory/tattoo.md": "# My rules\n- Answer in English\n"}


def build(tmp_path: Path, layout: dict[str, str], platform: str) -> tuple[Path, Path]:
    """(origin, fake HOME): origin installed for every framework, its memory written, then
    each place of LAYOUT moved into HOME (a copy of what was there) and committed as a link."""
    home = tmp_path / "home"
    (home / ".cache").mkdir(parents=True)
    for rel, text in HOME_FILES.items():
        (home / rel).parent.mkdir(parents=True, exist_ok=True)
        (home / rel).write_text(text)
    origin = make_repo(tmp_path, "origin")
    install(origin, "--platform", platform, *[a for n in FRAMEWORKS for a in ("--framework", n)])
    write_memory(origin, tattoo=SAMPLE_TATTOO, snapshot=SAMPLE_SNAPSHOT, notes="- retry the test\n" * 3)
    (origin / "CLAUDE.md").write_text("# Rules\n- Use tabs for Makefiles\n")
    (origin / ".agent/log/state").mkdir(parents=True, exist_ok=True)
    for rel, target in layout.items():
        place, dest = origin / rel, home / target
        dest.parent.mkdir(parents=True, exist_ok=True)
        if place.is_dir():  # ~/.agent keeps the user's own rules
            shutil.copytree(place, dest, dirs_exist_ok=True, ignore=shutil.ignore_patterns("tattoo.md")
                            if dest.exists() else None)
        elif not dest.exists():
            if place.exists():
                shutil.copy2(place, dest)
            else:
                dest.write_text("mine\n")
        if place.is_dir():
            shutil.rmtree(place)
        elif place.exists():
            place.unlink()
        place.parent.mkdir(parents=True, exist_ok=True)
        place.symlink_to(dest)
    git(origin, "add", "-A")
    git(origin, "add", "-f", ".agent")  # log/ too: the clone's own .gitignore is no defence
    git(origin, "commit", "-qm", "a hostile clone")
    return origin, home


def home_tree(home: Path) -> dict[str, tuple[object, ...]]:
    """Every entry of the fake HOME, less agenthooks' own template cache (~/.cache/agenthooks,
    the user's folder for compiled templates, whatever the repo)."""
    return tree(home, (home / ".cache" / "agenthooks",))


def clone(origin: Path, dest: Path, crlf: bool = False) -> Path:
    dest.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "clone", "-q", *(["-c", "core.autocrlf=true"] if crlf else []),
                    str(origin), str(dest)], check=True, capture_output=True)
    return dest


COMMANDS: list[list[str]] = [
    ["install", "--yes"], ["install", "--yes", "--dry-run"], ["install", "--yes", "--budget", "800"],
    ["install", "--yes", "--remove", "codex"],
    ["rule", "Keep it simple", "{repo}"], ["note", "a note", "{repo}"],
    ["promote", "{repo}", "--yes", "--all"], ["import", "{repo}", "--yes"],
    ["archive", "{repo}", "--force"], ["edit", "tattoo", "{repo}"], ["simulate", "{repo}"],
    ["show", "{repo}"], ["show", "{repo}", "--json"], ["lint", "{repo}"], ["status", "{repo}"],
    ["verify", "{repo}"], ["doctor", "{repo}"],
    ["uninstall", "--yes"], ["uninstall", "--yes", "--purge"],
]


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_every_command_leaves_home_untouched(tmp_path: Path, layout: str) -> None:
    origin, home = build(tmp_path, LAYOUTS[layout], "linux")
    repo = clone(origin, tmp_path / "clone")
    before = home_tree(home)
    env = {"HOME": str(home), "VISUAL": "true", "EDITOR": "true"}
    refused = []
    for argv in COMMANDS:
        args = [a.replace("{repo}", str(repo)) for a in argv]
        if argv[0] in ("install", "uninstall"):
            args.append(str(repo))
        proc = cli(*args, env=env)
        assert "Traceback" not in proc.stderr and "unexpected error" not in proc.stderr, (args, proc.stderr)
        assert home_tree(home) == before, (args, proc.stdout, proc.stderr)
        if "is a link" in proc.stderr:
            assert proc.returncode != 0, args
            refused.append(argv[0])
    # Every writer met a link on its way and said so; the readers ran.
    assert {"install", "uninstall"} <= set(refused), refused
    if layout != "settings":
        assert {"rule", "note", "promote", "import", "archive", "edit", "simulate"} <= set(refused), refused


SESSION = [("pre_task", {"hook_event_name": "SessionStart", "source": "startup"}),
           ("on_compact", {"hook_event_name": "UserPromptSubmit", "prompt": "go on"}),
           ("post_edit", {"hook_event_name": "PostToolUse", "tool_name": "Edit",
                          "tool_input": {"file_path": "src/app.py"}}),
           ("on_compact", {"hook_event_name": "UserPromptSubmit", "prompt": "and the tests"}),
           ("on_compact", {"hook_event_name": "PreCompact", "trigger": "auto"}),
           ("pre_task", {"hook_event_name": "SessionStart", "source": "compact"}),
           ("on_compact", {"hook_event_name": "UserPromptSubmit", "prompt": "carry on"})]


# One place at a time for the hooks, so that no link hides another: each place -> where in
# HOME it leads ("settings": the ten frameworks' at once, which the hooks never touch).
PLACES = {"settings": {rel: f"dot{rel}" for rel in SETTINGS}, ".agent": {".agent": ".agent"},
          **{rel: {rel: target} for rel, target in LAYOUTS["folders"].items()},
          **{rel: {rel: target} for rel, target in LAYOUTS["files"].items()}}


# The hooks write no path through a link on any userland: every place is checked.
@pytest.mark.parametrize("place", sorted(PLACES))
@pytest.mark.parametrize("userland", sorted(USERLANDS))
def test_a_hook_session_leaves_home_untouched(tmp_path: Path, userland: str, place: str) -> None:
    platform = USERLANDS[userland][0]
    origin, home = build(tmp_path, PLACES[place], platform)
    if userland == "windows":  # Git Bash: the clone on the simulated drive, CRLF checkout
        repo = clone(origin, tmp_path / "C:" / "Users" / "me" / "repo", crlf=True)
    else:
        repo = clone(origin, tmp_path / "clone")
    env = {**os.environ, **env_for(userland, tmp_path), "HOME": str(home), "AGENTHOOKS_DEBUG": "1",
           "CLAUDE_PROJECT_DIR": str(repo), "CLAUDECODE": "1"}
    bash = shutil.which("bash", path=env["PATH"]) or "bash"
    before = home_tree(home)
    wrote: list[tuple[str, str, list[str]]] = []  # every run that changed HOME, and what
    for hook, stdin in SESSION:
        proc = run_hook(repo, hook, {"session_id": "s1", **stdin}, "claude-code", env=env, inherit=False,
                        bash=bash, timeout=60)
        assert proc.returncode == 0, (hook, stdin, proc.stderr)
        now = home_tree(home)
        changed = sorted(k for k in set(now) | set(before) if now.get(k) != before.get(k))
        if changed:
            wrote.append((hook, str(stdin.get("source") or stdin["hook_event_name"]), changed))
        before = now
    assert not wrote, "\n".join(map(str, wrote))
