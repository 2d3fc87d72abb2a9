"""The hooks' state files and effects, declared once: each file's declaration renders the bash
writer and reader (the templates call names(), args() and printf) and is the Python reader
(parse()), fields by name; EFFECTS says what each hook reads, writes, removes and spawns, and
renders the effects header of each entry point. The files live in .agent/log/state/ (the log
line: .agent/log/memory.log)."""
from __future__ import annotations

import re
from dataclasses import dataclass

from agenthooks import config

# The awk block builder's figures, in the order it prints them after the word "figures".
STATS_FIELDS = ("tattoo", "snapshot", "notes", "notes_shown", "tokens", "chars", "cut_notes",
                "cut_snapshot", "cut_rules", "redacted", "same")
# Before hooks release 9 awk sized the log by reading it, and printed the size before "same".
STATS_FIELDS_8 = STATS_FIELDS[:-1] + ("log_bytes", "same")


@dataclass(frozen=True)
class Format:
    file: str                 # the file name (SESSION: the session id)
    fields: tuple[str, ...]
    tag: str = ""             # the first word of a line, naming the format and its release
    end: str = ""             # a last word that proves the line is whole
    rest: bool = False        # the last field holds the rest of the line (as bash's read does)
    optional: int = 0         # the last N fields, added later, may be missing (read as "")
    defaults: tuple[str, ...] = ()  # each field's value when the file holds no valid line
    words: tuple[str, ...] = ()  # fields that hold a word, not a number (values() leaves them out)

    def names(self, prefix: str = "") -> str:
        """The bash variables a reader reads into, in order."""
        return " ".join(prefix + f for f in self.fields)

    def locals(self, prefix: str = "") -> str:
        """The reader's variables declared empty, for a bash `local` (set -u)."""
        return " ".join(f"{prefix}{f}=''" for f in self.fields)

    def default_assignments(self, prefix: str = "") -> str:
        """One bash assignment of every field's default (no valid line read)."""
        return " ".join(f"{prefix}{f}={d}" for f, d in zip(self.fields, self.defaults))

    def from_positional(self, prefix: str = "") -> str:
        """One bash assignment of every field from the positional parameters ($1 ...), after
        `set -- $LINE`: the cheap reader of a line held in a variable."""
        return " ".join(f"{prefix}{f}=${{{i}}}" if i > 9 else f"{prefix}{f}=${i}"
                        for i, f in enumerate(self.fields, 1))

    def at(self, name: str) -> str:
        """The positional parameter that holds field NAME after `set -- $LINE`."""
        return "${%d}" % (self.fields.index(name) + 1)

    def args(self, prefix: str = "") -> str:
        """The bash words a writer prints, in order."""
        return " ".join(f'"${prefix}{f}"' for f in self.fields)

    def values(self, prefix: str = "") -> str:
        """The number fields as one bash word (for a digits-only check)."""
        return '"' + "".join(f"${prefix}{f}" for f in self.fields if f not in self.words) + '"'

    def digits_test(self, prefix: str = "", per_line: int = 7, indent: str = "    ") -> str:
        """The inside of a bash [[ ]] that holds when every number field is digits only: a few
        fields a clause, one clause a line, so that no line of the hooks is long."""
        numbers = [f for f in self.fields if f not in self.words]
        groups = [numbers[i:i + per_line] for i in range(0, len(numbers), per_line)]
        return (" &&\n" + indent).join(
            '"' + "".join(f"${prefix}{f}" for f in g) + '" != *[!0-9]*' for g in groups)

    @property
    def printf(self) -> str:
        """The writer's printf format, single-quoted for bash."""
        words = ([self.tag] if self.tag else []) + ["%s"] * len(self.fields) + \
            ([self.end] if self.end else [])
        return "'" + " ".join(words) + "\\n'"

    def parse(self, line: str) -> dict[str, str] | None:
        """A line as the bash reader reads it: the fields by name, or None when the line is
        not of this format (wrong tag, too few words, no end word)."""
        words = line.split(maxsplit=len(self.fields) - (not self.tag)) if self.rest else line.split()
        if self.tag:
            if not words or words[0] != self.tag:
                return None
            words = words[1:]
        if self.end:
            if len(words) < len(self.fields) + 1 or words[len(self.fields)] != self.end:
                return None
        if len(words) < len(self.fields) - self.optional:
            return None
        words = words + [""] * (len(self.fields) - len(words))
        return dict(zip(self.fields, words))


