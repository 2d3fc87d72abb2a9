"""Secret patterns: one list, used by the memory lint (Python re) and rendered into the
hooks, which redact matching lines before anything reaches the model (awk ERE).

Patterns are written in the common subset of POSIX ERE and Python re; bounded repeats are
expanded at render time because mawk 1.3.4 has no {n,m}. The hooks' awk reads bytes
(LC_ALL=C), so Python matches the same patterns on a line's UTF-8 bytes: a pattern's
non-ASCII text (the fullwidth colon, Chinese keywords) stands outside brackets, where a
character and its bytes match alike.

A private key's secret is its body, not only its BEGIN line: from a line that ends a BEGIN
marker (KEY_BEGIN) to its END line (KEY_END), every line that looks like key material
(KEY_BODY: base64, a PEM header such as `DEK-Info:`, or blank) is redacted too
(key_lines here; keyline() in the hooks' lib/clean.awk)."""
from __future__ import annotations

import re

# Separators of an assignment: ASCII, and the fullwidth colon and equals sign of CJK text.
_SET = "([:=]|\uff1a|\uff1d)"
_QUOTE = "[\"']?"
_VALUE = _QUOTE + "[^ \\t\"'<>]{8}"

SECRET_PATTERNS: dict[str, str] = {
    "aws-access-key": r"(AKIA|ASIA)[0-9A-Z]{16}",
    # aws_secret_access_key = ..., AWS_SECRET_ACCESS_KEY=..., "SecretAccessKey": "...".
    "aws-secret-key": (r"[Ss][Ee][Cc][Rr][Ee][Tt][_ -]?[Aa][Cc][Cc][Ee][Ss][Ss][_ -]?[Kk][Ee][Yy]"
                       + _QUOTE + r"[ \t]*" + _SET + r"[ \t]*" + _QUOTE + "[A-Za-z0-9/+]{16}"),
    "github-token": r"(gh[pousr]_[A-Za-z0-9]{30}|github_pat_[A-Za-z0-9_]{30})",
    "slack-token": r"xox[abprs]-[A-Za-z0-9-]{10}",
    "slack-webhook": r"hooks\.slack\.com/(services|workflows|triggers)/[A-Za-z0-9_/-]{12}",
    "openai-anthropic-key": r"sk-[A-Za-z0-9_-]{20}",
    "stripe-key": r"[rs]k_live_[0-9A-Za-z]{16}",
    "google-api-key": r"AIza[0-9A-Za-z_-]{30}",
    "npm-token": r"npm_[A-Za-z0-9]{30}",
    "huggingface-token": r"hf_[A-Za-z0-9]{30}",
    "jwt": r"eyJ[A-Za-z0-9_-]{8}[A-Za-z0-9_-]*\.eyJ[A-Za-z0-9_-]{8}",
    "private-key": r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----",
    # A service account's JSON (GCP): "private_key_id": "...", "private_key": "...".
    "service-account-key": (r"[Pp][Rr][Ii][Vv][Aa][Tt][Ee][_-]?[Kk][Ee][Yy]([_-]?[Ii][Dd])?"
                            + _QUOTE + r"[ \t]*" + _SET + r"[ \t]*" + _VALUE),
    "password-in-url": r"[A-Za-z][A-Za-z0-9+.-]*://[^/:@ ]+:[^/@ ]+@",
    "assigned-secret": (
        r"([Pp][Aa][Ss][Ss][Ww][Oo][Rr][Dd]|[Pp][Aa][Ss][Ss][Ww][Dd]|[Ss][Ee][Cc][Rr][Ee][Tt]"
        r"|[Aa][Pp][Ii]_?[Kk][Ee][Yy]|[Tt][Oo][Kk][Ee][Nn]"
        "|\u5bc6\u7801|\u53e3\u4ee4|\u5bc6\u94a5|\u4ee4\u724c)"  # 密码 口令 密钥 令牌
        + _QUOTE + r"[ \t]*" + _SET + r"[ \t]*" + _VALUE
    ),
}

# A private key's body (see the module's docstring). KEY_BODY: a line of key material.
KEY_BEGIN = r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----"
KEY_END = r"-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----"
KEY_BODY = r"^[ \t\"']*([A-Za-z0-9+/=]+|[A-Za-z][A-Za-z0-9-]*:.*)[ \t\"',]*$"  # less a CR at its end
# The names a key's body line is reported under (lint) and counted as (the hooks).
KEY_NAME = "private-key"

_REPEAT = re.compile(r"(\[[^\]]*\]|[A-Za-z0-9_])\{(\d+)\}")


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
    """Inside brackets `\\t` is a tab to gawk and mawk but a backslash and a `t` to BusyBox
    awk (POSIX regcomp), so the awk side spells blanks `[:blank:]`."""
    return text.replace(" \\t", "[:blank:]")


def _awk_literal(text: str) -> str:
    """TEXT as an awk string literal; a character past ASCII as the octal escapes of its
    UTF-8 bytes (the hooks' awk reads bytes, and their source stays ASCII)."""
    body = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + "".join(c if c < "\x80" else "".join(f"\\{b:03o}" for b in c.encode("utf-8"))
                         for c in body) + '"'


def _awk_literals(text: str, size: int) -> list[str]:
    """TEXT as awk string literals of at most SIZE characters each, escapes counted (none
    if empty)."""
    out: list[str] = []
    chunk = ""
    for c in text:
        if chunk and len(_awk_literal(chunk + c)) - 2 > size:
            out.append(_awk_literal(chunk))
            chunk = ""
        chunk += c
    return out + ([_awk_literal(chunk)] if chunk else [])


