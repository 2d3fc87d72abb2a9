"""Jinja rendering, set up for bash, and the render plan: which template makes which file."""
from __future__ import annotations

import json
import shlex
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2

from agenthooks import __version__, config, frameworks, messages, platforms, redact, statefiles
from agenthooks.files import KNOWN_OWNER_IDS, OWNER_ID, PlannedFile  # noqa: F401 - re-exported

HOOKS = ("pre_task", "post_edit", "on_compact")
# The hooks' library, .agent/hooks/lib/: sourced (the .sh) or run by awk -f (the .awk), never
# run as commands. lock.sh only where a platform may lack a usable flock.
LIB = ("prelude.sh", "say.sh", "cache.sh", "runtime.sh", "lock.sh", "context.sh", "block.sh", "block.awk",
       "clean.awk")

# Bump a template's rev only when its output changes; upgrades compare revs. The hooks and
# their library are one release: the loader checks each part's rev against the hooks'.
TEMPLATE_REVS = {
    "hooks/pre_task.sh": 7,
    "hooks/post_edit.sh": 7,
    "hooks/on_compact.sh": 7,
    **{f"hooks/lib/{name}": 7 for name in LIB},
    "config.yaml": 2,
    "agent/gitignore": 1,
    "agent/gitattributes": 2,
}


def envelopes(template_root: str | None = None) -> list[str]:
    """Frameworks with an output envelope: those whose own templates hold one
    (templates/frameworks/<name>/envelope.sh.j2); the others get plain text."""
    base = Path(template_root) if template_root else templates_dir()
    return [n for n in frameworks.NAMES if (base / "frameworks" / n / "envelope.sh.j2").is_file()]


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
    import os

    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    path = os.path.join(base, "agenthooks", "jinja")
    try:
        os.makedirs(path, exist_ok=True)
    except OSError:
        return None
    return jinja2.FileSystemBytecodeCache(path)