@dataclass(frozen=True)
class LogFormat:
    """A memory.log line: "[TIME] HOOK FRAMEWORK SESSION: MESSAGE" (a past release's lines
    have no FRAMEWORK SESSION: parse() gives them as empty)."""
    fields: tuple[str, ...] = ("time", "hook", "framework", "session", "message")
    printf: str = "'[%s] %s %s %s: %s\\n'"
    regex: re.Pattern[str] = re.compile(
        r"^\[(?P<time>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)\] (?P<hook>[a-z_]+)"
        r"(?: (?P<framework>[a-z][a-z-]*) (?P<session>[A-Za-z0-9_.-]{1,80}))?: (?P<message>.*)$")

    def parse(self, line: str) -> dict[str, str] | None:
        m = self.regex.match(line)
        return {k: v or "" for k, v in m.groupdict().items()} if m else None


# One line per prompt, appended; the last valid one counts. flushed: when the flush line was
# offered this compaction cycle, in epoch seconds (0: not yet); a line without it is a past release's.
STATE = Format("SESSION.state", ("turn", "length", "pending", "boundary", "sync", "flushed"), "v1",
               optional=1, defaults=("0", "0", "-", "-", "0", "0"))
# The block in injected_context.txt and its build's figures: what the quiet path reuses. Its
# tag was AHC1 before hooks release 9: such a file is not read, and the next build rewrites it.
# board: the board it was built from, under .agent/ (missing:PATH: a branch's board not started).
BLOCK = Format("block.stats", ("chars", "user_rules", "build_budget", "notes", "board", "figures"), "block-v3",
               rest=True)
# The last block built and its figures: what status and the status line show.
LAST = Format("last.block", ("budget", "figures"), rest=True)
# The figures themselves, as the awk block builder prints them (after the word "figures").
STATS = Format("", STATS_FIELDS)
# edited: the session's last edit post_edit saw (epoch seconds, to the minute); a past release's
# mark has none.
REMIND = Format("SESSION.remind", ("snapshot_time", "reminded", "edited"), optional=1)
COUNT = Format("SESSION.count", ("compactions",))
# The context window in tokens, as the host last said it (Claude Code's status line payload).
WINDOW = Format("SESSION.window", ("tokens",))
LOG = LogFormat()
# The session's working set, kept by the hooks for the block after a compaction: the
# repo-relative paths it edited, one a line, latest last (post_edit), and the user's latest
# prompt, its first 300 characters as the payload held them, JSON escapes and all (on_compact).
FILES = "SESSION.files"
REQUEST = "SESSION.request"
# What the host's last compaction summary left out, for the next prompt to say once (on_compact).
AUDIT = "SESSION.audit"
# The monorepo packages whose rules post_edit told this session: "after N" (its compactions then),
# then each package's folder, one a line.
SCOPES = "SESSION.scopes"


def config_values(release: int) -> Format:
    """The tunables the runtime last parsed (config.values); a second line holds
    summary_markers, a third subagent_skip. Its tag names the hooks' release: another release's is not read (before
    release 9 the tag was AHCFG and the release)."""
    tunables = tuple(var.removeprefix("AH_") for var in config.BASH_VARS.values())
    return Format("config.values", ("ENABLED", "BOARD") + tunables, f"config-of-release-{release}", ".",
                  words=("BOARD",))


def formats(release: int) -> dict[str, Format | LogFormat]:
    """Every format, as the hooks of `release` write them (the templates' `formats`)."""
    return {"state": STATE, "config": config_values(release), "block": BLOCK, "last": LAST,
            "stats": STATS if release >= 9 else Format("", STATS_FIELDS_8), "remind": REMIND, "count": COUNT, "window": WINDOW, "log": LOG}


# --- What each hook does to the disk and the machine: its effects header, and the tests ---
@dataclass(frozen=True)
class Effect:
    verb: str                # reads, appends, writes (renames: the target), removes, makes, spawns
    paths: tuple[str, ...]   # under .agent/ (SESSION: the session's name, N and PID: numbers);
                             # for spawns: the programs
    when: str                # the runs that do it


def _e(verb: str, paths: str, when: str) -> Effect:
    return Effect(verb, tuple(paths.split()), when)


