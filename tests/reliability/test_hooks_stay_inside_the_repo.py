"""A cloned repository cannot turn the hooks against the machine, on every userland: no write
through a link out of the repository (session state, a PreCompact's state folder, the debug
trace), no memory read through a link out of it (the block says so in one line), inherited
shell state that cannot break or trace a hook, memory rewritten in place by an editor never
served torn, session ids that never share a state file, and a small budget that holds."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
import time
from pathlib import Path

import pytest

from agenthooks.memory import parse
from agenthooks.messages import MESSAGES
from support.helpers import SAMPLE_SNAPSHOT, SAMPLE_TATTOO, install, make_repo, payload, write_memory
from support.userlands import USERLANDS, env_for

ALL = sorted(USERLANDS)
BEGIN, END = "===== AGENT MEMORY BEGIN =====", "===== AGENT MEMORY END ====="
START = {"session_id": "c1", "hook_event_name": "SessionStart", "source": "startup"}
PROMPT = {"session_id": "c1", "hook_event_name": "UserPromptSubmit", "prompt": "go"}
PRECOMPACT = {"session_id": "c1", "hook_event_name": "PreCompact", "trigger": "auto"}
EDIT = {"session_id": "c1", "hook_event_name": "PostToolUse", "tool_input": {"file_path": "src/a.py"}}


def setup(tmp_path: Path, userland: str, framework: str = "generic") -> tuple[Path, dict[str, str], Path]:
    repo = make_repo(tmp_path)
    install(repo, "--platform", USERLANDS[userland][0], "--framework", framework)
    write_memory(repo, tattoo=SAMPLE_TATTOO, snapshot=SAMPLE_SNAPSHOT, notes="- a note\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    return repo, {**os.environ, **env_for(userland, tmp_path)}, outside


def run(repo: Path, hook: str, env: dict[str, str], stdin: object = "", *args: str,
        framework: str = "generic") -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(["/bin/bash", f".agent/hooks/{hook}.sh", framework, *args], input=payload(stdin),
                          cwd=repo, env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc


def snapshot_of(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() if p.is_file() else b"<dir>"
            for p in sorted(folder.rglob("*"))}


def session(repo: Path, env: dict[str, str]) -> None:
    """A whole session: start, prompts, an edit, the host's compaction, the reload."""
    for hook, stdin in (("pre_task", START), ("on_compact", PROMPT), ("post_edit", EDIT),
                        ("on_compact", PRECOMPACT), ("on_compact", PROMPT),
                        ("pre_task", {**START, "source": "compact"})):
        run(repo, hook, env, stdin)


# --- writes: never through a link out of the repository ---

@pytest.mark.parametrize("userland", ALL)
def test_session_state_is_never_written_through_a_linked_state_folder(tmp_path: Path, userland: str) -> None:
    repo, env, outside = setup(tmp_path, userland)
    (repo / ".agent/log").mkdir(exist_ok=True)
    (repo / ".agent/log/state").symlink_to(outside)
    session(repo, env)
    assert snapshot_of(outside) == {}


@pytest.mark.parametrize("userland", ALL)
def test_a_precompact_makes_no_state_folder_in_a_linked_log(tmp_path: Path, userland: str) -> None:
    repo, env, outside = setup(tmp_path, userland)
    import shutil
    shutil.rmtree(repo / ".agent/log")
    (repo / ".agent/log").symlink_to(outside)
    run(repo, "on_compact", env, PRECOMPACT)
    run(repo, "on_compact", env, PROMPT)
    assert snapshot_of(outside) == {}


