"""One grammar for the memory files: the same table of inputs through every reader of them,
with the same result. The readers: the hooks' block (lib/block.awk over lib/memory.awk), the
hooks' archive check (pre_task.sh --archive: awk -v list=items -f lib/memory.awk), and
agenthooks' own (agenthooks/memory/parse.py: show, lint, archive, simulate)."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from agenthooks.memory import parse
from support.helpers import cli, install, make_repo, run_hook

# Snapshots: (name, text). Every line shown is short and plain: the block shows it as it is.
SNAPSHOTS = [
    ("closed comment", "## Goal\n<!-- a note to self -->\n- ship it\n"),
    ("unclosed comment, then a blank line", "# Snap\n\n<!-- unclosed\n\n## In progress\n- step 2\n"),
    ("unclosed comment hides its paragraph", "## Goal\n<!-- open\n- hidden\n\n- shown\n"),
    ("comment over lines", "## Goal\n<!--\n- inside\n-->\n- after\n"),
    ("arrow outside a comment", "## Goal\n- a --> b\n"),
    ("CRLF", "## Goal\r\n- crlf goal\r\n\r\n## Key decisions\r\n- crlf decision\r\n"),
    ("BOM", "\ufeff## Goal\n- with a BOM\n"),
    ("zh headings", "## 目标：\n- 目标一\n## 进行中\n- 步骤\n## 关键决策\n- 决定\n## 已放弃\n- 方案\n"),
    ("en headings, colons and case", "## GOAL:\n- g\n### In-progress\n- p\n## Key Decisions\n- d\n"
                                     "## Dead ends\n- f\n## Done\n- d1\n## Todo\n- t\n## Notes\n- o\n"),
    ("fences", "## Goal\n```\n## In progress\n- fenced\n```\n"),
    ("empty sections", "# Snapshot\n\n## Goal\n\n## In progress\n\n## Key decisions\n"),
    ("title and text before a section", "# Title\nloose text\n## Goal\n- g\n"),
    ("headings without a blank", "##Goal\n- under no section\n  ## Goal\n"),
    ("done and todo only", "## Done\n- finished\n## Todo\n- later\n"),
    ("the template", None),
]
SHOWN = {"goal", "progress", "decisions", "failed"}  # what the block carries (failed: its last 3)


def awks() -> list[list[str]]:
    return [a.split() for a in ("mawk", "original-awk", "gawk", "busybox awk") if shutil.which(a.split()[0])]


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    r = make_repo(tmp_path_factory.mktemp("grammar"))
    install(r, "--framework", "generic")
    cfg = r / ".agent/config.yaml"
    cfg.write_text(cfg.read_text().replace("budget_tokens: 500", "budget_tokens: 2400"))
    return r


def text_of(repo: Path, text: str | None) -> str:
    """TEXT, or (None) the snapshot a fresh install writes."""
    from agenthooks import templating

    return text if text is not None else templating.render_template("memory/en/snapshot.md.j2")


def python_items(path: Path) -> list[tuple[str, str]]:
    mf = parse.load_file(path, "snapshot.md")
    return [(s.key, ln.text) for s in parse.sections(mf) for ln in s.items]


def awk_items(repo: Path, path: Path, awk: list[str]) -> list[tuple[str, str]]:
    proc = subprocess.run([*awk, "-v", "list=items", "-f", str(repo / ".agent/hooks/lib/memory.awk"), str(path)],
                          capture_output=True, env={"LC_ALL": "C", "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.decode("utf-8")
    return [tuple(ln.split("\t", 1)) for ln in out.splitlines()]  # type: ignore[misc]


def block_items(repo: Path) -> list[tuple[str, str]]:
    """The snapshot lines the hooks' block shows, by section."""
    block = run_hook(repo, "pre_task", "", "--show").stdout.splitlines()
    start = block.index("## Current task snapshot (summary)")
    out, key = [], ""
    for line in block[start + 1:]:
        if line.startswith("## ") or line == "---":
            break
        if line.startswith("### "):
            key = parse.section_key(line[4:])
        elif not line.startswith(("[", "(")):
            out.append((key, line))
    return out


