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


def awk_source(width: int = 100) -> list[tuple[str, list[str]]]:
    """(name, awk lines) per pattern: the statements that pass it to secret(), each line at
    most `width` columns. X{n} becomes rep(X, n) (not every awk knows intervals), and a long
    pattern is built up in `p` from pieces, so no line of the hooks is long."""
    out = []
    for name, pattern in SECRET_PATTERNS.items():
        tokens: list[str] = []
        at = 0
        for m in _REPEAT.finditer(pattern):
            tokens += _awk_literals(_blanks(pattern[at:m.start()]), width - 20)
            tokens.append(f"rep({_awk_literal(_blanks(m.group(1)))}, {m.group(2)})")
            at = m.end()
        tokens += _awk_literals(_blanks(pattern[at:]), width - 20)
        one = f"secret({' '.join(tokens)})  # {name}"
        if len(one) <= width:
            out.append((name, [one]))
            continue
        lines, line = [], "p ="
        for token in tokens:
            if len(line) + 1 + len(token) > width and line not in ("p =", "p = p"):
                lines.append(line)
                line = "p = p"
            line += " " + token
        out.append((name, lines + [line, f"secret(p)  # {name}"]))
    return out


def _blanks(text: str) -> str:
    return text.replace(" \\t", "[:blank:]")  # see awk_patterns


def _awk_literal(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _awk_literals(text: str, size: int) -> list[str]:
    """TEXT as awk string literals of at most SIZE characters of TEXT each (none if empty)."""
    return [_awk_literal(text[i:i + size]) for i in range(0, len(text), size)]


def combined_ere() -> str:
    """All patterns as one awk-safe ERE alternation."""
    return "|".join(f"({ere})" for _, ere in awk_patterns())


COMPILED = {name: re.compile(p) for name, p in SECRET_PATTERNS.items()}

# What the hooks' awk clean() deletes from a line before the secret test and before the
# model sees it: C0/C1 controls and DEL (a tab becomes two blanks), and the invisible
# format characters (soft hyphen, zero-width and bidi controls, BOM).
INVISIBLE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u00ad\u200b-\u200f\u202a-\u202e"
                       "\u2060-\u2064\u2066-\u2069\ufeff]")

# Letters that pass for the delimiter's ASCII ones (Cyrillic, Greek, fullwidth): the hooks
# read a line through this table when they look for the block's delimiter.
LOOKALIKES: dict[str, str] = {
    **dict(zip("АВЕІКМНОРСТУХаеіорсух", "ABEIKMHOPCTYXaeiopcyx")),
    **dict(zip("ΑΒΕΗΙΚΜΝΟΡΤΥΧΖο", "ABEHIKMNOPTYXZo")),
    **{chr(0xFF21 + i): chr(0x41 + i) for i in range(26)},
    **{chr(0xFF41 + i): chr(0x61 + i) for i in range(26)},
}
_FOLD = {ord(k): v for k, v in LOOKALIKES.items()}
DELIMITER = re.compile(r"AGENT[^A-Z0-9]*MEMORY[^A-Z0-9]*(BEGIN|END)", re.I | re.A)


def normalise(line: str) -> str:
    """A memory line as the hooks test and show it: controls and invisibles gone."""
    return INVISIBLE.sub("", line.replace("\t", "  "))


def looks_like_delimiter(line: str) -> bool:
    """The hooks neutralise such a line (ASCII or lookalike spelling) in the block."""
    return bool(DELIMITER.search(normalise(line).translate(_FOLD)))


def awk_lookalikes() -> str:
    """LOOKALIKES for the hooks' awk: UTF-8 bytes then the ASCII letter, space-separated."""
    return " ".join("".join(f"\\{b:03o}" for b in k.encode()) + v for k, v in LOOKALIKES.items())


# Files whose names say they hold secrets (glob patterns on a file's name, any letter case):
# the hooks' working set never names them (rendered into post_edit as one `case` pattern).
SECRET_FILES: tuple[str, ...] = (
    "*.env", ".env.*", ".envrc", "*.pem", "*.key", "*.p12", "*.pfx", "*.jks", "*.keystore", "*.kdbx",
    "id_rsa*", "id_dsa*", "id_ecdsa*", "id_ed25519*", ".netrc", ".npmrc", ".pypirc", ".pgpass",
    ".htpasswd", "*credential*", "*secret*", "*.tfvars",
)


def is_secret_file(path: str) -> bool:
    """Does the file's name (the part after the last slash) look like a secrets file?"""
    import fnmatch

    name = path.replace("\\", "/").rsplit("/", 1)[-1].lower()
    return any(fnmatch.fnmatchcase(name, pattern) for pattern in SECRET_FILES)


def secret_file_arms(width: int = 72) -> list[str]:
    """SECRET_FILES as bash `case` patterns, a few to an arm of at most WIDTH characters (none
    of them holds a character bash would need quoted)."""
    arms, arm = [], ""
    for pattern in SECRET_FILES:
        if arm and len(arm) + 3 + len(pattern) > width:
            arms.append(arm)
            arm = ""
        arm = f"{arm} | {pattern}" if arm else pattern
    return arms + [arm]


def find_secrets(line: str) -> list[str]:
    """Names of the patterns a line matches, once normalised as the hooks normalise it."""
    line = normalise(line)
    return [name for name, rx in COMPILED.items() if rx.search(line)]
