"""The generated framework artefacts (OpenCode plugin, Cline wrappers, Windsurf rule, Pi
extension) are byte-identical to the fixtures captured from their output (the first three
from the release before they moved into template files; the OpenCode plugin since it runs
pre_task at session.compacted)."""
from __future__ import annotations

from pathlib import Path

import pytest

from agenthooks.frameworks import cline, opencode, pi, windsurf

GOLDEN = Path(__file__).resolve().parent.parent / "fixtures" / "framework_artefacts"


def golden(name: str) -> str:
    return (GOLDEN / name).read_text(encoding="utf-8")


def test_opencode_plugin_is_byte_identical(tmp_path: Path) -> None:
    [pf] = opencode.plan(tmp_path, {"lang": "en"})
    assert pf.text == golden("opencode-agenthooks.ts")
    assert (pf.path, pf.mode, pf.kind) == (".opencode/plugins/agenthooks.ts", 0o644, "owned")


@pytest.mark.parametrize("event", ["PreToolUse", "PostToolUse"])
def test_cline_wrappers_are_byte_identical(tmp_path: Path, event: str) -> None:
    by_path = {pf.path: pf for pf in cline.plan(tmp_path, {"lang": "en"})}
    pf = by_path[f".clinerules/hooks/{event}"]
    assert pf.text == golden(f"cline-{event}")
    assert pf.mode == 0o755


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_windsurf_rule_is_byte_identical(tmp_path: Path, lang: str) -> None:
    by_path = {pf.path: pf for pf in windsurf.plan(tmp_path, {"lang": lang})}
    assert by_path[".windsurf/rules/agent-memory.md"].text == golden(f"windsurf-agent-memory.{lang}.md")


def test_pi_extension_is_byte_identical(tmp_path: Path) -> None:
    [pf] = pi.plan(tmp_path, {"lang": "en"})
    assert pf.text == golden("pi-agenthooks.ts")
    assert (pf.path, pf.mode, pf.kind) == (".pi/extensions/agenthooks.ts", 0o644, "owned")
