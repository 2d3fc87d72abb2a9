"""External processes per hook run, counted with strace: the hooks sit on the hot path."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from support.helpers import backdate, claude_repo, require, run_hook, write_memory

LIMITS = {"pre_task": 4, "post_edit": 1, "on_compact": 2}


def execs(repo: Path, hook: str, stdin: str, tmp: Path, env: dict[str, str] | None = None) -> list[str]:
    """Programs the hook exec'd, the bash running it excluded."""
    strace = require("strace", "apt-get install strace")
    out = tmp / f"{hook}.strace"
    subprocess.run([strace, "-f", "-qq", "-e", "trace=execve", "-o", str(out), "bash",
                    str(repo / f".agent/hooks/{hook}.sh"), "claude-code"], input=stdin, text=True,
                   capture_output=True, check=True, env=env)
    calls = [line.split('execve("', 1)[1].split('"', 1)[0] for line in out.read_text().splitlines()
             if 'execve("' in line and "= 0" in line]
    assert calls[0].endswith("/bash")
    return [Path(c).name for c in calls[1:]]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return claude_repo(tmp_path)


def transcript(tmp: Path, tokens: int) -> Path:
    path = tmp / "t.jsonl"
    rec = {"type": "assistant", "message": {"usage": {"input_tokens": 3,
           "cache_creation_input_tokens": 0, "cache_read_input_tokens": tokens, "output_tokens": 9}}}
    path.write_text(json.dumps({"type": "user"}) + "\n" + json.dumps(rec) + "\n")
    return path


def test_pre_task_spawns_at_most_four(repo: Path, tmp_path: Path) -> None:
    stdin = json.dumps({"session_id": "s", "hook_event_name": "SessionStart", "source": "startup"})
    execs(repo, "pre_task", stdin, tmp_path)  # first run may create folders
    # Memory changed: the memory files' twins take their time (one touch: all three have the
    # same time here), one awk pass, one rename to publish, one find for the log's size.
    write_memory(repo, notes="- a note\n- another note\n")
    backdate(repo)
    got = execs(repo, "pre_task", stdin, tmp_path)
    assert len(got) <= LIMITS["pre_task"], got
    assert got == ["touch", "awk", "mv", "find"]
    for framework in ("claude-code", "generic"):
        write_memory(repo, notes=f"- a note\n- a note for {framework}\n")
        backdate(repo)
        built = run_hook(repo, "pre_task", stdin, framework).stdout
        # Nothing changed: the published block is printed as it stands, with no process.
        before = (repo / ".agent/injected_context.txt").stat().st_mtime_ns
        assert execs(repo, "pre_task", stdin, tmp_path) == []
        assert (repo / ".agent/injected_context.txt").stat().st_mtime_ns == before
        assert run_hook(repo, "pre_task", stdin, framework).stdout == built
        assert f"a note for {framework}" in built


def test_post_edit_spawns_one_when_it_does_not_remind(repo: Path, tmp_path: Path) -> None:
    stdin = json.dumps({"session_id": "s", "hook_event_name": "PostToolUse", "tool_name": "Edit",
                        "tool_input": {"file_path": str(repo / "a.py")}})
    # Before any session start has made the state folder, each edit asks stat once.
    assert execs(repo, "post_edit", stdin, tmp_path) == ["stat"]
    assert execs(repo, "post_edit", stdin, tmp_path) == ["stat"]
    # A session starts with pre_task; then the first edit asks stat, later ones spawn nothing.
    execs(repo, "pre_task", "", tmp_path)
    assert execs(repo, "post_edit", stdin, tmp_path) == ["stat"]
    got = execs(repo, "post_edit", stdin, tmp_path)
    assert len(got) <= LIMITS["post_edit"] and got == []
    snap = json.dumps({"session_id": "s", "tool_input": {"file_path": str(repo / ".agent/memory/snapshot.md")}})
    assert execs(repo, "post_edit", snap, tmp_path) == []


def test_on_compact_spawns_at_most_two_when_nothing_is_detected(repo: Path, tmp_path: Path) -> None:
    t = transcript(tmp_path, 50000)
    stdin = json.dumps({"session_id": "s", "hook_event_name": "UserPromptSubmit",
                        "transcript_path": str(t), "prompt": "go"})
    execs(repo, "on_compact", stdin, tmp_path)
    got = execs(repo, "on_compact", stdin, tmp_path)
    assert len(got) <= LIMITS["on_compact"], got
    # The transcript's tail; the prompt is recorded with one append, no lock.
    assert got == ["tail"]
    state = (repo / ".agent/log/state/s.state").read_text().splitlines()[-1]
    assert state.split()[2] == "50003"  # the length came from the transcript


