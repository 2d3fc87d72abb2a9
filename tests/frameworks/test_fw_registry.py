"""One home per framework: REGISTRY lists the modules, each satisfies the Framework
protocol, everything else is derived, and no other module names a framework."""
from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import pytest

from agenthooks import frameworks
from agenthooks.files import PlannedFile
from agenthooks.frameworks import Framework

PKG = Path(__file__).resolve().parents[2] / "agenthooks"


@pytest.mark.parametrize("fw", frameworks.REGISTRY, ids=lambda fw: fw.NAME)
def test_every_registered_framework_satisfies_the_protocol(fw: Framework, tmp_path: Path) -> None:
    assert isinstance(fw, Framework)
    assert isinstance(fw.NAME, str) and re.fullmatch(r"[a-z][a-z-]*", fw.NAME)
    assert isinstance(fw.DETECT, tuple) and all(isinstance(p, str) for p in fw.DETECT)
    assert isinstance(fw.TRANSCRIPT, bool)
    # Module file name is the framework name with '_' for '-': the hooks and the
    # manifest's template= use the name, Python the module.
    assert fw.__name__ == "agenthooks.frameworks." + fw.NAME.replace("-", "_")  # type: ignore[attr-defined]
    for method in ("plan", "unregister", "next_steps"):
        assert list(inspect.signature(getattr(fw, method)).parameters) == {
            "plan": ["root", "answers"], "unregister": ["root"], "next_steps": ["answers"]}[method]
    answers = {"frameworks": [fw.NAME], "lang": "en", "platforms": ["linux"]}
    planned = fw.plan(tmp_path, answers)
    assert all(isinstance(pf, PlannedFile) and pf.kind in ("owned", "registration")
               for pf in planned)
    assert fw.unregister(tmp_path) == []  # nothing of ours in an empty repo
    assert all(isinstance(s, str) and s for s in fw.next_steps(answers))
    hook = getattr(fw, "post_install", None)
    assert hook is None or list(inspect.signature(hook).parameters) == ["root", "answers"]


def test_names_detect_and_transcripts_are_derived_from_the_registry() -> None:
    assert frameworks.NAMES == tuple(fw.NAME for fw in frameworks.REGISTRY)
    assert len(set(frameworks.NAMES)) == len(frameworks.NAMES)
    assert frameworks.DETECT == {fw.NAME: fw.DETECT for fw in frameworks.REGISTRY if fw.DETECT}
    assert frameworks.TRANSCRIPTS == ("claude-code", "codex", "gemini-cli")
    assert frameworks.DEFAULT in frameworks.NAMES
    for fw in frameworks.REGISTRY:
        assert frameworks.get(fw.NAME) is fw
    assert frameworks.get("claud") is None


def test_every_framework_module_is_registered() -> None:
    modules = {p.stem for p in (PKG / "frameworks").glob("*.py") if not p.stem.startswith("_")}
    assert modules == {fw.NAME.replace("-", "_") for fw in frameworks.REGISTRY}


def test_detect_finds_a_framework_by_its_markers(tmp_path: Path) -> None:
    assert frameworks.detect(tmp_path) == []
    (tmp_path / ".codex").mkdir()
    (tmp_path / "GEMINI.md").write_text("x")
    assert frameworks.detect(tmp_path) == ["codex", "gemini-cli"]


def test_install_help_lists_every_framework() -> None:
    from typer.testing import CliRunner

    from agenthooks.cli import app

    out = CliRunner().invoke(app, ["install", "--help"], env={"COLUMNS": "400"}).output
    assert " ".join(frameworks.NAMES) in re.sub(r"\s+", " ", out.replace("│", " "))


def _strings(path: Path) -> list[tuple[int, str]]:
    """String constants in path's code, docstrings left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant):
            docs.add(id(body[0].value))
    return [(n.lineno, n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs]


def test_no_module_names_a_framework_outside_its_own() -> None:
    # Templates, tests and docs may; the code goes through frameworks.REGISTRY.
    names = "|".join(re.escape(n) for n in frameworks.NAMES)
    pattern = re.compile(rf"(?<![\w./-])({names})(?![\w-])")
    found = []
    for path in sorted(PKG.rglob("*.py")):
        own = path.parent.name == "frameworks" and path.stem != "__init__" \
            and not path.stem.startswith("_")
        for line, text in _strings(path):
            for m in pattern.finditer(text):
                if own and m.group(1) == path.stem.replace("_", "-"):
                    continue
                found.append(f"{path.relative_to(PKG)}:{line}: {m.group(1)!r}")
    assert not found, found


def test_the_hooks_templates_name_no_framework() -> None:
    """A framework's bash lives in templates/frameworks/<name>/, in the slots its module
    declares (HOOK_SLOTS); templates/hooks/ is shared and names none of them."""
    from agenthooks.templating import templates_dir

    names = "|".join(re.escape(n) for n in frameworks.NAMES if n != "generic")
    pattern = re.compile(rf"(?<![\w./-])({names})(?![\w-])", re.I)
    found = [f"{path.name}:{i}: {m.group(1)}"
             for path in sorted((templates_dir() / "hooks").rglob("*.j2"))
             for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             for m in pattern.finditer(line)]
    assert not found, found
    for fw in frameworks.REGISTRY:
        for slot, name in getattr(fw, "HOOK_SLOTS", {}).items():
            assert slot in frameworks.SLOTS, (fw.NAME, slot)
            assert (templates_dir() / "frameworks" / fw.NAME / name).is_file(), (fw.NAME, name)


def test_no_framework_module_is_imported_outside_frameworks() -> None:
    """Code outside agenthooks/frameworks/ reaches a framework through the registry
    (frameworks.REGISTRY, frameworks.get), never by importing its module."""
    modules = {f"agenthooks.frameworks.{p.stem}" for p in (PKG / "frameworks").glob("*.py")
               if p.stem != "__init__" and not p.stem.startswith("_")}
    found = []
    for path in sorted(PKG.rglob("*.py")):
        if path.parent.name == "frameworks":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                got = {node.module} | {f"{node.module}.{a.name}" for a in node.names}
            elif isinstance(node, ast.Import):
                got = {a.name for a in node.names}
            else:
                continue
            found += [f"{path.relative_to(PKG)}:{node.lineno}: {m}" for m in sorted(got & modules)]
    assert not found, found
