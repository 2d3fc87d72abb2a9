"""Hostile values: quotes, $(touch PWNED), backticks, '; rm -rf', newlines and unicode in
flags, config.yaml, the DIR path and memory: every rendered script passes bash -n, no hook
run executes anything, values round-trip literally; bad flags are refused whole."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from support.helpers import cli, git, run_hook
from support.reliability import BASH
from support.tree import tree


HOSTILE = ["$(touch PWNED)", "`touch PWNED`", "; rm -rf / ;", "a'b\"c", "x\ny", "目录 ünï",
           "--yes", "' || touch PWNED #", "\\$(touch PWNED)"]


def pwned(root: Path) -> list[Path]:
    return [p for p in root.rglob("*PWNED*") if p.name == "PWNED"]


@pytest.mark.parametrize("flag", ["--lang", "--framework", "--platform", "--budget"])
def test_hostile_flags_are_refused_whole(flag: str, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    before = tree(tmp_path)
    for value in HOSTILE:
        proc = cli("install", "--yes", str(repo), flag, value, cwd=tmp_path)
        assert proc.returncode != 0, (flag, value, proc.stdout)
        err = [ln for ln in proc.stderr.splitlines() if ln.strip()]
        assert "Traceback" not in proc.stderr and 1 <= len(err) <= 2, err
        assert err[0].startswith("agenthooks: ") and all(e.startswith("hint: ") for e in err[1:])
        assert tree(tmp_path) == before and not pwned(tmp_path)


def test_hostile_dir_config_and_memory(tmp_path: Path) -> None:
    repo = tmp_path / "r $(touch PWNED) `touch PWNED`; rm -rf x\n 目录 'q\""
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / ".agent").mkdir()
    markers = "$(touch PWNED)|`touch PWNED`|; rm -rf ~ ;|it's|a\\\\b|目录标记"
    (repo / ".agent/config.yaml").write_text(
        "version: 1\n"
        f'summary_markers: "{markers}"\n'
        "budget_tokens: 900  # $(touch PWNED)\n"
        "notes_count: '7'\n"
        "reload_turns: 0\n", encoding="utf-8")
    proc = cli("install", "--yes", str(repo), "--framework", "claude-code",
               "--framework", "generic", "--platform", "linux", "--platform", "macos",
               cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    (repo / ".agent/memory/tattoo.md").write_text(
        "- never run $(touch PWNED) or `touch PWNED`; rm -rf /\n- quote ' \" \\ %s %n\n")
    for script in (repo / ".agent/hooks").glob("*.sh"):
        assert subprocess.run(["bash", "-n", str(script)]).returncode == 0, script
    cwd_pwned = tmp_path / "cwd"
    cwd_pwned.mkdir()
    literal = {"$(touch PWNED)": True, "`touch PWNED`": True, "; rm -rf ~ ;": True,
               "it's": True, "a\\b": True, "目录标记": True, "touch": False}
    for i, (marker, hits) in enumerate(literal.items()):
        prompt = f"before {marker} after"
        stdin = json.dumps({"session_id": f"h{i}", "prompt": prompt}, ensure_ascii=False)
        stdin = stdin.replace("\\\\", "\\")  # the marker text raw, as a host would echo it
        for name in ("pre_task", "post_edit", "on_compact"):
            r = run_hook(repo, name, stdin, cwd=cwd_pwned, bash=BASH, text=False)
            assert r.returncode == 0, r.stderr
            if name == "on_compact":
                assert bool(r.stdout) == hits, (marker, r.stdout[:100])
                if hits:
                    log = (repo / ".agent/log/memory.log").read_text(encoding="utf-8")
                    assert f"summary marker '{marker}'" in log
            if name == "pre_task":
                assert "never run $(touch PWNED) or `touch PWNED`; rm -rf /" in r.stdout.decode()
    assert not pwned(tmp_path) and not pwned(Path.cwd())
