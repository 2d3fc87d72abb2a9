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


# A past release as its users have it: its templates, a marker of its layout, and the hooks
# that had run before the upgrade (the state and published block they left).
RELEASES = {
    "rev3": (V1, "AH_CFG_STOCK", ("pre_task",)),
    "rev5": (V2, 'ah_start "$@"', tuple(HOOKS)),
}


def installed(tmp_path: Path, release: str) -> Path:
    templates, marker, ran = RELEASES[release]
    r = make_repo(tmp_path)
    proc = cli("install", "--yes", str(r), "--framework", "claude-code",
               env={"AGENTHOOKS_TEMPLATES": str(templates)})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    revs = json.loads((templates / "revs.json").read_text())
    for hook, path in HOOKS.items():  # the release's own revs in the owner lines
        assert f"template=hooks/{hook}.sh@{revs[f'hooks/{hook}.sh']}" in (r / path).read_text()
    assert marker in (r / HOOKS["on_compact"]).read_text()  # the old layout
    (r / ".agent/memory/tattoo.md").write_text(SAMPLE_TATTOO)
    (r / ".agent/memory/snapshot.md").write_text(SAMPLE_SNAPSHOT)
    (r / ".agent/memory/notes.md").write_text("- note one\n- 注意 two\n")
    for hook in ran:
        assert run_hook(r, hook, STDIN[hook], "claude-code", env={"CLAUDECODE": "1"}).returncode == 0
    commit_all(r, release)
    return r


@pytest.fixture(params=sorted(RELEASES))
def old(request: pytest.FixtureRequest, tmp_path: Path):  # type: ignore[no-untyped-def]
    """A repo with the hooks of each past release (or of one, by indirect parametrization)."""
    r = installed(tmp_path, request.param)
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


def upgrade_in_conflict(repo: Path, line: str, ours: str):  # type: ignore[no-untyped-def]
    """Edit LINE of on_compact.sh (found once) into OURS, commit, upgrade: on_compact.sh is in
    conflict, its merge beside it. Returns on_compact.sh's path and the verdicts."""
    path = repo / HOOKS["on_compact"]
    assert path.read_text().count(line) == 1
    path.write_text(path.read_text().replace(line, ours))
    commit_all(repo, "edit")
    proc, v = run_truthful(repo)
    assert proc.returncode == 1
    verdict, note = v[HOOKS["on_compact"]]
    assert verdict == "conflict" and "agenthooks-new" in note
    return path, v


def test_pristine_hooks_update_to_the_new_layout(old: Path) -> None:
    proc, v = run_truthful(old)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for hook, path in HOOKS.items():
        assert v[path][0] == "update", v[path]
        assert new_layout(old, hook)
    for hook in HOOKS:
        works(old, hook)
    text = (old / HOOKS["on_compact"]).read_text()
    assert "AH_AWK" not in text and 'ah_start "$@"' not in text


def test_a_user_edit_is_merged_into_the_new_layout(old: Path) -> None:
    path = old / HOOKS["post_edit"]
    path.write_text(path.read_text().replace('main "$@"\n', '# our local tweak\nmain "$@"\n'))
    commit_all(old, "edit")
    proc, v = run_truthful(old)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert v[HOOKS["post_edit"]] == ("merge", "your edits kept")
    assert "# our local tweak" in path.read_text() and new_layout(old, "post_edit")
    assert v[HOOKS["pre_task"]][0] == v[HOOKS["on_compact"]][0] == "update"
    for hook in HOOKS:
        works(old, hook)


@pytest.mark.parametrize("old", ["rev3"], indirect=True)
def test_a_conflicting_edit_waits_beside_the_hook_and_every_hook_works(old: Path) -> None:
    path, v = upgrade_in_conflict(
        old, "# Usage: bash .agent/hooks/on_compact.sh [FRAMEWORK] < payload.json   (once per prompt)\n",
        "# Usage: ours, do not upgrade.\n")
    side = path.with_name(path.name + ".agenthooks-new")
    assert "<<<<<<< " in side.read_text() and "<<<<<<< " not in path.read_text()
    for hook in ("pre_task", "post_edit"):
        assert v[HOOKS[hook]][0] == "update" and new_layout(old, hook)
    # The user's old on_compact.sh is whole and self-contained: it keeps running beside
    # the new layout until the merge in on_compact.sh.agenthooks-new is resolved.
    assert "AH_CFG_STOCK" in path.read_text()  # still the old, self-contained layout
    for hook in HOOKS:
        works(old, hook)


# ---- from rev 5 ---------------------------------------------------------------------------

@pytest.mark.parametrize("old", ["rev5"], indirect=True)
def test_a_rev5_hook_left_in_conflict_says_so_and_the_others_work(old: Path) -> None:
    _, v = upgrade_in_conflict(old, 'ah_start "$@"\n', 'ah_start "$@"  # ours, do not upgrade\n')
    for hook in ("pre_task", "post_edit"):
        assert v[HOOKS[hook]][0] == "update" and new_layout(old, hook)
        works(old, hook)
    # The rev-5 on_compact.sh is kept; it sees that pre_task.sh is another release and says
    # so, exit 0, rather than run against a runtime it does not know.
    proc = run_hook(old, "on_compact", PROMPT, "claude-code", env={"CLAUDECODE": "1"})
    assert proc.returncode == 0 and proc.stdout == ""
    assert "not release 5: run 'agenthooks install'" in proc.stderr, proc.stderr
