"""agenthooks show: the real pre_task --show output, its sizes, and nothing written."""
from __future__ import annotations

import json
import re
from pathlib import Path

from support.tree import tree
from support.helpers import cli, install, log_lines, make_repo, run_hook, write_memory

from agenthooks.memory import parse


def test_show_writes_nothing_and_matches_what_pre_task_injects(repo: Path) -> None:
    before = tree(repo, mtime=True)
    logs = log_lines(repo)
    proc = cli("show", str(repo))
    assert proc.returncode == 0, proc.stderr
    assert tree(repo, mtime=True) == before  # byte-identical, same mtimes
    assert log_lines(repo) == logs
    assert not (repo / ".agent/injected_context.txt").exists()
    run_hook(repo, "pre_task")
    injected = (repo / ".agent/injected_context.txt").read_text(encoding="utf-8")
    assert proc.stdout == injected
    assert "Indent with 4 spaces, never tabs" in proc.stdout


def test_show_sizes_per_section_use_the_hooks_estimate(repo: Path) -> None:
    write_memory(repo, notes="# Scratch notes\n- 缓存层用 Redis，端口 6380\n- plain note\n")
    proc = cli("show", str(repo))
    rows = proc.stderr.splitlines()
    titles = [r.split("  ")[0] for r in rows[1:]]
    assert titles[0] == "header" and "footer" in titles and titles[-1] == "total"
    assert any(t.startswith("Hard rules") for t in titles)
    assert any(t.startswith("Scratch notes") for t in titles)
    total = re.search(r"(\d+)\s+of budget (\d+)", rows[-1])
    assert total and total.group(2) == "500"
    run_hook(repo, "pre_task")
    logged = re.search(r"~(\d+) tokens of 500, (\d+) chars", log_lines(repo)[-1])
    assert logged and logged.group(1) == total.group(1)
    nums = re.findall(r"\d+", rows[-1])
    assert nums[1] == logged.group(2)  # chars agree with the hooks' count too


def test_token_estimate_counts_cjk_as_one_each() -> None:
    assert parse.tokens("abcd") == 2  # awk: int((4 + 4) / 4)
    assert parse.tokens("缓存") == 2 + (0 + 4) // 4
    assert parse.tokens("a缓") == 1 + (1 + 4) // 4


def test_budget_comes_from_config_yaml(repo: Path) -> None:
    cfg = repo / ".agent/config.yaml"
    cfg.write_text(cfg.read_text().replace("budget_tokens: 500", "budget_tokens: 900"))
    proc = cli("show", str(repo))
    assert "of budget 900" in proc.stderr.splitlines()[-1]


def test_show_framework_envelope(tmp_path: Path) -> None:
    r = make_repo(tmp_path)
    install(r, "--framework", "claude-code")
    proc = cli("show", str(r), "--framework", "claude-code")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    ctx = data["hookSpecificOutput"]["additionalContext"]
    assert ctx.startswith("===== AGENT MEMORY BEGIN =====")
    assert "total" in proc.stderr


def test_show_json_structure(repo: Path) -> None:
    (repo / ".agent/memory/archive").mkdir()
    (repo / ".agent/memory/archive/snapshot_20250101_000000.md").write_text("# old\n")
    write_memory(repo, notes="- note one\n- token = abcdefgh12345\n")
    before = tree(repo, mtime=True)
    proc = cli("show", str(repo), "--json")
    assert proc.returncode == 0, proc.stderr
    assert tree(repo, mtime=True) == before
    data = json.loads(proc.stdout)
    assert [r["text"] for r in data["rules"]["project"]] == [
        "- Indent with 4 spaces, never tabs", "- Every API returns {code, data, msg}"]
    secs = {s["key"]: s for s in data["snapshot"]["sections"]}
    assert set(secs) == {"goal", "done", "progress", "todo", "decisions"}
    assert secs["progress"]["items"][0]["text"].startswith("- [ ] service get_user")
    assert data["notes"][0] == {"line": 1, "text": "- note one"}
    assert data["notes"][1]["redacted"] is True and "abcdefgh" not in proc.stdout
    assert [a["name"] for a in data["archive"]] == ["snapshot_20250101_000000.md"]
    assert data["budget_tokens"] == 500 and data["block"]["tokens"] > 0


