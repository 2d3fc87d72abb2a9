"""Memory health: what the hooks did in each session (memory.log, the hooks' state, the
host's transcript), read only. `status` and `doctor` build on sessions(); `verify` on
transcript.events()."""
from __future__ import annotations

import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator

from agenthooks import config, statefiles, transcript
from agenthooks.errors import UserError
from agenthooks.files import bounded_lines, read_tail
from agenthooks.memory import boards

# `[YYYY-MM-DD HH:MM:SS] HOOK FRAMEWORK SID: MESSAGE`; before 0.x the hooks wrote
# `[YYYY-MM-DD HH:MM:SS] HOOK: MESSAGE`, which counts as session "unknown".
LOADED_RE = re.compile(r"^memory loaded: .*?~(\d+) tokens of (\d+), (\d+) chars")
DETECTED_RE = re.compile(r"^compaction detected \((.*)\); memory reloaded")
FRESH_RE = re.compile(r"^recommended a fresh session after (\d+) compactions")
FLUSH_RE = re.compile(r"^context \d+% full \(.*\): asked the agent to update the snapshot")
AFTER_FLUSH_RE = re.compile(r"^at the compaction: snapshot (updated|not updated) since the flush")
STALE_RE = re.compile(r"^at the compaction: snapshot\.md (\d+) min older than the last edit")
# A host's compaction event that named an agent: a subagent's compaction, not the session's
# (its post-compaction event repeats it: counted once, at the pre-compaction one). With the
# session's ids (Claude Code #91910), found at the next prompt: a count taken at SessionStart is
# given back.
SUBAGENT_RE = re.compile(r"^subagent (\S*) compacted \((\w+)[^)]*\): not the session's compaction")
# on_compact at the host's post-compaction event: its summary against the rules and In progress.
AUDIT_RE = re.compile(r"^summary audit: kept (\d+) of (\d+) rules, (\d+) of (\d+) In progress items(.*)$")
AUDIT_PART_RE = re.compile(r'; (dropped rule|In progress item) (\d+) (missing |called done )?"([^"]*)"')
# The sparkline of context use: eight levels of the window, and the compactions between them.
SPARK = {"utf-8": "▁▂▃▄▅▆▇█", "ascii": "_.-~=+*#"}
SPARK_COMPACTION = "|"
UNKNOWN = "unknown"
# The cause a hook logs -> the signal it stands for.
SIGNALS = (
    ("SessionStart source=compact", "host event"),
    ("the host announced", "host event"),
    ("compaction record in the transcript", "transcript boundary"),
    ("context length dropped", "length drop"),
    ("summary marker", "marker"),
    ("periodic reload", "every N turns"),  # counted as a reload, not as a compaction
)


def signal_of(cause: str) -> str:
    return next((sig for needle, sig in SIGNALS if needle in cause), "other")


# No line the hooks log is near this long; a longer one is skipped unread (a log of 200 MB
# with no newline costs no memory).
LOG_LINE_MAX = 1 << 20


@dataclass
class LogLine:
    time: str
    hook: str
    framework: str
    sid: str
    message: str


def read_log(agent: Path) -> Iterator[LogLine]:
    """Every well-formed line of memory.log.1 (older) and memory.log, in order, streamed:
    a 100 MB log is never held whole."""
    for name in ("memory.log.1", "memory.log"):
        path = agent / "log" / name
        try:
            fh = open(path, "rb")
        except OSError:
            continue
        with fh:
            for data in bounded_lines(fh, LOG_LINE_MAX):
                if data is None:  # no log line is that long: a file with no newlines
                    continue
                raw = data.decode("utf-8", errors="replace").rstrip("\r\n")
                f = statefiles.LOG.parse(raw)
                if f:
                    yield LogLine(f["time"], f["hook"], f["framework"] or UNKNOWN,
                                  f["session"] or UNKNOWN, f["message"])


