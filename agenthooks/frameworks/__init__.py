"""The agent frameworks agenthooks can wire: one module each, listed once in REGISTRY.

A framework module satisfies `Framework`: its NAME, the DETECT paths that suggest it is in
use, TRANSCRIPT (its hook payload names a transcript with token usage the hooks can read),
`plan`, `unregister`, `next_steps` and, optionally, `post_install`. Everything else here
(NAMES, DETECT, TRANSCRIPTS, the --framework help) is derived from REGISTRY, so an eleventh
framework is one module, its templates and its tests, plus one line below."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from agenthooks.files import PlannedFile
from agenthooks.frameworks import (
    aider,
    claude_code,
    cline,
    codex,
    copilot_cli,
    cursor,
    droid,
    gemini_cli,
    generic,
    kilo,
    opencode,
    pi,
    qwen_code,
    windsurf,
)


@runtime_checkable
class Framework(Protocol):
    """What install, upgrade, doctor and uninstall ask of a framework module."""

    NAME: str
    # Paths that, when present in a repo, suggest the framework is in use.
    DETECT: tuple[str, ...]
    # True when its payload names a transcript with token usage the hooks can read.
    TRANSCRIPT: bool

    def plan(self, root: Path, answers: dict[str, Any]) -> list[PlannedFile]:
        """Its files: kind "registration" for a file shared with the user (the merge of
        our entries into the current text), "owned" for a file wholly ours."""

    def unregister(self, root: Path) -> list[tuple[str, str | None]]:
        """For each file of its: the text without our entries, or None to delete it."""

    def next_steps(self, answers: dict[str, Any]) -> list[str]:
        """What the user must still do by hand (trust prompts and the like)."""


# The order of `--framework` help, detection and the hooks' framework list.
REGISTRY: tuple[Framework, ...] = (
    claude_code,
    codex,
    gemini_cli,
    cursor,
    copilot_cli,
    cline,
    windsurf,
    opencode,
    kilo,
    pi,
    qwen_code,
    droid,
    aider,
    generic,
)

NAMES = tuple(fw.NAME for fw in REGISTRY)
DETECT: dict[str, tuple[str, ...]] = {fw.NAME: fw.DETECT for fw in REGISTRY if fw.DETECT}
TRANSCRIPTS = tuple(fw.NAME for fw in REGISTRY if fw.TRANSCRIPT)
# A framework may declare INLINE_TOKENS: the most of the block its host shows inline.
INLINE_TOKENS: dict[str, int] = {fw.NAME: int(getattr(fw, "INLINE_TOKENS"))
                                 for fw in REGISTRY if hasattr(fw, "INLINE_TOKENS")}
# The hooks' slots each framework fills with its own templates (HOOK_SLOTS): "start" (top-level
# code at the end of each hook's start), "envelope" (lib/say.sh), "transcript" (lib/context.sh),
# "detect" (top-level code in on_compact.sh's quiet path) and "reload" (on_compact.sh's main).
SLOTS = ("start", "envelope", "transcript", "detect", "reload")


def hook_slots(selected: list[str]) -> dict[str, list[str]]:
    """Slot -> the templates the selected frameworks put there, in registry order."""
    out: dict[str, list[str]] = {slot: [] for slot in SLOTS}
    for fw in REGISTRY:
        if fw.NAME in selected:
            for slot, name in getattr(fw, "HOOK_SLOTS", {}).items():
                out[slot].append(f"frameworks/{fw.NAME}/{name}")
    return out


def transcript_search(selected: list[str]) -> bool:
    """Does a selected framework's transcript reader need the record search helpers?"""
    return any(getattr(fw, "TRANSCRIPT_SEARCH", False) for fw in REGISTRY if fw.NAME in selected)


# Wired through the hooks alone: the answer when nothing else is detected.
DEFAULT = generic.NAME

_BY_NAME = {fw.NAME: fw for fw in REGISTRY}


def get(name: str) -> Framework | None:
    """The framework called name, or None for a name this release does not know."""
    return _BY_NAME.get(name)


def detect(root: Path) -> list[str]:
    return [fw.NAME for fw in REGISTRY if any((root / p).exists() for p in fw.DETECT)]


def on_machine() -> list[str]:
    """Frameworks this user seems to run, by path and PATH checks only (nothing spawned)."""
    import shutil

    home = Path.home()
    found = []
    for fw in REGISTRY:
        folder, cmd = getattr(fw, "ON_MACHINE", ("", ""))
        if folder and ((home / folder).exists() or shutil.which(cmd) is not None):
            found.append(fw.NAME)
    return found


def registrations(root: Path, answers: dict[str, Any]) -> dict[str, list[PlannedFile]]:
    """Each selected framework's PlannedFiles for its hook registration (merged, not replaced)."""
    out: dict[str, list[PlannedFile]] = {}
    for name in answers["frameworks"]:
        fw = get(name)
        if fw is not None:
            out[name] = fw.plan(root, answers)
    return out


def next_steps(answers: dict[str, Any], changed: set[str] | None = None,
               own: dict[str, list[PlannedFile]] | None = None) -> list[str]:
    """What the user must still do by hand (trust prompts and the like). With `changed`
    (the paths this run wrote) and `own` (registrations()), only for frameworks whose files
    are among them: a re-install that left them as they were has nothing new to say."""
    out: list[str] = []
    for name in answers["frameworks"]:
        fw = get(name)
        if fw is None:
            continue
        if changed is not None:
            # A framework with no file of its own (generic) is wired through the hooks.
            files = {pf.path for pf in (own or {}).get(name, [])} or {
                p for p in changed if p.startswith(".agent/hooks/")}
            if not files & changed:
                continue
        out.extend(fw.next_steps(answers))
    return out


def notices(root: Path, answers: dict[str, Any]) -> list[str]:
    """What a framework's registration left as the user had it, and why."""
    out: list[str] = []
    for name in answers["frameworks"]:
        fn = getattr(get(name), "notices", None)
        if fn is not None:
            out.extend(fn(root, answers))
    return out


def post_install(root: Path, answers: dict[str, Any]) -> None:
    """After the files are written: what a framework without a start hook needs (aider
    runs pre_task once so .agent/injected_context.txt exists)."""
    for name in answers["frameworks"]:
        hook = getattr(get(name), "post_install", None)
        if hook is not None:
            hook(root, answers)
