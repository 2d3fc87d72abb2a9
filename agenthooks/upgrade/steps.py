"""Per-file verdicts for install and upgrade, and the writes they imply.

create     the file is new
identical  already what we would write
update     ours and pristine: replaced (config.yaml: migrated to the new version)
merge      ours, edited by the user, three-way merged cleanly (git merge-file)
conflict   ours, edited, and the edit clashes: FILE.agenthooks-new beside it, with the
           merge and its markers (or the new version); the user's file stays as it was.
           Only a file nothing runs (.agent/.gitignore, .agent/.gitattributes) may get
           the markers in place, the git index marking it unmerged: markers in a hook,
           a wrapper or a plugin would make it a syntax error, and the agent would lose
           its memory (Claude Code even blocks the prompt on a hook's exit 2)
keep       memory, the user's config, an edit with nothing new to merge in, or a file
           the user deleted (it stays deleted unless --restore FILE)
restore    a file the user deleted that another hook still sources (post_edit.sh and
           on_compact.sh load pre_task.sh): written again, since keeping it deleted would
           not keep the user's choice but break every run of the hooks they kept
skip       not ours, in a path we write: moved aside to FILE.legacy and ours written,
           or refused (left alone) with a one-line hint
remove     ours, pristine, and no longer generated

A Plan is every Step, decided before anything is written (classify.py) and carried out
afterwards (apply.py): a dry run is the same plan without the writes.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional


NEW_SUFFIX = ".agenthooks-new"
HOOK_DIR = ".agent/hooks/"
HOOK_LIB = ".agent/hooks/lib/"
LEGACY_SUFFIX = ".legacy"
MARKER = b">>>>>>> agenthooks (new)"
WRITES = ("create", "update", "merge", "conflict", "skip", "remove", "restore")


@dataclass(frozen=True)
class Verdict:
    verdict: str
    path: str
    note: str = ""

    def line(self) -> str:
        return f"  {self.verdict:<9}  {self.path}" + (f"  ({self.note})" if self.note else "")


@dataclass
class Step:
    verdict: Verdict
    writes: list[tuple[Path, bytes, int]] = field(default_factory=list)
    moves: list[tuple[Path, Path]] = field(default_factory=list)
    removes: list[Path] = field(default_factory=list)
    trees: list[Path] = field(default_factory=list)  # folders removed whole (uninstall)
    # (path relative to the repo root, base, ours, theirs, mode) for git's index stages.
    stage: Optional[tuple[str, bytes, bytes, bytes, int]] = None
    # True when the step rewrites bytes the user may have edited, in place.
    touches_edits: bool = False
    refused: bool = False


@dataclass
class Plan:
    steps: list[Step]
    records: dict[str, Any]
    pristine: list[bytes]

    @property
    def verdicts(self) -> list[Verdict]:
        return [s.verdict for s in self.steps]


def side_file(path: Path) -> Path:
    return path.with_name(path.name + NEW_SUFFIX)


def resolve_hint(relpath: str, side_rel: str) -> str:
    return (f"resolve {side_rel} and move it over {relpath} (or delete it to keep yours), "
            "then run agenthooks install again")
