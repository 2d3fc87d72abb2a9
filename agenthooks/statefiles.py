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

    def names(self, prefix: str = "") -> str:
        """The bash variables a reader reads into, in order."""
        return " ".join(prefix + f for f in self.fields)

    def locals(self, prefix: str = "") -> str:
        """The reader's variables declared empty, for a bash `local` (set -u)."""
        return " ".join(f"{prefix}{f}=''" for f in self.fields)

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
        if len(words) < len(self.fields):
            return None
        return dict(zip(self.fields, words))


@dataclass(frozen=True)
class LogFormat:
    """A memory.log line: "[TIME] HOOK FRAMEWORK SESSION: MESSAGE"."""
    fields: tuple[str, ...] = ("time", "hook", "framework", "session", "message")
    printf: str = "'[%s] %s %s %s: %s\\n'"
    regex: re.Pattern[str] = re.compile(
        r"^\[(?P<time>[^\]]*)\] (?P<hook>\S+) (?P<framework>\S+) (?P<session>\S+): (?P<message>.*)$")

    def parse(self, line: str) -> dict[str, str] | None:
        m = self.regex.match(line)
        return m.groupdict() if m else None


def formats(release: int) -> dict[str, Format | LogFormat]:
    """Every format, as the hooks of `release` write them."""
    tunables = tuple(var.removeprefix("AH_") for var in config.BASH_VARS.values())
    return {
        # One line per prompt, appended; the last valid one counts.
        "state": Format("SESSION.state", ("turn", "length", "pending", "boundary", "sync"), "v1"),
        # The tunables the runtime last parsed; a second line holds summary_markers.
        "config": Format("config.values", ("ENABLED",) + tunables, f"AHCFG{release}", "."),
        # The block in injected_context.txt and its build's figures (stats): what the quiet
        # path reuses.
        "block": Format("block.stats", ("chars", "user_rules", "build_budget", "notes", "figures"),
                        "AHC1", rest=True),
        # The last block built and its figures: what status and the status line show.
        "last": Format("last.block", ("budget", "figures"), rest=True),
        # The figures themselves, as the awk block builder prints them (after the word AHSTATS).
        "stats": Format("", STATS_FIELDS),
        "remind": Format("SESSION.remind", ("snapshot_time", "reminded")),
        "count": Format("SESSION.count", ("compactions",)),
        "log": LogFormat(),
    }


def state(release: int, name: str) -> Format:
    fmt = formats(release)[name]
    assert isinstance(fmt, Format)
    return fmt