@dataclass
class Session:
    session_id: str
    framework: str
    first_seen: str
    last_seen: str
    loads: int = 0
    reloads: int = 0
    memory_tokens: int = 0
    last_block_tokens: int | None = None
    budget: int | None = None
    reminders: int = 0
    periodic_reloads: int = 0
    compaction_events: list[dict[str, str]] = field(default_factory=list)
    fresh_recommended: int = 0
    announced_unreloaded: str | None = None  # time of a host announcement no reload followed
    turns_since_reload: int | None = None
    prompts: int | None = None
    context_tokens: int | None = None
    context_percent: float | None = None
    transcript: str | None = None
    flushes: int = 0  # flush lines offered before a compaction
    flushed_compactions: int = 0  # compactions that followed a flush line
    fresh_after_flush: int = 0  # of those, how many found snapshot.md updated since the flush
    stale_at_compaction: int = 0  # compactions where snapshot.md was older than the last edit
    context_use: list[int] = field(default_factory=list)  # lengths from the state, oldest first
    compacted_before: list[int] = field(default_factory=list)  # indexes in context_use
    window: int | None = None
    summary_audits: list[dict[str, Any]] = field(default_factory=list)  # one per host summary
    subagent_compactions: int = 0  # its subagents' compactions, never counted as its own

    @property
    def compactions(self) -> int:
        return len(self.compaction_events)

    def as_dict(self, fresh_after: int) -> dict[str, Any]:
        return {
            "framework": self.framework, "session_id": self.session_id,
            "first_seen": self.first_seen, "last_seen": self.last_seen,
            "prompts": self.prompts, "compactions": self.compactions,
            "compaction_events": self.compaction_events, "loads": self.loads,
            "reloads": self.reloads, "periodic_reloads": self.periodic_reloads,
            "memory_tokens": self.memory_tokens,
            "last_block_tokens": self.last_block_tokens, "budget": self.budget,
            "reminders": self.reminders,
            "fresh_session_recommended": recommends_fresh(self, fresh_after),
            "turns_since_reload": self.turns_since_reload,
            "context_tokens": self.context_tokens, "context_percent": self.context_percent,
            "transcript": self.transcript,
            "unreloaded_announcement": self.announced_unreloaded,
            "flushes": self.flushes, "flushed_compactions": self.flushed_compactions,
            "snapshot_fresh_after_flush": self.fresh_after_flush,
            "stale_at_compaction": self.stale_at_compaction,
            "context_use": self.context_use, "compacted_before": self.compacted_before,
            "context_window": self.window, "summary_audits": self.summary_audits,
            "subagent_compactions": self.subagent_compactions,
        }


def recommends_fresh(s: Session, fresh_after: int) -> bool:
    return fresh_after > 0 and s.compactions >= fresh_after


def fresh_note(agent: Path) -> str | None:
    """The advice to start a fresh session, when the last one was compacted often enough."""
    last = from_log(read_log(agent))[:1]
    if last and recommends_fresh(last[0], fresh_after(agent)):
        return (f"note: the last session was compacted {last[0].compactions}x: start a "
                "fresh one (memory carries over); see agenthooks status")
    return None


def is_cli_action(ln: LogLine) -> bool:
    """A line the CLI wrote (import, rule, note, board, promote, or archive through
    pre_task --archive): no agent session ran, so it is no session's line."""
    from agenthooks.memory import parse

    return ln.hook in parse.CLI_HOOKS or ln.message.startswith(("archive:", "archived the snapshot"))


