"""agenthooks uninstall: our entries and pristine files go; memory, config, edits and the
user's own files stay or come back."""
from __future__ import annotations

import json
from pathlib import Path

import subprocess

import pytest

from support.helpers import (SAMPLE_TATTOO, cli, git, install, make_repo, memory_bytes, run_hook,
                     unavailable, write_memory)
from support.tree import tree
from support.upgrade import assert_truthful, verdicts

PRE = ".agent/hooks/pre_task.sh"
PRISTINE_REF = "refs/agenthooks/pristine"


def uninstall(repo: Path, *args: str):  # type: ignore[no-untyped-def]
    proc = cli("uninstall", str(repo), *args)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def installed(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path)
    settings = repo / ".claude/settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"model": "opus", "hooks": {"Stop": [
        {"hooks": [{"type": "command", "command": "./notify.sh"}]}]}}, indent=2) + "\n")
    install(repo, "--framework", "claude-code")
    write_memory(repo, tattoo=SAMPLE_TATTOO)
    return repo


def test_uninstall_removes_ours_and_keeps_the_rest(tmp_path: Path) -> None:
    repo = installed(tmp_path)
    memory = memory_bytes(repo)
    before = tree(repo)
    proc = uninstall(repo)
    assert proc.returncode == 0, proc.stderr
    assert_truthful(before, tree(repo), proc.stdout)
    # The tattoo was written to: kept. Snapshot and notes were still the stock templates.
    assert memory_bytes(repo) == {"tattoo.md": memory["tattoo.md"]}
    assert verdicts(proc.stdout)[".agent/memory/snapshot.md"][0] == "remove"
    # A config.yaml nobody edited holds only the defaults.
    assert not (repo / ".agent/config.yaml").exists()
    assert not (repo / PRE).exists() and not (repo / ".agent/hooks").exists()
    assert not (repo / ".agent/.agenthooks.json").exists()
    data = json.loads((repo / ".claude/settings.json").read_text())
    assert data["model"] == "opus"
    assert list(data["hooks"]) == ["Stop"]
    assert "agent/hooks" not in (repo / ".claude/settings.json").read_text()


def test_edited_files_stay_and_are_named(tmp_path: Path) -> None:
    repo = installed(tmp_path)
    (repo / PRE).write_text((repo / PRE).read_text() + "# mine\n")
    proc = uninstall(repo)
    v = verdicts(proc.stdout)
    assert v[PRE][0] == "keep" and v[PRE][1].startswith("edited by you: left in place; it sources lib/")
    assert (repo / PRE).read_text().endswith("# mine\n")
    # The manifest keeps the record, so a later install can still merge into the edit,
    # and the merge bases stay reachable.
    assert PRE in json.loads((repo / ".agent/.agenthooks.json").read_text())["files"]
    assert git(repo, "rev-parse", "--verify", "-q", PRISTINE_REF, check=False).returncode == 0


