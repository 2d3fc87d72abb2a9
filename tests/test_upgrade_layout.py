"""Upgrading across the hooks' layout changes: from rev 3 (each hook self-contained, kept in
tests/fixtures/templates_v1) and from rev 5 (each hook called ah_start, the exit handler lived
in the loaded prelude: tests/fixtures/templates_v2) to the current hooks (pre_task.sh carries
the runtime; its start runs as the prelude loads). The right verdict per hook, every hook that
is not in conflict working afterwards, a rev-5 hook left in conflict saying so instead of
running against the new runtime, and memory byte-identical."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from agenthooks import render
from support.helpers import FIXTURES, SAMPLE_SNAPSHOT, SAMPLE_TATTOO, cli, make_repo, memory_bytes, run_hook
from support.upgrade import assert_truthful, commit_all, tree, upgrade, verdicts

V1 = FIXTURES / "templates_v1"
V2 = FIXTURES / "templates_v2"
HOOKS = {h: f".agent/hooks/{h}.sh" for h in ("pre_task", "post_edit", "on_compact")}
START = json.dumps({"session_id": "up1", "hook_event_name": "SessionStart", "source": "startup"})
PROMPT = json.dumps({"session_id": "up1", "hook_event_name": "UserPromptSubmit", "prompt": "hi"})
EDIT = json.dumps({"session_id": "up1", "hook_event_name": "PostToolUse",
                   "tool_input": {"file_path": "src/a.py"}})
STDIN = {"pre_task": START, "post_edit": EDIT, "on_compact": PROMPT}


@pytest.fixture
def repo(tmp_path: Path):  # type: ignore[no-untyped-def]
    r = make_repo(tmp_path)
    proc = cli("install", "--yes", str(r), "--framework", "claude-code",
               env={"AGENTHOOKS_TEMPLATES": str(V1)})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "template=hooks/pre_task.sh" in (r / HOOKS["pre_task"]).read_text()
    assert "AH_CFG_STOCK" in (r / HOOKS["on_compact"]).read_text()  # the old layout
    (r / ".agent/memory/tattoo.md").write_text(SAMPLE_TATTOO)
    (r / ".agent/memory/snapshot.md").write_text(SAMPLE_SNAPSHOT)
    (r / ".agent/memory/notes.md").write_text("- note one\n- 注意 two\n")
    # The old hooks have run: their state and published block are in place.
    assert run_hook(r, "pre_task", START, "claude-code", env={"CLAUDECODE": "1"}).returncode == 0
    commit_all(r, "v1")
    before = memory_bytes(r)
    yield r
    assert memory_bytes(r) == before


@pytest.fixture
def repo_v2(tmp_path: Path):  # type: ignore[no-untyped-def]
    r = make_repo(tmp_path)
    proc = cli("install", "--yes", str(r), "--framework", "claude-code",
               env={"AGENTHOOKS_TEMPLATES": str(V2)})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for hook, path in HOOKS.items():
        assert f"template=hooks/{hook}.sh@5" in (r / path).read_text()  # what rev-5 users have
    assert 'ah_start "$@"' in (r / HOOKS["on_compact"]).read_text()
    (r / ".agent/memory/tattoo.md").write_text(SAMPLE_TATTOO)
    (r / ".agent/memory/snapshot.md").write_text(SAMPLE_SNAPSHOT)
    for hook in HOOKS:  # the old hooks have run: their state and published block are in place
        assert run_hook(r, hook, STDIN[hook], "claude-code", env={"CLAUDECODE": "1"}).returncode == 0
    commit_all(r, "rev 5")
    before = memory_bytes(r)
    yield r
    assert memory_bytes(r) == before


def works(repo: Path, hook: str) -> None:
    stdin = STDIN[hook]
    proc = run_hook(repo, hook, stdin, "claude-code", env={"CLAUDECODE": "1"})
    assert proc.returncode == 0 and proc.stderr == "", (hook, proc.stderr)
    if hook == "pre_task":
        block = json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]
        assert "Indent with 4 spaces" in block and block.endswith("===== AGENT MEMORY END =====")
    assert "internal error" not in (repo / ".agent/log/memory.log").read_text()


def new_layout(repo: Path, hook: str) -> bool:
    text = (repo / HOOKS[hook]).read_text()
    return f"template=hooks/{hook}.sh@{render.TEMPLATE_REVS[f'hooks/{hook}.sh']}" in text


def run_truthful(repo: Path):  # type: ignore[no-untyped-def]
    before = tree(repo)
    proc = upgrade(repo)
    assert_truthful(before, tree(repo), proc.stdout)
    return proc, verdicts(proc.stdout)


def test_pristine_hooks_update_to_the_new_layout(repo: Path) -> None:
    proc, v = run_truthful(repo)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for hook, path in HOOKS.items():
        assert v[path][0] == "update", v[path]
        assert new_layout(repo, hook)
    for hook in HOOKS:
        works(repo, hook)
    assert "AH_AWK" not in (repo / HOOKS["on_compact"]).read_text()


def test_a_user_edit_is_merged_into_the_new_layout(repo: Path) -> None:
    path = repo / HOOKS["post_edit"]
    path.write_text(path.read_text().replace('main "$@"\n', '# our local tweak\nmain "$@"\n'))
    commit_all(repo, "edit")
    proc, v = run_truthful(repo)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert v[HOOKS["post_edit"]] == ("merge", "your edits kept")
    assert "# our local tweak" in path.read_text() and new_layout(repo, "post_edit")
    assert v[HOOKS["pre_task"]][0] == v[HOOKS["on_compact"]][0] == "update"
    for hook in HOOKS:
        works(repo, hook)


def test_a_conflicting_edit_waits_beside_the_hook_and_every_hook_works(repo: Path) -> None:
    path = repo / HOOKS["on_compact"]
    old = "# Usage: bash .agent/hooks/on_compact.sh [FRAMEWORK] < payload.json   (once per prompt)\n"
    assert old in path.read_text()
    path.write_text(path.read_text().replace(old, "# Usage: ours, do not upgrade.\n"))
    commit_all(repo, "edit")
    proc, v = run_truthful(repo)
    assert proc.returncode == 1
    verdict, note = v[HOOKS["on_compact"]]
    assert verdict == "conflict" and "agenthooks-new" in note
    side = path.with_name(path.name + ".agenthooks-new")
    assert "<<<<<<< " in side.read_text() and "<<<<<<< " not in path.read_text()
    for hook in ("pre_task", "post_edit"):
        assert v[HOOKS[hook]][0] == "update" and new_layout(repo, hook)
    # The user's old on_compact.sh is whole and self-contained: it keeps running beside
    # the new layout until the merge in on_compact.sh.agenthooks-new is resolved.
    assert "AH_CFG_STOCK" in path.read_text()  # still the old, self-contained layout
    for hook in HOOKS:
        works(repo, hook)


# ---- from rev 5 ---------------------------------------------------------------------------

def test_pristine_rev5_hooks_update_and_work(repo_v2: Path) -> None:
    proc, v = run_truthful(repo_v2)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for hook, path in HOOKS.items():
        assert v[path][0] == "update", v[path]
        assert new_layout(repo_v2, hook)
        works(repo_v2, hook)
    assert 'ah_start "$@"' not in (repo_v2 / HOOKS["on_compact"]).read_text()


def test_a_rev5_edit_is_merged_and_every_hook_works(repo_v2: Path) -> None:
    path = repo_v2 / HOOKS["post_edit"]
    path.write_text(path.read_text().replace('main "$@"\n', '# our local tweak\nmain "$@"\n'))
    commit_all(repo_v2, "edit")
    proc, v = run_truthful(repo_v2)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert v[HOOKS["post_edit"]] == ("merge", "your edits kept")
    assert "# our local tweak" in path.read_text() and new_layout(repo_v2, "post_edit")
    for hook in HOOKS:
        works(repo_v2, hook)


def test_a_rev5_hook_left_in_conflict_says_so_and_the_others_work(repo_v2: Path) -> None:
    path = repo_v2 / HOOKS["on_compact"]
    old = 'ah_start "$@"\n'
    assert path.read_text().count(old) == 1
    path.write_text(path.read_text().replace(old, 'ah_start "$@"  # ours, do not upgrade\n'))
    commit_all(repo_v2, "edit")
    proc, v = run_truthful(repo_v2)
    assert proc.returncode == 1
    verdict, note = v[HOOKS["on_compact"]]
    assert verdict == "conflict" and "agenthooks-new" in note
    for hook in ("pre_task", "post_edit"):
        assert v[HOOKS[hook]][0] == "update" and new_layout(repo_v2, hook)
        works(repo_v2, hook)
    # The rev-5 on_compact.sh is kept; it sees that pre_task.sh is another release and says
    # so, exit 0, rather than run against a runtime it does not know.
    proc = run_hook(repo_v2, "on_compact", PROMPT, "claude-code", env={"CLAUDECODE": "1"})
    assert proc.returncode == 0 and proc.stdout == ""
    assert "not release 5: run 'agenthooks install'" in proc.stderr, proc.stderr
