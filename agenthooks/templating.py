"""The Jinja environment, set up for bash: where the templates are, the filters, and one
template rendered. Below the frameworks, which render their own templates with it."""
from __future__ import annotations

import json
import os
import shlex
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2


def templates_dir() -> Path:
    # Shipped inside the package (the wheel force-includes them); in a checkout, beside it.
    # A plain path: importlib.resources would import zipfile on every start.
    here = Path(__file__).resolve().parent
    shipped = here / "templates"
    return shipped if shipped.is_dir() else here.parent / "templates"


def _printf_b(text: str) -> str:
    """TEXT as one single-quoted bash word that `printf '%b'` prints back exactly."""
    body = text.replace("\\", "\\\\").replace("\n", "\\n").replace("'", "'\\''")
    return f"'{body}'"


def _awkstr(value: str) -> str:
    """An awk string literal, safe inside a single-quoted bash word."""
    body = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return '"' + body.replace("'", "\\047") + '"'


def _bytecode_cache() -> jinja2.BytecodeCache | None:
    """Compiled templates cached per user: compiling them is most of an install's time.
    Entries are keyed by the template source's checksum, so an upgrade never reads stale ones."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    path = os.path.join(base, "agenthooks", "jinja")
    try:
        os.makedirs(path, exist_ok=True)
    except OSError:
        return None
    return jinja2.FileSystemBytecodeCache(path)


@lru_cache(maxsize=None)
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        bytecode_cache=_bytecode_cache(),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
        # bash's ${#x} would open a default Jinja comment.
        comment_start_string="{##",
        comment_end_string="##}",
    )
    env.filters["sh"] = lambda v: shlex.quote(str(v))
    env.filters["awkstr"] = _awkstr
    env.filters["printf_b"] = _printf_b
    env.filters["yamlstr"] = lambda v: json.dumps(str(v), ensure_ascii=False)
    # Long words and lists of the hooks over several short lines (no line of a hook over 120).
    env.filters["pack"] = pack
    env.filters["shassign"] = shassign
    env.filters["shassign_b"] = lambda v, var, width, indent: shassign(v, var, width, indent, True)
    env.filters["wrapwords"] = lambda v, width, indent: (" \\\n" + indent).join(pack(v, width))
    env.filters["awkwrap"] = lambda v, width, indent: (" \\\n" + indent).join(
        _awkstr(p) for p in _pieces(v, width))
    return env


def render_template(name: str, **ctx: Any) -> str:
    """One template of ours (a path under templates/, e.g. frameworks/NAME/...), rendered."""
    return environment().get_template(name).render(**ctx)


def pack(words: str | list[str], width: int) -> list[str]:
    """WORDS (a list, or a string split at blanks) packed into lines of at most WIDTH."""
    lines: list[str] = []
    for word in words.split() if isinstance(words, str) else words:
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def _pieces(text: str, width: int) -> list[str]:
    """TEXT cut after blanks into pieces of at most about WIDTH characters (joined, TEXT)."""
    pieces, piece = [], ""
    for word in text.split(" "):
        if piece and len(piece) + 1 + len(word) > width:
            pieces.append(piece + " ")
            piece = word
        else:
            piece = f"{piece} {word}" if piece else word
    pieces.append(piece)
    return pieces


def _shword(text: str) -> str:
    """TEXT as one bash word: single-quoted, or double-quoted with its \\ " $ ` escaped when
    it holds a $ or a backquote (which single quotes keep, and shellcheck asks about)."""
    if not text:
        return "''"
    if "$" not in text and "`" not in text:
        return shlex.quote(text)
    body = "".join("\\" + c if c in '\\"$`' else c for c in text)
    return f'"{body}"'


def shassign(text: str, var: str, width: int, indent: str, printf_b: bool = False) -> str:
    """`VAR=TEXT` as bash statements of at most about WIDTH columns: the first assigns a
    single-quoted piece, the others append (+=), split after blanks, so that no line of a
    hook is long. printf_b: TEXT escaped for printf '%b' first, and each `>` written \\0076, so
    that no line outside lib/io.sh reads like a redirection (an HTML comment's `-->`)."""
    if printf_b:
        text = text.replace("\\", "\\\\").replace("\n", "\\n").replace(">", "\\0076")
    quoted = [_shword(p) for p in _pieces(text, width)]
    return ("\n" + indent).join(f"{var}{'=' if i == 0 else '+='}{q}" for i, q in enumerate(quoted))
