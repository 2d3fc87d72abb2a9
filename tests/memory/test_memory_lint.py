"""agenthooks lint, and the agenthooks-lint hook through the real pre-commit."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from support.tree import tree
from support.helpers import ROOT, cli, git, install, make_repo, require, snapshot_checkout, write_memory

from agenthooks.memory import lint, parse


def findings(repo: Path) -> list[str]:
    proc = cli("lint", str(repo))
    return [s for s in proc.stdout.splitlines() if ": error: " in s or ": warning: " in s]


def test_clean_memory_passes_and_nothing_is_written(repo: Path) -> None:
    before = tree(repo, mtime=True)
    proc = cli("lint", str(repo))
    assert proc.returncode == 0, proc.stdout
    assert "memory is clean" in proc.stdout
    assert tree(repo, mtime=True) == before


def test_fresh_install_in_both_languages_is_clean(tmp_path: Path) -> None:
    for lang in ("en", "zh"):
        r = make_repo(tmp_path, lang)
        install(r, "--lang", lang)
        proc = cli("lint", str(r))
        assert proc.returncode == 0, proc.stdout


def test_tattoo_limits_from_config(repo: Path) -> None:
    write_memory(repo, tattoo="# Rules\n" + "".join(f"- rule number {i}\n" for i in range(25)))
    out = findings(repo)
    assert any(s.startswith(".agent/memory/tattoo.md:22: error: 25 rules, over the limit of 20")
               for s in out), out
    cfg = repo / ".agent/config.yaml"
    cfg.write_text(cfg.read_text() + "lint_max_rules: 30\nlint_max_tattoo_lines: 10\n")
    out = findings(repo)
    assert not any("rules, over the limit" in s for s in out)
    assert any(s.startswith(".agent/memory/tattoo.md:11: error: tattoo has 26 lines") for s in out)
    # The hooks ignore the lint keys.
    from support.helpers import log_lines, run_hook
    run_hook(repo, "pre_task")
    assert not any("config.yaml" in s for s in log_lines(repo))


def test_tattoo_over_200_lines(repo: Path) -> None:
    write_memory(repo, tattoo="# Rules\n- one rule\n" + "<!-- padding -->\n" * 210)
    out = findings(repo)
    assert any(s.startswith(".agent/memory/tattoo.md:201: error: tattoo has 212 lines") for s in out)


def test_rules_must_be_one_line(repo: Path) -> None:
    write_memory(repo, tattoo="# Rules\n- Never commit to main\n  because CI deploys it\n"
                              "- Run the tests \\\n- ok rule\n```\ncode\n```\n")
    out = findings(repo)
    assert ".agent/memory/tattoo.md:3: error: continues the rule on line 2: one rule, one line" in out
    assert any(s.startswith(".agent/memory/tattoo.md:4: error: rule ends with") for s in out)
    assert any(s.startswith(".agent/memory/tattoo.md:6: error: code block") for s in out)


def test_snapshot_sections_en_and_zh(repo: Path) -> None:
    write_memory(repo, snapshot="# Snapshot\n## Goal\nx\n## In progress\n- y\n")
    out = findings(repo)
    for title in ("Done", "Todo", "Key decisions"):
        assert any(f"missing section '## {title}'" in s for s in out), out
    write_memory(repo, snapshot="# 快照\n## 目标\nx\n## 已完成\n## 进行中\n- y\n## 待办\n## 关键决策：\n")
    assert not any("missing section" in s for s in findings(repo))


def test_snapshot_grown_into_an_edit_log(repo: Path) -> None:
    log = ("# Snapshot\n## Goal\nRefactor\n## Done\n- edited line 3 of user_service.py\n"
           "- changed the import order\n- user_service.py:42 fixed typo\n- +12 lines in api.py\n"
           "- 修改了第5行\n## In progress\n- async get_user\n## Todo\n## Key decisions\n")
    write_memory(repo, snapshot=log)
    out = findings(repo)
    assert any(s.startswith(".agent/memory/snapshot.md:5: error: snapshot reads like an edit log: 5 of 7")
               for s in out), out
    # A progress board with one file:line reference (to a file that exists) is fine.
    from support.helpers import SAMPLE_SNAPSHOT
    (repo / "api.py").write_text("")
    write_memory(repo, snapshot=SAMPLE_SNAPSHOT.replace("cache layer", "cache layer (see api.py:10)"))
    assert findings(repo) == []


@pytest.mark.parametrize("tattoo, other, where", [
    ("- Use tabs for indentation\n", "- Never use tabs\n", "tattoo"),
    ("- Indent with 4 spaces, never tabs\n", "- use tabs in the new module\n", "snapshot"),
    ("- Indent with 4 spaces\n", "- Indent with 2 spaces\n", "tattoo"),
    ("- 禁止使用 var\n", "- 使用 var 声明变量\n", "snapshot"),
    ("- 缩进使用 4 个空格\n", "- 缩进 2 空格\n", "tattoo"),
    ("- 使用制表符缩进\n", "- never use tabs\n", "snapshot"),
    ("- never return None\n", "- return None when the user is missing\n", "tattoo"),
])
def test_contradictions(repo: Path, tattoo: str, other: str, where: str) -> None:
    if where == "tattoo":
        write_memory(repo, tattoo="# Rules\n" + tattoo + other)
        loc = ".agent/memory/tattoo.md:3: error: contradicts .agent/memory/tattoo.md:2"
    else:
        write_memory(repo, tattoo="# Rules\n" + tattoo,
                     snapshot="## Goal\n## Done\n## In progress\n" + other + "## Todo\n## Key decisions\n")
        loc = ".agent/memory/snapshot.md:4: error: contradicts .agent/memory/tattoo.md:2"
    out = findings(repo)
    assert any(s.startswith(loc) for s in out), out
    assert cli("lint", str(repo)).returncode == 1


@pytest.mark.parametrize("a, b", [
    ("- Indent with 4 spaces, never tabs", "- Every API returns {code, data, msg}"),
    ("- Use pytest for tests", "- Never use pytest fixtures with side effects"),
    ("- 禁止使用 Tab 缩进", "- 统一使用 4 个空格缩进"),
    ("- use spaces instead of tabs", "- 4 spaces"),
])
def test_no_false_contradiction(repo: Path, a: str, b: str) -> None:
    write_memory(repo, tattoo=f"# Rules\n{a}\n{b}\n")
    assert findings(repo) == []


def test_notes_contradiction_is_a_warning(repo: Path) -> None:
    write_memory(repo, notes="- use tabs here, it is faster\n")
    proc = cli("lint", str(repo))
    assert proc.returncode == 0
    assert any(s.startswith(".agent/memory/notes.md:1: warning: contradicts .agent/memory/tattoo.md:2")
               for s in proc.stdout.splitlines()), proc.stdout


def test_bad_dir_is_one_line(tmp_path: Path) -> None:
    proc = cli("lint", str(tmp_path))
    assert proc.returncode == 1 and proc.stderr.startswith("agenthooks: no .agent/")
    assert "Traceback" not in proc.stderr and list(tmp_path.iterdir()) == []


def test_edit_log_heuristics() -> None:
    for s in ("- edited line 3", "- changed X", "- lines 10-20 of a.py", "- src/a.py:12",
              "- +5 lines", "- 3 insertions", "- 第3行改成 async", "- 修改了 foo"):
        assert lint.is_edit_log(s), s
    for s in ("- [ ] service get_user (stuck on error handling)", "- cache layer",
              "- raise UserNotFound, never return None", "Refactor user_service to async"):
        assert not lint.is_edit_log(s), s


# --- the real pre-commit ----------------------------------------------------------------

def _precommit() -> str:
    exe = Path(sys.executable).with_name("pre-commit")
    if exe.exists():
        return str(exe)
    return require("pre-commit", "pip install pre-commit (make test installs it)")


@pytest.mark.slow  # pre-commit builds the hook's virtualenv
def test_pre_commit_hook_fails_on_bad_tattoo_and_passes_on_good(tmp_path: Path) -> None:
    exe = _precommit()
    src, rev = snapshot_checkout(tmp_path)
    manifest = (ROOT / ".pre-commit-hooks.yaml").read_text()
    assert "id: agenthooks-lint" in manifest and "pass_filenames: false" in manifest
    r = make_repo(tmp_path, "user-repo")
    install(r)
    (r / ".pre-commit-config.yaml").write_text(
        f"repos:\n- repo: {src}\n  rev: {rev}\n  hooks:\n  - id: agenthooks-lint\n")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pc-home")}
    git(r, "add", "-A")
    write_memory(r, tattoo="# Rules\n- Never push to main\n  unless the release manager asks\n")
    git(r, "add", "-A")
    bad = subprocess.run([exe, "run", "--all-files"], cwd=r, capture_output=True, text=True,
                         env=env, timeout=600)
    if bad.returncode == 3 or "An unexpected error has occurred" in bad.stdout + bad.stderr:
        pytest.fail("pre-commit could not install the hook:\n" + bad.stdout + bad.stderr)
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert ".agent/memory/tattoo.md:3: error: continues the rule on line 2" in bad.stdout
    write_memory(r, tattoo="# Rules\n- Never push to main without the release manager\n")
    git(r, "add", "-A")
    good = subprocess.run([exe, "run", "--all-files"], cwd=r, capture_output=True, text=True,
                          env=env, timeout=600)
    assert good.returncode == 0, good.stdout + good.stderr
    assert "agenthooks lint" in good.stdout and "Passed" in good.stdout


def test_lint_speaks_the_repos_language(tmp_path: Path) -> None:
    from agenthooks.memory import lint as lint_mod

    repo = make_repo(tmp_path)
    install(repo, "--lang", "zh")
    tattoo = repo / ".agent/memory/tattoo.md"
    tattoo.write_text(tattoo.read_text() + "- 缩进用 4 空格\n  续行\n")
    proc = cli("lint", str(repo))
    assert proc.returncode == 1
    assert ": error: 接续第" in proc.stdout and "一条规则一行" in proc.stdout
    assert "agenthooks lint: 1 个错误，0 个警告" in proc.stdout
    for key, (en, zh) in lint_mod.MESSAGES.items():
        assert en and zh and en != zh, key
        assert set(re.findall(r"{(\w+)}", en)) == set(re.findall(r"{(\w+)}", zh)), key


def test_findings_print_no_bare_codes(repo: Path) -> None:
    """A code like (R22) means nothing to the reader: each finding says its reason in words."""
    write_memory(repo, tattoo="# Rules\n- Never commit to main\n  because CI deploys it\n- use tabs\n",
                 notes="# Notes\n- never use tabs\n")
    out = findings(repo)
    assert out and not [s for s in out if re.search(r"[(（]R\d+", s)], out
