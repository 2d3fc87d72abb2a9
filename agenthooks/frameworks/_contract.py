"""What a framework is to the rest of agenthooks: every member declared here, with its type
and the default a framework that lacks it gets. Each framework module keeps its plain
constants and functions and ends with one `FRAMEWORK = Framework(...)` naming the members it
has; frameworks.REGISTRY lists those values, and the code outside agenthooks/frameworks/
reads them as typed attributes."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from agenthooks.answer_types import Answers
from agenthooks.files import PlannedFile
from agenthooks.frameworks._transcript import Transcript


def _no_notices(root: Path, answers: Answers) -> list[str]:
    return []


def _nothing_after(root: Path, answers: Answers) -> None:
    return None


def _no_neighbours(root: Path) -> list[tuple[str, str]]:
    return []


def _no_plugin(root: Path) -> bool:
    return False


def _no_steps() -> list[str]:
    return []


@dataclass(frozen=True)
class TranscriptReader:
    """A host whose hook payload names a transcript with token usage the hooks can read."""

    # Fill t from the transcript's records.
    read: Callable[[Transcript, Iterable[Any]], None]
    # Is this record one of the host's (the hosts' tests are disjoint)?
    is_transcript: Callable[[dict[str, Any]], bool]
    # The transcripts of session sid, where the host keeps them.
    locate: Callable[[str], list[Path]]
    # The transcripts the host wrote for sessions in a repo.
    for_repo: Callable[[Path], list[Path]]


@dataclass(frozen=True)
class UserLevel:
    """A host with user-level hooks that install --user can register the dispatcher in."""

    # The user's settings file.
    settings: Callable[[], Path]
    # Our hook entries there, each running script.
    entries: Callable[[str], dict[str, list[dict[str, Any]]]]
    # The environment variable that moves the host's home ("" for none).
    home_var: str = ""
    # What the user must still do by hand after install --user.
    next_steps: Callable[[], list[str]] = _no_steps


@dataclass(frozen=True)
class Drill:
    """simulate's envelope for a framework it speaks."""

    # Event names that differ from Claude Code's.
    events: Mapping[str, str]
    # Its hooks answer in JSON (hookSpecificOutput.additionalContext).
    json: bool
    # The log words of a reload the compaction event caused, where they differ.
    announced: str | None = None
    # The edit tool's name, where it differs from Claude Code's.
    tool: str | None = None


# One value per framework, compared and hashed by identity (its dict members have no hash).
@dataclass(frozen=True, eq=False)
class Framework:
    """What install, upgrade, doctor, uninstall, simulate and the transcript reader ask of
    a framework."""

    name: str
    # Paths that, when present in a repo, suggest the framework is in use.
    detect: tuple[str, ...]
    # Its files: kind "registration" for a file shared with the user (the merge of our
    # entries into the current text), "owned" for a file wholly ours.
    plan: Callable[[Path, Answers], list[PlannedFile]]
    # For each file of its: the text without our entries, or None to delete it.
    unregister: Callable[[Path], list[tuple[str, str | None]]]
    # What the user must still do by hand (trust prompts and the like).
    next_steps: Callable[[Answers], list[str]]
    # What its registration left as the user had it, and why.
    notices: Callable[[Path, Answers], list[str]] = _no_notices
    # After the files are written (aider runs pre_task once).
    post_install: Callable[[Path, Answers], None] = _nothing_after
    # What on this machine shows the user runs it: a home folder, a command on PATH.
    on_machine: tuple[str, str] | None = None
    # Install questions asked only when this framework is selected (answers.ONLY_FOR).
    questions: tuple[str, ...] = ()
    # Its code in the hooks: slot -> template under templates/frameworks/NAME/.
    hook_slots: Mapping[str, str] = field(default_factory=dict)
    # What its pre-compaction event's hook prints reaches the host's summarizer.
    summary_instructions: bool = False
    # The most of the block, in estimated tokens, its host shows inline.
    inline_tokens: int | None = None
    # Its transcript reader, when the hooks can read its transcripts.
    transcript: TranscriptReader | None = None
    # Its transcript reader finds records with the hooks' ah_last/ah_record_bound.
    transcript_search: bool = False
    # install --local: the checkout's own settings file, kept out of git by the host.
    local_path: str | None = None
    # What install, run from a subfolder of the repo, says (and doctor repeats).
    subfolder_hint: str | None = None
    # Other session-start hooks it runs beside ours: (file, command) pairs (doctor).
    start_neighbours: Callable[[Path], list[tuple[str, str]]] = _no_neighbours
    # Does the agenthooks plugin run the hooks for this repo (doctor)?
    plugin_enabled: Callable[[Path], bool] = _no_plugin
    # Its user-level hooks, for install --user.
    user: UserLevel | None = None
    # simulate's envelope for it; None: the drill does not speak it.
    drill: Drill | None = None
