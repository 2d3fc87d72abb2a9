"""The agent frameworks agenthooks can wire, and how to spot each in a repo."""
from __future__ import annotations

from pathlib import Path

NAMES = (
    "claude-code",
    "codex",
    "gemini-cli",
    "cursor",
    "copilot-cli",
    "cline",
    "windsurf",
    "opencode",
    "aider",
    "generic",
)

# A path that, when present in a repo, suggests the framework is in use.
DETECT: dict[str, tuple[str, ...]] = {
    "claude-code": (".claude", "CLAUDE.md"),
    "codex": (".codex",),
    "gemini-cli": (".gemini", "GEMINI.md"),
    "cursor": (".cursor", ".cursorrules"),
    "copilot-cli": (".github/hooks", ".github/copilot-instructions.md"),
    "cline": (".clinerules", ".cline"),
    "windsurf": (".windsurf", ".windsurfrules"),
    "opencode": (".opencode", "opencode.json"),
    "aider": (".aider.conf.yml",),
}

# Frameworks whose payload names a transcript with token usage the hooks can read.
TRANSCRIPTS = ("claude-code", "codex", "gemini-cli")


def detect(root: Path) -> list[str]:
    return [name for name in NAMES if any((root / p).exists() for p in DETECT.get(name, ()))]


def _module(name: str):  # type: ignore[no-untyped-def]
    """The wiring module of a framework (agenthooks.frameworks.claude_code, ...), if any."""
    import importlib

    try:
        return importlib.import_module(f"agenthooks.frameworks.{name.replace('-', '_')}")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("agenthooks.frameworks."):
            return None
        raise


def registrations(root: Path, answers: dict) -> list:  # type: ignore[type-arg]
    """PlannedFiles for each selected framework's hook registration (merged, not replaced)."""
    out = []
    for name in answers["frameworks"]:
        mod = _module(name)
        if mod is not None:
            out.extend(mod.plan(root, answers))
    return out


def next_steps(answers: dict, root: Path | None = None,  # type: ignore[type-arg]
               changed: set[str] | None = None) -> list[str]:
    """What the user must still do by hand (trust prompts and the like). With `changed`,
    only for frameworks whose registration files are among those paths: a re-install
    that left them as they were has nothing new to say."""
    out: list[str] = []
    for name in answers["frameworks"]:
        mod = _module(name)
        if mod is None or not hasattr(mod, "next_steps"):
            continue
        if changed is not None and root is not None:
            # A framework with no file of its own (generic) is wired through the hooks.
            own = {pf.path for pf in mod.plan(root, answers)} or {
                p for p in changed if p.startswith(".agent/hooks/")}
            if not own & changed:
                continue
        out.extend(mod.next_steps(answers))
    return out


def post_install(root: Path, answers: dict) -> None:  # type: ignore[type-arg]
    """After the files are written: what a framework without a start hook needs (aider
    runs pre_task once so .agent/injected_context.txt exists)."""
    for name in answers["frameworks"]:
        mod = _module(name)
        if mod is not None and hasattr(mod, "post_install"):
            mod.post_install(root, answers)
