"""The Claude Code plugin shipped in this repo: the marketplace at the top, the plugin in
plugin/, one version number with the CLI and the dispatcher, the same events as a repo's own
registration, and `agenthooks plugin-path` naming the folder."""
from __future__ import annotations

import json
import re
from pathlib import Path

from agenthooks import __version__, dispatch
from agenthooks.frameworks import claude_code
from support.helpers import ROOT, cli

MARKETPLACE = ROOT / ".claude-plugin" / "marketplace.json"
PLUGIN = ROOT / "plugin"


def test_the_marketplace_at_the_top_lists_the_plugin_folder() -> None:
    doc = json.loads(MARKETPLACE.read_text(encoding="utf-8"))
    assert doc["name"] == "agenthooks" and doc["owner"]["name"]
    [entry] = doc["plugins"]
    assert entry["name"] == "agenthooks" and entry["source"] == "./plugin"
    assert (ROOT / entry["source"] / ".claude-plugin" / "plugin.json").is_file()
    # The version is the plugin's own (plugin.json): one place fewer to drift.
    assert "version" not in entry


def test_one_version_for_the_cli_the_plugin_and_the_dispatcher() -> None:
    manifest = json.loads((PLUGIN / ".claude-plugin" / "plugin.json").read_text(encoding="utf-8"))
    assert manifest["name"] == "agenthooks"
    said = cli("--version").stdout.split()
    assert said == ["agenthooks", __version__]
    assert manifest["version"] == __version__
    assert dispatch.release((PLUGIN / dispatch.SCRIPT).read_bytes()) == __version__
    # The version lives in agenthooks/__init__.py (hatch reads it there): nowhere else in Python.
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'dynamic = ["version"]' in pyproject and 'path = "agenthooks/__init__.py"' in pyproject
    found = [str(p.relative_to(ROOT)) for p in (ROOT / "agenthooks").rglob("*.py")
             if re.search(r"""['"]\d+\.\d+\.\d+['"]""", p.read_text(encoding="utf-8"))]
    assert found == ["agenthooks/__init__.py"], found


def test_the_plugins_hooks_are_the_repo_registrations_events_run_by_the_dispatcher() -> None:
    shipped = json.loads((PLUGIN / "hooks" / "hooks.json").read_text(encoding="utf-8"))
    assert shipped == claude_code.plugin_hooks()
    repo = claude_code.entries()
    assert shipped["hooks"].keys() == repo.keys()
    for event, groups in shipped["hooks"].items():
        [group] = groups
        [ours] = repo[event]
        assert group.get("matcher") == ours.get("matcher"), event
        [handler] = group["hooks"]
        hook = re.search(r"\.agent/hooks/(\w+)\.sh", ours["hooks"][0]["command"]).group(1)  # type: ignore[union-attr]
        assert handler["command"] == (f'bash -p "${{CLAUDE_PLUGIN_ROOT}}/hooks/dispatch.sh" '
                                      f"{hook} claude-code --plugin"), event
        assert handler["timeout"] == ours["hooks"][0]["timeout"]


def test_the_plugin_declares_no_network_and_holds_only_what_it_runs() -> None:
    manifest = json.loads((PLUGIN / ".claude-plugin" / "plugin.json").read_text(encoding="utf-8"))
    assert manifest["network"] == {"hosts": []}
    files = sorted(str(p.relative_to(PLUGIN)) for p in PLUGIN.rglob("*") if p.is_file())
    assert files == [".claude-plugin/plugin.json", "hooks/dispatch.sh", "hooks/hooks.json"]


def test_plugin_path_prints_the_plugin_folder() -> None:
    proc = cli("plugin-path")
    assert proc.returncode == 0 and proc.stderr == ""
    [line] = proc.stdout.splitlines()
    assert Path(line).is_absolute()
    assert (Path(line) / ".claude-plugin" / "plugin.json").is_file()
    assert (Path(line) / "hooks" / "dispatch.sh").read_bytes() == (PLUGIN / dispatch.SCRIPT).read_bytes()