@pytest.mark.parametrize("name,text", SNAPSHOTS, ids=[n for n, _ in SNAPSHOTS])
def test_every_reader_reads_a_snapshot_alike(repo: Path, name: str, text: str | None) -> None:
    snap = repo / ".agent/memory/snapshot.md"
    snap.write_bytes(text_of(repo, text).encode("utf-8"))
    python = [(k, t.rstrip("\r")) for k, t in python_items(snap)]
    for awk in awks():
        assert [(k, t.rstrip("\r")) for k, t in awk_items(repo, snap, awk)] == python, awk
    # The block shows the sections it carries, Tried and failed its last three lines.
    shown = [(k, t) for k, t in python if k in SHOWN]
    failed = [x for x in shown if x[0] == "failed"]
    expected = [x for x in shown if x[0] != "failed" or x in failed[-3:]]
    order = ["goal", "progress", "decisions", "failed"]
    assert block_items(repo) == sorted(expected, key=lambda x: order.index(x[0])), name
    # The archive: the hook and agenthooks archive alike, on an empty snapshot and a full one.
    archived = run_hook(repo, "pre_task", "", "--archive")
    refused = "has no items yet" in archived.stderr
    assert refused == (python == []), (name, archived.stderr)
    if not refused:  # put it back for the CLI's turn
        snap.write_bytes(text_of(repo, text).encode("utf-8"))
        shutil.rmtree(repo / ".agent/memory/archive")
    proc = cli("archive", str(repo))
    assert ("no items yet" in proc.stderr) == (python == []), (name, proc.stdout, proc.stderr)
    if (repo / ".agent/memory/archive").exists():
        shutil.rmtree(repo / ".agent/memory/archive")


def test_the_unclosed_comment_case_is_archived_by_both(repo: Path) -> None:
    """An unclosed "<!--", a blank line, then a section with an item: the block shows the item,
    and both archive commands take the snapshot (they used to refuse it as empty)."""
    snap = repo / ".agent/memory/snapshot.md"
    snap.write_text("# Snap\n<!-- unclosed\n\n## In progress\n- step 2\n")
    assert ("progress", "- step 2") in block_items(repo)
    assert "archived:" in run_hook(repo, "pre_task", "", "--archive").stdout


RULES = [
    ("closed and unclosed comments", "# Rules\n- one\n<!-- c -->\n- two\n<!-- open\n- three\n\n- four\n"),
    ("unclosed comment closed later", "- one\n<!-- open\n- hidden\n-->\n- two\n"),
    ("CRLF and BOM", "\ufeff- one\r\n\r\n- two\r\n"),
    ("a second-level heading is a rule", "# Rules\n## sub\n- one\n"),
]


@pytest.mark.parametrize("name,text", RULES, ids=[n for n, _ in RULES])
def test_the_block_and_agenthooks_read_the_rules_alike(repo: Path, name: str, text: str) -> None:
    tattoo = repo / ".agent/memory/tattoo.md"
    tattoo.write_bytes(text.encode("utf-8"))
    python = [ln.text.rstrip("\r") for ln in parse.rules(parse.load_file(tattoo, "tattoo.md"))]
    block = run_hook(repo, "pre_task", "", "--show").stdout.splitlines()
    start = block.index("## Hard rules (must obey)") + 1
    end = block.index("## Current task snapshot (summary)")
    shown = [ln for ln in block[start:end] if not ln.startswith("(")]
    assert shown == python, name


NOTES = [
    ("headings, comments and indented marks", "# Notes\n- a\n<!-- c -->\n  # indented mark\n#tag\n- b\n"),
    ("unclosed comment", "- a\n<!-- open\n- hidden\n\n- b\n"),
]


@pytest.mark.parametrize("name,text", NOTES, ids=[n for n, _ in NOTES])
def test_the_block_and_agenthooks_read_the_notes_alike(repo: Path, name: str, text: str) -> None:
    notes = repo / ".agent/memory/notes.md"
    notes.write_text(text)
    python = [ln.text for ln in parse.notes(parse.load_file(notes, "notes.md"))]
    block = run_hook(repo, "pre_task", "", "--show").stdout.splitlines()
    heads = [i for i, ln in enumerate(block) if ln.startswith("## Scratch notes")]
    shown = block[heads[0] + 1:block.index("---")] if heads else []
    assert shown == python[-5:], name
