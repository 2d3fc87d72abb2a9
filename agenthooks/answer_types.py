"""The shapes of install's answers and of the command-line flags that answer its questions:
every key named with its type, so that mypy checks each one where it is read."""
from __future__ import annotations

from typing import Any, Mapping, Optional, TypedDict, cast


class _Asked(TypedDict):
    """The answers every install has (answers.QUESTIONS asked of every repo)."""

    platforms: list[str]
    frameworks: list[str]
    lang: str
    budget_tokens: int
    board: str  # local | branch | shared (config.BOARDS)


class Answers(_Asked, total=False):
    """install's answers, as answers.resolve checks them and the manifest records them.
    The keys below come only with what needs them."""

    # Asked only when Claude Code is selected (answers.ONLY_FOR); kept while it is not.
    statusline: bool
    # The repo's own words for what the hooks say (.agent/messages.yaml), when it has any.
    messages: dict[str, str]
    # install --local: this checkout only, nothing committed.
    local: bool


class Flags(TypedDict, total=False):
    """What the command line said (None: not given). Each question's flag bears its name."""

    frameworks: Optional[list[str]]
    platforms: Optional[list[str]]
    lang: Optional[str]
    budget_tokens: Optional[str]
    board: Optional[str]
    statusline: Optional[bool]
    # --add/--remove: frameworks added to or taken from the recorded ones.
    add: Optional[list[str]]
    remove: Optional[list[str]]
    local: bool
    # agenthooks board --switch installs with the new board (install refuses a plain --board).
    switch_board: bool


def unchecked(recorded: Mapping[str, Any]) -> Answers:
    """The answers a manifest recorded, taken as they are, unchecked: only doctor renders
    from them (a clone may commit any), and it reports whatever then fails."""
    return cast(Answers, dict(recorded))
