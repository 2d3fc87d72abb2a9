"""The installer's questions, and where each answer comes from.

Precedence: flags, then the answers recorded at the last install, then defaults. A
question is asked only on a terminal, without --yes, and when no flag answered it."""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Optional, Protocol

from agenthooks import config, frameworks, messages, platforms, usermessages
from agenthooks.answer_types import Answers, Flags
from agenthooks.errors import MissingAnswer, UserError, unknown


class Prompter(Protocol):
    def checkbox(self, message: str, choices: list[tuple[str, str]], default: list[str],
                 instruction: str | None = None) -> list[str]: ...

    def select(self, message: str, choices: list[tuple[str, str]], default: str) -> str: ...

    def text(self, message: str, default: str, validate: Callable[[str], bool | str]) -> str: ...

    def confirm(self, message: str, default: bool) -> bool: ...


@dataclass(frozen=True)
class Question:
    name: str
    flag: str
    kind: str  # checkbox | select | text
    message: str
    instruction: str | None = None


QUESTIONS = (
    Question(
        "platforms", "--platform", "checkbox", "Which systems will run these hooks?",
        "The hooks are committed: teammates and CI may run other systems than this one.",
    ),
    Question("frameworks", "--framework", "checkbox", "Which agent frameworks should call them?"),
    Question("lang", "--lang", "select", "Language of the memory templates and messages?"),
    Question("budget_tokens", "--budget", "text", "Injection budget in estimated tokens?"),
    Question("board", "--board", "select", "Where does each task's progress board live?"),
    Question("statusline", "--statusline", "confirm",
             "Show memory in Claude Code's status line (size, compactions, snapshot age)?"),
)
# Asked only when its framework is selected (default no); otherwise only a recorded value is kept.
ONLY_FOR = {q: fw.name for fw in frameworks.REGISTRY for q in fw.questions}


def defaults(root: Path) -> dict[str, Any]:
    return {
        "platforms": [platforms.this_machine()],
        "frameworks": frameworks.detect(root) or [frameworks.DEFAULT],
        "lang": "en",
        "budget_tokens": config.DEFAULTS["budget_tokens"],
        "board": config.NEW_BOARD,
    }


def current_board(root: Path) -> str | None:
    """The board model config.yaml says (shared when it predates the key), or None before an
    install: the one place it is recorded. Only `agenthooks board --switch` changes it."""
    path = root / ".agent" / "config.yaml"
    return str(config.read(path)["board"]) if path.is_file() else None


# One line each, as the installer offers them.
BOARD_CHOICES = (
    ("local", "local: one board per branch and worktree, kept out of git (the team default)"),
    ("branch", "branch: one board per branch, committed (each branch's own file: merges never conflict)"),
    ("shared", "shared: one board for the whole repo, committed (a solo repo; branches conflict on it)"),
)


def check(name: str, value: Any) -> Any:
    """Validate one answer, whatever its source."""
    valid = {"platforms": platforms.PLATFORMS, "frameworks": frameworks.NAMES}
    if name in valid:
        if not isinstance(value, list) or not value:
            raise UserError(f"{name}: give at least one of {', '.join(valid[name])}")
        for item in value:
            if item not in valid[name]:
                raise unknown(name[:-1], item, valid[name])
        return sorted(set(value), key=valid[name].index)
    if name == "lang":
        if value not in messages.LANGS:
            raise unknown("language", value, messages.LANGS)
        return value
    if name == "budget_tokens":
        try:
            number = int(str(value).strip())
        except ValueError:
            raise UserError(f"budget must be a whole number, not {value!r}") from None
        return config.check_int("budget_tokens", number)
    if name == "board":
        if value not in config.BOARDS:
            raise unknown("board", value, config.BOARDS)
        return value
    if name == "statusline":
        if not isinstance(value, bool):
            raise UserError(f"statusline must be true or false, not {value!r}")
        return value
    raise AssertionError(name)


