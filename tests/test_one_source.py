"""One token estimator (memory/parse.py) and one config.yaml reader (config.py) on the
Python side, bench included: a second copy drifts from the hooks' awk and bash readers."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted([*(ROOT / "agenthooks").rglob("*.py"), *(ROOT / "bench").rglob("*.py")])
ESTIMATOR = ROOT / "agenthooks/memory/parse.py"
CONFIG = ROOT / "agenthooks/config.py"
READS = {"read_text", "read_bytes", "open", "safe_load", "load", "readlines"}


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name


def _source(path: Path) -> tuple[ast.AST, str]:
    text = path.read_text(encoding="utf-8")
    return ast.parse(text), text


def token_functions(paths: list[Path] = SOURCES) -> list[str]:
    """Functions that look like a token estimate: named for tokens, returning a number."""
    out = []
    for path in paths:
        tree, _ = _source(path)
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and "token" in node.name.lower() \
                    and isinstance(node.returns, ast.Name) and node.returns.id == "int":
                out.append(f"{_name(path)}:{node.lineno} {node.name}")
    return out


def config_reads(paths: list[Path] = SOURCES) -> list[str]:
    """Calls that read a file named by a "config.yaml" literal in the same expression."""
    out = []
    for path in paths:
        tree, text = _source(path)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in READS and "config.yaml" in (ast.get_source_segment(text, node) or ""):
                out.append(f"{_name(path)}:{node.lineno} {name}")
    return out


def test_one_token_estimator() -> None:
    found = [f for f in token_functions() if not f.startswith("agenthooks/memory/parse.py:")]
    assert not found, found


def test_one_config_reader() -> None:
    found = [f for f in config_reads() if not f.startswith("agenthooks/config.py:")]
    assert not found, found


def test_the_checks_find_a_copy(tmp_path: Path) -> None:
    copy = tmp_path / "copy.py"
    copy.write_text("import re\nfrom pathlib import Path\n\n"
                    "def est_tokens(text: str) -> int:\n    return len(text) // 4\n\n"
                    "def budget(root: Path) -> str:\n"
                    "    return (root / '.agent/config.yaml').read_text()\n", encoding="utf-8")
    assert token_functions([copy]) == ["copy.py:4 est_tokens"]
    assert config_reads([copy]) == ["copy.py:8 read_text"]
