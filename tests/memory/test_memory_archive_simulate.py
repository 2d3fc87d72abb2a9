"""agenthooks archive (R24) and the compaction drill, agenthooks simulate (R21)."""
from __future__ import annotations

import re
from pathlib import Path

from support.tree import tree
from support.helpers import SAMPLE_SNAPSHOT, cli, log_lines, run_hook, write_memory


def test_archive_moves_the_snapshot_and_starts_fresh(repo: Path) -> None:
    proc = cli("archive", str(repo))
    assert proc.returncode == 0, proc.stderr
    arch = list((repo / ".agent/memory/archive").iterdir())
    assert len(arch) == 1 and re.fullmatch(r"snapshot_\d{8}_\d{6}\.md", arch[0].name)
    assert arch[0].read_text() == SAMPLE_SNAPSHOT
    fresh = (repo / ".agent/memory/snapshot.md").read_text()
    assert "## In progress" in fresh and "get_user" not in fresh
    assert any(re.match(r"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\] pre_task \S+ \S+: archived the snapshot to "
                        r"memory/archive/snapshot_", s) for s in log_lines(repo))
    assert f"archive/{arch[0].name}" in proc.stdout


def test_archive_never_clobbers_in_the_same_second(repo: Path) -> None:
    names = set()
    for i in range(3):
        write_memory(repo, snapshot=SAMPLE_SNAPSHOT.replace("async", f"async v{i}"))
        assert cli("archive", str(repo)).returncode == 0
    for p in (repo / ".agent/memory/archive").iterdir():
        names.add(p.name)
    assert len(names) == 3
    texts = {p.read_text() for p in (repo / ".agent/memory/archive").iterdir()}
    assert len(texts) == 3


def test_archives_are_never_injected(repo: Path) -> None:
    write_memory(repo, snapshot=SAMPLE_SNAPSHOT.replace("cache layer", "ARCHIVED-ONLY-MARKER"))
    snap = (repo / ".agent/memory/snapshot.md").read_text()
    write_memory(repo, snapshot=snap.replace("## In progress\n", "## In progress\n- ARCHIVED-ONLY-MARKER\n"))
    assert cli("archive", str(repo)).returncode == 0
    for out in (run_hook(repo, "pre_task").stdout, cli("show", str(repo)).stdout,
                run_hook(repo, "on_compact", {"prompt": "This session is being continued from "
                                                        "a previous conversation"}).stdout):
        assert "ARCHIVED-ONLY-MARKER" not in out
    assert "ARCHIVED-ONLY-MARKER" in "".join(
        p.read_text() for p in (repo / ".agent/memory/archive").iterdir())


def test_archive_refuses_an_empty_snapshot(repo: Path) -> None:
    assert cli("archive", str(repo)).returncode == 0
    before = tree(repo, mtime=True)
    proc = cli("archive", str(repo))
    assert proc.returncode == 1 and proc.stderr.startswith("agenthooks: ")
    assert "Traceback" not in proc.stderr and tree(repo, mtime=True) == before
    assert cli("archive", str(repo), "--force").returncode == 0


def test_simulate_passes_and_never_touches_the_real_agent_dir(repo: Path) -> None:
    run_hook(repo, "pre_task")
    before = tree(repo, mtime=True)
    proc = cli("simulate", str(repo))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert tree(repo, mtime=True) == before
    out = proc.stdout
    for step in ("start", "edits", "prompts", "compaction signal", "length drop",
                 "resume after compaction", "working set", "content"):
        assert re.search(rf"^  ok    {step}: ", out, re.M), step
    assert "    Files you were editing, latest last: src/app.py\n" in out
    assert "    The user's latest request: continue the drill\n" in out
    assert "- [ ] service get_user (stuck on error handling)" in out.split("In progress (1):")[1]
    assert "- Indent with 4 spaces, never tabs" in out.split("rules (2):")[1]
    assert "compaction detected (context length dropped 80000 -> 300)" in out
    assert "compaction detected (the host announced a compaction)" in out
    assert "drill passed" in out


def test_simulate_fails_when_a_hook_is_broken(repo: Path) -> None:
    hook = repo / ".agent/hooks/on_compact.sh"
    text = hook.read_text()
    line = "  ah_event event\n"  # on_compact's main, after the quiet path
    assert text.count(line) == 1
    hook.write_text(text.replace(line, "  exit 7\n"))
    before = tree(repo, mtime=True)
    proc = cli("simulate", str(repo))
    assert proc.returncode == 1
    assert re.search(r"^  FAIL  compaction signal: ", proc.stdout, re.M)
    assert "drill FAILED" in proc.stdout
    assert tree(repo, mtime=True) == before


def test_simulate_fails_when_pre_task_does_not_parse(repo: Path) -> None:
    (repo / ".agent/hooks/pre_task.sh").write_text("#!/usr/bin/env bash\nif then fi\n")
    proc = cli("simulate", str(repo))
    assert proc.returncode == 1 and "FAIL  start" in proc.stdout


def test_simulate_missing_hooks_is_one_line(tmp_path: Path, repo: Path) -> None:
    (repo / ".agent/hooks/post_edit.sh").unlink()
    proc = cli("simulate", str(repo))
    assert proc.returncode == 1 and proc.stderr.startswith("agenthooks: .agent/hooks/post_edit.sh")
    assert "Traceback" not in proc.stderr


def test_simulate_stops_on_disabled_hooks(repo: Path) -> None:
    cfg = repo / ".agent/config.yaml"
    cfg.write_text(cfg.read_text().replace("enabled: true", "enabled: no"))
    proc = cli("simulate", str(repo))
    assert proc.returncode == 1 and not proc.stdout, proc.stdout
    assert proc.stderr.startswith(
        "agenthooks: hooks are disabled: .agent/config.yaml has enabled: false\n"), proc.stderr


def test_simulate_near_the_budget_judges_what_must_survive(tmp_path: Path) -> None:
    """The reload notice takes room the notes had: the block cuts notes first, by design.
    The drill passes while every rule and In progress item came back, and fails when one
    did not."""
    from support.helpers import SAMPLE_SNAPSHOT, SAMPLE_TATTOO, install, make_repo, write_memory

    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code", "--budget", "280")
    notes = "".join(f"- note {i}: the staging database runs on port 63{i:02d}\n" for i in range(5))
    write_memory(repo, tattoo=SAMPLE_TATTOO, snapshot=SAMPLE_SNAPSHOT, notes=notes)
    proc = cli("simulate", str(repo))
    assert proc.returncode == 0, proc.stdout
    assert ("ok    content: the reloaded block carries the start block's 2 rule(s) and 1 In "
            "progress item(s); notes or older snapshot lines gave way") in proc.stdout
    tight = cli("install", "--yes", "--budget", "200", str(repo))  # now In progress goes too
    assert tight.returncode == 0, tight.stderr
    proc = cli("simulate", str(repo))
    assert proc.returncode == 1
    assert ("FAIL  content: the reloaded block lost 1 line(s) that must survive, first: "
            "'- [ ] service get_user (stuck on error handling)'") in proc.stdout