def test_show_bad_inputs_are_one_line(tmp_path: Path) -> None:
    for args in (["show", str(tmp_path / "nope")], ["show", str(tmp_path)],
                 ["show", str(tmp_path), "--framework", "bogus"]):
        proc = cli(*args)
        assert proc.returncode != 0
        assert proc.stderr.startswith("agenthooks: ") and "Traceback" not in proc.stderr
        assert proc.stdout == ""
    assert list(tmp_path.iterdir()) == []


def test_show_warnings_do_not_reach_the_log(repo: Path) -> None:
    cfg = repo / ".agent/config.yaml"
    cfg.write_text(cfg.read_text() + "notes_count: lots\n")
    before = tree(repo, mtime=True)
    proc = cli("show", str(repo))
    assert proc.returncode == 0
    assert "notes_count" in proc.stderr
    assert tree(repo, mtime=True) == before


def test_size_table_columns_line_up_with_cjk_titles(tmp_path: Path) -> None:
    from agenthooks.memory.show import cells

    repo = make_repo(tmp_path)
    install(repo, "--lang", "zh")
    rows = cli("show", str(repo)).stderr.splitlines()
    table = [r for r in rows if re.search(r"\s\d+\s+\d+\s+\d+", r) or r.startswith("section")]
    assert any("硬约束" in r for r in table)
    # Every row's "lines" column ends at the same terminal column.
    ends = {cells(r[: re.search(r"(lines|\d+)\s+(chars|\d+)\s+(~tokens|\d+)", r).end(1)])
            for r in table}
    assert len(ends) == 1, table


def test_show_says_the_hooks_are_disabled(repo: Path) -> None:
    cfg = repo / ".agent/config.yaml"
    assert "disabled" not in cli("show", str(repo)).stderr
    cfg.write_text(cfg.read_text().replace("enabled: true", "enabled: false"))
    for args in ((), ("--json",)):
        proc = cli("show", str(repo), *args)
        assert proc.returncode == 0, proc.stderr
        assert ("agenthooks: hooks are disabled: .agent/config.yaml has enabled: false\n"
                in proc.stderr), proc.stderr


def test_show_names_the_working_set_a_compaction_would_bring(repo: Path) -> None:
    run_hook(repo, "on_compact", {"session_id": "w1", "hook_event_name": "UserPromptSubmit",
                                  "prompt": 'Add "retries" to the client'}, "claude-code")
    for name in ("src/client.py", ".env", "src/client_test.py"):
        run_hook(repo, "post_edit", {"session_id": "w1", "tool_input": {"file_path": str(repo / name)}},
                 "claude-code")
    proc = cli("show", str(repo))
    assert proc.returncode == 0, proc.stderr
    assert ("after a compaction, session w1's block also names (its working set): files src/client.py, "
            'src/client_test.py; the latest request: Add "retries" to the client') in proc.stderr
    data = json.loads(cli("show", "--json", str(repo)).stdout)
    assert data["working_set"] == {"session": "w1", "files": ["src/client.py", "src/client_test.py"],
                                   "request": 'Add "retries" to the client'}


def test_show_names_the_package_rules_said_at_the_first_edit_there(repo: Path) -> None:
    assert "package rules" not in cli("show", str(repo)).stderr
    rules = repo / ".agent/memory/scopes/packages/api/tattoo.md"
    rules.parent.mkdir(parents=True)
    rules.write_text("# api rules\n- Call the api client, never raw fetch\n- Keep handlers thin\n")
    proc = cli("show", str(repo))
    assert proc.returncode == 0 and "raw fetch" not in proc.stdout  # not in the block
    assert "package rules, said at the agent's first edit under the package (not in this block): " \
           "packages/api (2 rules)" in proc.stderr, proc.stderr
    data = json.loads(cli("show", "--json", str(repo)).stdout)
    assert data["package_rules"] == [{"package": "packages/api",
                                      "file": ".agent/memory/scopes/packages/api/tattoo.md", "rules": 2}]
