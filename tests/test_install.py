"""agenthooks install through the real CLI: layout, answers, idempotence, bad input."""
from __future__ import annotations

import json
import re
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from agenthooks import answers as answers_mod
from agenthooks import install as install_mod
from agenthooks.errors import MissingAnswer, UserError
from support.helpers import ROOT, cli, git, install, make_repo, run_hook
from support.tree import tree

COMMANDS = ("install",)

LAYOUT = {
    ".agent/.agenthooks.json", ".agent/.gitattributes", ".agent/.gitignore",
    ".agent/config.yaml", ".agent/hooks/on_compact.sh", ".agent/hooks/post_edit.sh",
    ".agent/hooks/pre_task.sh", ".agent/log/memory.log", ".agent/memory/notes.md",
    ".agent/memory/snapshot.md", ".agent/memory/tattoo.md",
    # The hooks' library: every render ships the portable lock (lib/lock.sh), for a flock
    # that is missing or fails.
    *(f".agent/hooks/lib/{part}" for part in ("prelude.sh", "io.sh", "say.sh", "cache.sh", "runtime.sh",
                                              "lock.sh", "context.sh", "state.sh", "block.sh", "memory.awk",
                                              "block.awk", "clean.awk", "archive.sh", "where.sh", "working.sh",
                                              "compaction.sh", "audit.awk", "scopes.sh",
                                              "subagent.sh", "json.sh", "anyjson.sh")),
}


def test_version_and_help_on_every_command() -> None:
    out = cli("--version")
    assert out.returncode == 0 and out.stdout.startswith("agenthooks ")
    top = cli("--help")
    assert top.returncode == 0 and "install" in top.stdout
    listed = top.stdout.split("Commands:")[1].splitlines()
    # A command's line starts two spaces in; its summary's wrapped lines, further in.
    for cmd in [line.split()[0] for line in listed if re.match(r"^  \S", line)]:
        proc = cli(cmd, "--help")
        assert proc.returncode == 0 and "Usage:" in proc.stdout, cmd


