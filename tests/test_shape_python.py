"""Product functions stay short enough to read in one screen: none over 60 lines, counted
from its `def` to its last line (signature, docstring and nested functions included).
And the bench is a harness and suites, no file of it over 300 lines."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "agenthooks"
MAX_LINES = 60
MAX_BENCH_FILE = 300


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


def test_no_bench_file_over_300_lines() -> None:
    long = {p.name: n for p in sorted((ROOT / "bench").glob("*.py"))
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_BENCH_FILE}
    assert not long, long


def test_bench_keeps_its_flags() -> None:
    # The suites load as run.py starts; --help shows the same flags as before the split.
    proc = subprocess.run([sys.executable, str(ROOT / "bench/run.py"), "--help"],
                          capture_output=True, text=True, check=True)
    for flag in ("--runs", "--warmup", "--installer-runs", "--agents", "--loops", "--only", "--keep"):
        assert flag in proc.stdout, flag
