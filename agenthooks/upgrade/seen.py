"""What the classifiers know of a planned file, and the cases every kind of file shares:
something not a regular file in its place, or no file at all."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from agenthooks.files import PlannedFile
from agenthooks.upgrade.steps import Step, Verdict


@dataclass(frozen=True)
class Seen:
    """What classify knows of one planned file before deciding it."""
    root: Path
    pf: PlannedFile
    path: Path
    new: bytes  # what we would write
    cur: bytes | None  # the regular file's bytes now, None when there is none
    lexists: bool  # something is at path (a symlink or folder counts)
    rec: dict[str, Any] | None  # its manifest record from the last install
    record: dict[str, Any]  # the record this render would get
    restore: frozenset[str]
    conflict: str
    in_git: bool
    settings: dict[str, Any]


# A classifier's answer: the step, the manifest record to keep (None: none), and the
# pristine render to store as a future merge base (None: none).
Outcome = tuple[Step, Optional[dict[str, Any]], Optional[bytes]]


def not_regular(s: Seen) -> Outcome | None:
    """A symlink, folder or device where we would write: refused, left alone."""
    if s.lexists and s.cur is None:
        return Step(Verdict("skip", s.pf.path, "not a regular file: left alone; remove it "
                            "and run agenthooks install again"), refused=True), s.rec, None
    return None


def missing(s: Seen) -> Outcome | None:
    """No file: created, unless the user deleted one we had written (kept deleted)."""
    if s.cur is not None:
        return None
    if s.rec is not None and s.pf.path not in s.restore:
        return Step(Verdict("keep", s.pf.path, f"deleted by you; --restore {s.pf.path} "
                            "brings it back")), s.rec, None
    return Step(Verdict("create", s.pf.path), writes=[(s.path, s.new, s.pf.mode)]), \
        s.record, s.new