@pytest.mark.parametrize("userland", ALL)
def test_the_debug_trace_never_goes_through_a_linked_trace_log(tmp_path: Path, userland: str) -> None:
    repo, env, outside = setup(tmp_path, userland)
    victim = outside / "victim.txt"
    victim.write_text("victim\n")
    (repo / ".agent/log").mkdir(exist_ok=True)
    (repo / ".agent/log/trace.log").symlink_to(victim)
    for hook, stdin in (("pre_task", START), ("on_compact", PROMPT), ("post_edit", EDIT)):
        proc = run(repo, hook, {**env, "AGENTHOOKS_DEBUG": "1"}, stdin)
        assert proc.stderr == ""
    assert victim.read_text() == "victim\n"


# --- reads: no memory through a link out of the repository ---

@pytest.mark.parametrize("what", ["tattoo", "notes", "memory folder"])
@pytest.mark.parametrize("userland", ALL)
def test_memory_linked_out_of_the_repo_is_not_read(tmp_path: Path, userland: str, what: str) -> None:
    repo, env, outside = setup(tmp_path, userland)
    secret = "- AKIA-like key material: ssh-ed25519 SECRET-OUTSIDE-THE-REPO"
    mem = repo / ".agent/memory"
    if what == "memory folder":
        for name in ("tattoo", "snapshot", "notes"):
            (outside / f"{name}.md").write_text(f"{secret} {name}\n")
        for p in mem.iterdir():
            p.unlink()
        mem.rmdir()
        mem.symlink_to(outside)
    else:
        (outside / "secret").write_text(secret + "\n")
        (mem / f"{what}.md").unlink()
        (mem / f"{what}.md").symlink_to(outside / "secret")
    out = run(repo, "pre_task", env, START).stdout
    assert "SECRET-OUTSIDE-THE-REPO" not in out
    said = [ln for ln in out.splitlines() if "symbolic link out of this repository" in ln]
    assert len(said) == 1, out
    assert "not read" in (repo / ".agent/log/memory.log").read_text()
    # Not the cached block either, and not on a reload.
    assert "SECRET-OUTSIDE-THE-REPO" not in run(repo, "pre_task", env, START).stdout
    assert "SECRET-OUTSIDE-THE-REPO" not in run(repo, "pre_task", env, {**START, "source": "compact"}).stdout


@pytest.mark.parametrize("userland", ALL)
def test_memory_linked_inside_the_repo_is_read(tmp_path: Path, userland: str) -> None:
    repo, env, _ = setup(tmp_path, userland)
    (repo / "docs").mkdir()
    (repo / "docs/rules.md").write_text("- a rule kept in docs/\n")
    tattoo = repo / ".agent/memory/tattoo.md"
    tattoo.unlink()
    tattoo.symlink_to("../../docs/rules.md")
    out = run(repo, "pre_task", env, START).stdout
    assert "- a rule kept in docs/" in out and "out of this repository" not in out


# --- inherited shell state ---

@pytest.mark.parametrize("depth", range(1, 8))
@pytest.mark.parametrize("userland", ALL)
def test_an_exported_funcnest_breaks_no_hook(tmp_path: Path, userland: str, depth: int) -> None:
    repo, env, _ = setup(tmp_path, userland)
    env = {**env, "FUNCNEST": str(depth)}
    for _ in range(2):  # the build, then the quiet path
        out = run(repo, "pre_task", env, START).stdout
        assert out.count(BEGIN) == 1 and "Indent with 4 spaces" in out, out
    assert run(repo, "on_compact", env, PROMPT).stderr == ""
    assert run(repo, "post_edit", env, EDIT).stderr == ""
    assert "internal error" not in (repo / ".agent/log/memory.log").read_text()


@pytest.mark.parametrize("userland", ALL)
def test_an_exported_xtrace_prints_no_trace_from_the_first_line(tmp_path: Path, userland: str) -> None:
    repo, env, _ = setup(tmp_path, userland)
    bash = os.path.join(env["PATH"].split(":")[0], "bash")
    for hook, stdin in (("pre_task", START), ("on_compact", PROMPT), ("post_edit", EDIT)):
        # Run by hand (no -p): bash takes SHELLOPTS from the environment.
        proc = subprocess.run(["/usr/bin/env", "SHELLOPTS=xtrace", bash, f".agent/hooks/{hook}.sh"],
                              input=payload(stdin), cwd=repo, env=env, capture_output=True, text=True,
                              timeout=60)
        assert proc.returncode == 0 and proc.stderr == "", (hook, proc.stderr[:300])


