"""What a manifest may name: it is untrusted input (a clone may commit any), so only the
records of files agenthooks writes are kept."""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, Callable

from agenthooks import config, manifest, safepath
from agenthooks.answer_types import Answers
from agenthooks.upgrade.steps import HOOK_DIR, LEGACY_SUFFIX, NEW_SUFFIX


# Files of ours under .agent/ outside hooks/ (hooks/ holds only ours, in any release's layout).
AGENT_OWN = (".agent/.gitignore", ".agent/.gitattributes", ".agent/config.yaml")


@functools.lru_cache(maxsize=None)
def framework_files(name: str) -> frozenset[str]:
    """Every file framework NAME plans, on every platform, with its status line: planned in
    an empty folder, so nothing of the repo is read."""
    import tempfile

    from agenthooks import frameworks, platforms

    answers = Answers(frameworks=[name], platforms=list(platforms.PLATFORMS), lang="en",
                      budget_tokens=config.DEFAULTS["budget_tokens"], board=config.NEW_BOARD,
                      statusline=True)
    with tempfile.TemporaryDirectory(prefix="agenthooks-paths-") as tmp:
        regs = frameworks.registrations(Path(tmp), answers)
    return frozenset(pf.path for pfs in regs.values() for pf in pfs)


def framework_paths() -> frozenset[str]:
    """Every file any framework module plans."""
    from agenthooks import frameworks

    return frozenset().union(*(framework_files(n) for n in frameworks.NAMES))


def generated(rel: str, template: str = "") -> bool:
    """Is rel a file agenthooks writes: a normalised path under .agent/hooks/, one of ours
    under .agent/, the top .gitattributes, or a framework's file? TEMPLATE (the record's)
    says which framework to ask first; the others are asked only when it does not plan rel."""
    from agenthooks import frameworks, gitattributes

    if not safepath.normalised(rel):
        return False
    if rel.startswith(HOOK_DIR) or rel in AGENT_OWN or rel == gitattributes.PATH:
        return True
    named = template.removeprefix("frameworks/")
    for name in frameworks.NAMES:
        if (named == name or named.startswith(name + "-")) and rel in framework_files(name):
            return True
    return rel in framework_paths()


def trusted(recorded: dict[str, Any], warn: Callable[[str], None] | None = None) -> dict[str, Any]:
    """The manifest as untrusted input (a clone may commit any): only the records of files
    agenthooks writes are kept, and only side-file names (legacy, pending) that sit beside
    their file; the rest is dropped, and WARN says so in one line."""
    files = recorded.get("files", {})
    kept: dict[str, Any] = {}
    dropped = []
    for rel, rec in files.items():
        if not isinstance(rec, dict) or not generated(rel, str(rec.get("template", ""))):
            dropped.append(rel)
            continue
        name = rel.rsplit("/", 1)[-1]
        rec = dict(rec)
        if rec.get("legacy") is not None and rec["legacy"] != name + LEGACY_SUFFIX:
            rec.pop("legacy")
        if rec.get("pending") is not None and rec["pending"] != name + NEW_SUFFIX:
            rec.pop("pending")
            rec.pop("pending_blob", None)
        kept[rel] = rec
    if dropped and warn is not None:
        more = f" and {len(dropped) - 1} more" if len(dropped) > 1 else ""
        warn(f"{manifest.PATH} names {dropped[0]!r}{more}, not a file agenthooks writes: "
             "ignored (never removed nor rewritten)")
    return dict(recorded, files=kept)
