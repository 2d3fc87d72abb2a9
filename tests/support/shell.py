"""Reading generated bash as bash reads it, for the render checks: which function a line
belongs to, a function's code without its comments and quoted text, the names it declares
(`local`) and the names it reads or sets."""
from __future__ import annotations

import re

NAME = r"[A-Za-z_][A-Za-z0-9_]*"
# Names a function may use without declaring them: the run's facts (AH_...), bash's own (IFS,
# BASH_REMATCH, ...) and the host's environment, all upper case; and bash's `_`.
SHARED = re.compile(r"[A-Z][A-Z0-9_]*|_")


def functions_of(text: str) -> list[str | None]:
    """For each line, the function (defined at column 0) it belongs to, or None."""
    out: list[str | None] = []
    current = None
    for line in text.splitlines():
        m = re.match(r"^([a-z_][a-z0-9_]*)\(\) \{", line)
        if m:
            current = m.group(1)
        out.append(current if current or not line.startswith("}") else None)
        if line == "}" or (m and line.rstrip().endswith("}")):
            current = None
    return out


def _expansion(text: str, i: int) -> int:
    """The end of the ${...} or $(...) that starts at TEXT[i] ($)."""
    depth, j = 0, i + 1
    while j < len(text):
        depth += text[j] in "{("
        depth -= text[j] in "})"
        if depth == 0:
            return j + 1
        j += 1
    return j


def code_view(text: str) -> str:
    """TEXT as code: comments dropped, line continuations joined, single-quoted text blanked,
    double-quoted text blanked but for the expansions in it."""
    out: list[str] = []
    i, n, quoted = 0, len(text), False
    while i < n:
        c = text[i]
        if c == "\\":
            out.append("" if text[i + 1:i + 2] == "\n" else "  " if quoted else text[i:i + 2])
            i += 2
        elif quoted and c == "$" and text[i + 1:i + 2] in ("{", "("):
            j = _expansion(text, i)
            out.append(text[i:j])
            i = j
        elif quoted and c == "$":
            m = re.match(NAME + r"|[0-9#@*?$!-]", text[i + 1:])
            word = m.group(0) if m else ""
            out.append("$" + word)
            i += 1 + len(word)
        elif quoted:
            quoted = c != '"'
            out.append(c if c == '"' else " ")
            i += 1
        elif c == "'":
            j = i + 1
            if text[i - 1:i] == "$":  # $'...' holds backslash escapes
                while j < n and text[j] != "'":
                    j += 2 if text[j] == "\\" else 1
            else:
                j = text.find("'", j)
                j = n if j < 0 else j
            out.append("''")
            i = j + 1
        elif c == "#" and (i == 0 or text[i - 1] in " \t\n;"):
            j = text.find("\n", i)
            i = n if j < 0 else j
        else:
            quoted = c == '"'
            out.append(c)
            i += 1
    return "".join(out)


def bodies(text: str) -> dict[str, str]:
    """Each function of TEXT, by name: its code (code_view)."""
    lines: dict[str, list[str]] = {}
    for line, fn in zip(text.splitlines(), functions_of(text)):
        if fn:
            lines.setdefault(fn, []).append(line)
    return {fn: code_view("\n".join(body)) for fn, body in lines.items()}


def declared(code: str) -> set[str]:
    """The names CODE declares with `local`."""
    names: set[str] = set()
    for m in re.finditer(r"(?:^|[;{&|]|\bthen|\bdo)\s*local\s+((?:-\w+\s+)*)([^;&|\n]*)", code, re.M):
        names |= {k.group(0) for k in (re.match(NAME, w) for w in m.group(2).split()) if k}
    return names


def used(code: str) -> set[str]:
    """The names CODE reads or sets: expansions, assignments, loop variables, read's and
    printf -v's literal names, arithmetic."""
    names = {m.group(1) for m in re.finditer(r"\$\{?[#!]?(" + NAME + ")", code)}
    names |= set(re.findall(r"(?:^|[;&|{]|\bthen|\bdo|\belse)\s*(" + NAME + r")(?:\[[^]\n]*\])?\+?=", code, re.M))
    names |= set(re.findall(r"\bfor\s+(" + NAME + r")\s+in\b", code))
    names |= set(re.findall(r"\bprintf -v (" + NAME + r")\b", code))
    for m in re.finditer(r"\bread\s+((?:-[a-zA-Z]+\s+(?:''\s+|\S+\s+)?)*)((?:" + NAME + r"[ \t]*)+)", code):
        names |= set(m.group(2).split())
    for m in re.finditer(r"\(\((.*?)\)\)", code, re.S):
        names |= set(re.findall(r"(?<![$\w#])(" + NAME + ")", m.group(1)))
    return names


def undeclared(text: str) -> list[tuple[str, str]]:
    """(function, name) for each name a function of TEXT reads or sets that is neither its own
    (local) nor shared (SHARED): a caller's variable, reached through bash's dynamic scope."""
    return [(fn, name) for fn, code in bodies(text).items()
            for name in sorted(used(code) - declared(code)) if not SHARED.fullmatch(name)]