# --- an editor that rewrites memory in place ---

OLD_RULES = "".join(f"- old rule {i} of the first version, long enough to take a while\n" for i in range(40))
NEW_RULES = "".join(f"- new rule {i} of the second version, long enough to take a while\n" for i in range(40))


# An editor that rewrites tattoo.md in place while the block is built (an awk in front of the
# userland's): each of the first TEARS builds finds the file cut short, and the rest lands once
# awk has read it. Deterministic: what the hooks must catch, whatever the machine's load.
EDITOR_AWK = """#!/bin/bash
case " $* " in *block.awk*) ;; *) exec "$REAL_AWK" "$@" ;; esac
n=0
read -r n <"$COUNT" 2>/dev/null
echo $((n + 1)) >"$COUNT"
[ "$n" -lt "$TEARS" ] || exec "$REAL_AWK" "$@"
head -c 300 "$FULL" >"$TATTOO"
"$REAL_AWK" "$@"
rc=$?
sleep 0.01
cat "$FULL" >"$TATTOO"
exit $rc
"""


def rules_in(out: str) -> list[str]:
    return [ln for ln in out.splitlines() if ln.startswith("- ") and " rule " in ln]


@pytest.mark.parametrize("tears", [1, 2])
@pytest.mark.parametrize("userland", ALL)
def test_a_memory_file_cut_short_while_it_is_read_is_never_served(tmp_path: Path, userland: str,
                                                                  tears: int) -> None:
    repo, env, _ = setup(tmp_path, userland)
    cfg = repo / ".agent/config.yaml"
    cfg.write_text(cfg.read_text().replace("budget_tokens: 500", "budget_tokens: 20000"))
    tattoo = repo / ".agent/memory/tattoo.md"
    tattoo.write_text(OLD_RULES)
    run(repo, "pre_task", env, START)  # the old rules, published
    full = tmp_path / "new-rules.md"
    full.write_text(NEW_RULES)
    editor = tmp_path / "editor-bin"
    editor.mkdir()
    (editor / "awk").write_text(EDITOR_AWK)
    (editor / "awk").chmod(0o755)
    real = shutil.which("awk", path=env["PATH"])
    assert real
    env = {**env, "PATH": f"{editor}:{env['PATH']}", "REAL_AWK": real, "TEARS": str(tears),
           "COUNT": str(tmp_path / "builds"), "FULL": str(full), "TATTOO": str(tattoo)}
    time.sleep(0.01)  # the rewrite gets a time of its own
    (repo / ".agent/memory/notes.md").write_text("- a newer note\n")  # the block is built again
    out = run(repo, "pre_task", env, {**START, "session_id": "t1"}).stdout
    published = (repo / ".agent/injected_context.txt").read_text()
    log = (repo / ".agent/log/memory.log").read_text().splitlines()[-1]
    if tears == 1:
        # Built once more, from the whole new file.
        assert rules_in(out) == NEW_RULES.splitlines(), rules_in(out)[:3]
        assert rules_in(published) == NEW_RULES.splitlines()
    else:
        # Cut short at both builds: the block last published (the old rules) stands in.
        assert rules_in(out) == OLD_RULES.splitlines(), rules_in(out)[:3]
        assert rules_in(published) == OLD_RULES.splitlines()
        assert "the block last published (memory changed while it was read, twice)" in log, log


