"""Product functions stay short enough to read in one screen: none over 60 lines, counted
from its `def` to its last line (signature, docstring and nested functions included)."""
from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parent.parent / "agenthooks"
MAX_LINES = 60


def long_functions(root: Path = PKG, limit: int = MAX_LINES) -> list[str]:
    out = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > limit:
                    out.append(f"{path.relative_to(root.parent)}:{node.lineno} {node.name}: {lines} lines")
    return out


def test_no_product_function_over_60_lines() -> None:
    assert not long_functions(), "\n".join(long_functions())


def test_the_count_includes_signature_and_nested_functions(tmp_path: Path) -> None:
    body = "\n".join(f"        x{i} = {i}" for i in range(58))
    (tmp_path / "m.py").write_text(f"def outer(\n    a: int,\n) -> None:\n    def inner() -> None:\n{body}\n")
    assert [f.split(" ", 1)[1] for f in long_functions(tmp_path)] == ["outer: 62 lines"]
