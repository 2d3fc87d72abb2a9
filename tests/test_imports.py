"""Every module imports on its own, in a fresh interpreter: no import cycle hides behind
an import order that happens to work. And the import graph, call-time imports included,
has no cycle and runs only down the layers below."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PKG = Path(__file__).resolve().parent.parent / "agenthooks"

# Lowest first. A module may import its own layer and the ones before it; a name ending
# in "." takes a whole package (its more specific entries win). Every module must be
# placed, so a new one is put somewhere on purpose.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("agenthooks", "agenthooks.errors", "agenthooks.messages", "agenthooks.platforms",
     "agenthooks.redact", "agenthooks.files", "agenthooks.safepath", "agenthooks.config", "agenthooks.manifest",
     "agenthooks.templating", "agenthooks.statefiles", "agenthooks.hookrun", "agenthooks.syntax",
     "agenthooks.gitattributes", "agenthooks.dispatch", "agenthooks.gitexclude",
     "agenthooks.installlock", "agenthooks.usermessages", "agenthooks.answer_types"),
    ("agenthooks.frameworks.",),          # one module per framework and their helpers
    ("agenthooks.frameworks",),           # the registry over them
    ("agenthooks.render", "agenthooks.transcript", "agenthooks.gitstore"),
    ("agenthooks.memory.",),              # memory files: readers, then the tools over them
    ("agenthooks.health", "agenthooks.committed"),  # read memory, the log, transcripts, git
    ("agenthooks.upgrade", "agenthooks.upgrade."),  # verdicts: classified, then applied
    ("agenthooks.answers", "agenthooks.install_talk", "agenthooks.install",
     "agenthooks.doctor", "agenthooks.uninstall", "agenthooks.userinstall", "agenthooks.board_switch"),
    ("agenthooks.commands.",),
    ("agenthooks.commands", "agenthooks.cli", "agenthooks.__main__"),
)


def modules() -> list[str]:
    out = []
    for path in sorted(PKG.rglob("*.py")):
        parts = path.relative_to(PKG.parent).with_suffix("").parts
        out.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return out


MODULES = set(modules())


def _path(name: str) -> Path:
    rel = Path(*name.split("."))
    path = PKG.parent / rel.with_suffix(".py")
    return path if path.is_file() else PKG.parent / rel / "__init__.py"


def imports(name: str, *, call_time: bool = True) -> set[str]:
    """The package modules NAME imports: at module level, and with call_time also inside
    functions (a call-time import is still a dependency, only a later one)."""
    path = _path(name)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree) if call_time else tree.body:
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                base = ".".join(up + ([base] if base else []))
            if not base.startswith("agenthooks"):
                continue
            # `from pkg import mod` depends on pkg.mod when that is a module.
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                out.add(sub if sub in MODULES else base)
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.startswith("agenthooks")}
    return {d for d in out if d in MODULES and d != name}


def graph(call_time: bool = True) -> dict[str, set[str]]:
    return {name: imports(name, call_time=call_time) for name in modules()}


def layer(name: str) -> int:
    exact = [i for i, names in enumerate(LAYERS) if name in names]
    if exact:
        return exact[0]
    # The longest package prefix wins: agenthooks.frameworks. over a shorter one.
    best = max(((len(p), i) for i, names in enumerate(LAYERS) for p in names
                if p.endswith(".") and name.startswith(p)), default=None)
    assert best is not None, f"{name} is in no layer of tests/test_imports.py LAYERS"
    return best[1]


def cycle(g: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for dep in sorted(g[node]):
            if state.get(dep) == 1:
                return stack[stack.index(dep):] + [dep]
            if dep not in state:
                found = visit(dep)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for name in sorted(g):
        if name not in state:
            found = visit(name)
            if found:
                return found
    return None


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


def test_import_graph_has_no_cycle_call_time_imports_included() -> None:
    found = cycle(graph())
    assert found is None, "import cycle: " + " -> ".join(found or [])


def test_imports_run_only_down_the_layers() -> None:
    upward = sorted(f"{name} (layer {layer(name)}) imports {dep} (layer {layer(dep)})"
                    for name, deps in graph().items() for dep in deps if layer(dep) > layer(name))
    assert not upward, "\n".join(upward)


def test_files_and_gitstore_import_nothing_above_them() -> None:
    allowed = {"agenthooks.errors", "agenthooks.files", "agenthooks.manifest"}
    for mod in ("agenthooks.files", "agenthooks.gitstore"):
        assert imports(mod) <= allowed, mod


def test_the_checks_see_call_time_imports() -> None:
    # The parser itself: an import inside a function counts, relative imports resolve.
    assert "agenthooks.memory.importer" in imports("agenthooks.answers")
    assert "agenthooks.memory.importer" not in imports("agenthooks.answers", call_time=False)
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