# A free-running editor thread: only under make stress. A writer paused mid-file for longer
# than a whole build (a loaded machine deschedules it) leaves a file no time check can tell
# from a finished one; the deterministic test above is the promise.
@pytest.mark.stress
@pytest.mark.parametrize("userland", ALL)
def test_a_memory_file_rewritten_in_place_is_never_served_torn(tmp_path: Path, userland: str) -> None:
    repo, env, _ = setup(tmp_path, userland)
    cfg = repo / ".agent/config.yaml"
    cfg.write_text(cfg.read_text().replace("budget_tokens: 500", "budget_tokens: 20000"))
    tattoo = repo / ".agent/memory/tattoo.md"
    tattoo.write_text(OLD_RULES)
    run(repo, "pre_task", env, START)  # a block published before the editor starts
    stop = threading.Event()

    def editor() -> None:
        i = 0
        while not stop.is_set():
            text = (NEW_RULES if i % 2 else OLD_RULES).encode()
            i += 1
            with open(tattoo, "r+b") as f:  # in place: truncate, then write in pieces
                f.truncate(0)
                for k in range(0, len(text), 512):
                    f.write(text[k:k + 512])
                    f.flush()
                    time.sleep(0.0005)
            time.sleep(0.002)

    writer = threading.Thread(target=editor)
    writer.start()
    torn = []
    try:
        for n in range(25):
            out = run(repo, "pre_task", env, {**START, "session_id": f"t{n}"}).stdout
            rules = [ln for ln in out.splitlines() if ln.startswith("- ") and " rule " in ln]
            if rules not in (OLD_RULES.splitlines(), NEW_RULES.splitlines()):
                torn.append(len(rules))
    finally:
        stop.set()
        writer.join()
    assert torn == [], f"{len(torn)} of 25 session starts printed a torn rule set: {torn}"


# --- session ids ---

@pytest.mark.parametrize("pair", [("team/alpha", "team_alpha"), ("a" * 80 + "-one", "a" * 80 + "-two"),
                                  ("default", ""), ("x y", "x_y")])
@pytest.mark.parametrize("userland", ALL)
def test_session_ids_alike_after_cleaning_keep_their_own_state(tmp_path: Path, userland: str,
                                                               pair: tuple[str, str]) -> None:
    repo, env, _ = setup(tmp_path, userland)
    first, second = pair

    def prompt(sid: str, **extra: str) -> str:
        body = {**PROMPT, **extra}
        if sid:
            body["session_id"] = sid
        else:
            del body["session_id"]
        return run(repo, "on_compact", env, body).stdout

    prompt(first)
    prompt(second)
    # The host announces a compaction in the first session only: the second's next prompt
    # does not reload, and the first's does.
    prompt(first, hook_event_name="PreCompact")
    assert BEGIN not in prompt(second)
    assert BEGIN in prompt(first)
    names = sorted(p.name for p in (repo / ".agent/log/state").glob("*.state"))
    assert len(names) == 2 and all(len(n) <= 80 + len(".state") for n in names), names


# --- the budget ---

@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("userland", ALL)
def test_a_small_budget_holds_with_cjk_rules(tmp_path: Path, userland: str, lang: str) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--platform", USERLANDS[userland][0], "--framework", "generic", "--lang", lang)
    cfg = repo / ".agent/config.yaml"
    cfg.write_text(cfg.read_text().replace("budget_tokens: 500", "budget_tokens: 50"))
    (repo / ".agent/memory/tattoo.md").write_text(
        "# 规则\n- 所有接口都返回统一的结构体并且记录日志\n- 缩进使用四个空格不要使用制表符号\n"
        "- 提交之前必须运行全部测试并修复失败\n")
    env = {**os.environ, **env_for(userland, tmp_path)}
    block = run(repo, "pre_task", env, START).stdout.rstrip("\n")
    assert block.startswith(BEGIN) and block.endswith(END)
    assert parse.text_tokens(block) <= 50, (parse.text_tokens(block), block)
    assert "tattoo.md" in block  # the warning that rules were left out, and where they are
