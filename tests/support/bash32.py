"""A lint for bash-4-only constructs, which shellcheck does not flag (koalaman/shellcheck#2850)
and which break macOS's /bin/bash 3.2."""
from __future__ import annotations

import re

BASH4_ONLY = {
    "declare -A / local -A (associative arrays)": r"\b(declare|local|typeset)\s+-[a-zA-Z]*A",
    "mapfile/readarray": r"\b(mapfile|readarray)\b",
    "case conversion ${x,,} ${x^^}": r"\$\{[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?(,,?|\^\^?)",
    "[[ -v var ]]": r"\[\[\s+-v\s",
    "{fd}> automatic fds": r"\{[A-Za-z_][A-Za-z0-9_]*\}[<>]",
    "&>> and |&": r"&>>|\|&",
    ";& and ;;& case fallthrough": r";;&|;&",
    "printf %(...)T": r"%\([^)]*\)T",
    "$EPOCHSECONDS / $EPOCHREALTIME / $BASHPID": r"\$\{?(EPOCHSECONDS|EPOCHREALTIME|BASHPID)\b",
    "declare -g / local -n": r"\b(declare|local)\s+-[a-zA-Z]*[gn]\b",
    "coproc": r"\bcoproc\b",
    "globstar": r"globstar",
    "negative array index": r"\[-[0-9]+\]\}",
    "fractional read -t": r"\bread\b[^\n]*-t\s*[0-9]*\.[0-9]",
    "read -N (bash 4.1)": r"\bread\b[^\n]*\s-[a-zA-Z]*N",
    "wait -n": r"\bwait\s+-n\b",
}


def findings(text: str) -> list[str]:
    out = []
    for lineno, line in enumerate(text.splitlines(), 1):
        code = line.split(" #", 1)[0] if not line.lstrip().startswith("#") else ""
        for name, rx in BASH4_ONLY.items():
            if re.search(rx, code):
                out.append(f"{lineno}: {name}: {line.strip()}")
    return out