def edit_frameworks(given: list[str] | None, add: Iterable[str], remove: Iterable[str],
                    recorded: Mapping[str, Any], root: Path) -> list[str] | None:
    """--add/--remove applied to --framework, else to the recorded frameworks (else what
    the repo shows): the rest stays as it was. None when neither was given."""
    add, remove = list(add), list(remove)
    if not add and not remove:
        return given
    for names in (add, remove):
        if names:
            check("frameworks", names)  # an unknown name fails here, not silently
    base = list(given or recorded.get("frameworks") or frameworks.detect(root))
    out = [f for f in base + [a for a in add if a not in base] if f not in remove]
    if not out:
        raise UserError(f"--remove {' --remove '.join(remove)} leaves no framework: "
                        "uninstall instead (agenthooks uninstall), or --add another")
    return out


def _choices(name: str) -> list[tuple[str, str]]:
    if name == "platforms":
        return [(p, f"{p}: {platforms.DESCRIPTIONS[p]}") for p in platforms.PLATFORMS]
    if name == "frameworks":
        return [(f, f) for f in frameworks.NAMES]
    if name == "board":
        return list(BOARD_CHOICES)
    return [(lang, {"en": "English", "zh": "中文"}[lang]) for lang in messages.LANGS]


def resolve(
    root: Path,
    flags: Flags,
    recorded: Mapping[str, Any],
    *,
    yes: bool,
    prompter: Prompter | None,
    interactive: bool | None = None,
) -> Answers:
    """Every answer, checked. Raises MissingAnswer before anything is written. RECORDED:
    the answers of the last install, as its manifest holds them (each checked before use)."""
    if interactive is None:
        interactive = sys.stdin.isatty()
    got = _asked(root, flags, recorded, yes=yes, prompter=prompter, interactive=interactive)
    out = Answers(platforms=got["platforms"], frameworks=got["frameworks"], lang=got["lang"],
                  budget_tokens=got["budget_tokens"], board=got["board"])
    if "statusline" in got:
        out["statusline"] = got["statusline"]
    # What the hooks say, in the repo's own words: .agent/messages.yaml, read each run.
    own = usermessages.read(root, out["lang"])
    if own:
        out["messages"] = own
    return out


def _asked(root: Path, flags: Flags, recorded: Mapping[str, Any], *, yes: bool,
           prompter: Prompter | None, interactive: bool) -> dict[str, Any]:
    """Each question's checked answer, by its name: from its flag, the recorded answer, a
    prompt or the default, in QUESTIONS order (a later question may depend on an earlier)."""
    given: Mapping[str, object] = flags
    base = defaults(root)
    board = current_board(root)
    out: dict[str, Any] = {}
    for q in QUESTIONS:
        if q.name == "board" and given.get("board") is None and (board is not None or recorded):
            # An installed repo keeps its board (board --switch moves it); answers recorded
            # before boards existed mean the one board, snapshot.md.
            out["board"] = board or recorded.get("board") or "shared"
            continue
        only = ONLY_FOR.get(q.name)
        if only is not None and only not in out.get("frameworks", []) and given.get(q.name) is None:
            if isinstance(recorded.get(q.name), bool):
                out[q.name] = recorded[q.name]  # kept for when its framework comes back
            continue
        if given.get(q.name) not in (None, []):
            out[q.name] = check(q.name, given[q.name])
            continue
        last = recorded.get(q.name)
        if last is not None:
            try:
                last = check(q.name, last)
            except UserError:
                last = None  # a recorded answer that no longer validates is asked again
        default = last if last is not None else base.get(q.name, False)
        if yes:
            out[q.name] = check(q.name, default)
        elif interactive and prompter is not None:
            if q.name == "frameworks" and last is None:
                # Pre-tick what the repo, else this machine, shows; `generic` is the --yes
                # fallback, and ticked beside the user's pick it would wire a second framework.
                default = frameworks.detect(root) or frameworks.on_machine()
            if q.name == "statusline" and last is None:
                default = True  # offered: yes unless the user says no
            out[q.name] = check(q.name, _ask(prompter, q, default))
        elif last is not None:
            out[q.name] = last
        else:
            raise MissingAnswer(
                f"missing answer '{q.name}' and no terminal to ask on: pass {q.flag} "
                f"or --yes (recorded answers, then defaults)"
            )
    return out