# Compiled for bytes: a line is tested on its UTF-8 bytes, as the hooks' awk tests it.
COMPILED = {name: re.compile(p.encode("utf-8")) for name, p in SECRET_PATTERNS.items()}
_KEY_BEGIN = re.compile(KEY_BEGIN.encode())
_KEY_END = re.compile(KEY_END.encode())
_KEY_BODY = re.compile(KEY_BODY.encode())

# What the hooks' awk clean() deletes from a line before the secret test and before the
# model sees it: C0 and C1 controls and DEL (a tab becomes two blanks first), and Unicode's
# Default_Ignorable_Code_Point set (DerivedCoreProperties.txt; the same since Unicode 14):
# soft hyphen, zero-width and bidi controls, variation selectors, Hangul fillers, the
# Mongolian vowel separator, tag characters, the BOM... so that no invisible character
# splits a secret or reaches the model. tests/memory/test_secrets_never_reach_the_model.py
# checks DEFAULT_IGNORABLE against the Unicode data of the `regex` package.
CONTROLS = ((0x00, 0x08), (0x0A, 0x1F), (0x7F, 0x9F))
DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)
INVISIBLE = re.compile("[" + "".join(f"{re.escape(chr(a))}-{re.escape(chr(b))}"
                                      for a, b in CONTROLS + DEFAULT_IGNORABLE) + "]")


def _utf8_ranges(lo: int, hi: int) -> list[list[tuple[int, int]]]:
    """The code points lo..hi as UTF-8 byte sequences: a list of [(first byte lo, hi),
    (second byte lo, hi), ...], each a run of bytes a bracket expression can match."""
    for top in (0x7F, 0x7FF, 0xFFFF):  # one encoded length at a time
        if lo <= top < hi:
            return _utf8_ranges(lo, top) + _utf8_ranges(top + 1, hi)
    if hi <= 0x7F:
        return [[(lo, hi)]]
    for i in range(1, 4):  # then split where a continuation byte would wrap
        m = (1 << (6 * i)) - 1
        if lo & ~m != hi & ~m:
            if lo & m:
                return _utf8_ranges(lo, lo | m) + _utf8_ranges((lo | m) + 1, hi)
            if hi & m != m:
                return _utf8_ranges(lo, (hi & ~m) - 1) + _utf8_ranges(hi & ~m, hi)
    return [list(zip(chr(lo).encode("utf-8"), chr(hi).encode("utf-8")))]


def _bracket(ranges: list[tuple[int, int]]) -> str:
    parts = [f"\\{a:03o}" if a == b else f"\\{a:03o}-\\{b:03o}" for a, b in sorted(ranges)]
    return parts[0] if len(parts) == 1 and "-" not in parts[0] else "[" + "".join(parts) + "]"


def awk_invisible() -> list[str]:
    """INVISIBLE as awk ERE alternatives over bytes (octal escapes), one per run of a common
    prefix: what the hooks' clean() deletes. NUL is left out (awk strings cannot hold it;
    clean() drops NULs by index)."""
    groups: dict[tuple[tuple[int, int], ...], list[tuple[int, int]]] = {}
    for a, b in CONTROLS + DEFAULT_IGNORABLE:
        for seq in _utf8_ranges(max(a, 1), b):
            groups.setdefault(tuple(seq[:-1]), []).append(seq[-1])
    return ["".join(_bracket([r]) for r in prefix) + _bracket(last) for prefix, last in groups.items()]


def awk_invisible_source(width: int = 96) -> list[str]:
    """awk_invisible() as the statements that build INVISIBLE, each at most WIDTH columns."""
    lines, line = [], 'INVISIBLE = "'
    for alt in awk_invisible():
        piece = ("" if line.endswith('= "') else "|") + alt
        if len(line) + len(piece) + 1 > width:
            lines.append(line + '"')
            line, piece = 'INVISIBLE = INVISIBLE "', "|" + alt
        line += piece
    return lines + [line + '"']


def awk_key() -> dict[str, str]:
    """KEY_BEGIN, KEY_END and KEY_BODY as awk string literals (blanks as [:blank:])."""
    return {"begin": _awk_literal(KEY_BEGIN), "end": _awk_literal(KEY_END),
            "body": _awk_literal(_blanks(KEY_BODY))}


def key_lines(raw: list[str]) -> set[int]:
    """The lines (1-based) of a memory file that belong to a private key, BEGIN to END, as
    the hooks' keyline() finds them: a BEGIN marker with no END after it on its line opens
    a key; a line of key material (KEY_BODY) continues it, its END line closes it, a blank
    line neither (it is no memory line), any other line ends it (and is not part of it)."""
    out: set[int] = set()
    inkey = False
    for i, s in enumerate(raw, 1):
        b = s.encode("utf-8", "replace")
        if inkey:
            if _KEY_END.search(b):
                out.add(i)
                inkey = False
                continue
            t = b[:-1] if b.endswith(b"\r") else b
            if not t.strip(b" \t"):
                continue
            if _KEY_BODY.search(t):
                out.add(i)
                continue
            inkey = False
        m = _KEY_BEGIN.search(b)
        if m:
            out.add(i)
            inkey = not _KEY_END.search(b[m.end():])
    return out


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
    """Names of the patterns a line matches, once normalised as the hooks normalise it (on
    its UTF-8 bytes, as the hooks' awk reads it)."""
    data = normalise(line).encode("utf-8", "replace")
    return [name for name, rx in COMPILED.items() if rx.search(data)]


def secret_lines(raw: list[str]) -> dict[int, list[str]]:
    """Line (1-based) -> the pattern names it matches, for every line of a memory file the
    hooks redact: the lines find_secrets names, and a private key's body (key_lines)."""
    out = {i: names for i, s in enumerate(raw, 1) if (names := find_secrets(s))}
    for i in key_lines(raw):
        out.setdefault(i, [KEY_NAME])
    return out
