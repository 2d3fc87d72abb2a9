"""agenthooks lint: memory lines that name a repo path which no longer exists."""
from __future__ import annotations

from pathlib import Path

import pytest

from support.helpers import cli, write_memory

from agenthooks.memory import refs

SNAP = ("# Snapshot\n## Goal\nlogin flow\n## Done\n## In progress\n{progress}\n## Todo\n"
        "## Key decisions\n")


def warnings(repo: Path) -> list[str]:
    proc = cli("lint", str(repo))
    return [s for s in proc.stdout.splitlines() if "which is not in the repo" in s]


def test_a_renamed_file_is_named_with_its_line_and_an_existing_one_is_not(repo: Path) -> None:
    (repo / "src").mkdir()
    (repo / "src" / "auth.py").write_text("")
    (repo / "tests").mkdir()
    (repo / "tests" / "test_x.py").write_text("")
    write_memory(repo, snapshot=SNAP.format(progress="- [ ] token refresh in `src/auth.py`, "
                                                     "failing in tests/test_x.py:12"),
                 notes="- one\n- src/auth.py keeps the session\n")
    assert warnings(repo) == []
    (repo / "src" / "auth.py").rename(repo / "src" / "login.py")
    (repo / "tests" / "test_x.py").unlink()
    out = warnings(repo)
    assert out == [
        ".agent/memory/snapshot.md:6: warning: names src/auth.py, which is not in the repo "
        "(renamed or deleted?): update the line or remove it",
        ".agent/memory/snapshot.md:6: warning: names tests/test_x.py, which is not in the repo "
        "(renamed or deleted?): update the line or remove it",
        ".agent/memory/notes.md:2: warning: names src/auth.py, which is not in the repo "
        "(renamed or deleted?): update the line or remove it",
    ], out
    assert cli("lint", str(repo)).returncode == 0  # a warning, not an error


def test_tattoo_lines_are_checked_and_zh_speaks_zh(repo: Path) -> None:
    write_memory(repo, tattoo="# 规则\n- 不要修改 scripts/deploy.sh\n")
    (repo / ".agent/.agenthooks.json").write_text(
        (repo / ".agent/.agenthooks.json").read_text().replace('"lang": "en"', '"lang": "zh"'))
    out = cli("lint", str(repo)).stdout.splitlines()
    assert ".agent/memory/tattoo.md:2: warning: 提到的 scripts/deploy.sh 在仓库中不存在（已改名或删除？）：" \
           "请更新或删除这一行" in out, out


def test_urls_globs_absolute_paths_and_prose_are_not_paths(repo: Path, tmp_path: Path) -> None:
    write_memory(repo, notes=(
        "- see https://example.com/src/auth.py and github.com/org/repo/blob/main/x.py\n"
        "- run pytest on tests/**/*.py and src/*.py\n"
        "- /usr/lib/python3/os.py and ~/.config/tool.toml are not the repo's\n"
        "- .agent/log/memory.log rotates; and/or I/O origin/main 2024/01/02 Node.js\n"
        "- mail me@example.org, e.g. v1.2\n"))
    assert warnings(repo) == []


def test_a_bare_name_is_found_anywhere_in_the_tree(repo: Path) -> None:
    (repo / "pkg" / "deep").mkdir(parents=True)
    (repo / "pkg" / "deep" / "models.py").write_text("")
    write_memory(repo, notes="- models.py holds the schema; views.py the pages\n")
    assert [s.split(": warning: ")[1].split(",")[0] for s in warnings(repo)] == ["names views.py"]


@pytest.mark.parametrize("word, want", [
    ("`src/auth.py`", "src/auth.py"), ("tests/test_x.py:12", "tests/test_x.py"),
    ("(src/a.py#L3-L9),", "src/a.py"), ("t/test_a.py::test_one[1]", "t/test_a.py"),
    ("./lib/x.go", "lib/x.go"), ("src/pkg/", "src/pkg"), ("README.md.", "README.md"),
    ("http://x.org/a.py", None), ("src/*.py", None), ("../up/x.py", None),
    (".agent/log/state/x", None), ("/etc/hosts", None), ("e.g.", None), ("Vue.js", None),
])
def test_candidate(word: str, want: str | None, tmp_path: Path) -> None:
    assert refs.candidate(refs.words(word)[0], tmp_path) == want
