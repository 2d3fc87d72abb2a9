"""status, verify and doctor's session checks: memory.log in both line forms, the hooks'
state, and transcripts recorded from the real Claude Code, Codex and Gemini CLI
(tests/fixtures/transcripts/, trimmed: long strings cut, listing records dropped)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from agenthooks import health, statefiles, transcript
from support.helpers import log_lines, cli, install, make_repo
from support.tree import tree

FIXTURES = Path(__file__).parent / "fixtures" / "transcripts"
RULES = "# Project hard rules\n- E2E-RULE-7f3: never use tabs\n- E2E-RULE-9b2: every API returns code, data, msg\n"
HOSTS = {"claude-compact.jsonl": ("claude-code", 1), "codex-compact.jsonl": ("codex", 1),
         "gemini-compress.jsonl": ("gemini-cli", 2)}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    r = make_repo(tmp_path)
    install(r, "--framework", "claude-code")
    (r / ".agent/memory/tattoo.md").write_text(RULES, encoding="utf-8")
    return r


def verify(repo: Path, path: Path, *args: str):  # type: ignore[no-untyped-def]
    proc = cli("verify", str(repo), "--transcript", str(path), *args)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def without_memory_after_boundaries(src: Path, dest: Path) -> Path:
    """The same session with every record after the first compaction that carries the
    block taken out: memory was not re-injected."""
    out, seen = [], False
    for line in src.read_text(encoding="utf-8").splitlines():
        seen = seen or "compact_boundary" in line or '"type":"compacted"' in line \
            or "<state_snapshot>" in line
        if seen and "AGENT MEMORY BEGIN" in line and "<state_snapshot>" not in line:
            continue
        out.append(line)
    dest.write_text("\n".join(out) + "\n", encoding="utf-8")
    return dest


@pytest.mark.parametrize("name", sorted(HOSTS))
def test_verify_real_transcripts_followed_by_memory(repo: Path, name: str) -> None:
    host, n = HOSTS[name]
    proc = verify(repo, FIXTURES / name, "--json")
    assert proc.returncode == 0, proc.stdout
    data = json.loads(proc.stdout)
    assert data["host"] == host and data["ok"] is True and data["rules"] == 2
    assert [c["memory_followed"] for c in data["compactions"]] == [True] * n
    assert all(c["turns_later"] == 0 and c["missing"] == [] for c in data["compactions"])


@pytest.mark.parametrize("name", sorted(HOSTS))
def test_verify_fails_naming_the_compaction_without_memory(repo: Path, tmp_path: Path,
                                                            name: str) -> None:
    bad = without_memory_after_boundaries(FIXTURES / name, tmp_path / name)
    proc = verify(repo, bad)
    assert proc.returncode == 1, proc.stdout
    first = json.loads(verify(repo, bad, "--json").stdout)["compactions"][0]
    assert first["memory_followed"] is False
    assert f"not verified: compaction 1 ({first['time']}) was not followed by memory" in proc.stdout
    assert "FAIL  compaction 1" in proc.stdout


def test_verify_checks_the_rules_as_tattoo_has_them_now(repo: Path) -> None:
    with open(repo / ".agent/memory/tattoo.md", "a", encoding="utf-8") as fh:
        fh.write("- E2E-RULE-new: a rule the session never saw\n")
    proc = verify(repo, FIXTURES / "claude-compact.jsonl")
    assert proc.returncode == 1
    # The block did come back, with the rules of its day: its own state, not "no memory".
    assert ("memory came back before the next answer, older than the files; not in it: "
            "- E2E-RULE-new: a rule the session never saw") in proc.stdout
    assert "no memory after it" not in proc.stdout
    assert "followed by memory older than tattoo.md" in proc.stdout
    first = json.loads(verify(repo, FIXTURES / "claude-compact.jsonl", "--json").stdout)
    c = first["compactions"][0]
    assert (c["state"], c["memory_followed"], c["turns_later"]) == ("older", False, 0)
    assert first["ok"] is False


def test_verify_states_back_and_none(repo: Path, tmp_path: Path) -> None:
    back = json.loads(verify(repo, FIXTURES / "claude-compact.jsonl", "--json").stdout)
    assert [c["state"] for c in back["compactions"]] == ["back"]
    bad = without_memory_after_boundaries(FIXTURES / "claude-compact.jsonl", tmp_path / "b.jsonl")
    none = json.loads(verify(repo, bad, "--json").stdout)
    assert [c["state"] for c in none["compactions"]] == ["none"]


def _claude(records: list[dict]) -> str:  # type: ignore[type-arg]
    return "".join(json.dumps(r) + "\n" for r in records)


def test_verify_counts_the_turns_before_memory_came_back(repo: Path, tmp_path: Path) -> None:
    block = "===== AGENT MEMORY BEGIN =====\n" + RULES + "===== AGENT MEMORY END ====="
    user = lambda text: {"type": "user", "sessionId": "s1", "message": {"role": "user", "content": text}}  # noqa: E731
    reply = {"type": "assistant", "message": {"role": "assistant", "model": "m", "content": [],
                                              "usage": {"input_tokens": 5}}}
    path = tmp_path / "s1.jsonl"
    path.write_text(_claude([
        user("first"), reply,
        {"type": "system", "subtype": "compact_boundary", "timestamp": "T1", "uuid": "b1"},
        user("second"), reply, user("third"), reply,
        {"type": "attachment", "attachment": {"type": "hook_additional_context", "content": [block]}},
        user("fourth"), reply,
        {"type": "system", "subtype": "compact_boundary", "timestamp": "T2", "uuid": "b2"},
        # The hook's raw stdout is not context: only what the host made of it counts.
        {"type": "attachment", "attachment": {"type": "hook_success", "stdout": block, "content": block}},
        user("fifth"), reply,
    ]), encoding="utf-8")
    data = json.loads(verify(repo, path, "--json").stdout)
    assert [(c["memory_followed"], c["turns_later"], c["prompts_after"])
            for c in data["compactions"]] == [(True, 2, 3), (False, None, 1)]


def test_verify_no_compaction_is_ok_and_unreadable_is_2(repo: Path, tmp_path: Path) -> None:
    plain = tmp_path / "plain.jsonl"
    plain.write_text(_claude([{"type": "user", "message": {"role": "user", "content": "hi"}}]))
    proc = verify(repo, plain)
    assert proc.returncode == 0 and "no compaction in this transcript" in proc.stdout
    for text in ("", "not json\n", '{"some": "other tool"}\n', "\xff"):
        bad = tmp_path / "bad.jsonl"
        bad.write_bytes(text.encode("latin-1"))
        proc = verify(repo, bad)
        assert proc.returncode == 2 and proc.stderr.startswith("agenthooks: "), (text, proc.stderr)
    assert verify(repo, tmp_path / "absent.jsonl").returncode == 2


def test_verify_without_a_path_takes_this_repos_latest_session(repo: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    project = home / ".claude" / "projects" / re.sub(r"[^A-Za-z0-9]", "-", str(repo))
    project.mkdir(parents=True)
    bad = without_memory_after_boundaries(FIXTURES / "claude-compact.jsonl", project / "s.jsonl")
    env = {"HOME": str(home), "CLAUDE_CONFIG_DIR": "", "CODEX_HOME": "", "GEMINI_CLI_HOME": ""}
    proc = cli("verify", str(repo), env=env)
    assert proc.returncode == 1 and str(bad) in proc.stdout, proc.stdout + proc.stderr
    empty = {**env, "HOME": str(tmp_path / "nohome")}
    proc = cli("verify", str(repo), env=empty)
    # Nothing was checked: 2, not the 1 of "memory did not come back".
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("agenthooks: no transcript to verify: none found for this repo")


LOG = """\
[2026-12-01 10:00:00] pre_task: memory loaded: tattoo=2 lines snapshot=5 lines notes=0/0, ~100 tokens of 500, 400 chars
[2026-12-01 10:05:00] on_compact: compaction detected (context length dropped 9000 -> 100); memory reloaded
[2026-12-01 11:00:00] pre_task claude-code s-1: memory loaded: tattoo=2 lines snapshot=5 lines notes=1/1, ~478 tokens of 500, 1736 chars
[2026-12-01 11:01:00] post_edit claude-code s-1: snapshot not updated for 31 minutes; reminded the agent
[2026-12-01 11:02:00] on_compact claude-code s-1: compaction announced by the host (PreCompact); memory will reload on the next prompt
[2026-12-01 11:02:05] pre_task claude-code s-1: memory loaded: tattoo=2 lines snapshot=5 lines notes=1/1, ~480 tokens of 500, 1740 chars
[2026-12-01 11:02:05] pre_task claude-code s-1: compaction detected (SessionStart source=compact); memory reloaded
[2026-12-01 11:03:00] on_compact codex s-2: compaction detected (a compaction record in the transcript); memory reloaded
[2026-12-01 11:04:00] on_compact codex s-2: compaction detected (summary marker 'x' in the input); memory reloaded
[2026-12-01 11:05:00] on_compact codex s-2: compaction detected (periodic reload after 20 prompts); memory reloaded
[2026-12-01 11:05:30] on_compact codex s-2: compaction detected (context length dropped 9000 -> 100); memory reloaded
[2026-12-01 11:05:00] on_compact codex s-2: recommended a fresh session after 3 compactions
[2026-12-01 11:06:00] on_compact codex s-2: compaction announced by the host (PreCompact); memory will reload on the next prompt
not a log line
"""


def test_log_lines_old_and_new_forms() -> None:
    lines = [statefiles.LOG.parse(x) for x in LOG.splitlines()]
    assert [m is not None for m in lines].count(False) == 1
    found = health.from_log(health.LogLine(*[
        m[k] or health.UNKNOWN for k in statefiles.LOG.fields]) for m in lines if m)
    by = {s.session_id: s for s in found}
    assert [s.session_id for s in found] == ["s-2", "s-1", "unknown"]  # newest first
    old, one, two = by["unknown"], by["s-1"], by["s-2"]
    assert (old.framework, old.loads, old.reloads, old.memory_tokens) == ("unknown", 1, 1, 100)
    assert [e["signal"] for e in old.compaction_events] == ["length drop"]
    assert (one.framework, one.loads, one.memory_tokens, one.last_block_tokens, one.budget) == \
        ("claude-code", 2, 958, 480, 500)
    assert (one.compactions, one.reminders, one.announced_unreloaded) == (1, 1, None)
    assert one.compaction_events[0]["signal"] == "host event"
    # A reload on schedule is a reload, not a compaction.
    assert [e["signal"] for e in two.compaction_events] == [
        "transcript boundary", "marker", "length drop"]
    assert (two.reloads, two.periodic_reloads) == (4, 1)
    assert two.fresh_recommended == 1 and two.announced_unreloaded == "2026-12-01 11:06:00"
    assert health.recommends_fresh(two, 3) and not health.recommends_fresh(two, 4)
    assert not health.recommends_fresh(two, 0)  # 0 = never


def write_log(repo: Path, text: str = LOG) -> None:
    (repo / ".agent/log").mkdir(exist_ok=True)
    (repo / ".agent/log/memory.log").write_text(text, encoding="utf-8")


def test_status_json_text_and_filters(repo: Path, tmp_path: Path) -> None:
    write_log(repo)
    state = repo / ".agent/log/state"
    state.mkdir(parents=True, exist_ok=True)
    (state / "s-1.state").write_text("v1 3 1000 - - 0\nv1 4 1200 - - 0\n")
    home = tmp_path / "home"
    project = home / ".claude/projects/-x"
    project.mkdir(parents=True)
    (project / "s-1.jsonl").write_text((FIXTURES / "claude-compact.jsonl").read_text())
    env = {"HOME": str(home), "CLAUDE_CONFIG_DIR": "", "CODEX_HOME": "", "GEMINI_CLI_HOME": ""}
    before = tree(repo)
    proc = cli("status", str(repo), "--json", env=env)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["fresh_after_compactions"] == 3
    s2, s1, old = data["sessions"]
    for key in ("framework", "session_id", "compactions", "reloads", "memory_tokens", "reminders",
                "first_seen", "last_seen", "prompts", "loads", "compaction_events",
                "last_block_tokens", "budget", "fresh_session_recommended", "context_tokens"):
        assert key in s1, key
    assert (s1["framework"], s1["session_id"], s1["compactions"], s1["reloads"],
            s1["memory_tokens"], s1["reminders"], s1["turns_since_reload"]) == \
        ("claude-code", "s-1", 1, 1, 958, 1, 4)
    # From the transcript Claude Code wrote: two prompts, the latest usage.
    assert (s1["prompts"], s1["context_tokens"]) == (3, 1000)
    assert s1["transcript"] == str(project / "s-1.jsonl")
    assert s2["fresh_session_recommended"] is True and s1["fresh_session_recommended"] is False
    text = cli("status", str(repo), env=env).stdout
    assert "session s-2 (codex)" in text and "start a fresh session; memory carries over" in text
    assert ("compactions 3: 11:03:00 transcript boundary, 11:04:00 marker, 11:05:30 length drop; "
            "periodic reloads 1; post-edit reminders 0") in text
    assert "no reload followed: run agenthooks verify" in text
    one = json.loads(cli("status", str(repo), "--json", "--session", "s-1", env=env).stdout)
    assert [s["session_id"] for s in one["sessions"]] == ["s-1"]
    many = "".join(f"[2026-12-02 10:0{i}:00] pre_task generic g{i}: memory loaded: tattoo=1 "
                   "lines snapshot=1 lines notes=0/0, ~10 tokens of 500, 40 chars\n" for i in range(8))
    write_log(repo, LOG + many)
    assert len(json.loads(cli("status", str(repo), "--json", env=env).stdout)["sessions"]) == 5
    assert len(json.loads(cli("status", str(repo), "--json", "--all", env=env).stdout)["sessions"]) == 11
    write_log(repo)
    assert tree(repo) == before  # reads only


def test_status_cli_actions_are_no_sessions(repo: Path) -> None:
    """promote and archive write log lines, but no agent session ran."""
    write_log(repo, LOG)
    proc = cli("archive", str(repo), "--force")
    assert proc.returncode == 0, proc.stderr
    with open(repo / ".agent/log/memory.log", "a", encoding="utf-8") as fh:
        fh.write("[2026-12-02 10:00:00] promote: moved 1 recurring note(s) to tattoo.md\n")
    data = json.loads(cli("status", str(repo), "--json", "--all").stdout)
    assert sorted(s["session_id"] for s in data["sessions"]) == ["s-1", "s-2", "unknown"]
    text = cli("status", str(repo), "--all").stdout
    assert "session default" not in text and "promote" not in text


def test_the_clis_own_log_lines_are_no_phantom_session(repo: Path) -> None:
    """import, rule, note and board log what they wrote; no agent session ran."""
    (repo / "AGENTS.md").write_text("- Never push to main\n")
    for args in (("import", "--yes"), ("rule", "Never skip the tests"), ("note", "CI is slow"),
                 ("board", "doing", "Port the parser")):
        proc = cli(*args, str(repo))
        assert proc.returncode == 0, (args, proc.stderr)
    assert len(log_lines(repo)) == 4
    data = json.loads(cli("status", str(repo), "--json", "--all").stdout)
    assert data["sessions"] == []
    assert "sessions:" not in cli("doctor", str(repo)).stdout


def test_status_no_such_session(repo: Path) -> None:
    write_log(repo)
    proc = cli("status", str(repo), "--session", "nosuch")
    assert proc.returncode == 1 and not proc.stdout
    assert proc.stderr.startswith("agenthooks: no such session: nosuch\n"), proc.stderr
    assert cli("status", str(repo), "--session", "s-").returncode == 0  # an id's start


def test_status_fresh_repo(repo: Path) -> None:
    proc = cli("status", str(repo))
    assert proc.returncode == 0
    assert "no sessions in .agent/log/memory.log yet" in proc.stdout


def test_doctor_warns_on_sessions(repo: Path) -> None:
    def sessions() -> list[tuple[str, str]]:
        data = json.loads(cli("doctor", str(repo), "--json").stdout)
        return [(c["status"], c["message"]) for c in data["checks"] if c["name"] == "sessions"]

    assert sessions() == []
    write_log(repo, "\n".join(LOG.splitlines()[:7]) + "\n")
    assert sessions()[0][0] == "ok"
    write_log(repo)
    found = sessions()
    assert found[0] == ("warn", "the last session (s-2) was compacted 3x "
                        "(fresh_after_compactions: 3): start a fresh session; memory carries over")
    assert found[1][0] == "warn" and "announced a compaction at 2026-12-01 11:06:00" in found[1][1]
    cfg = repo / ".agent/config.yaml"
    cfg.write_text(cfg.read_text().replace("fresh_after_compactions: 3", "fresh_after_compactions: 0"))
    assert [m for _, m in sessions() if "compacted" in m] == []


def test_transcript_strings_opens_json_inside_strings() -> None:
    assert list(transcript.strings({"a": ['{"b": "x"}', "y"], "c": 1})) == ["x", "y"]


def test_show_points_at_a_session_compacted_past_the_recommendation(repo: Path) -> None:
    assert "start a fresh one" not in cli("show", str(repo)).stderr
    write_log(repo)
    err = cli("show", str(repo)).stderr
    assert err.splitlines()[-1] == ("note: the last session was compacted 3x: start a fresh "
                                    "one (memory carries over); see agenthooks status")


def test_flush_staleness_and_context_use_from_the_log_and_the_state(tmp_path: Path) -> None:
    lines = ["context 80% full (160000 of 200000 tokens): asked the agent to update the snapshot",
             "at the compaction: snapshot not updated since the flush",
             "at the compaction: snapshot.md 12 min older than the last edit",
             "context 76% full (152000 of 200000 tokens): asked the agent to update the snapshot",
             "at the compaction: snapshot updated since the flush"]
    s = health.from_log(health.LogLine("2026-12-01 10:00:0%d" % i, "on_compact", "generic", "s9", m)
                        for i, m in enumerate(lines))[0]
    assert (s.flushes, s.flushed_compactions, s.fresh_after_flush, s.stale_at_compaction) == (2, 2, 1, 1)
    state = tmp_path / ".agent/log/state"
    state.mkdir(parents=True)
    # A past release's line (no FLUSHED), a flush, the host's compaction (pre_task's sync line),
    # the announcement that repeats the last line, and a drop seen by on_compact.
    (state / "s9.state").write_text("v1 1 10000 - - 0\nv1 2 160000 - - 0 1796000000\nv1 0 0 - - 1 0\n"
                                    "v1 1 20000 - - 0 0\nv1 2 180000 - - 0 0\nv1 2 180000 pending - 0 0\n"
                                    "v1 0 30000 - - 0 0\n")
    lengths, marks = health.context_use(tmp_path / ".agent", "s9")
    assert lengths == [10000, 160000, 20000, 180000, 30000] and marks == [2, 4]
    assert health.sparkline(lengths, marks, 200000) == "▁▇|▁█|▂"
    assert health.sparkline(lengths, marks, 200000, ascii_only=True) == "_*|_#|."
    assert health.sparkline([400000], [], 200000) == "█"  # over the window: the top glyph


def test_status_reports_each_compaction_summary_audit(repo: Path) -> None:
    log = repo / ".agent/log/memory.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_text(
        "[2026-12-01 10:00:00] on_compact claude-code s7: summary audit: kept 1 of 2 rules, 0 of 1 In "
        'progress items; dropped rule 2 "every API returns code, data, msg"; In progress item 1 missing '
        '"refactor get_user"\n'
        "[2026-12-01 11:00:00] on_compact claude-code s7: summary audit: kept 2 of 2 rules, 1 of 1 In "
        'progress items; In progress item 1 called done "refactor get_user"\n'
        "[2026-12-01 12:00:00] on_compact claude-code s7: summary audit: kept 2 of 2 rules, 1 of 1 In "
        "progress items\n", encoding="utf-8")
    data = json.loads(cli("status", "--json", str(repo)).stdout)
    audits = data["sessions"][0]["summary_audits"]
    assert [(a["rules_kept"], a["rules"], a["progress_kept"], a["progress"]) for a in audits] == [
        (1, 2, 0, 1), (2, 2, 1, 1), (2, 2, 1, 1)]
    assert audits[0]["dropped_rules"] == [{"n": 2, "text": "every API returns code, data, msg"}]
    assert audits[0]["missing_progress"] == [{"n": 1, "text": "refactor get_user"}]
    assert audits[1]["called_done"] == [{"n": 1, "text": "refactor get_user"}] and audits[1]["dropped_rules"] == []
    text = cli("status", str(repo)).stdout
    assert ("  compaction summary at 10:00:00: kept 1 of 2 rules, 0 of 1 In progress items; dropped rule 2 "
            "(every API returns code, data, msg); In progress item 1 missing (refactor get_user)") in text
    assert "  compaction summary at 11:00:00: kept 2 of 2 rules, 1 of 1 In progress items; In progress item 1 " \
           "called done (refactor get_user)" in text
    assert "  compaction summary at 12:00:00: kept 2 of 2 rules, 1 of 1 In progress items: nothing missing" in text


def test_verify_names_the_subagents_compactions_apart(repo: Path) -> None:
    """A subagent's compaction (logged by on_compact, not counted as the session's) is named
    beside the transcript's own compactions, never checked as one of them."""
    sid = json.loads((FIXTURES / "claude-compact.jsonl").read_text().splitlines()[0])["sessionId"]
    (repo / ".agent/log").mkdir(exist_ok=True)
    (repo / ".agent/log/memory.log").write_text(
        f"[2026-12-05 10:00:00] on_compact claude-code {sid}: subagent Plan compacted (PreCompact): "
        "not the session's compaction; not counted\n"
        f"[2026-12-05 10:00:02] on_compact claude-code {sid}: subagent Plan compacted (PostCompact): "
        "not the session's compaction; not counted\n", encoding="utf-8")
    data = json.loads(verify(repo, FIXTURES / "claude-compact.jsonl", "--json").stdout)
    assert data["subagent_compactions"] == 1 and len(data["compactions"]) == 1 and data["ok"] is True
    out = verify(repo, FIXTURES / "claude-compact.jsonl").stdout
    assert "its subagents were compacted 1x" in out
