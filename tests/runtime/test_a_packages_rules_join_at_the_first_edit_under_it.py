"""A monorepo package's own rules (.agent/memory/scopes/PACKAGE/tattoo.md, which `agenthooks
import` writes from a nested AGENTS.md) reach the agent at its first edit under the package, once
per compaction cycle of the session, redacted and within the budget, the nearest package
winning; on every userland. The quiet edit stays without a process."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from support.helpers import SAMPLE_TATTOO, install, log_lines, make_repo, require, run_hook
from support.userlands import USERLANDS, installed_in

API_RULES = "- Call the api client, never raw fetch\n- Token ghp_abcdefghijklmnopqrstuvwxyz0123456789 here\n"
SUB_RULES = "- Generated code under gen/ is never edited by hand\n"
HEAD = "Rules of the package "


def edit(path: str, sid: str = "s1") -> dict[str, object]:
    return {"session_id": sid, "hook_event_name": "PostToolUse", "tool_name": "Edit",
            "tool_input": {"file_path": path}}


def start(source: str, sid: str = "s1") -> dict[str, str]:
    return {"session_id": sid, "hook_event_name": "SessionStart", "source": source}


def scope(repo: Path, package: str, rules: str) -> Path:
    path = repo / ".agent/memory/scopes" / package / "tattoo.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(rules)
    return path


@pytest.fixture(params=sorted(USERLANDS))
def land(request: pytest.FixtureRequest, tmp_path: Path):  # type: ignore[no-untyped-def]
    """(repo, env): a monorepo installed for Claude Code and generic, with the rules of
    packages/api and of packages/api/gen; the session has started."""
    repo, env = installed_in(tmp_path, request.param, "--framework", "claude-code", "--framework", "generic",
                             tattoo=SAMPLE_TATTOO)
    scope(repo, "packages/api", API_RULES)
    scope(repo, "packages/api/gen", SUB_RULES)
    assert run_hook(repo, "pre_task", start("startup"), "claude-code", env=env).returncode == 0
    return repo, env


def said(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    if not proc.stdout:
        return ""
    return str(json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"])


def test_the_first_edit_under_a_package_says_its_rules_once_a_compaction(land) -> None:  # type: ignore[no-untyped-def]
    repo, env = land
    first = said(run_hook(repo, "post_edit", edit("packages/api/src/client.py"), "claude-code", env=env))
    assert first.startswith(HEAD + "packages/api (.agent/memory/scopes/packages/api/tattoo.md)"), first
    assert "- Call the api client, never raw fetch" in first
    # Secrets never reach the model: the line is named, not shown.
    assert "ghp_" not in first and "[redacted by agenthooks" in first
    assert "Indent with 4 spaces" not in first  # the project's rules are the block's
    assert said(run_hook(repo, "post_edit", edit("packages/api/src/other.py"), "claude-code", env=env)) == ""
    assert any("the agent's first edit under packages/api: told its 2 of 2 rules" in ln for ln in log_lines(repo))
    # Another session is told on its own.
    assert HEAD in said(run_hook(repo, "post_edit", edit("packages/api/x.py", "s2"), "claude-code", env=env))
    # After a compaction the summary may have lost them: the next edit there says them again.
    assert run_hook(repo, "pre_task", start("compact"), "claude-code", env=env).returncode == 0
    again = said(run_hook(repo, "post_edit", edit("packages/api/src/client.py"), "claude-code", env=env))
    assert again == first


def test_the_nearest_package_speaks_and_other_paths_hear_nothing(land) -> None:  # type: ignore[no-untyped-def]
    repo, env = land
    nested = said(run_hook(repo, "post_edit", edit("packages/api/gen/models.py"), "claude-code", env=env))
    assert HEAD + "packages/api/gen " in nested and "never edited by hand" in nested
    assert "raw fetch" not in nested
    for path in ("README.md", "packages/web/app.js", "packages/apiary/x.py", ".agent/memory/notes.md"):
        assert HEAD not in run_hook(repo, "post_edit", edit(path), "claude-code", env=env).stdout, path
    plain = run_hook(repo, "post_edit", edit("packages/api/y.py", "s3"), "generic", env=env)
    assert plain.stdout.startswith(HEAD + "packages/api "), plain.stdout


def test_a_linked_package_rules_file_is_not_read(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code")
    outside = tmp_path / "outside.md"
    outside.write_text("- a rule from outside the repository\n")
    (repo / ".agent/memory/scopes/packages/api").mkdir(parents=True)
    (repo / ".agent/memory/scopes/packages/api/tattoo.md").symlink_to(outside)
    run_hook(repo, "pre_task", start("startup"), "claude-code")
    out = run_hook(repo, "post_edit", edit("packages/api/a.py"), "claude-code")
    assert out.returncode == 0 and "outside the repository" not in out.stdout
    assert any("memory/scopes/packages/api/tattoo.md is reached through a link: not read" in ln
               for ln in log_lines(repo))


def test_a_long_package_rules_file_is_cut_to_the_budget_with_a_pointer(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "generic", "--budget", "200")
    scope(repo, "packages/api", "".join(f"- rule {i}: always keep the api layer thin and tested\n"
                                        for i in range(200)))
    run_hook(repo, "pre_task", start("startup"), "generic")
    out = run_hook(repo, "post_edit", edit("packages/api/a.py"), "generic").stdout
    shown = [ln for ln in out.splitlines() if ln.startswith("- rule ")]
    assert 0 < len(shown) < 200 and "- rule 0:" in out
    assert f"[... {200 - len(shown)} more rules of this package left out for the budget: " \
           "read .agent/memory/scopes/packages/api/tattoo.md]" in out
    # Within the budget: a token is at most one per character, at least one per four.
    assert len(out) // 4 <= 200 + 20, len(out)


def test_a_quiet_edit_in_a_monorepo_spawns_nothing(tmp_path: Path) -> None:
    strace = require("strace", "apt-get install strace")
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code")
    scope(repo, "packages/api", API_RULES)
    run_hook(repo, "pre_task", start("startup"), "claude-code")
    assert HEAD in run_hook(repo, "post_edit", edit("packages/api/a.py"), "claude-code").stdout
    for path in ("packages/api/b.py", "README.md", "packages/web/c.js"):
        run_hook(repo, "post_edit", edit(path), "claude-code")  # the working set and the mark settle
        trace = tmp_path / "post_edit.strace"
        subprocess.run([strace, "-f", "-qq", "-e", "trace=execve", "-o", str(trace), "bash",
                        str(repo / ".agent/hooks/post_edit.sh"), "claude-code"],
                       input=json.dumps(edit(path)), text=True, capture_output=True, check=True)
        calls = [ln for ln in trace.read_text().splitlines() if 'execve("' in ln and "= 0" in ln]
        assert len(calls) == 1, (path, calls)  # bash itself
