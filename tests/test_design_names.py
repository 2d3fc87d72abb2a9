"""docs/DESIGN.md names only what exists: in its backticks, Python files (`x.py`), module
attributes (`module.name`) and bash functions (`ah_*`). The bash side is looked up in
templates/ at run time, so a rewrite of the hooks needs no list kept here."""
from __future__ import annotations

import importlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DESIGN = ROOT / "docs/DESIGN.md"
TEMPLATES = ROOT / "templates"
PY_ROOTS = (ROOT, ROOT / "agenthooks", ROOT / "tests")
# `config.yaml`, `config.values`: files named after a module, not its attributes.
FILE_WORDS = {"yaml", "json", "md", "sh", "py", "txt", "values", "stats", "log", "j2", "awk", "ts"}
PLACEHOLDER = re.compile(r"<[a-z]+>")


def spans(text: str) -> list[str]:
    return re.findall(r"`([^`\n]+)`", text)


def _modules() -> dict[str, list[str]]:
    """Short name -> dotted names: `parse` is agenthooks.memory.parse, `doctor` is two."""
    out: dict[str, list[str]] = {"agenthooks": ["agenthooks"]}
    for path in sorted((ROOT / "agenthooks").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        parts = parts[:-1] if parts[-1] == "__init__" else parts
        out.setdefault(parts[-1], []).append(".".join(parts))
    return out


def py_file_exists(name: str) -> bool:
    pattern = PLACEHOLDER.sub("*", name)
    if any(list(base.glob(pattern)) for base in PY_ROOTS):
        return True
    # A bare file name (`parse.py`) is one of ours wherever it lives.
    return "/" not in name and any(list(base.rglob(name)) for base in PY_ROOTS[1:])


def has_attr(short: str, attr: str, modules: dict[str, list[str]]) -> bool:
    return any(hasattr(importlib.import_module(m), attr) for m in modules.get(short, []))


def bash_function_exists(name: str) -> bool:
    """A definition `NAME() {` in some template; `<x>` in NAME is any name or a Jinja value."""
    pieces = PLACEHOLDER.split(name)
    body = r"(?:[A-Za-z0-9_]+|\{\{[^}]*\}\})".join(re.escape(p) for p in pieces)
    definition = re.compile(r"^\s*(?:function\s+)?" + body + r"\s*\(\)", re.M)
    return any(definition.search(p.read_text(encoding="utf-8", errors="replace"))
               for p in TEMPLATES.rglob("*") if p.is_file())


def missing(text: str) -> list[str]:
    modules = _modules()
    out = []
    for span in spans(text):
        for path, attr in re.findall(r"([\w/<>.-]+\.py)(?: ([a-z_]\w*))?", span):
            if not py_file_exists(path):
                out.append(f"`{span}`: no file {path}")
            elif attr:
                dotted = ".".join(Path(path).with_suffix("").parts[-1:])
                if not has_attr(dotted, attr, modules):
                    out.append(f"`{span}`: {path} has no {attr}")
        for short, attr in re.findall(r"(?<![\w./<>-])([a-z_]\w*)\.([A-Za-z_]\w*)(?![\w-]*/)", span):
            if short in modules and attr not in FILE_WORDS and not has_attr(short, attr, modules):
                out.append(f"`{span}`: no {short}.{attr}")
        for name in re.findall(r"\bah_[a-z0-9_<>]*[a-z0-9>]", span):
            if not bash_function_exists(name):
                out.append(f"`{span}`: no bash function {name} under templates/")
    return out


def test_design_names_only_what_exists() -> None:
    found = missing(DESIGN.read_text(encoding="utf-8"))
    assert not found, "\n".join(found)


def test_the_check_finds_what_is_gone() -> None:
    text = ("`agenthooks/gone.py`, `render.GONE`, `render.plan(answers)`, `ah_gone_for_good`, "
            "`parse.py read_nothing`, and what exists: `memory/parse.py tokens`, "
            "`ah_transcript_<name>`, `config.yaml`, `agenthooks/commands/<name>.py`")
    assert missing(text) == [
        "`agenthooks/gone.py`: no file agenthooks/gone.py",
        "`render.GONE`: no render.GONE",
        "`ah_gone_for_good`: no bash function ah_gone_for_good under templates/",
        "`parse.py read_nothing`: parse.py has no read_nothing",
    ]
