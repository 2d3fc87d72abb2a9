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
                "cut_snapshot", "cut_rules", "redacted", "log_bytes", "same")


@dataclass(frozen=True)
class Format:
    file: str                 # the file name (SESSION: the session id)
    fields: tuple[str, ...]
    tag: str = ""             # the first word of a line, naming the format and its release
    end: str = ""             # a last word that proves the line is whole
    rest: bool = False        # the last field holds the rest of the line (as bash's read does)
    optional: int = 0         # the last N fields, added later, may be missing (read as "")
    defaults: tuple[str, ...] = ()  # each field's value when the file holds no valid line

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
        """All the fields as one bash word (for a digits-only check)."""
        return '"' + "".join(f"${prefix}{f}" for f in self.fields) + '"'

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
BLOCK = Format("block.stats", ("chars", "user_rules", "build_budget", "notes", "figures"), "block-v2",
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


def config_values(release: int) -> Format:
    """The tunables the runtime last parsed (config.values); a second line holds
    summary_markers. Its tag names the hooks' release: another release's is not read (before
    release 9 the tag was AHCFG and the release)."""
    tunables = tuple(var.removeprefix("AH_") for var in config.BASH_VARS.values())
    return Format("config.values", ("ENABLED",) + tunables, f"config-of-release-{release}", ".")


def formats(release: int) -> dict[str, Format | LogFormat]:
    """Every format, as the hooks of `release` write them (the templates' `formats`)."""
    return {"state": STATE, "config": config_values(release), "block": BLOCK, "last": LAST,
            "stats": STATS, "remind": REMIND, "count": COUNT, "window": WINDOW, "log": LOG}


# --- What each hook does to the disk and the machine, for its effects header and its tests ---
@dataclass(frozen=True)
class Effect:
    verb: str    # reads, appends, writes, removes, makes (a folder), spawns (a program)
    what: str    # a path under .agent/ (SESSION: the session's name), or a program
    when: str    # the runs that do it


# Paths under .agent/. Every write goes through lib/io.sh; every temp file is renamed over its
# target or removed before the run ends.
_STATE = "log/state/SESSION.state"
_LOG = "log/memory.log"
_BUILD = (  # building and publishing the block (pre_task, on_compact's reload)
    Effect("reads", "memory/tattoo.md memory/snapshot.md memory/notes.md "
           "~/.agent/memory/tattoo.md", "a build"),
    Effect("writes", "injected_context.txt (by rename from .injected_context.txt.PID.N) "
           "log/state/block.stats log/state/last.block log/state/SESSION.built", "a build"),
    Effect("writes", "log/state/mtime.N (file times: touch -r)", "a build, a memory file changed"),
    Effect("removes", ".injected_context.txt.PID.N of hooks that ended", "a build"),
    Effect("removes", "log/state/*.state *.remind *.built *.count *.window idle 30 days",
           "a build, past 800 files"),
    Effect("writes", "log/memory.log.1 (by rename of memory.log)", "a build, past log_max_kb"),
)
_LOCK = (
    Effect("writes", "log/.lock (flock), or log/.lock.pid and log/.lock.pid.break "
           "(the portable lock, removed after)", "a write of shared state"),
)
_EVERY = (
    Effect("reads", "config.yaml log/state/config.values", "every run"),
    Effect("writes", "log/state/config.values", "config.yaml changed"),
    Effect("appends", _LOG, "a run with something to say"),
    Effect("appends", "log/trace.log", "AGENTHOOKS_DEBUG=1"),
)
EFFECTS: dict[str, tuple[Effect, ...]] = {
    "pre_task": _EVERY + (
        Effect("reads", "injected_context.txt log/state/block.stats log/state/mtime.N", "every run"),
        Effect("makes", "log/state/", "a session start"),
        *_BUILD, *_LOCK,
        Effect("appends", _STATE, "a session start after a compaction"),
        Effect("writes", "log/state/SESSION.count", "a session start after a compaction"),
        Effect("reads", "log/state/last.block log/state/SESSION.count", "--statusline"),
        Effect("writes", "log/state/snapshot.mtime log/state/SESSION.window", "--statusline"),
        Effect("writes", "memory/archive/snapshot_TIME.md memory/snapshot.md (by rename from "
               "memory/.snapshot.md.PID.tmp)", "--archive"),
        Effect("spawns", "touch awk mv (a build); head tail tr (a file over 256 KB); readlink "
               "(a linked memory file); flock; stat (--statusline, the snapshot changed); awk "
               "(--archive)", "as said"),
    ),
    "post_edit": _EVERY + (
        Effect("reads", "log/state/SESSION.remind", "every run"),
        Effect("writes", "log/state/SESSION.remind", "once a minute, and a reminder"),
        Effect("makes", "log/state/", "a reminder"),
        *_LOCK,
        Effect("spawns", "stat (the snapshot changed); flock (a reminder)", "as said"),
    ),
    "on_compact": _EVERY + (
        Effect("reads", _STATE + " log/state/SESSION.window", "every prompt"),
        Effect("reads", "the host's transcript (its last 4 KB, or 64 KB)", "every prompt"),
        Effect("appends", _STATE, "every prompt (rewritten by rename past 64 lines)"),
        Effect("makes", "log/state/", "a reload"),
        Effect("writes", "log/state/SESSION.count", "a reload after a compaction"),
        *_BUILD, *_LOCK,
        Effect("spawns", "tail (a transcript); touch awk mv flock (a reload); head tail tr "
               "readlink (as pre_task)", "as said"),
    ),
}


def effects_header(hook: str, width: int = 100) -> str:
    """The effects of HOOK as the comment block its entry point starts with."""
    lines = ["# Effects (declared in agenthooks/statefiles.py; every change on disk goes through "
             "lib/io.sh),", "# paths under .agent/:"]
    for e in EFFECTS[hook]:
        words = f"{e.verb:8} {e.what} ({e.when})".split(" ")
        line = "#   "
        for word in words:
            if len(line) + len(word) + 1 > width and line.strip() != "#":
                lines.append(line.rstrip())
                line = "#            "
            line += word + " "
        lines.append(line.rstrip())
    return "\n".join(lines)
