"""config.py: bounds, loading a user's config.yaml, migration and value splicing that
keep the user's comments and layout."""
from __future__ import annotations

from pathlib import Path

import pytest

from agenthooks import config
from agenthooks.errors import UserError


def test_every_int_default_is_within_its_bounds_and_has_a_bash_var() -> None:
    for key, (lo, hi) in config.INT_BOUNDS.items():
        assert lo <= config.DEFAULTS[key] <= hi, key
        assert config.check_int(key, config.DEFAULTS[key]) == config.DEFAULTS[key]
    assert set(config.BASH_VARS) == set(config.INT_BOUNDS)
    assert len(set(config.BASH_VARS.values())) == len(config.BASH_VARS)


@pytest.mark.parametrize("value", [49, 20001, "500", True, 5.0, None])
def test_check_int_refuses_out_of_bounds_and_non_ints(value: object) -> None:
    with pytest.raises(UserError, match="budget_tokens must be a whole number from 50 to 20000"):
        config.check_int("budget_tokens", value)


def test_check_int_accepts_the_bounds() -> None:
    assert config.check_int("budget_tokens", 50) == 50
    assert config.check_int("budget_tokens", 20000) == 20000


def test_check_takes_a_mapping_or_nothing(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("budget_tokens: 800  # mine\nenabled: false\n", encoding="utf-8")
    config.check(path)
    path.write_text("", encoding="utf-8")
    config.check(path)


def test_read_reads_as_the_hooks_do(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("\ufeffbudget_tokens: '800'  # quoted\r\nnotes_count: 999\nstale_minutes: x\n"
                    "lint_max_rules: 7\nunknown: 3\nsummary_markers: \"A|B\"\nenabled: off\r\n",
                    encoding="utf-8")
    cfg = config.read(path)
    assert cfg["budget_tokens"] == 800
    assert cfg["notes_count"] == 5  # out of bounds: the default
    assert cfg["stale_minutes"] == 10  # not a number: the default
    assert cfg["lint_max_rules"] == 7
    assert cfg["summary_markers"] == "A|B"
    assert cfg["enabled"] is False
    assert "unknown" not in cfg
    assert config.read(tmp_path / "missing.yaml")["budget_tokens"] == 500


@pytest.mark.parametrize("text, message", [
    ("- a\n- b\n", "must be a YAML mapping"),
    ("key: [unclosed\n", r"is not valid YAML \(line"),
])
def test_check_refuses_what_is_not_a_mapping(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UserError, match=message):
        config.check(path)


def test_version_of() -> None:
    assert config.version_of("budget_tokens: 5\n") == 1
    assert config.version_of("version: 2\n") == 2
    with pytest.raises(UserError, match="version must be a whole number"):
        config.version_of("version: two\n")


def test_migrate_v1_adds_enabled_and_keeps_the_users_lines() -> None:
    v1 = "# my budget\nbudget_tokens: 900  # tuned\n"
    text, old, new, added = config.migrate(v1)
    assert (old, new, added) == (1, config.CONFIG_VERSION, ["enabled", "fresh_after_compactions",
                                                              "flush_at_percent", "context_window_tokens",
                                                              "board", "summary_budget_tokens", "working_set_files",
                                                              "subagent_budget_tokens", "subagent_skip"])
    # The version line goes after the leading comment; every line of the user's stays.
    assert text == ("# my budget\nversion: 6\nbudget_tokens: 900  # tuned\n"
                    "# false turns every hook into a silent no-op, without unregistering it.\n"
                    "enabled: true\n"
                    "# After this many compactions in one session, the reloaded block recommends a fresh\n"
                    "# session (memory carries over); 0 = never.\n"
                    "fresh_after_compactions: 3\n" + FLUSH_KEYS + BOARD_KEY + COMPACTION_KEYS)
    assert config.version_of(text) == config.CONFIG_VERSION
    # Idempotent: the migrated text is current.
    assert config.migrate(text) == (text, config.CONFIG_VERSION, config.CONFIG_VERSION, [])


def test_migrate_v2_adds_fresh_after_compactions_once() -> None:
    v2 = "version: 2\nbudget_tokens: 900\nenabled: false  # off\n"
    text, old, new, added = config.migrate(v2)
    assert (old, new, added) == (2, 6, ["fresh_after_compactions", "flush_at_percent", "context_window_tokens",
                                        "board", "summary_budget_tokens", "working_set_files",
                                        "subagent_budget_tokens", "subagent_skip"])
    assert text.startswith("version: 6\nbudget_tokens: 900\nenabled: false  # off\n# After")
    assert text.endswith("fresh_after_compactions: 3\n" + FLUSH_KEYS + BOARD_KEY + COMPACTION_KEYS)
    assert text.count("fresh_after") == 1
    # A key the user already wrote is kept as it is.
    mine = ("version: 2\nfresh_after_compactions: 0\nflush_at_percent: 0\ncontext_window_tokens: 1000000\n"
            "board: local\nsummary_budget_tokens: 0\nworking_set_files: 3\nsubagent_budget_tokens: 0\n"
            "subagent_skip: Plan\n")
    assert config.migrate(mine) == (mine.replace("version: 2", "version: 6"), 2, 6, [])


FLUSH_KEYS = ("# At a prompt, once the context is this full (percent of the window), on_compact asks the\n"
              "# agent once to update memory/snapshot.md before the compaction (0 = never).\n"
              "flush_at_percent: 75\n"
              "# The context window in tokens, for flush_at_percent, when the host does not say it.\n"
              "context_window_tokens: 200000\n")
# A repo from before boards keeps its one board, memory/snapshot.md, until it switches.
BOARD_KEY = ("# Where the progress board is: local (memory/boards/BRANCH.md, kept out of git: one per\n"
             "# branch and worktree), branch (the same files, committed) or shared (memory/snapshot.md,\n"
             "# one board, committed). Change it with 'agenthooks board --switch MODEL', which moves it.\n"
             "board: shared\n")
COMPACTION_KEYS = (
    "# At the host's pre-compaction event, the instructions for its summary (keep the rules,\n"
    "# In progress, Key decisions, the latest request and the files being edited) take at most\n"
    "# this many estimated tokens; Claude Code and OpenCode pass them to the summarizer (0 = none).\n"
    "summary_budget_tokens: 400\n"
    "# The working set the hooks keep per session: after a compaction the block names the last\n"
    "# this many files the session edited and the user's latest request (0 = none).\n"
    "working_set_files: 8\n"
    "# A subagent (Claude Code, Codex, Copilot CLI) starts with the project's rules and the\n"
    "# board's In progress items, never the notes, in at most this many estimated tokens (0 = none).\n"
    "subagent_budget_tokens: 300\n"
    "# Subagent types that get no memory, '|' between them, any case: the hosts' read-only\n"
    "# explorers (Claude Code's Explore, Copilot CLI's explore, Codex's explorer).\n"
    "subagent_skip: Explore|explorer\n")
SUBAGENT = ["subagent_budget_tokens", "subagent_skip"]


def test_migrate_v3_adds_the_flush_tunables_and_keeps_one_the_user_set() -> None:
    v3 = "version: 3\nbudget_tokens: 900\nfresh_after_compactions: 3\n"
    text, old, new, added = config.migrate(v3)
    assert (old, new, added) == (3, 6, ["flush_at_percent", "context_window_tokens", "board",
                                        "summary_budget_tokens", "working_set_files", *SUBAGENT])
    assert text == ("version: 6\nbudget_tokens: 900\nfresh_after_compactions: 3\n" + FLUSH_KEYS + BOARD_KEY
                    + COMPACTION_KEYS)
    # A v3 file written by the release that already rendered them: only the version moves (and v4's keys).
    both = "version: 3\nflush_at_percent: 60  # mine\ncontext_window_tokens: 400000\nboard: shared\n"
    assert config.migrate(both) == (both.replace("version: 3", "version: 6") + COMPACTION_KEYS, 3, 6,
                                    ["summary_budget_tokens", "working_set_files", *SUBAGENT])
    half = "version: 3\nflush_at_percent: 0\nboard: shared\n"
    text, _, _, added = config.migrate(half)
    assert added == ["context_window_tokens", "summary_budget_tokens", "working_set_files", *SUBAGENT] and "flush_at_percent: 0\n" in text and text.count("flush_at") == 2


def test_migrate_v4_adds_the_compaction_tunables_and_keeps_one_the_user_set() -> None:
    v4 = "version: 4\nbudget_tokens: 900\nboard: shared\n"
    text, old, new, added = config.migrate(v4)
    assert (old, new, added) == (4, 6, ["summary_budget_tokens", "working_set_files", *SUBAGENT])
    assert text == "version: 6\nbudget_tokens: 900\nboard: shared\n" + COMPACTION_KEYS
    mine = "version: 4\nsummary_budget_tokens: 0  # off\n"
    text, _, _, added = config.migrate(mine)
    assert added == ["board", "working_set_files", *SUBAGENT] and "summary_budget_tokens: 0  # off\n" in text
    assert text.count("summary_budget_tokens:") == 1


def test_migrate_v4_keeps_a_repo_on_its_one_board(tmp_path: Path) -> None:
    text, old, new, added = config.migrate("version: 4\nbudget_tokens: 900\n")
    assert (old, new, added) == (4, 6, ["board", "summary_budget_tokens", "working_set_files", *SUBAGENT])
    assert text == "version: 6\nbudget_tokens: 900\n" + BOARD_KEY + COMPACTION_KEYS
    # Unmigrated, or a value no release writes: the one board too.
    for old_text in ("version: 4\nbudget_tokens: 900\n", "version: 5\nboard: per-branch\n"):
        (tmp_path / "config.yaml").write_text(old_text)
        assert config.read(tmp_path / "config.yaml")["board"] == "shared"


def test_migrate_never_downgrades_a_newer_file() -> None:
    newer = f"version: {config.CONFIG_VERSION + 1}\nbudget_tokens: 5\n"
    assert config.migrate(newer) == (newer, config.CONFIG_VERSION + 1, config.CONFIG_VERSION + 1, [])


@pytest.mark.parametrize("text", ["- a\n", "{budget_tokens: 5}\n"])
def test_migrate_refuses_lists_and_flow_mappings(text: str) -> None:
    with pytest.raises(UserError, match="config.yaml"):
        config.migrate(text)


def test_set_values_splices_the_value_only() -> None:
    text = "# header\nbudget_tokens: 500   # the budget\nnotes_count: 5\n"
    out, changes = config.set_values(text, {"budget_tokens": 700})
    assert out == "# header\nbudget_tokens: 700   # the budget\nnotes_count: 5\n"
    assert changes == ["budget_tokens 500 -> 700"]
    assert config.set_values(out, {"budget_tokens": 700}) == (out, [])


def test_set_values_appends_a_missing_key() -> None:
    out, changes = config.set_values("notes_count: 5", {"budget_tokens": 700})
    assert out == "notes_count: 5\nbudget_tokens: 700\n"
    assert changes == ["budget_tokens 700"]



def test_migrate_v5_adds_the_subagent_tunables_and_keeps_one_the_user_set(tmp_path: Path) -> None:
    text, old, new, added = config.migrate("version: 5\nbudget_tokens: 900\n")
    assert (old, new, added) == (5, 6, SUBAGENT)
    assert text.endswith("subagent_budget_tokens: 300\n" + "".join(COMPACTION_KEYS.splitlines(True)[-3:]))
    mine = "version: 5\nsubagent_skip: 'Explore|Plan'  # ours\n"
    text, _, _, added = config.migrate(mine)
    assert added == ["subagent_budget_tokens"] and "subagent_skip: 'Explore|Plan'  # ours\n" in text
    (tmp_path / "config.yaml").write_text(text)
    assert config.read(tmp_path / "config.yaml")["subagent_skip"] == "Explore|Plan"
