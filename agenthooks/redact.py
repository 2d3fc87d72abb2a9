"""Secret patterns: one list, used by the memory lint (Python re) and rendered into the
hooks, which redact matching lines before anything reaches the model (awk ERE).

Patterns are written in the common subset of POSIX ERE and Python re; bounded repeats are
expanded at render time because mawk 1.3.4 has no {n,m}."""
from __future__ import annotations

import re

SECRET_PATTERNS: dict[str, str] = {
    "aws-access-key": r"(AKIA|ASIA)[0-9A-Z]{16}",
    "github-token": r"(gh[pousr]_[A-Za-z0-9]{30}|github_pat_[A-Za-z0-9_]{30})",
    "slack-token": r"xox[abprs]-[A-Za-z0-9-]{10}",
    "openai-anthropic-key": r"sk-[A-Za-z0-9_-]{20}",
    "google-api-key": r"AIza[0-9A-Za-z_-]{30}",
    "private-key": r"-----BEGIN [A-Z ]*PRIVATE KEY-----",
    "password-in-url": r"[A-Za-z][A-Za-z0-9+.-]*://[^/:@ ]+:[^/@ ]+@",
    "assigned-secret": (
        r"([Pp][Aa][Ss][Ss][Ww][Oo][Rr][Dd]|[Pp][Aa][Ss][Ss][Ww][Dd]|[Ss][Ee][Cc][Rr][Ee][Tt]"
        r"|[Aa][Pp][Ii]_?[Kk][Ee][Yy]|[Tt][Oo][Kk][Ee][Nn])[\"']?[ \t]*[:=][ \t]*[\"']?[^ \t\"'<>]{8}"
    ),
}

_REPEAT = re.compile(r"(\[[^\]]*\]|[A-Za-z0-9_])\{(\d+)\}")


def _expand(pattern: str) -> str:
    return _REPEAT.sub(lambda m: m.group(1) * int(m.group(2)), pattern)


def awk_patterns() -> list[tuple[str, str]]:
    """(name, awk-safe ERE) per pattern, in order: the hooks' awk joins them with '|'.
    Inside brackets `\t` is a tab to gawk and mawk but a backslash and a `t` to BusyBox
    awk (POSIX regcomp), so the awk side spells blanks `[:blank:]`."""
    return [(name, _expand(p).replace(" \\t", "[:blank:]")) for name, p in SECRET_PATTERNS.items()]


def combined_ere() -> str:
    """All patterns as one awk-safe ERE alternation."""
    return "|".join(f"({ere})" for _, ere in awk_patterns())


COMPILED = {name: re.compile(p) for name, p in SECRET_PATTERNS.items()}


def find_secrets(line: str) -> list[str]:
    """Names of the patterns a line matches."""
    return [name for name, rx in COMPILED.items() if rx.search(line)]