def confirm_plan(prompter: Prompter) -> None:
    """The last question, asked after the plan is printed: no unless the user says yes."""
    if not prompter.confirm(FINAL, False):
        raise UserError("cancelled: nothing was written")


FINAL = "Write these files?"
# Shown under every checkbox: questionary's own hint is replaced by an instruction.
KEYS = "(space to tick, enter to confirm)"


def _ask(prompter: Prompter, q: Question, default: Any) -> Any:
    if q.kind == "checkbox":
        return prompter.checkbox(q.message, _choices(q.name), list(default), q.instruction)
    if q.kind == "select":
        return prompter.select(q.message, _choices(q.name), default)
    if q.kind == "confirm":
        return bool(prompter.confirm(q.message, bool(default)))

    def valid(text: str) -> bool | str:
        if not text.strip():
            return True  # Enter on an emptied answer: the default
        try:
            check(q.name, text)
        except UserError as exc:
            return str(exc)
        return True

    answer = prompter.text(q.message, str(default), valid)
    return answer if str(answer).strip() else default


class QuestionaryPrompter:
    """The real prompts. questionary is imported only here, when prompting."""

    def __init__(self, **io: Any) -> None:
        self.io = io  # input=/output= for prompt_toolkit, used by tests

    def checkbox(self, message: str, choices: list[tuple[str, str]], default: list[str],
                 instruction: str | None = None) -> list[str]:
        import questionary

        items = [questionary.Choice(title, value=v, checked=v in default) for v, title in choices]
        hint = f"{KEYS} {instruction}" if instruction else KEYS
        # The error shows in the prompt's toolbar, beside the list, not after it.
        return list(questionary.checkbox(
            message, choices=items, instruction=hint,
            validate=lambda picked: bool(picked) or f"nothing ticked: {KEYS}", **self.io,
        ).unsafe_ask())

    def select(self, message: str, choices: list[tuple[str, str]], default: str) -> str:
        import questionary

        items = [questionary.Choice(title, value=v) for v, title in choices]
        return str(questionary.select(message, choices=items, default=default, **self.io).unsafe_ask())

    def text(self, message: str, default: str, validate: Callable[[str], bool | str]) -> str:
        """Asked again until valid, the error beside the question (not in a toolbar at the
        foot of the screen), the answer given kept for editing."""
        import questionary

        shown, why = default, ""
        while True:
            asked = f"{message} ({why}; empty: {default})" if why else message
            answer = str(questionary.text(asked, default=shown, **self.io).unsafe_ask())
            verdict = validate(answer)
            if verdict is True:
                return answer
            shown, why = answer, str(verdict) if verdict else "not valid"

    def confirm(self, message: str, default: bool) -> bool:
        import questionary

        # auto_enter=False: a one-key answer waits for Enter, so that Enter is not carried
        # into the next question (it once answered the final one).
        return bool(questionary.confirm(message, default=default, auto_enter=False,
                                        **self.io).unsafe_ask())

    def pick_rules(self, offer: list[Any]) -> Optional[list[Any]]:
        """The rules install offers to bring into tattoo.md, a page at a time, ticked as
        importer.TICK_RULE says. None when cancelled."""
        from agenthooks.memory import importer

        return importer.ask_pages(offer, **self.io)


class ScriptedPrompter:
    """Answers from a dict keyed by question text prefix; records what was asked."""

    def __init__(self, answers: dict[str, Any]) -> None:
        self.answers = answers
        self.asked: list[str] = []

    def _get(self, message: str, default: Any) -> Any:
        self.asked.append(message)
        for prefix, value in self.answers.items():
            if message.startswith(prefix):
                if isinstance(value, BaseException):
                    raise value
                return value
        return default

    def checkbox(self, message, choices, default, instruction=None):  # type: ignore[no-untyped-def]
        return self._get(message, default)

    def select(self, message, choices, default):  # type: ignore[no-untyped-def]
        return self._get(message, default)

    def text(self, message, default, validate):  # type: ignore[no-untyped-def]
        return self._get(message, default)

    def confirm(self, message, default):  # type: ignore[no-untyped-def]
        return self._get(message, default)
