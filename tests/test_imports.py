"""Every module imports on its own, in a fresh interpreter: no import cycle hides behind
an import order that happens to work. And the shared homes stay at the bottom."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PKG = Path(__file__).resolve().parent.parent / "agenthooks"


def modules() -> list[str]:
    out = []
    for path in sorted(PKG.rglob("*.py")):
        parts = path.relative_to(PKG.parent).with_suffix("").parts
        out.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return out


MODULES = set(modules())


def test_each_module_imports_alone() -> None:
    # One interpreter per module: a cycle shows only when its module is imported first.
    script = ("import importlib, sys\n"
              "importlib.import_module(sys.argv[1])\n")
    failed = {}
    for name in modules():
        proc = subprocess.run([sys.executable, "-c", script, name], capture_output=True,
                              text=True, check=False)
        if proc.returncode != 0:
            failed[name] = proc.stderr.strip().splitlines()[-1:]
    assert not failed, failed


def _top_level_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.startswith("agenthooks"):
                # `from pkg import mod` depends on pkg.mod when that is a module.
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    out.add(sub if sub in MODULES else node.module)
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.startswith("agenthooks")}
    return out


def test_module_level_import_graph_has_no_cycle() -> None:
    graph = {}
    for name in modules():
        rel = Path(*name.split("."))
        path = PKG.parent / rel.with_suffix(".py")
        if not path.is_file():
            path = PKG.parent / rel / "__init__.py"
        graph[name] = {d for d in _top_level_imports(path) if d in MODULES and d != name}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for dep in sorted(graph[node]):
            if state.get(dep) == 1:
                raise AssertionError("import cycle: " + " -> ".join(stack[stack.index(dep):] + [dep]))
            if dep not in state:
                visit(dep)
        stack.pop()
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name)


def test_files_and_gitstore_import_nothing_above_them() -> None:
    allowed = {"agenthooks.errors", "agenthooks.files", "agenthooks.manifest"}
    for mod in ("files.py", "gitstore.py"):
        assert _top_level_imports(PKG / mod) <= allowed, mod