_STATE = "log/state/SESSION.state"
# Every run: the tunables, the log (a run with something to say), the trace (AGENTHOOKS_DEBUG=1).
_EVERY = (
    _e("reads", "config.yaml log/state/config.values", "every run"),
    _e("writes", "log/state/config.values", "config.yaml changed"),
    _e("appends", "log/memory.log log/trace.log", "something to log; AGENTHOOKS_DEBUG=1"),
)
# Building and publishing the block (pre_task; on_compact's reload), and the lock of shared state.
_BUILD = (
    _e("reads", "memory/tattoo.md memory/snapshot.md memory/notes.md ~/.agent/memory/tattoo.md",
       "a build"),
    _e("writes", "injected_context.txt .injected_context.txt.PID.N log/state/block.stats "
       "log/state/last.block log/state/SESSION.built log/state/mtime.N log/memory.log.1", "a build"),
    _e("removes", ".injected_context.txt.PID.N log/state/SESSION.state log/state/SESSION.remind "
       "log/state/SESSION.built log/state/SESSION.count log/state/SESSION.window "
       "log/state/SESSION.files log/state/SESSION.request log/state/SESSION.audit log/state/SESSION.scopes",
       "a build: temp files of ended hooks; past 800 files, sessions idle 30 days"),
    _e("reads", "log/state/SESSION.files log/state/SESSION.request", "a build after a compaction"),
    _e("writes", "log/.lock log/.lock.pid log/.lock.pid.break", "a write of shared state"),
    _e("removes", "log/.lock.pid log/.lock.pid.break", "the portable lock released"),
)
EFFECTS: dict[str, tuple[Effect, ...]] = {
    "pre_task": _EVERY + (
        _e("reads", "injected_context.txt log/state/block.stats log/state/mtime.N", "every run"),
        _e("makes", "log/state", "a session start"),
        *_BUILD,
        _e("appends", _STATE + " " + _STATE + ".PID.tmp", "a start after a compaction"),
        _e("writes", "log/state/SESSION.count", "a start after a compaction"),
        _e("writes", "log/state/snapshot.mtime log/state/SESSION.window", "--statusline"),
        _e("writes", "memory/archive/snapshot_TIME.md memory/.snapshot.md.PID.tmp memory/snapshot.md",
           "--archive"),
        _e("makes", "memory/archive", "--archive"),
        _e("reads", "memory/tattoo.md memory/snapshot.md ~/.agent/memory/tattoo.md", "a subagent's start"),
        _e("spawns", "touch awk mv find mkdir flock head tail tr readlink stat",
           "a build; a subagent's start (awk); --statusline"),
    ),
    "post_edit": _EVERY + (
        _e("reads", "log/state/SESSION.remind log/state/SESSION.files", "every run"),
        _e("writes", "log/state/SESSION.remind", "once a minute"),
        _e("writes", "log/state/SESSION.files", "an edit of a file that is not the last one listed"),
        _e("makes", "log/state", "a reminder"),
        _e("writes", "log/.lock log/.lock.pid log/.lock.pid.break", "a reminder"),
        _e("removes", "log/state/SESSION.remind log/.lock.pid log/.lock.pid.break", "a reminder"),
        _e("spawns", "stat mkdir flock", "a reminder"),
        _e("reads", "memory/scopes/PACKAGE/tattoo.md log/state/SESSION.scopes log/state/SESSION.count",
           "an edit under a package with rules of its own"),
        _e("writes", "log/state/SESSION.scopes", "the first edit under such a package since a compaction"),
        _e("spawns", "awk head tr", "the first edit under such a package since a compaction"),
    ),
    "on_compact": _EVERY + (
        _e("reads", _STATE + " log/state/SESSION.window", "every prompt"),
        _e("appends", _STATE, "every prompt"),
        _e("writes", "log/state/SESSION.request log/state/SESSION.audit", "a prompt; PostCompact"),
        _e("writes", _STATE + " " + _STATE + ".PID.tmp", "past 64 lines (by rename)"),
        _e("makes", "log/state", "a reload"),
        _e("writes", "log/state/SESSION.count", "a reload"),
        *_BUILD,
        _e("spawns", "tail touch awk mv find mkdir flock head tr readlink stat rm", "a transcript; a reload"),
    ),
}


def grouped(paths: tuple[str, ...]) -> list[str]:
    """PATHS with those that differ only after their name's first dot written once, in the
    shell's brace form: log/state/SESSION.state log/state/SESSION.count -> log/state/SESSION.{state,count}."""
    stems: dict[str, list[str]] = {}
    for path in paths:
        folder, _, name = path.rpartition("/")
        base, dot, rest = name.partition(".")
        stem = f"{folder}/{base}." if folder and dot and base else path
        stems.setdefault(stem, []).append(rest if stem != path else "")
    return [stem + (f"{{{','.join(ends)}}}" if len(ends) > 1 else ends[0]) for stem, ends in stems.items()]


def effects_header(hook: str, width: int = 100) -> str:
    """The effects of HOOK as the comment its entry point starts with: one line a verb and a
    case, paths under .agent/ (a session's files in one brace form)."""
    lines = ["# Effects in .agent/ (agenthooks/statefiles.py; every change on disk: lib/io.sh):"]
    for e in EFFECTS[hook]:
        line = f"#   {e.verb:8} "
        for word in [*grouped(e.paths), f"({e.when})"]:
            if len(line) + len(word) + 1 > width and not line.endswith("  "):
                lines.append(line.rstrip())
                line = "#" + " " * 12
            line += word + " "
        lines.append(line.rstrip())
    return "\n".join(lines)