def from_log(lines: Iterable[LogLine]) -> list[Session]:
    """Sessions in the order they were last seen, newest first."""
    by: dict[str, Session] = {}
    for ln in lines:
        if is_cli_action(ln):
            continue
        s = by.get(ln.sid)
        if s is None:
            s = by[ln.sid] = Session(ln.sid, ln.framework, ln.time, ln.time)
        s.last_seen = ln.time
        if s.framework == UNKNOWN:
            s.framework = ln.framework
        msg = ln.message
        m = LOADED_RE.match(msg)
        if m:
            s.loads += 1
            s.memory_tokens += int(m.group(1))
            s.last_block_tokens, s.budget = int(m.group(1)), int(m.group(2))
            continue
        m = DETECTED_RE.match(msg)
        if m:
            s.reloads += 1
            s.announced_unreloaded = None
            sig = signal_of(m.group(1))
            if sig == "every N turns":  # a reload on schedule, not a compaction seen
                s.periodic_reloads += 1
            else:
                s.compaction_events.append({"time": ln.time, "signal": sig,
                                            "cause": m.group(1), "hook": ln.hook})
            continue
        if msg.startswith("compaction announced by the host"):
            s.announced_unreloaded = ln.time
        elif msg.startswith("snapshot not updated for") and "reminded the agent" in msg:
            s.reminders += 1
        elif FRESH_RE.match(msg):
            s.fresh_recommended += 1
        elif FLUSH_RE.match(msg):
            s.flushes += 1
        elif m := AFTER_FLUSH_RE.match(msg):
            s.flushed_compactions += 1
            s.fresh_after_flush += m.group(1) == "updated"
        elif STALE_RE.match(msg):
            s.stale_at_compaction += 1
        elif (m := SUBAGENT_RE.match(msg)) and m.group(2) != "PostCompact":
            s.subagent_compactions += 1
            if m.group(2) == "SessionStart" and "ids; no new compact_boundary" in msg and s.compaction_events:
                s.compaction_events.pop()
        elif audit := summary_audit(msg):
            s.summary_audits.append({"time": ln.time, **audit})
    return sorted(by.values(), key=lambda s: s.last_seen, reverse=True)


def summary_audit(message: str) -> dict[str, Any] | None:
    """on_compact's audit of a host's summary, from its log line: how many rules and In progress
    items it kept, which it dropped (number and text), which item it called done; else None."""
    m = AUDIT_RE.match(message)
    if not m:
        return None
    audit: dict[str, Any] = {
        "rules_kept": int(m.group(1)), "rules": int(m.group(2)),
        "progress_kept": int(m.group(3)), "progress": int(m.group(4)),
        "dropped_rules": [], "missing_progress": [], "called_done": []}
    for kind, n, what, text in AUDIT_PART_RE.findall(m.group(5)):
        key = ("dropped_rules" if kind == "dropped rule" else
               "called_done" if what.startswith("called") else "missing_progress")
        audit[key].append({"n": int(n), "text": text})
    return audit


def audit_line(a: dict[str, Any]) -> str:
    """One audit as status and verify say it."""
    line = (f"kept {a['rules_kept']} of {a['rules']} rules, {a['progress_kept']} of "
            f"{a['progress']} In progress items")
    parts = [f"dropped rule {r['n']} ({r['text']})" for r in a["dropped_rules"]]
    parts += [f"In progress item {i['n']} missing ({i['text']})" for i in a["missing_progress"]]
    parts += [f"In progress item {i['n']} called done ({i['text']})" for i in a["called_done"]]
    return line + ("; " + "; ".join(parts) if parts else ": nothing missing")


def _state_turn(agent: Path, sid: str) -> int | None:
    """Prompts since the last reload, from the last valid line of the session's state."""
    try:
        lines = read_tail(agent / "log" / "state" / f"{sid}.state").decode(
            "utf-8", errors="replace").splitlines()
    except OSError:
        return None
    for line in reversed(lines):
        f = statefiles.STATE.parse(line)
        if f and f["turn"].isdigit():
            return int(f["turn"])
    return None


def context_use(agent: Path, sid: str, drop_percent: int = 40) -> tuple[list[int], list[int]]:
    """The context lengths the session's state recorded (at most its last 64 prompts), and the
    indexes before which a compaction was seen: pre_task's sync line after the host's, or a
    reload (turn 0) at a length that dropped."""
    try:
        lines = read_tail(agent / "log" / "state" / f"{sid}.state").decode(
            "utf-8", errors="replace").splitlines()
    except OSError:
        return [], []
    lengths: list[int] = []
    marks: list[int] = []
    pending = False
    for line in lines:
        f = statefiles.STATE.parse(line)
        if not f or not f["turn"].isdigit() or not f["length"].isdigit():
            continue
        if f["sync"] == "1" and f["length"] == "0":  # written at the host's compaction
            pending = True
            continue
        if f["pending"] in ("pending", "candidate"):  # the announcement repeats the last line
            continue
        length = int(f["length"])
        if lengths and f["turn"] == "0" and length < lengths[-1] * (100 - drop_percent) // 100:
            pending = True
        if pending and lengths and (not marks or marks[-1] != len(lengths)):
            marks.append(len(lengths))
        pending = False
        lengths.append(length)
    return lengths, marks


