"""The agent frameworks agenthooks can wire: one module each, listed once in REGISTRY.

A framework module ends with `FRAMEWORK = Framework(...)` (_contract.py): its name, the
detect paths that suggest it is in use, `plan`, `unregister`, `next_steps` and whichever
optional members it has; every other member takes the contract's shared default. Everything
else here (NAMES, DETECT, TRANSCRIPTS, the --framework help) is derived from REGISTRY, so an
eleventh framework is one module, its templates and its tests, plus one line below."""
from __future__ import annotations

from pathlib import Path

from agenthooks.answer_types import Answers
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
# The contract, for the code that names a framework's type.
from agenthooks.frameworks._contract import Framework as Framework
from agenthooks.frameworks._contract import TranscriptReader as TranscriptReader
from agenthooks.frameworks._contract import UserLevel as UserLevel


# The order of `--framework` help, detection and the hooks' framework list.
REGISTRY: tuple[Framework, ...] = (
    claude_code.FRAMEWORK,
    codex.FRAMEWORK,
    gemini_cli.FRAMEWORK,
    cursor.FRAMEWORK,
    copilot_cli.FRAMEWORK,
    cline.FRAMEWORK,
    windsurf.FRAMEWORK,
    opencode.FRAMEWORK,
    kilo.FRAMEWORK,
    pi.FRAMEWORK,
    qwen_code.FRAMEWORK,
    droid.FRAMEWORK,
    aider.FRAMEWORK,
    generic.FRAMEWORK,
)

NAMES = tuple(fw.name for fw in REGISTRY)
DETECT: dict[str, tuple[str, ...]] = {fw.name: fw.detect for fw in REGISTRY if fw.detect}
TRANSCRIPTS = tuple(fw.name for fw in REGISTRY if fw.transcript is not None)
# What their pre-compaction event's hook prints reaches the host's summarizer (Claude Code's
# PreCompact; OpenCode's plugin passes it on).
SUMMARIES = tuple(fw.name for fw in REGISTRY if fw.summary_instructions)
# The most of the block each host that has a limit shows inline.
INLINE_TOKENS: dict[str, int] = {fw.name: fw.inline_tokens for fw in REGISTRY
                                 if fw.inline_tokens is not None}
# The hooks' slots each framework fills with its own templates (hook_slots): "start" (top-level
# code at the end of each hook's start), "envelope" (lib/say.sh), "transcript" (lib/context.sh),
# "detect" (top-level code in on_compact.sh's quiet path), "window" (top-level code there that may
# lower the window flush_at_percent counts against) and "reload" (on_compact.sh's main).
SLOTS = ("start", "envelope", "transcript", "detect", "own", "window", "reload")


def hook_slots(selected: list[str]) -> dict[str, list[str]]:
    """Slot -> the templates the selected frameworks put there, in registry order."""
    out: dict[str, list[str]] = {slot: [] for slot in SLOTS}
    for fw in REGISTRY:
        if fw.name in selected:
            for slot, name in fw.hook_slots.items():
                out[slot].append(f"frameworks/{fw.name}/{name}")
    return out


def transcript_search(selected: list[str]) -> bool:
    """Does a selected framework's transcript reader need the record search helpers?"""
    return any(fw.transcript_search for fw in REGISTRY if fw.name in selected)


# Wired through the hooks alone: the answer when nothing else is detected.
DEFAULT = generic.FRAMEWORK.name

_BY_NAME = {fw.name: fw for fw in REGISTRY}


def get(name: str) -> Framework | None:
    """The framework called name, or None for a name this release does not know."""
    return _BY_NAME.get(name)


def detect(root: Path) -> list[str]:
    return [fw.name for fw in REGISTRY if any((root / p).exists() for p in fw.detect)]


def on_machine() -> list[str]:
    """Frameworks this user seems to run, by path and PATH checks only (nothing spawned)."""
    import shutil

    home = Path.home()
    found = []
    for fw in REGISTRY:
        if fw.on_machine is None:
            continue
        folder, cmd = fw.on_machine
        if folder and ((home / folder).exists() or shutil.which(cmd) is not None):
            found.append(fw.name)
    return found


def registrations(root: Path, answers: Answers) -> dict[str, list[PlannedFile]]:
    """Each selected framework's PlannedFiles for its hook registration (merged, not replaced)."""
    out: dict[str, list[PlannedFile]] = {}
    for name in answers["frameworks"]:
        fw = get(name)
        if fw is not None:
            out[name] = fw.plan(root, answers)
    return out


def next_steps(answers: Answers, changed: set[str] | None = None,
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


def notices(root: Path, answers: Answers) -> list[str]:
    """What a framework's registration left as the user had it, and why."""
    out: list[str] = []
    for name in answers["frameworks"]:
        fw = get(name)
        if fw is not None:
            out.extend(fw.notices(root, answers))
    return out


def post_install(root: Path, answers: Answers) -> None:
    """After the files are written: what a framework without a start hook needs (aider
    runs pre_task once so .agent/injected_context.txt exists)."""
    for name in answers["frameworks"]:
        fw = get(name)
        if fw is not None:
            fw.post_install(root, answers)