def test_install_scaffolds_the_documented_layout(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    proc = install(repo)
    assert set(tree(repo, dirs=False)) == LAYOUT
    for hook in ("pre_task", "post_edit", "on_compact"):
        assert os.access(repo / f".agent/hooks/{hook}.sh", os.X_OK)
        assert f"create     .agent/hooks/{hook}.sh" in proc.stdout
    snap = (repo / ".agent/memory/snapshot.md").read_text()
    assert [h for h in snap.splitlines() if h.startswith("## ")] == [
        "## Goal", "## Done", "## In progress", "## Todo", "## Key decisions", "## Tried and failed"]
    manifest = json.loads((repo / ".agent/.agenthooks.json").read_text())
    assert manifest["answers"]["frameworks"] == ["generic"]
    assert set(manifest["files"]) >= {".agent/hooks/pre_task.sh", ".agent/config.yaml"}


def test_zh_templates(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--lang", "zh")
    snap = (repo / ".agent/memory/snapshot.md").read_text()
    assert [h for h in snap.splitlines() if h.startswith("## ")] == [
        "## 目标", "## 已完成", "## 进行中", "## 待办", "## 关键决策", "## 已放弃"]
    assert "当前任务快照" in run_hook(repo, "pre_task").stdout


def test_second_install_is_byte_identical_and_says_so(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code", "--platform", "linux", "--platform", "macos")
    before = tree(repo)
    proc = install(repo)
    assert tree(repo) == before
    assert "up to date: nothing changed" in proc.stdout
    verdicts = [line.split()[0] for line in proc.stdout.splitlines() if line.startswith("  ")]
    assert len(verdicts) == len(LAYOUT) + 1  # and .claude/settings.json
    assert set(verdicts) <= {"identical", "keep"}, proc.stdout


def test_existing_memory_is_never_touched(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    mem = repo / ".agent/memory"
    mem.mkdir(parents=True)
    (mem / "tattoo.md").write_bytes(b"- mine\r\n")
    proc = install(repo)
    assert (mem / "tattoo.md").read_bytes() == b"- mine\r\n"
    assert "keep       .agent/memory/tattoo.md" in proc.stdout


def test_runtime_files_are_ignored_and_the_rest_is_committable(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo)
    for hook in ("pre_task", "on_compact", "post_edit"):
        run_hook(repo, hook, {"session_id": "s", "hook_event_name": "X"}, env={"AGENT_CONTEXT_LEN": "5"})
    status = git(repo, "status", "--porcelain", "--untracked-files=all").stdout.splitlines()
    paths = sorted(line[3:] for line in status)
    assert paths == sorted(LAYOUT - {".agent/log/memory.log"})
    assert git(repo, "check-ignore", "-q", ".agent/injected_context.txt", check=False).returncode == 0


def test_dir_defaults_to_the_git_top_level(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    sub = repo / "a" / "b"
    sub.mkdir(parents=True)
    proc = cli("install", "--yes", cwd=sub)
    assert proc.returncode == 0, proc.stderr
    assert (repo / ".agent/hooks/pre_task.sh").exists() and not (sub / ".agent").exists()
    plain = tmp_path / "plain"
    plain.mkdir()
    assert cli("install", "--yes", cwd=plain).returncode == 0
    assert (plain / ".agent/config.yaml").exists()


def test_without_a_terminal_a_missing_answer_exits_2_and_writes_nothing(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    proc = cli("install", str(repo))
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "--platform" in proc.stderr
    assert not (repo / ".agent").exists()
    # Every answer given by a flag: no prompt is needed.
    proc = cli("install", str(repo), "-p", "linux", "-f", "codex", "--lang", "en", "--budget", "400",
               "--board", "branch")
    assert proc.returncode == 0, proc.stderr
    assert "budget_tokens: 400" in (repo / ".agent/config.yaml").read_text()
    assert "board: branch" in (repo / ".agent/config.yaml").read_text()


def test_answers_are_recorded_and_flags_override(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--platform", "macos", "--framework", "codex", "--lang", "zh")
    again = cli("install", str(repo))  # no TTY, no --yes: recorded answers suffice
    assert again.returncode == 0, again.stderr
    recorded = json.loads((repo / ".agent/.agenthooks.json").read_text())["answers"]
    assert recorded == {"platforms": ["macos"], "frameworks": ["codex"], "lang": "zh",
                        "budget_tokens": 500, "board": "shared"}
    install(repo, "--platform", "linux")
    recorded = json.loads((repo / ".agent/.agenthooks.json").read_text())["answers"]
    assert recorded["platforms"] == ["linux"] and recorded["frameworks"] == ["codex"]
    assert "stat -c %Y" in (repo / ".agent/hooks/lib/runtime.sh").read_text()  # the runtime


def test_yes_takes_detected_frameworks_by_default(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    (repo / ".gemini").mkdir()
    (repo / ".aider.conf.yml").write_text("model: x\n")
    git(repo, "add", ".aider.conf.yml")
    git(repo, "commit", "-qm", "aider config")
    install(repo)
    recorded = json.loads((repo / ".agent/.agenthooks.json").read_text())["answers"]
    assert recorded["frameworks"] == ["gemini-cli", "aider"]


def test_scripted_prompter_drives_the_interactive_path(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    (repo / ".claude").mkdir()
    prompter = answers_mod.ScriptedPrompter({"Which systems": ["linux", "macos"],
                                             "Language": "zh", "Injection": "800",
                                             answers_mod.FINAL: True})
    lines: list[str] = []
    rc = install_mod.run(repo, {}, yes=False, dry_run=False, prompter_factory=lambda: prompter,
                         echo=lines.append, interactive=True)
    assert rc == 0
    assert [m.split("?")[0] for m in prompter.asked] == [
        "Which systems will run these hooks", "Which agent frameworks should call them",
        "Language of the memory templates and messages", "Injection budget in estimated tokens",
        "Where does each task's progress board live",
        "Show memory in Claude Code's status line (size, compactions, snapshot age)",
        "Write these files"]
    # The plan, before the final question; then what to do next, with paths that exist.
    assert lines[0].startswith("agenthooks install: a few questions")
    assert lines.index("  create     .agent/hooks/pre_task.sh") < lines.index(
        f"agenthooks install in {repo}:")
    assert "next: commit them: git add .agent .claude" in lines
    assert "budget_tokens: 800" in (repo / ".agent/config.yaml").read_text()
    # Offered on a terminal, and yes by default: the status line is registered.
    assert "--statusline" in (repo / ".claude/settings.json").read_text()


def test_declining_the_summary_writes_nothing(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    prompter = answers_mod.ScriptedPrompter({answers_mod.FINAL: False})
    with pytest.raises(UserError):
        install_mod.run(repo, {}, yes=False, dry_run=False, prompter_factory=lambda: prompter,
                        echo=lambda s: None, interactive=True)
    assert not (repo / ".agent").exists()


def test_real_questionary_prompts_through_a_pipe(tmp_path: Path) -> None:
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    repo = make_repo(tmp_path)
    down, space, enter = "\x1b[B", " ", "\r"
    with create_pipe_input() as inp:
        # platforms: tick macos too; frameworks: none is pre-ticked in an empty repo, tick
        # the first (claude-code); lang: move to zh; budget: replace the default; board: move
        # to branch; status line: no (a one-key answer waits for its Enter).
        keys = (down + space + enter) + (space + enter) + (down + enter) + ("\x7f" * 5 + "700" + enter) \
            + (down + enter) + ("n" + enter)
        inp.send_text(keys)
        prompter = answers_mod.QuestionaryPrompter(input=inp, output=DummyOutput())
        got = answers_mod.resolve(repo, {}, {}, yes=False, prompter=prompter, interactive=True)
    assert got["platforms"] == ["linux", "macos"]
    assert got["frameworks"] == ["claude-code"] and got["lang"] == "zh" and got["budget_tokens"] == 700
    assert got["board"] == "branch" and got["statusline"] is False


def test_ctrl_c_at_a_prompt_exits_130_and_writes_nothing(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    pid, fd = pty.fork()
    if pid == 0:  # the child runs the real CLI on a real terminal
        os.chdir(repo)
        os.execv(sys.executable, [sys.executable, "-m", "agenthooks", "install"])
    seen = b""
    deadline = time.monotonic() + 20
    while b"Which systems" not in seen and time.monotonic() < deadline:
        if select.select([fd], [], [], 0.5)[0]:
            try:
                seen += os.read(fd, 4096)
            except OSError:
                break
    assert b"Which systems" in seen, seen
    os.write(fd, b"\x03")
    while time.monotonic() < deadline:
        try:
            if select.select([fd], [], [], 0.5)[0] and not os.read(fd, 4096):
                break
        except OSError:
            break
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 130
    assert not (repo / ".agent").exists()


def test_missing_answer_is_raised_before_any_prompt(tmp_path: Path) -> None:
    with pytest.raises(MissingAnswer):
        answers_mod.resolve(tmp_path, {}, {}, yes=False, prompter=None, interactive=False)


def test_questionary_is_imported_only_when_prompting(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    code = ("import sys; from agenthooks.cli import main; "
            f"rc = main(['install', '--yes', {str(repo)!r}]); "
            "print(rc, 'questionary' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split()[-2:] == ["0", "False"]


@pytest.mark.parametrize("case", ["missing", "file", "unwritable", "framework", "platform",
                                  "lang", "budget", "yaml", "manifest", "conflict-mode"])
def test_bad_input_is_one_line_and_writes_nothing(tmp_path: Path, case: str) -> None:
    repo = make_repo(tmp_path)
    args = ["install", "--yes", str(repo)]
    if case == "missing":
        args[2] = str(tmp_path / "nope")
    elif case == "file":
        (tmp_path / "f").write_text("x")
        args[2] = str(tmp_path / "f")
    elif case == "unwritable":
        args[2] = "/proc/1"
    elif case == "framework":
        args += ["--framework", "vim"]
    elif case == "platform":
        args += ["--platform", "amiga"]
    elif case == "lang":
        args += ["--lang", "fr"]
    elif case == "budget":
        args += ["--budget", "$(touch PWNED)"]
    elif case == "yaml":
        (repo / ".agent").mkdir()
        (repo / ".agent/config.yaml").write_text("budget_tokens: [1,\n")
    elif case == "manifest":
        (repo / ".agent").mkdir()
        (repo / ".agent/.agenthooks.json").write_text("{nope")
    elif case == "conflict-mode":
        args += ["--conflict", "rej"]
    before = tree(tmp_path)
    proc = cli(*args, cwd=tmp_path)
    assert proc.returncode != 0
    lines = [ln for ln in proc.stderr.splitlines() if not ln.startswith("hint:")]
    assert len(lines) == 1 and lines[0].startswith("agenthooks: "), proc.stderr
    assert "Traceback" not in proc.stderr
    assert tree(tmp_path) == before
    assert not (tmp_path / "PWNED").exists()


def test_budget_flag_on_an_existing_install_is_spliced_into_config(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo)
    cfg = repo / ".agent/config.yaml"
    cfg.write_text("# my own note, kept\n" + cfg.read_text())
    proc = install(repo, "--budget", "800")
    assert "update     .agent/config.yaml  (set budget_tokens 500 -> 800 as asked" in proc.stdout
    text = cfg.read_text()
    assert text.startswith("# my own note, kept\n") and "\nbudget_tokens: 800\n" in text
    shown = cli("show", str(repo))
    assert "of budget 800" in shown.stderr
    again = install(repo, "--budget", "800")
    assert "keep       .agent/config.yaml" in again.stdout
    # A recorded answer never overrides the user's own later edit.
    cfg.write_text(text.replace("budget_tokens: 800", "budget_tokens: 900"))
    install(repo)
    assert "budget_tokens: 900" in cfg.read_text()


def test_next_lines_only_for_frameworks_whose_files_changed(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    first = install(repo, "--framework", "claude-code", "--framework", "codex")
    assert "next: Claude Code:" in first.stdout and "next: Codex:" in first.stdout
    again = install(repo)
    assert "next:" not in again.stdout and "up to date: nothing changed" in again.stdout
    settings = repo / ".claude/settings.json"
    settings.unlink()
    back = install(repo, "--restore", ".claude/settings.json")
    assert "next: Claude Code:" in back.stdout and "next: Codex:" not in back.stdout


def git_only_path(tmp_path: Path) -> Path:
    """A PATH folder with git and no agent CLI, whatever this machine has installed."""
    import shutil

    bin_ = tmp_path / "bin"
    bin_.mkdir(exist_ok=True)
    (bin_ / "git").symlink_to(str(shutil.which("git")))
    return bin_


def test_empty_repo_pre_ticks_no_framework_but_yes_falls_back_to_generic(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(git_only_path(tmp_path)))  # no agent CLI; HOME is fresh
    class Recording(answers_mod.ScriptedPrompter):
        ticked: list[str] = []

        def checkbox(self, message, choices, default, instruction=None):  # type: ignore[no-untyped-def]
            if message.startswith("Which agent frameworks"):
                Recording.ticked = list(default)
            return super().checkbox(message, choices, default, instruction)

    repo = make_repo(tmp_path)
    prompter = Recording({"Which agent frameworks": ["claude-code"], answers_mod.FINAL: True})
    install_mod.run(repo, {}, yes=False, dry_run=False, prompter_factory=lambda: prompter,
                    echo=lambda s: None, interactive=True)
    assert Recording.ticked == []
    recorded = json.loads((repo / ".agent/.agenthooks.json").read_text())["answers"]
    assert recorded["frameworks"] == ["claude-code"]
    other = make_repo(tmp_path, "other")
    install(other)
    assert json.loads((other / ".agent/.agenthooks.json").read_text())["answers"]["frameworks"] == ["generic"]


def test_an_empty_repo_pre_ticks_what_this_machine_shows_the_user_runs(
        tmp_path: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bin_ = git_only_path(tmp_path)
    (bin_ / "gemini").write_text("#!/bin/sh\n")
    (bin_ / "gemini").chmod(0o755)
    (isolated_home / ".codex").mkdir()
    monkeypatch.setenv("PATH", str(bin_))
    seen: dict[str, list[str]] = {}

    class Spy(answers_mod.ScriptedPrompter):
        def checkbox(self, message, choices, default, instruction=None):  # type: ignore[no-untyped-def]
            seen[message] = list(default)
            return super().checkbox(message, choices, default, instruction)

    answers_mod.resolve(make_repo(tmp_path), {}, {}, yes=False, prompter=Spy({}), interactive=True)
    assert seen["Which agent frameworks should call them?"] == ["codex", "gemini-cli"]


def test_a_mistyped_name_gets_a_suggestion_worded_alike_in_install_and_show(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    bad_install = cli("install", "--yes", "--framework", "claud-code", str(repo))
    assert bad_install.returncode == 1 and not (repo / ".agent").exists()
    first = bad_install.stderr.splitlines()[0]
    assert first == "agenthooks: unknown framework 'claud-code'; did you mean claude-code?"
    install(repo)
    bad_show = cli("show", "--framework", "claud-code", str(repo))
    assert bad_show.returncode == 1 and bad_show.stderr == bad_install.stderr
    platform = cli("install", "--yes", "--platform", "mac", str(repo))
    assert "unknown platform 'mac'; did you mean macos?" in platform.stderr


def test_outside_git_install_warns_and_says_where(tmp_path: Path) -> None:
    folder = tmp_path / "plain"
    folder.mkdir()
    proc = cli("install", "--yes", cwd=folder, env={"GIT_CEILING_DIRECTORIES": str(tmp_path)})
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines() == [
        f"agenthooks: warning: {folder} is not in a git repository; installing there "
        "(the hooks are meant to be committed: git init first)"]
    assert (folder / ".agent/hooks/pre_task.sh").exists()
    inside = make_repo(tmp_path)
    assert "warning" not in install(inside).stderr


def _verdict_rows(stdout: str) -> list[tuple[str, str]]:
    from support.upgrade import VERDICT_RE

    return [(m.group(1), m.group(2)) for m in map(VERDICT_RE.match, stdout.splitlines()) if m]


def test_dropping_a_framework_unregisters_it_with_one_verdict_per_file(tmp_path: Path) -> None:
    """Hooks re-rendered without a framework's envelope must not stay wired to it."""
    repo = make_repo(tmp_path)
    (repo / ".claude").mkdir()
    (repo / ".claude/settings.json").write_text('{"model": "opus"}\n')
    install(repo, "--framework", "claude-code", "--framework", "codex",
            "--framework", "gemini-cli")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "installed")
    whole = tree(repo)
    before = tree(repo, dirs=False)  # the files: each verdict names one
    dry = install(repo, "--framework", "codex", "--dry-run")
    assert tree(repo) == whole
    proc = install(repo, "--framework", "codex")
    assert _verdict_rows(dry.stdout) == _verdict_rows(proc.stdout)
    after = tree(repo, dirs=False)
    rows = _verdict_rows(proc.stdout)
    paths = [p for _, p in rows]
    assert len(paths) == len(set(paths)), proc.stdout
    v = dict((p, (verdict, line)) for (verdict, p), line in zip(
        rows, [ln for ln in proc.stdout.splitlines() if ln.startswith("  ")]))
    assert v[".claude/settings.json"][0] == "update"
    assert "(claude-code no longer selected: our entries removed, yours kept)" in \
        v[".claude/settings.json"][1]
    assert v[".gemini/settings.json"][0] == "remove"
    assert v[".gemini/settings.json"][1].endswith("(gemini-cli no longer selected)")
    assert json.loads((repo / ".claude/settings.json").read_text()) == {"model": "opus"}
    assert not (repo / ".gemini").exists()
    changed = {p for p in set(before) | set(after) if before.get(p) != after.get(p)}
    written = {p for verdict, p in rows if verdict not in ("identical", "keep")}
    assert written == changed, (written ^ changed, proc.stdout)
    recorded = json.loads((repo / ".agent/.agenthooks.json").read_text())
    assert recorded["answers"]["frameworks"] == ["codex"]
    assert set(recorded["files"]).isdisjoint({".claude/settings.json", ".gemini/settings.json"})
    assert cli("doctor", str(repo)).returncode == 0
    again = install(repo)
    assert "up to date: nothing changed" in again.stdout
    assert ".claude/settings.json" not in again.stdout


def test_lang_zh_writes_config_yaml_comments_in_chinese(tmp_path: Path) -> None:
    import re

    import yaml

    en, zh = make_repo(tmp_path, "en"), make_repo(tmp_path, "zh")
    install(en)
    install(zh, "--lang", "zh")
    text_en = (en / ".agent/config.yaml").read_text(encoding="utf-8")
    text_zh = (zh / ".agent/config.yaml").read_text(encoding="utf-8")
    comments = [ln for ln in text_zh.splitlines() if ln.startswith("#")]
    assert comments and all(re.search(r"[\u4e00-\u9fff]", ln) for ln in comments), comments
    assert "注入预算" in text_zh
    # Same keys and values; only the comments differ.
    assert yaml.safe_load(text_zh) == yaml.safe_load(text_en)
    doctor = cli("doctor", str(zh))
    assert doctor.returncode == 0 and "read cleanly by the hooks" in doctor.stdout


def test_dry_run_count_matches_its_verdict_lines(tmp_path: Path) -> None:
    from agenthooks.upgrade.steps import WRITES

    repo = make_repo(tmp_path)
    for setup in ("fresh", "new budget"):
        if setup == "new budget":
            install(repo)
        dry = install(repo, "--dry-run", *(["--budget", "900"] if setup == "new budget" else [])).stdout
        writes = [v for v, _ in _verdict_rows(dry) if v in WRITES]
        assert writes, dry
        assert f"dry run: {len(writes)} file(s) would change; nothing was written" in dry, dry


def test_budget_help_says_it_updates_an_existing_config(tmp_path: Path) -> None:
    help_text = " ".join(cli("install", "--help").stdout.split())
    assert "updated in an existing one" in help_text
    repo = make_repo(tmp_path)
    install(repo)
    install(repo, "--budget", "900")
    assert "budget_tokens: 900\n" in (repo / ".agent/config.yaml").read_text()


CLAUDE_MD = "# Notes\n\n- Run make test before every commit.\n- Never push to main directly.\n"


def claude_repo(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path)
    (repo / "CLAUDE.md").write_text(CLAUDE_MD, encoding="utf-8")
    return repo


def test_yes_import_brings_the_rules_and_leaves_the_source_alone(tmp_path: Path) -> None:
    repo = claude_repo(tmp_path)
    out = install(repo, "--import").stdout  # the ticked ones: must/never/always/don't
    tattoo = (repo / ".agent/memory/tattoo.md").read_text(encoding="utf-8")
    assert "- Run make test before every commit." not in tattoo
    assert "- Never push to main directly." in tattoo
    assert "imported 1 rule(s) into .agent/memory/tattoo.md from CLAUDE.md" in out
    assert (repo / "CLAUDE.md").read_bytes() == CLAUDE_MD.encode()
    again = install(repo, "--import").stdout  # already there: nothing offered, nothing doubled
    assert "imported" not in again
    assert (repo / ".agent/memory/tattoo.md").read_text(encoding="utf-8") == tattoo


def test_yes_alone_imports_nothing(tmp_path: Path) -> None:
    repo = claude_repo(tmp_path)
    out = install(repo).stdout
    assert "make test" not in (repo / ".agent/memory/tattoo.md").read_text(encoding="utf-8")
    assert "imported" not in out
    assert (repo / "CLAUDE.md").read_bytes() == CLAUDE_MD.encode()


def test_dry_run_import_lists_the_rules_and_writes_nothing(tmp_path: Path) -> None:
    repo = claude_repo(tmp_path)
    out = install(repo, "--dry-run", "--import").stdout
    assert "import: [ ] Run make test before every commit.  [CLAUDE.md:3]" in out
    assert "import: [x] Never push to main directly.  [CLAUDE.md:4]" in out
    assert "dry run: 1 of 2 rule(s) from CLAUDE.md would be imported into " \
           ".agent/memory/tattoo.md (the ticked ones)" in out
    assert not (repo / ".agent").exists()
    assert (repo / "CLAUDE.md").read_bytes() == CLAUDE_MD.encode()
