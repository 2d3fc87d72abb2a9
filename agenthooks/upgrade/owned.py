"""A file wholly ours (hooks, .gitignore, a framework's plugin or wrapper): replaced while
pristine, three-way merged with git merge-file when edited, and where a clash goes."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from agenthooks import manifest
from agenthooks.files import PlannedFile, is_ours
from agenthooks.gitstore import git_blob, merge3
from agenthooks.upgrade.seen import Outcome, Seen, missing, not_regular
from agenthooks.upgrade.steps import (LEGACY_SUFFIX, MARKER, NEW_SUFFIX, Step, Verdict, resolve_hint,
                                      side_file)


def runs_as_code(pf: PlannedFile, path: Path) -> bool:
    """A file the agent runs or loads (a hook, a framework's wrapper, plugin or hook list):
    conflict markers in place would break it, so its conflicts go to FILE.agenthooks-new."""
    try:
        executable = bool(path.stat().st_mode & 0o111)
    except OSError:
        executable = False
    return (pf.path.startswith(".agent/hooks/") or bool(pf.mode & 0o111) or executable
            or pf.template.startswith("frameworks/"))


def owned(s: Seen) -> Outcome:
    """A file wholly ours (hooks, .gitignore, a framework's plugin or wrapper): replaced
    while pristine, three-way merged when edited, never overwritten when not ours."""
    early = not_regular(s) or missing(s)
    if early is not None:
        return early
    pf, path, new, cur, record = s.pf, s.path, s.new, s.cur, s.record
    assert cur is not None
    if pf.path.endswith(".sh") and b"\r\n" in cur:
        return _line_endings(s, cur)
    if cur == new:
        if (path.stat().st_mode & 0o777) != pf.mode:
            return Step(Verdict("update", pf.path, f"mode set to {oct(pf.mode)[2:]}"),
                        writes=[(path, new, pf.mode)]), record, new
        return Step(Verdict("identical", pf.path)), record, new
    if s.rec is None and not is_ours(cur):
        return _not_ours(s)
    rec = s.rec
    if rec is not None and rec.get("legacy"):
        record = dict(record, legacy=rec["legacy"])
    if rec is not None and manifest.is_pristine(cur, rec):
        return Step(Verdict("update", pf.path), writes=[(path, new, pf.mode)]), record, new
    if MARKER in cur:
        return Step(Verdict("conflict", pf.path, "still has conflict markers from the last "
                            "upgrade: resolve them")), rec or record, new
    side = side_file(path)
    side_rel = f"{pf.path}{NEW_SUFFIX}"
    if rec is not None and rec.get("pending"):
        if side.exists() or side.is_symlink():
            # Never overwrite a resolution the user may be working on.
            return Step(Verdict("conflict", pf.path, "unresolved: your file kept; "
                                + resolve_hint(pf.path, side_rel))), rec, new
        # The side file is gone: the user reconciled their file with the version it held
        # (moved it into place, or deleted it to keep theirs). That version is the merge
        # base from now on.
        pending_blob = rec.get("pending_blob")
        rec = {k: v for k, v in rec.items() if k not in ("pending", "pending_blob")}
        if pending_blob == record["blob"]:
            return Step(Verdict("keep", pf.path, f"edited by you; conflict resolved "
                                f"({side.name} is gone)")), record, new
        if pending_blob:
            rec["blob"] = pending_blob
    base = git_blob(s.root, rec.get("blob", "")) if rec is not None else None
    if base is None and rec is not None and rec.get("blob") == record["blob"]:
        # No merge base here (a shallow clone lacks it), but the new render is the one
        # recorded: nothing new to merge, as a full clone finds.
        base = new
    if base is None:
        why = "edited, no merge base" if rec is not None else "ours, but not in the manifest"
        # Still no base next time: the same verdict, until the user reconciles the two.
        return Step(Verdict("conflict", pf.path, f"{why}: your file kept, new version in "
                            f"{side_rel}: " + resolve_hint(pf.path, side_rel)),
                    writes=[(side, new, pf.mode)]), \
            dict(rec or record, pending=side.name, pending_blob=record["blob"]), new
    if base == new:
        return Step(Verdict("keep", pf.path, "edited by you; nothing new to merge")), record, new
    return _merge(s, cur, base, rec, record)


def _line_endings(s: Seen, cur: bytes) -> Outcome:
    """A bash script turned CRLF (a Windows editor, a copy, a zip) fails on every run, and
    its CRs are no edit of the user's: decided on its LF text, then written with LF."""
    lf = manifest.lf(cur)
    step, rec, base = owned(replace(s, cur=lf))
    verdict = step.verdict
    if step.refused or verdict.verdict == "skip":
        return step, rec, base  # not ours: moved aside or left alone, as it is
    if any(p == s.path for p, _data, _mode in step.writes):
        note = "; ".join(filter(None, [verdict.note, "line endings repaired"]))
        return replace(step, verdict=replace(verdict, note=note)), rec, base
    # identical, keep or a conflict waiting beside it: the file stays as it is, with LF.
    mode = s.pf.mode if verdict.verdict == "identical" else s.path.stat().st_mode & 0o777
    step = replace(step, writes=[*step.writes, (s.path, lf, mode)])
    if verdict.verdict == "conflict":
        return replace(step, verdict=replace(verdict, note="line endings of your file "
                                             "repaired; " + verdict.note)), rec, base
    note = "line endings repaired" + ("" if verdict.verdict == "identical" else
                                      "; " + verdict.note)
    return replace(step, verdict=Verdict("update", s.pf.path, note)), rec, base


def _not_ours(s: Seen) -> Outcome:
    """A file someone else wrote where ours goes: moved aside to FILE.legacy, or refused
    when that name is taken."""
    pf, path = s.pf, s.path
    legacy = path.with_name(path.name + LEGACY_SUFFIX)
    if legacy.exists() or legacy.is_symlink():
        return Step(Verdict("skip", pf.path, f"not ours, and {legacy.name} already exists: "
                            "left alone; move one of them away and run agenthooks install "
                            "again"), refused=True), None, None
    return Step(Verdict("skip", pf.path, f"not ours: moved to {legacy.name}, ours written"),
                moves=[(path, legacy)], writes=[(path, s.new, pf.mode)]), \
        dict(s.record, legacy=legacy.name), s.new


def _merge(s: Seen, cur: bytes, base: bytes, rec: dict[str, Any] | None,
           record: dict[str, Any]) -> Outcome:
    """An edited file of ours with a merge base: git merge-file, and where a clash goes."""
    pf, path, new = s.pf, s.path, s.new
    side = side_file(path)
    side_rel = f"{pf.path}{NEW_SUFFIX}"
    rc, merged = merge3(cur, base, new, pf.path)
    mode = path.stat().st_mode & 0o777 | (pf.mode & 0o111)
    if rc == 0:
        if merged == cur:
            return Step(Verdict("keep", pf.path, "edited by you; the upgrade was already "
                                "in your version")), record, new
        return Step(Verdict("merge", pf.path, "your edits kept"),
                    writes=[(path, merged, mode)], touches_edits=True), record, new
    if s.conflict == "new" or runs_as_code(pf, path):
        # The user's file stays in place and keeps running while the conflict waits.
        if s.conflict == "new":
            what, text = f"new version in {side_rel}", new
        else:
            what, text = f"{rc} conflict(s) marked in {side_rel}", merged
        # Until the side file is gone the clash is reported again, never dropped; then the
        # version it held becomes the merge base.
        return Step(Verdict("conflict", pf.path, f"your file kept and still runs; {what}: "
                            + resolve_hint(pf.path, side_rel)),
                    writes=[(side, text, pf.mode)]), \
            dict(rec or {}, pending=side.name, pending_blob=record["blob"]), new
    unmerged = "; git shows it unmerged until you git add it" if s.in_git else ""
    return Step(Verdict("conflict", pf.path, f"{rc} conflict(s) marked in place: resolve "
                        f"them{unmerged}"),
                writes=[(path, merged, mode)], stage=(pf.path, base, cur, new, mode),
                touches_edits=True), record, new