def test_legacy_file_comes_back(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    (repo / ".agent/hooks").mkdir(parents=True)
    (repo / PRE).write_text("#!/bin/sh\necho mine\n")
    install(repo)
    assert (repo / (PRE + ".legacy")).is_file()
    proc = uninstall(repo)
    assert verdicts(proc.stdout)[PRE][0] == "restore"
    assert (repo / PRE).read_text() == "#!/bin/sh\necho mine\n"
    assert not (repo / (PRE + ".legacy")).exists()


def test_dry_run_writes_nothing(tmp_path: Path) -> None:
    repo = installed(tmp_path)
    before = tree(repo)
    dry = uninstall(repo, "--dry-run")
    assert dry.returncode == 0 and tree(repo) == before
    real = uninstall(repo)
    assert [l for l in dry.stdout.splitlines() if l.startswith("  ")] == \
        [l for l in real.stdout.splitlines() if l.startswith("  ")]


def test_purge_needs_yes_without_a_terminal(tmp_path: Path) -> None:
    repo = installed(tmp_path)
    before = tree(repo)
    proc = uninstall(repo, "--purge")
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and "--yes" in proc.stderr
    assert tree(repo) == before
    assert git(repo, "rev-parse", "--verify", "-q", PRISTINE_REF, check=False).returncode == 0
    ok = uninstall(repo, "--purge", "--yes")
    assert ok.returncode == 0 and not (repo / ".agent").exists()
    assert git(repo, "for-each-ref", "refs/agenthooks/").stdout == ""
    assert verdicts(ok.stdout)[PRISTINE_REF][0] == "remove"
    assert json.loads((repo / ".claude/settings.json").read_text())["model"] == "opus"


def test_nothing_to_uninstall(tmp_path: Path) -> None:
    proc = uninstall(make_repo(tmp_path))
    assert proc.returncode == 1 and len(proc.stderr.strip().splitlines()) == 1


def status(repo: Path) -> list[str]:
    """What git shows, ignored files included."""
    return git(repo, "status", "--porcelain", "--ignored", "--untracked-files=all").stdout.splitlines()


def run_every_hook(repo: Path) -> None:
    """A session's worth of runs: the block, state, reminders, locks, the log."""
    for hook, event in (("pre_task", "SessionStart"), ("on_compact", "UserPromptSubmit"),
                        ("on_compact", "PreCompact"), ("on_compact", "UserPromptSubmit"),
                        ("post_edit", "PostToolUse")):
        proc = run_hook(repo, hook, {"session_id": "s1", "hook_event_name": event,
                                     "prompt": "hi", "tool_input": {"file_path": "a.py"}},
                        "claude-code")
        assert proc.returncode == 0, proc.stderr
    assert (repo / ".agent/injected_context.txt").is_file()
    assert (repo / ".agent/log/state").is_dir()


@pytest.mark.parametrize("committed", [False, True])
def test_uninstall_leaves_git_status_as_it_was_before_install(tmp_path: Path,
                                                              committed: bool) -> None:
    """Memory never written to: nothing of ours is left, not even an ignored file or a ref."""
    repo = make_repo(tmp_path)
    (repo / "README.md").write_text("mine\n")
    git(repo, "add", "README.md")
    git(repo, "commit", "-qm", "mine")
    before = status(repo)
    install(repo, "--framework", "claude-code")
    run_every_hook(repo)
    if committed:  # a commit of the install would be undone by a commit of the uninstall
        head = git(repo, "rev-parse", "HEAD").stdout.strip()
        git(repo, "add", "-A")
        git(repo, "commit", "-qm", "agent memory hooks")
    proc = uninstall(repo)
    assert proc.returncode == 0, proc.stderr
    if committed:
        git(repo, "add", "-A")
        git(repo, "commit", "-qm", "uninstalled")
        assert git(repo, "diff", "--stat", head, "HEAD").stdout == ""
    assert status(repo) == before, proc.stdout
    assert not (repo / ".agent").exists() and not (repo / ".claude").exists()
    assert git(repo, "for-each-ref", "refs/agenthooks/").stdout == ""


def test_memory_written_to_and_an_edited_config_are_kept(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code")
    write_memory(repo, tattoo=SAMPLE_TATTOO)  # what an agent does
    cfg = repo / ".agent/config.yaml"
    cfg.write_text(cfg.read_text().replace("budget_tokens: 500", "budget_tokens: 700"))
    run_every_hook(repo)
    proc = uninstall(repo)
    assert proc.returncode == 0, proc.stderr
    assert sorted(status(repo)) == ["?? .agent/config.yaml", "?? .agent/memory/tattoo.md"]
    assert (repo / ".agent/memory/tattoo.md").read_text() == SAMPLE_TATTOO
    v = verdicts(proc.stdout)
    assert v[".agent/memory/tattoo.md"] == ("keep", "memory is never touched")
    assert v[".agent/config.yaml"][0] == "keep"
    assert v[".agent/log/"][0] == "remove" and v[".agent/injected_context.txt"][0] == "remove"


def test_read_only_repo_is_one_line_and_changes_nothing(tmp_path: Path) -> None:
    """Root ignores permission bits, so a read-only bind mount of the repo is what refuses."""
    repo = installed(tmp_path)
    run_every_hook(repo)
    before = tree(repo)
    mount = subprocess.run(["mount", "--bind", str(repo), str(repo)], capture_output=True)
    if mount.returncode != 0:
        unavailable("cannot bind-mount here (needs root with CAP_SYS_ADMIN)")
    try:
        ro = subprocess.run(["mount", "-o", "remount,bind,ro", str(repo)], capture_output=True)
        if ro.returncode != 0:
            unavailable("cannot remount read-only here")
        proc = uninstall(repo)
        assert proc.returncode == 1
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("agenthooks: "), proc.stderr
        assert "not writable" in lines[0] and "nothing was removed" in lines[0]
        assert proc.stdout == ""
        assert tree(repo) == before
    finally:
        subprocess.run(["umount", "-l", str(repo)], capture_output=True)
    assert uninstall(repo).returncode == 0


# For every framework: files the user had before install, in that framework's own format
# and folders (their hooks in the events we also use). Install adds ours; uninstall must
# give every one of them back byte for byte and leave nothing that calls our hooks.
_NESTED = ('{\n  "model": "opus",\n  "hooks": {\n    "EVENT": [\n      {"matcher": "Bash", "hooks": '
           '[{"type": "command", "command": "./lint.sh"}]}\n    ],\n    "Stop": [{"hooks": '
           '[{"type": "command", "command": "say done"}]}]\n  }\n}\n')
USER_FILES: dict[str, dict[str, str]] = {
    "claude-code": {".claude/settings.json": _NESTED.replace("EVENT", "PostToolUse")},
    "codex": {".codex/hooks.json": _NESTED.replace("EVENT", "PostToolUse")},
    "gemini-cli": {".gemini/settings.json": _NESTED.replace("EVENT", "AfterTool")},
    "cursor": {".cursor/hooks.json": '{\n    "version": 1,\n    "hooks": {\n        "postToolUse": '
               '[{"command": "./fmt.sh", "matcher": "Write"}],\n        "stop": [{"command": "say done"}]\n'
               '    }\n}\n'},
    "windsurf": {".windsurf/hooks.json": '{"hooks": {"post_write_code": [{"command": "./fmt.sh", '
                 '"show_output": false}]}}\n',
                 ".windsurf/rules/style.md": "Use black.\n"},
    "copilot-cli": {".github/hooks/mine.json": '{"version": 1, "hooks": {"sessionStart": '
                    '[{"type": "command", "bash": "./hello.sh"}]}}\n'},
    "cline": {".clinerules/hooks/TaskStart": "#!/bin/bash\necho '{}'\n",
              ".clinerules/hooks/PreToolUse": "#!/bin/bash\n# the user's own\necho '{}'\n"},
    "opencode": {".opencode/plugins/mine.ts": "export const Mine = async () => ({})\n"},
    "kilo": {".kilo/plugins/mine.ts": "export const Mine = async () => ({})\n",
             "kilo.json": '{"model": "mock/m1"}\n'},
    "pi": {".pi/extensions/mine.ts": "export default function () {}\n",
           ".pi/settings.json": '{"packages": []}\n'},
    "qwen-code": {".qwen/settings.json": _NESTED.replace("EVENT", "PostToolUse")},
    # Droid's hooks.json is the event map itself.
    "droid": {".factory/hooks.json": '{\n  "PostToolUse": [{"matcher": "Execute", "hooks": '
              '[{"type": "command", "command": "./lint.sh"}]}],\n  "Stop": [{"hooks": '
              '[{"type": "command", "command": "say done"}]}]\n}\n',
              ".factory/settings.json": '{"customModels": []}\n'},
    "aider": {".aider.conf.yml": "# keep me\nmodel: sonnet\nread: [CONVENTIONS.md]\n"},
}


def test_every_framework_has_user_files_here() -> None:
    from agenthooks.frameworks import NAMES

    assert sorted(USER_FILES) == sorted(n for n in NAMES if n != "generic")


def _calls_our_hooks(repo: Path) -> list[str]:
    return sorted(str(p.relative_to(repo)) for p in repo.rglob("*")
                  if p.is_file() and ".git" not in p.parts and ".agent" not in p.parts
                  and any(w in p.read_text(errors="replace")
                          for w in (".agent/hooks/", ".agent/injected_context.txt")))


@pytest.mark.parametrize("name", sorted(USER_FILES))
def test_uninstall_keeps_the_users_hooks_of_every_framework(tmp_path: Path, name: str) -> None:
    repo = make_repo(tmp_path)
    for rel, text in USER_FILES[name].items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    install(repo, "--framework", name)
    assert _calls_our_hooks(repo), "install registered nothing"
    proc = uninstall(repo)
    assert proc.returncode == 0, proc.stderr
    for rel, text in USER_FILES[name].items():
        assert (repo / rel).read_text() == text, rel
    assert _calls_our_hooks(repo) == []
    assert not list(repo.rglob("*.legacy"))
