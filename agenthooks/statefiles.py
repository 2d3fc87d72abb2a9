"""The hooks' state files, declared once: each declaration renders the bash writer and
reader (the templates call names(), args() and printf) and is the Python reader (parse()),
fields by name. The files live in .agent/log/state/ (the log line: .agent/log/memory.log)."""
from __future__ import annotations

import re
from dataclasses import dataclass

from agenthooks import config

# The awk block builder's figures, in the order it prints them after AHSTATS.
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

    def names(self, prefix: str = "") -> str:
        """The bash variables a reader reads into, in order."""
        return " ".join(prefix + f for f in self.fields)

    def locals(self, prefix: str = "") -> str:
        """The reader's variables declared empty, for a bash `local` (set -u)."""
        return " ".join(f"{prefix}{f}=''" for f in self.fields)

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
               optional=1)
# The block in injected_context.txt and its build's figures: what the quiet path reuses.
BLOCK = Format("block.stats", ("chars", "user_rules", "build_budget", "notes", "figures"), "AHC1",
               rest=True)
# The last block built and its figures: what status and the status line show.
LAST = Format("last.block", ("budget", "figures"), rest=True)
# The figures themselves, as the awk block builder prints them (after the word AHSTATS).
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
    summary_markers. Its tag names the hooks' release: another release's is not read."""
    tunables = tuple(var.removeprefix("AH_") for var in config.BASH_VARS.values())
    return Format("config.values", ("ENABLED",) + tunables, f"AHCFG{release}", ".")


def formats(release: int) -> dict[str, Format | LogFormat]:
    """Every format, as the hooks of `release` write them (the templates' `formats`)."""
    return {"state": STATE, "config": config_values(release), "block": BLOCK, "last": LAST,
            "stats": STATS, "remind": REMIND, "count": COUNT, "window": WINDOW, "log": LOG}
