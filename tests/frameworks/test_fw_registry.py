"""One home per framework: REGISTRY lists each module's FRAMEWORK, a Framework value of the
contract, everything else is derived, and no other module names a framework."""
from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import re
from pathlib import Path

import pytest

from agenthooks import frameworks
from agenthooks.files import PlannedFile
from agenthooks.frameworks import Framework

PKG = Path(__file__).resolve().parents[2] / "agenthooks"


@pytest.mark.parametrize("fw", frameworks.REGISTRY, ids=lambda fw: fw.name)
def test_every_registered_framework_keeps_the_contract(fw: Framework, tmp_path: Path) -> None:
    assert isinstance(fw, Framework)
    assert isinstance(fw.name, str) and re.fullmatch(r"[a-z][a-z-]*", fw.name)
    assert isinstance(fw.detect, tuple) and all(isinstance(p, str) for p in fw.detect)
    # Module file name is the framework name with '_' for '-': the hooks and the
    # manifest's template= use the name, Python the module.
    module = importlib.import_module("agenthooks.frameworks." + fw.name.replace("-", "_"))
    assert module.FRAMEWORK is fw and module.NAME == fw.name
    for member, params in (("plan", ["root", "answers"]), ("unregister", ["root"]),
                           ("next_steps", ["answers"]), ("notices", ["root", "answers"]),
                           ("post_install", ["root", "answers"]), ("start_neighbours", ["root"])):
        assert list(inspect.signature(getattr(fw, member)).parameters) == params, member
    answers = {"frameworks": [fw.name], "lang": "en", "platforms": ["linux"]}
    planned = fw.plan(tmp_path, answers)
    assert all(isinstance(pf, PlannedFile) and pf.kind in ("owned", "registration")
               for pf in planned)
    assert fw.unregister(tmp_path) == []  # nothing of ours in an empty repo
    assert all(isinstance(s, str) and s for s in fw.next_steps(answers))
    assert fw.plugin_enabled(tmp_path) in (True, False)


def test_names_detect_and_transcripts_are_derived_from_the_registry() -> None:
    assert frameworks.NAMES == tuple(fw.name for fw in frameworks.REGISTRY)
    assert len(set(frameworks.NAMES)) == len(frameworks.NAMES)
    assert frameworks.DETECT == {fw.name: fw.detect for fw in frameworks.REGISTRY if fw.detect}
    assert frameworks.TRANSCRIPTS == ("claude-code", "codex", "gemini-cli")
    assert frameworks.DEFAULT in frameworks.NAMES
    for fw in frameworks.REGISTRY:
        assert frameworks.get(fw.name) is fw
    assert frameworks.get("claud") is None


def test_every_framework_module_is_registered() -> None:
    modules = {p.stem for p in (PKG / "frameworks").glob("*.py") if not p.stem.startswith("_")}
    assert modules == {fw.name.replace("-", "_") for fw in frameworks.REGISTRY}


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
    declares (hook_slots); templates/hooks/ is shared and names none of them."""
    from agenthooks.templating import templates_dir

    names = "|".join(re.escape(n) for n in frameworks.NAMES if n != "generic")
    pattern = re.compile(rf"(?<![\w./-])({names})(?![\w-])", re.I)
    found = [f"{path.name}:{i}: {m.group(1)}"
             for path in sorted((templates_dir() / "hooks").rglob("*.j2"))
             for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             for m in pattern.finditer(line)]
    assert not found, found
    for fw in frameworks.REGISTRY:
        for slot, name in fw.hook_slots.items():
            assert slot in frameworks.SLOTS, (fw.name, slot)
            assert (templates_dir() / "frameworks" / fw.name / name).is_file(), (fw.name, name)


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


def _module_names(path: Path) -> set[str]:
    """The names a framework module defines at its top level."""
    out: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            out |= {t.id for t in targets if isinstance(t, ast.Name)}
    return out


def test_no_code_reads_a_framework_member_by_string() -> None:
    """The contract's members are typed attributes: no getattr/hasattr names one of them, or
    a name a framework module defines, so mypy sees every read."""
    members = {f.name for f in dataclasses.fields(Framework)}
    for path in (PKG / "frameworks").glob("[a-z]*.py"):
        members |= _module_names(path)
    found = []
    for path in sorted(PKG.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id in ("getattr", "hasattr") and len(node.args) >= 2 \
                    and isinstance(node.args[1], ast.Constant) and node.args[1].value in members:
                found.append(f"{path.relative_to(PKG)}:{node.lineno}: {node.func.id} {node.args[1].value!r}")
    assert not found, found


def test_the_contract_defaults_are_what_a_framework_without_the_member_gets(tmp_path: Path) -> None:
    bare = frameworks.get(frameworks.DEFAULT)
    assert bare is not None
    assert (bare.on_machine, bare.questions, dict(bare.hook_slots), bare.summary_instructions,
            bare.inline_tokens, bare.transcript, bare.transcript_search, bare.local_path,
            bare.subfolder_hint, bare.user, bare.drill) == \
        (None, (), {}, False, None, None, False, None, None, None, None)
    assert bare.notices(tmp_path, {}) == [] and bare.start_neighbours(tmp_path) == []
    assert bare.plugin_enabled(tmp_path) is False and bare.post_install(tmp_path, {}) is None
