"""The version is written in one place (agenthooks/__init__.py: the package metadata, the
manifest and doctor take it from there) and moves whenever what a release renders moves."""
from __future__ import annotations

import json
import re
from importlib import metadata
from pathlib import Path

from support.helpers import FIXTURES, ROOT, cli, install, make_repo

from agenthooks import __version__, config, manifest, render


def test_the_version_is_written_once() -> None:
    assert metadata.version("agenthooks") == __version__
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert 'dynamic = ["version"]' in pyproject and 'path = "agenthooks/__init__.py"' in pyproject
    hits = [p for p in (ROOT / "agenthooks").rglob("*.py")
            if re.search(r"""["']\d+\.\d+\.\d+["']""", p.read_text()) and p.name == "__init__.py"
            and p.parent == ROOT / "agenthooks"]
    assert hits == [ROOT / "agenthooks/__init__.py"]
    assert cli("--version").stdout == f"agenthooks {__version__}\n"


def test_what_a_release_renders_moves_with_its_version() -> None:
    releases = json.loads((FIXTURES / "releases.json").read_text())["releases"]
    assert __version__ in releases, (
        f"agenthooks {__version__} is not in tests/fixtures/releases.json: add it")
    now = {"config_version": config.CONFIG_VERSION, "templates": dict(render.TEMPLATE_REVS)}
    assert releases[__version__] == now, (
        "the templates changed since this version was recorded: bump __version__ in "
        "agenthooks/__init__.py and record the new release in tests/fixtures/releases.json")
    seen = [json.dumps(r, sort_keys=True) for r in releases.values()]
    assert len(seen) == len(set(seen)), "two versions render the same: one of them is no release"


def test_doctor_names_the_release_that_installed_older_templates(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "generic")
    data = json.loads((repo / manifest.PATH).read_text())
    rel = ".agent/hooks/post_edit.sh"
    data["files"][rel]["rev"] -= 1
    for version, line in ((__version__, f"installed by an earlier build of agenthooks {__version__}"),
                          ("0.1.0", "installed by agenthooks 0.1.0")):
        data["agenthooks"] = version
        (repo / manifest.PATH).write_text(json.dumps(data))
        out = cli("doctor", str(repo)).stdout
        assert f"installed templates are older than this agenthooks {__version__}'s ({line}; " in out
        assert f"older than agenthooks {__version__} (" not in out