def session_window(agent: Path, sid: str) -> int:
    """The context window: as the host last said it (SESSION.window), else the tunable."""
    try:
        words = read_tail(agent / "log" / "state" / f"{sid}.window", 4096).decode("utf-8").split()
        if words and words[0].isdigit() and int(words[0]) > 0:
            return int(words[0])
    except (OSError, UnicodeDecodeError):
        pass
    default = config.DEFAULTS["context_window_tokens"]
    value = config.read(agent / "config.yaml").get("context_window_tokens", default)
    return value if isinstance(value, int) and value > 0 else int(default)


def sparkline(lengths: list[int], marks: list[int], window: int, *, ascii_only: bool = False) -> str:
    """One glyph a prompt, its height the share of the window (full from 100%), with the
    compaction mark before the prompt that followed one."""
    glyphs = SPARK["ascii" if ascii_only else "utf-8"]
    out = []
    for i, length in enumerate(lengths):
        if i in marks:
            out.append(SPARK_COMPACTION)
        level = min(len(glyphs) - 1, length * len(glyphs) // max(window, 1))
        out.append(glyphs[level])
    return "".join(out)


def block_stats(agent: Path) -> dict[str, int] | None:
    """The last block's figures (statefiles.STATS): log/state/last.block, written by every
    build, or else block.stats, which a build with a notice leaves empty."""
    state = agent / "log" / "state"
    for fmt, budget in ((statefiles.LAST, "budget"), (statefiles.BLOCK, "build_budget")):
        try:
            line = read_tail(state / fmt.file, 4096).decode("utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        f = fmt.parse(line)
        figures = statefiles.STATS.parse(f["figures"]) if f else None
        if f and figures and f[budget].isdigit() and figures["tokens"].isdigit() \
                and figures["chars"].isdigit():
            return {"tokens": int(figures["tokens"]), "budget": int(f[budget]),
                    "chars": int(figures["chars"])}
    return None


def snapshot_age_minutes(agent: Path, now: float | None = None) -> int | None:
    """Minutes since the progress board (memory/boards.py's) changed; None when missing."""
    try:
        mtime = boards.path(agent, agent.parent).stat().st_mtime
    except OSError:
        return None
    return max(0, int(((now or time.time()) - mtime) // 60))


def fresh_after(agent: Path) -> int:
    value = config.read(agent / "config.yaml").get("fresh_after_compactions", 3)
    return value if isinstance(value, int) else 3


def sessions(root: Path, *, transcripts: bool = True) -> list[Session]:
    agent = root / ".agent"
    found = from_log(read_log(agent))
    drop = config.read(agent / "config.yaml").get("drop_percent", 40)
    drop = drop if isinstance(drop, int) and 1 <= drop <= 99 else 40
    for s in found:
        if s.session_id != UNKNOWN:
            s.turns_since_reload = _state_turn(agent, s.session_id)
            s.context_use, s.compacted_before = context_use(agent, s.session_id, drop)
            if s.context_use:
                s.window = session_window(agent, s.session_id)
        if not transcripts or s.session_id == UNKNOWN:
            continue
        path = transcript.locate(s.framework, s.session_id, root)
        if path is None:
            continue
        s.transcript = str(path)
        try:
            t = transcript.read(path)
        except transcript.Unreadable:
            continue
        s.prompts = sum(1 for e in t.events if e.kind == "prompt")
        s.context_tokens, s.context_percent = t.context_tokens, t.context_percent
    return found


def report(root: Path, *, session: str | None = None, all_: bool = False,
           limit: int = 5) -> dict[str, Any]:
    agent = root / ".agent"
    n = fresh_after(agent)
    found = sessions(root)
    if session is not None:
        every = found
        found = [s for s in found if s.session_id == session or s.session_id.startswith(session)]
        if every and not found:
            raise UserError(f"no such session: {session}",
                            hint="run 'agenthooks status --all' for the session ids")
    elif not all_:
        found = found[:limit]
    return {
        "root": str(root), "fresh_after_compactions": n,
        "block": block_stats(agent), "snapshot_age_minutes": snapshot_age_minutes(agent),
        "sessions": [s.as_dict(n) for s in found],
    }


def _n(value: Any, unit: str = "") -> str:
    return "-" if value is None else f"{value:,}{unit}" if isinstance(value, int) else f"{value}{unit}"


def utf8_stdout() -> bool:
    return (getattr(sys.stdout, "encoding", None) or "").lower().replace("_", "-") in ("utf-8", "utf8")


def format_report(data: dict[str, Any], *, ascii_only: bool | None = None) -> list[str]:
    if ascii_only is None:
        ascii_only = not utf8_stdout()
    out = []
    block, age = data["block"], data["snapshot_age_minutes"]
    head = "memory block: " + (f"~{block['tokens']:,} of {block['budget']:,} tokens, "
                               f"{block['chars']:,} chars" if block else "none published yet")
    head += "; board " + ("not started" if age is None else f"updated {age}m ago")
    out.append(head)
    if not data["sessions"]:
        out.append("no sessions in .agent/log/memory.log yet")
    for s in data["sessions"]:
        out.append("")
        out.append(f"session {s['session_id']} ({s['framework']}): {s['first_seen']} .. {s['last_seen']}")
        ctx = ""
        if s["context_tokens"] is not None:
            pct = f", {s['context_percent']:.0f}% of the window" if s["context_percent"] is not None else ""
            ctx = f"; context {s['context_tokens']:,} tokens{pct}"
        out.append(f"  prompts {_n(s['prompts'])}; memory loads {s['loads']}, reloads "
                   f"{s['reloads']}; ~{s['memory_tokens']:,} tokens injected in all"
                   + (f", last block ~{s['last_block_tokens']:,}/{s['budget']:,}"
                      if s["last_block_tokens"] is not None else "") + ctx)
        sigs = ", ".join(f"{e['time'][11:]} {e['signal']}" for e in s["compaction_events"])
        out.append(f"  compactions {s['compactions']}" + (f": {sigs}" if sigs else "")
                   + (f"; periodic reloads {s['periodic_reloads']}" if s["periodic_reloads"] else "")
                   + (f"; its subagents' compactions {s['subagent_compactions']} (not counted)"
                      if s["subagent_compactions"] else "")
                   + f"; post-edit reminders {s['reminders']}")
        if s["flushes"] or s["flushed_compactions"] or s["stale_at_compaction"]:
            out.append(f"  flushes offered {s['flushes']}; snapshot fresh at "
                       f"{s['snapshot_fresh_after_flush']} of {s['flushed_compactions']} compactions "
                       f"after a flush; stale at {s['stale_at_compaction']} compactions")
        for a in s["summary_audits"]:
            out.append(f"  compaction summary at {a['time'][11:]}: {audit_line(a)}")
        if s["context_use"]:
            line = sparkline(s["context_use"], s["compacted_before"], s["context_window"],
                             ascii_only=ascii_only)
            out.append(f"  context use, last {len(s['context_use'])} prompts (of {s['context_window']:,} "
                       f"tokens; {SPARK_COMPACTION} a compaction): {line}")
        if s["fresh_session_recommended"]:
            out.append(f"  compacted {s['compactions']}x (fresh_after_compactions: "
                       f"{data['fresh_after_compactions']}): start a fresh session; memory carries over")
        if s["unreloaded_announcement"]:
            out.append(f"  the host announced a compaction at {s['unreloaded_announcement']} and "
                       "no reload followed: run agenthooks verify")
        if s["transcript"]:
            out.append(f"  transcript {s['transcript']}")
    return out


def latest_transcript(root: Path) -> Path | None:
    """The transcript of the newest session the log names, else the newest any host
    wrote for this repo."""
    for s in from_log(read_log(root / ".agent")):
        path = transcript.locate(s.framework, s.session_id, root)
        if path is not None:
            return path
    return transcript.latest_for(root)


def verify_report(root: Path, path: Path | None) -> dict[str, Any]:
    from agenthooks.errors import UserError
    from agenthooks.memory import parse

    if path is None:
        path = latest_transcript(root)
        if path is None:
            err = UserError("no transcript to verify: none found for this repo "
                            "(Claude Code, Codex, Gemini CLI)", hint="pass --transcript PATH")
            err.code = 2  # nothing was checked: not the 1 of "memory did not come back"
            raise err
    try:
        t = transcript.read(path)
    except transcript.Unreadable as exc:
        err = UserError(str(exc), hint="pass a Claude Code, Codex or Gemini CLI transcript")
        err.code = 2
        raise err from None
    rules = [ln.text.rstrip(" \t\r") for ln in parse.rules(parse.find_repo(root).file("tattoo", parse.HOOK_CAP))]
    checks = transcript.verify(t, rules)
    failed = [c for c in checks if not c.followed]
    # What the hooks' audit found in the host's summaries (memory.log), for this session.
    ours = [s for s in from_log(read_log(root / ".agent")) if t.session_id and s.session_id == t.session_id]
    audits = [dict(a) for s in ours for a in s.summary_audits]
    return {"transcript": str(path), "host": t.host, "session_id": t.session_id,
            "rules": len(rules), "ok": not failed,
            "compactions": [c.as_dict() for c in checks], "summary_audits": audits,
            "subagent_compactions": sum(s.subagent_compactions for s in ours)}


def format_verify(data: dict[str, Any]) -> list[str]:
    out = [f"transcript {data['transcript']} ({data['host']}, session {data['session_id'] or '?'}): "
           f"{len(data['compactions'])} compaction(s); checking the block's delimiters and "
           f"{data['rules']} rule(s) of tattoo.md"]
    for c in data["compactions"]:
        where = f"compaction {c['compaction']} (record {c['record']}, {c['time'] or 'no time'})"
        if c["memory_followed"]:
            later = c["turns_later"]
            out.append(f"  ok    {where}: memory back "
                       + ("before the next answer" if later == 0 else f"{later} turn(s) later"))
        elif c.get("state") == "older":
            later = c["turns_later"]
            out.append(f"  FAIL  {where}: memory came back "
                       + ("before the next answer" if later == 0 else f"{later} turn(s) later")
                       + f", older than the files; not in it: {'; '.join(c['missing'][:3])}"
                       + (f" and {len(c['missing']) - 3} more" if len(c["missing"]) > 3 else ""))
        else:
            out.append(f"  FAIL  {where}: no memory after it ({c['prompts_after']} prompt(s) "
                       f"after it); missing: {'; '.join(c['missing'][:3])}"
                       + (f" and {len(c['missing']) - 3} more" if len(c["missing"]) > 3 else ""))
    for a in data.get("summary_audits", []):
        flagged = a["dropped_rules"] or a["missing_progress"] or a["called_done"]
        out.append(f"  {'note  ' if flagged else 'ok    '}the host's summary at {a['time']}: {audit_line(a)}")
    if data.get("subagent_compactions"):
        out.append(f"  note  its subagents were compacted {data['subagent_compactions']}x: their own "
                   "contexts, in their own transcripts; not counted or checked here")
    bad = [c for c in data["compactions"] if not c["memory_followed"]]
    if not data["compactions"]:
        out.append("no compaction in this transcript: nothing to verify")
    elif bad and bad[0].get("state") == "older":
        out.append(f"not verified: compaction {bad[0]['compaction']} ({bad[0]['time']}) was "
                   "followed by memory older than tattoo.md (edited since?)")
    elif bad:
        out.append(f"not verified: compaction {bad[0]['compaction']} ({bad[0]['time']}) was not "
                   "followed by memory")
    else:
        out.append("verified: every compaction was followed by memory")
    return out
