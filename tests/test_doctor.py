"""agenthooks doctor: healthy installs exit 0, each kind of damage exits 1 and says how to fix it."""
from __future__ import annotations

import json
from pathlib import Path

from support.helpers import cli, install, make_repo, run_hook
from support.tree import tree
from support.upgrade import install_v0


def doctor(repo: Path, *args: str):  # type: ignore[no-untyped-def]
    proc = cli("doctor", str(repo), *args)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def statuses(repo: Path) -> dict[str, tuple[str, str]]:
    proc = doctor(repo, "--json")
    data = json.loads(proc.stdout)
    assert data["healthy"] == (proc.returncode == 0)
    return {c["name"]: (c["status"], c["message"]) for c in data["checks"]}


def test_fresh_install_is_healthy_and_doctor_writes_nothing(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code")
    before = tree(repo)
    proc = doctor(repo)
    assert proc.returncode == 0, proc.stdout
    assert "healthy" in proc.stdout.splitlines()[-1]
    s = statuses(repo)
    assert s["framework claude-code"][0] == "ok"
    assert s["config.yaml"][0] == "ok" and s["bash"][0] == "ok"
    assert tree(repo) == before


def test_not_installed(tmp_path: Path) -> None:
    proc = doctor(make_repo(tmp_path))
    assert proc.returncode == 1 and "run agenthooks install" in proc.stdout


def test_hook_not_executable_or_missing(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo)
    (repo / ".agent/hooks/post_edit.sh").chmod(0o644)
    (repo / ".agent/hooks/on_compact.sh").unlink()
    s = statuses(repo)
    assert s["hook post_edit.sh"][0] == "fail" and "chmod +x" in s["hook post_edit.sh"][1]
    assert s["hook on_compact.sh"][0] == "fail" and "--restore" in s["hook on_compact.sh"][1]


def test_edited_hook_is_ok_but_conflict_markers_fail(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo)
    hook = repo / ".agent/hooks/pre_task.sh"
    hook.write_text(hook.read_text() + "# mine\n")
    s = statuses(repo)
    assert s["hook pre_task.sh"][0] == "ok" and "edited by you" in s["hook pre_task.sh"][1]
    hook.write_text(hook.read_text() + "<<<<<<< x\n=======\n>>>>>>> agenthooks (new)\n")
    assert statuses(repo)["hook pre_task.sh"][0] == "fail"


def test_old_templates_say_run_install(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install_v0(repo)
    proc = doctor(repo)
    assert proc.returncode == 1
    assert "run agenthooks install to upgrade" in proc.stdout
    install(repo)
    assert doctor(repo).returncode == 0


def test_config_the_hooks_cannot_read(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo)
    cfg = repo / ".agent/config.yaml"
    cfg.write_text(cfg.read_text().replace("notes_count: 5", "notes_count: many"))
    status, message = statuses(repo)["config.yaml"]
    assert status == "fail" and "notes_count" in message
    cfg.write_text("notes_count: [broken\n")
    assert statuses(repo)["config.yaml"][0] == "fail"


def test_registration_missing_or_pointing_nowhere(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code")
    settings = repo / ".claude/settings.json"
    settings.write_text('{"model": "opus"}\n')
    assert statuses(repo)["framework claude-code"][0] == "fail"
    install(repo, "--allow-dirty")
    (repo / ".agent/hooks/post_edit.sh").unlink()
    status, message = statuses(repo)["framework claude-code"]
    assert status == "fail" and "post_edit.sh, which is missing" in message


def test_broken_manifest_is_one_fail_line(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo)
    (repo / ".agent/.agenthooks.json").write_text("{nope")
    proc = doctor(repo)
    assert proc.returncode == 1 and "manifest" in proc.stdout


def test_registration_of_a_framework_the_hooks_were_not_rendered_for(tmp_path: Path) -> None:
    """What narrowing --framework used to leave: claude-code's entries, hooks without it."""
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code", "--framework", "codex")
    data = json.loads((repo / ".agent/.agenthooks.json").read_text())
    data["answers"]["frameworks"] = ["codex"]
    (repo / ".agent/.agenthooks.json").write_text(json.dumps(data))
    install(repo)  # re-rendered for codex alone; the settings file is taken care of...
    assert "claude-code" not in (repo / ".claude/settings.json").read_text() \
        if (repo / ".claude/settings.json").exists() else True
    assert doctor(repo).returncode == 0
    # ...and one wired by hand (or left by an older agenthooks) is caught.
    from agenthooks.frameworks import claude_code

    (repo / ".claude").mkdir(exist_ok=True)
    (repo / ".claude/settings.json").write_text(claude_code.plan(repo, {})[0].text)
    status, message = statuses(repo)["framework claude-code"]
    assert status == "fail" and ".claude/settings.json" in message
    assert "rendered without claude-code" in message
    assert doctor(repo).returncode == 1
    proc = install(repo)
    assert "remove     .claude/settings.json  (claude-code not selected)" in proc.stdout
    assert doctor(repo).returncode == 0


def test_disabled_hooks_are_a_warning(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo)
    cfg = repo / ".agent/config.yaml"
    assert "enabled" not in statuses(repo)
    cfg.write_text(cfg.read_text().replace("enabled: true", "enabled: Off"))
    assert statuses(repo)["enabled"] == (
        "warn", "hooks are disabled: .agent/config.yaml has enabled: false")
    assert doctor(repo).returncode == 0  # a choice, not damage


def test_invalid_yaml_is_named_not_taken_for_old_templates(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo)
    cfg = repo / ".agent/config.yaml"
    lines = cfg.read_text().count("\n")
    with open(cfg, "a", encoding="utf-8") as fh:
        fh.write("notes_count: [5\n")
    s = statuses(repo)
    assert s["templates"][0] == "ok", s["templates"]
    status, message = s["config.yaml"]
    assert status == "fail"
    assert f"is not valid YAML (line {lines + 2}, column 1): expected ',' or ']'" in message


def crlf(path: Path) -> None:
    """What a Windows editor, a copy or a zip does to a hook."""
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))


def test_crlf_hooks_fail_naming_the_file_the_cause_and_the_fix(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code")
    assert statuses(repo)["syntax"][0] == "ok"
    for hook in ("pre_task", "post_edit", "on_compact"):
        crlf(repo / f".agent/hooks/{hook}.sh")
    assert run_hook(repo, "pre_task").returncode != 0  # the case is real: bash cannot run it
    proc = doctor(repo)
    assert proc.returncode == 1, proc.stdout
    s = statuses(repo)
    for hook in ("pre_task", "post_edit", "on_compact"):
        status, message = s[f"syntax .agent/hooks/{hook}.sh"]
        assert status == "fail", message
        for said in ("CRLF", "agenthooks install", "core.autocrlf", ".gitattributes",
                     "git add --renormalize ."):
            assert said in message, message


def test_any_script_under_hooks_that_bash_cannot_parse_fails(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo)
    lib = repo / ".agent/hooks/lib"
    lib.mkdir(exist_ok=True)
    (lib / "util.sh").write_text("f() {\n  echo one\n")  # the closing brace is missing
    s = statuses(repo)
    status, message = s["syntax .agent/hooks/lib/util.sh"]
    assert status == "fail" and "syntax error" in message, message
    assert "syntax .agent/hooks/pre_task.sh" not in s  # the rendered hooks still parse


def test_doctor_names_memory_that_links_out_of_the_repo(tmp_path: Path) -> None:
    """The hooks do not read a memory file that resolves outside the repository; doctor says
    which, and why."""
    repo = make_repo(tmp_path)
    install(repo, "--framework", "generic")
    outside = tmp_path / "secret"
    outside.write_text("key material\n")
    tattoo = repo / ".agent/memory/tattoo.md"
    tattoo.unlink()
    tattoo.symlink_to(outside)
    proc = cli("doctor", str(repo))
    line = [ln for ln in proc.stdout.splitlines() if "tattoo.md" in ln and "outside the repository" in ln]
    assert len(line) == 1 and "the hooks do not read it" in line[0], proc.stdout
    assert not any("snapshot.md" in ln and "outside" in ln for ln in proc.stdout.splitlines())


# --- Copilot CLI keeps only the last sessionStart hook's context (github/copilot-cli #3589) ---

def test_doctor_names_a_copilot_session_start_hook_beside_ours(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "copilot-cli", "--framework", "claude-code")
    assert "copilot-cli neighbours" not in cli("doctor", str(repo)).stdout
    (repo / ".github/hooks/team.json").write_text(json.dumps(
        {"version": 1, "hooks": {"sessionStart": [{"type": "command", "bash": "./scripts/context.sh"}]}}))
    out = cli("doctor", str(repo)).stdout
    assert "warn  copilot-cli neighbours: copilot-cli also runs the session- or subagent-start hook(s) " \
           "of .github/hooks/team.json (./scripts/context.sh)" in out, out
    # Copilot runs .claude/settings.json's hooks too: a user's own SessionStart there counts.
    settings = json.loads((repo / ".claude/settings.json").read_text())
    settings["hooks"]["SessionStart"].append({"hooks": [{"type": "command", "command": "echo team context"}]})
    (repo / ".claude/settings.json").write_text(json.dumps(settings))
    assert ".claude/settings.json (echo team context)" in cli("doctor", str(repo)).stdout
    # And a subagentStart hook of the team's, which would take the place of the subagent's memory.
    (repo / ".github/hooks/team.json").write_text(json.dumps(
        {"version": 1, "hooks": {"subagentStart": [{"type": "command", "bash": "./scripts/sub.sh"}]}}))
    assert ".github/hooks/team.json (./scripts/sub.sh)" in cli("doctor", str(repo)).stdout
    # Not registered for Copilot: nothing to say.
    install(repo, "--remove", "copilot-cli")
    assert "copilot-cli neighbours" not in cli("doctor", str(repo)).stdout