@lru_cache(maxsize=None)
def environment(root: str | None = None) -> jinja2.Environment:
    env = jinja2.Environment(
        # An overriding root (a past release, in tests) falls back to ours for newer files.
        loader=jinja2.FileSystemLoader([root, str(templates_dir())] if root else str(templates_dir())),
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
    env.filters["pack"] = pack
    env.filters["shassign"] = shassign
    env.filters["wrapwords"] = lambda v, width, indent: (" \\\n" + indent).join(pack(v, width))
    env.filters["awkwrap"] = lambda v, width, indent: (" \\\n" + indent).join(
        _awkstr(p) for p in _pieces(v, width))
    env.filters["shassign_b"] = lambda v, var, width, indent: shassign(v, var, width, indent, True)
    return env


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


def shassign(text: str, var: str, width: int, indent: str, printf_b: bool = False) -> str:
    """`VAR=TEXT` as bash statements of at most about WIDTH columns: the first assigns a
    single-quoted piece, the others append (+=), split after blanks, so that no line of a
    hook is long. printf_b: TEXT escaped for printf '%b' first."""
    if printf_b:
        text = text.replace("\\", "\\\\").replace("\n", "\\n")
    quoted = [shlex.quote(p) if p else "''" for p in _pieces(text, width)]
    return ("\n" + indent).join(f"{var}{'=' if i == 0 else '+='}{q}" for i, q in enumerate(quoted))


def context(answers: dict[str, Any], template_root: str | None = None,
            revs: dict[str, int] | None = None) -> dict[str, Any]:
    lib_rev = (revs or TEMPLATE_REVS)["hooks/pre_task.sh"]
    env = environment(template_root)
    lang = answers["lang"]
    memory = {
        name: env.get_template(f"memory/{lang}/{name}.md.j2").render()
        for name in ("tattoo", "snapshot", "notes")
    }
    selected = answers["frameworks"]
    return {
        "version": __version__,
        "platforms": answers["platforms"],
        "frameworks": selected,
        "known_frameworks": frameworks.NAMES,
        "transcript_frameworks": [f for f in frameworks.TRANSCRIPTS if f in selected],
        "inline_tokens": {f: c for f, c in frameworks.INLINE_TOKENS.items() if f in selected},
        "profile": platforms.profile(answers["platforms"]).as_dict(),
        "defaults": config.DEFAULTS,
        "tunables": config.TUNABLES,
        "config_defaults": " ".join(f"{t.var}={shlex.quote(config.bash_value(t))}"
                                    for t in config.TUNABLES),
        "config_header": config.HEADER,
        "bash_value": config.bash_value,
        "int_bounds": config.INT_BOUNDS,
        "config_vars": config.BASH_VARS,
        "config_version": config.CONFIG_VERSION,
        "answers": answers,
        "msg": messages.MESSAGES[lang],
        "memory_templates": memory,
        "secret_eres": redact.awk_patterns(),
        "lookalikes": redact.awk_lookalikes(),
        "secret_ere": redact.combined_ere(),  # templates before hooks rev 4
        "envelope_frameworks": envelopes(template_root),
        "slots": frameworks.hook_slots(selected),
        "tail_search": frameworks.transcript_search(selected),
        "formats": statefiles.formats(lib_rev),
        "secret_pieces": redact.awk_source(),
        "config_default_words": [f"{t.var}={shlex.quote(config.bash_value(t))}" for t in config.TUNABLES],
        # The rev of the tree rendered: its config.values tag and its loader's release check.
        "cache_rev": lib_rev,
        "lib_rev": lib_rev,
    }


def render(name: str, ctx: dict[str, Any], template_root: str | None = None, **extra: Any) -> str:
    text = environment(template_root).get_template(name + ".j2").render(**ctx, **extra)
    return text.replace("\r\n", "\n")


def lib_parts(ctx: dict[str, Any], template_root: str | None) -> list[str]:
    """The library files this render makes: none for a past release's templates (they have
    no hooks/lib/), lock.sh only where the portable lock may be needed."""
    if template_root and not (Path(template_root) / "hooks" / "lib").is_dir():
        return []
    return [part for part in LIB if part != "lock.sh" or ctx["profile"]["lock"] != "flock"]


def plan(answers: dict[str, Any], template_root: str | None = None,
         revs: dict[str, int] | None = None) -> list[PlannedFile]:
    """Everything install would write under .agent/, rendered, in a stable order (revs: the
    template revs of another template tree, for a past release's hooks)."""
    revs = revs or TEMPLATE_REVS
    ctx = context(answers, template_root, revs)
    config_text = render("config.yaml", ctx, template_root)
    files = []
    for hook in HOOKS:
        name = f"hooks/{hook}.sh"
        owner = f"{OWNER_ID} template={name}@{revs[name]}"
        # The hooks carry the config as installed: while the file is unchanged, no run parses it.
        text = render(name, ctx, template_root, hook=hook, owner_line=owner, config_text=config_text)
        files.append(PlannedFile(f".agent/{name}", text, 0o755, "owned", name))
    for part in lib_parts(ctx, template_root):
        name = f"hooks/lib/{part}"
        owner = f"{OWNER_ID} template={name}@{revs[name]}"
        text = render(name, ctx, template_root, hook=part, owner_line=owner)
        files.append(PlannedFile(f".agent/{name}", text, 0o644, "owned", name))
    for name, dest in (("agent/gitignore", ".agent/.gitignore"),
                       ("agent/gitattributes", ".agent/.gitattributes")):
        files.append(PlannedFile(dest, render(name, ctx, template_root), 0o644, "owned", name))
    files.append(PlannedFile(".agent/config.yaml", config_text, 0o644, "config", "config.yaml"))
    for name, text in ctx["memory_templates"].items():
        files.append(PlannedFile(f".agent/memory/{name}.md", text, 0o644, "memory"))
    files.append(PlannedFile(".agent/log/memory.log", "", 0o644, "log"))
    return files
