"""answers.py: precedence flags > recorded > defaults, validation, and the prompts."""
from __future__ import annotations

from pathlib import Path

import pytest

from agenthooks import answers, platforms
from agenthooks.errors import MissingAnswer, UserError

NONE = {"frameworks": None, "platforms": None, "lang": None, "budget_tokens": None}


def test_defaults_detect_frameworks_else_generic(tmp_path: Path) -> None:
    d = answers.defaults(tmp_path)
    assert d["frameworks"] == ["generic"]
    assert d["lang"] == "en" and d["budget_tokens"] == 500
    assert d["platforms"] == [platforms.this_machine()]
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".aider.conf.yml").write_text("")
    assert answers.defaults(tmp_path)["frameworks"] == ["claude-code", "aider"]


def test_check_sorts_and_dedups_lists_in_registry_order() -> None:
    assert answers.check("frameworks", ["aider", "codex", "aider"]) == ["codex", "aider"]
    assert answers.check("platforms", ["macos", "linux"]) == ["linux", "macos"]


@pytest.mark.parametrize("name, value, message", [
    ("frameworks", [], "give at least one of"),
    ("frameworks", "codex", "give at least one of"),
    ("frameworks", ["claud"], "did you mean claude-code"),
    ("platforms", ["amiga"], "unknown platform 'amiga'"),
    ("lang", "fr", "unknown language 'fr'"),
    ("budget_tokens", "lots", "budget must be a whole number"),
    ("budget_tokens", "10", "from 50 to 20000"),
])
def test_check_refuses(name: str, value: object, message: str) -> None:
    with pytest.raises(UserError, match=message):
        answers.check(name, value)


def test_check_budget_takes_text() -> None:
    assert answers.check("budget_tokens", " 800 ") == 800


def test_flags_beat_recorded_beat_defaults(tmp_path: Path) -> None:
    recorded = {"frameworks": ["codex"], "platforms": ["macos"], "lang": "zh", "budget_tokens": 900}
    flags = dict(NONE, frameworks=["cursor"], budget_tokens="700")
    out = answers.resolve(tmp_path, flags, recorded, yes=True, prompter=None, interactive=False)
    # Recorded answers from before boards: the repo keeps its one board (shared).
    assert out == {"platforms": ["macos"], "frameworks": ["cursor"], "lang": "zh",
                   "budget_tokens": 700, "board": "shared"}
    out = answers.resolve(tmp_path, NONE, {}, yes=True, prompter=None, interactive=False)
    assert out == answers.defaults(tmp_path)


def test_a_recorded_answer_that_no_longer_validates_falls_back(tmp_path: Path) -> None:
    out = answers.resolve(tmp_path, NONE, {"frameworks": ["gone-framework"]}, yes=True,
                          prompter=None, interactive=False)
    assert out["frameworks"] == ["generic"]


def test_no_terminal_no_yes_and_nothing_recorded_is_a_missing_answer(tmp_path: Path) -> None:
    with pytest.raises(MissingAnswer, match="missing answer 'platforms'.*--platform"):
        answers.resolve(tmp_path, NONE, {}, yes=False, prompter=None, interactive=False)
    recorded = {"frameworks": ["codex"], "platforms": ["linux"], "lang": "en", "budget_tokens": 500}
    assert answers.resolve(tmp_path, NONE, recorded, yes=False, prompter=None,
                           interactive=False) == dict(recorded, board="shared")


def test_prompts_ask_every_question(tmp_path: Path) -> None:
    prompter = answers.ScriptedPrompter({"Which systems": ["linux", "busybox"],
                                         "Which agent": ["opencode"], "Language": "zh",
                                         "Injection budget": "600", "Where does": "branch"})
    out = answers.resolve(tmp_path, NONE, {}, yes=False, prompter=prompter, interactive=True)
    assert out == {"platforms": ["linux", "busybox"], "frameworks": ["opencode"],
                   "lang": "zh", "budget_tokens": 600, "board": "branch"}
    # The final question comes later, from install, once the plan is printed.
    assert [m.split()[0] for m in prompter.asked] == ["Which", "Which", "Language", "Injection", "Where"]


def test_declining_the_plan_cancels_and_no_is_the_default() -> None:
    with pytest.raises(UserError, match="cancelled: nothing was written"):
        answers.confirm_plan(answers.ScriptedPrompter({answers.FINAL: False}))
    with pytest.raises(UserError, match="cancelled"):
        answers.confirm_plan(answers.ScriptedPrompter({}))  # Enter alone: the default, no
    answers.confirm_plan(answers.ScriptedPrompter({answers.FINAL: True}))


def test_the_framework_prompt_pre_ticks_only_what_the_repo_shows(tmp_path: Path) -> None:
    seen = {}

    class Spy(answers.ScriptedPrompter):
        def checkbox(self, message, choices, default, instruction=None):  # type: ignore[no-untyped-def]
            seen[message.split()[1]] = default
            return super().checkbox(message, choices, default or ["codex"], instruction)

    answers.resolve(tmp_path, NONE, {}, yes=False, prompter=Spy({}),
                    interactive=True)
    assert seen["agent"] == []  # not the --yes fallback, generic