def test_the_article_pre_task_spawns_eleven(tmp_path: Path) -> None:
    """The baseline the limits are measured against: the article's own pre_task.sh."""
    strace = require("strace", "apt-get install strace")
    script = tmp_path / "article.sh"
    script.write_text(
        'set -euo pipefail\nA=.agent; M=$A/memory; L=$A/log/memory.log\n'
        'log() { echo "[$(date "+%F %T")] $1" >> "$L"; }\n'
        'mkdir -p "$M" "$A/log"\nfor f in tattoo snapshot notes; do touch "$M/$f.md"; done\n'
        '{ echo B; cat "$M/tattoo.md"; cat "$M/snapshot.md"; cat "$M/notes.md"; echo E; } > "$A/i.txt"\n'
        'log "t=$(wc -l < "$M/tattoo.md") s=$(wc -l < "$M/snapshot.md")"\ncat "$A/i.txt"\n')
    out = tmp_path / "a.strace"
    subprocess.run([strace, "-f", "-qq", "-e", "trace=execve", "-o", str(out), "bash", str(script)],
                   cwd=tmp_path, capture_output=True, check=True)
    n = sum('execve("' in line and "= 0" in line for line in out.read_text().splitlines()) - 1
    assert n == 11


def test_on_compact_widens_the_transcript_tail_only_when_it_must(repo: Path, tmp_path: Path) -> None:
    t = transcript(tmp_path, 70000)
    stdin = json.dumps({"session_id": "w", "hook_event_name": "UserPromptSubmit",
                        "transcript_path": str(t), "prompt": "go"})
    execs(repo, "on_compact", stdin, tmp_path)  # first run may create the state folder
    assert execs(repo, "on_compact", stdin, tmp_path) == ["tail"]
    # A long record after the latest usage (a compaction summary): the narrow tail holds no
    # usage, so a second, wider read finds it.
    with t.open("a", encoding="utf-8") as f:
        f.write(json.dumps({"type": "user", "message": {"content": "summary " * 4000}}) + "\n")
    assert execs(repo, "on_compact", stdin, tmp_path) == ["tail", "tail"]
    lines = (repo / ".agent/log/state/w.state").read_text().splitlines()
    assert [line.split()[2] for line in lines] == ["70003"] * 3


def test_an_edited_config_keeps_the_quiet_paths(repo: Path, tmp_path: Path) -> None:
    cfg = repo / ".agent/config.yaml"
    cfg.write_text(cfg.read_text().replace("budget_tokens: 500", "budget_tokens: 800"))
    start = json.dumps({"session_id": "s", "hook_event_name": "SessionStart", "source": "startup"})
    edit = json.dumps({"session_id": "s", "hook_event_name": "PostToolUse", "tool_name": "Edit",
                       "tool_input": {"file_path": str(repo / "a.py")}})
    backdate(repo)
    execs(repo, "pre_task", start, tmp_path)
    execs(repo, "post_edit", edit, tmp_path)
    # The edited file is read (in full) and then the runs take the quiet paths all the same.
    assert execs(repo, "pre_task", start, tmp_path) == []
    assert execs(repo, "post_edit", edit, tmp_path) == []
    assert "tokens of 800" in (repo / ".agent/log/memory.log").read_text().splitlines()[-1]


def test_the_working_set_costs_no_process(repo: Path, tmp_path: Path) -> None:
    """Keeping the working set adds no process to the quiet paths: a new file listed, the same
    file again, a prompt kept as the latest request."""
    execs(repo, "pre_task", "", tmp_path)  # the state folder
    got = [execs(repo, "post_edit", json.dumps({
        "session_id": "s", "hook_event_name": "PostToolUse", "tool_name": "Edit",
        "tool_input": {"file_path": str(repo / name)}}), tmp_path) for name in ("a.py", "b.py", "b.py", "c.py")]
    assert got == [["stat"], [], [], []], got  # the first edit of a session asks stat, as before
    assert (repo / ".agent/log/state/s.files").read_text() == "a.py\nb.py\nc.py\n"
    prompt = json.dumps({"session_id": "s", "hook_event_name": "UserPromptSubmit", "prompt": "fix the bug"})
    execs(repo, "on_compact", prompt, tmp_path)
    assert execs(repo, "on_compact", prompt, tmp_path) == []
    assert (repo / ".agent/log/state/s.request").read_text() == '"prompt": "fix the bug"}'  # as it came
