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

Everything is classified first (`classify`), written afterwards (`apply`): a dry run is
the same classification without the writes, so it prints the same verdicts.
"""
from __future__ import annotations

import functools
import os
import re
import shutil
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Optional

from agenthooks import config, gitexclude, manifest, safepath
from agenthooks.answer_types import Answers
from agenthooks.errors import UserError
from agenthooks.files import PlannedFile, is_ours, write_atomic
from agenthooks.gitstore import UNSTORED, git_blob, git_prefix, mark_unmerged, merge3, store_blobs
from agenthooks.render import LIB, TEMPLATE_REVS

NEW_SUFFIX = ".agenthooks-new"
HOOK_DIR = ".agent/hooks/"
HOOK_LIB = ".agent/hooks/lib/"
LEGACY_SUFFIX = ".legacy"
MARKER = b">>>>>>> agenthooks (new)"
WRITES = ("create", "update", "merge", "conflict", "skip", "remove", "restore")
# How a past release's hook sources another: `AH_LIB=${BASH_SOURCE[0]%post_edit.sh}pre_task.sh`
# then `. "$AH_LIB"`, or `. "$AH_HOOKS/pre_task.sh"`. Today's hooks load every part of
# .agent/hooks/lib/ (HOOK_LIB), so each hook needs all of them.
SOURCES_RE = re.compile(rb'AH_LIB=\$\{BASH_SOURCE\[0\]%[^}]*\}([A-Za-z0-9_.-]+\.sh)'
                        rb'|(?:^|[;&|\s])(?:\.|source)\s+"?\$\{?AH_HOOKS\}?/([A-Za-z0-9_.-]+\.sh)')


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


# --- classification --------------------------------------------------------------------


def _side(path: Path) -> Path:
    return path.with_name(path.name + NEW_SUFFIX)


def runs_as_code(pf: PlannedFile, path: Path) -> bool:
    """A file the agent runs or loads (a hook, a framework's wrapper, plugin or hook list):
    conflict markers in place would break it, so its conflicts go to FILE.agenthooks-new."""
    try:
        executable = bool(path.stat().st_mode & 0o111)
    except OSError:
        executable = False
    return (pf.path.startswith(".agent/hooks/") or bool(pf.mode & 0o111) or executable
            or pf.template.startswith("frameworks/"))


def _resolve_hint(relpath: str, side_rel: str) -> str:
    return (f"resolve {side_rel} and move it over {relpath} (or delete it to keep yours), "
            "then run agenthooks install again")


def _config_step(pf: PlannedFile, path: Path, cur: bytes | None, rec: dict[str, Any] | None,
                 record: dict[str, Any], restore: frozenset[str],
                 settings: dict[str, Any]) -> tuple[Step, dict[str, Any]]:
    new = pf.text.encode("utf-8")
    if cur is None:
        if rec is not None and pf.path not in restore:
            return Step(Verdict("keep", pf.path, f"deleted by you; --restore {pf.path} "
                                "brings it back")), rec
        return Step(Verdict("create", pf.path), writes=[(path, new, pf.mode)]), record
    try:
        text = cur.decode("utf-8")
    except UnicodeDecodeError:
        raise UserError(f"{pf.path} is not UTF-8 text: fix or delete it, then run "
                        "agenthooks install again") from None
    migrated, old_v, new_v, added = config.migrate(text)
    keep_rec = rec or record
    if old_v > config.CONFIG_VERSION:
        return Step(Verdict("keep", pf.path, f"yours; version {old_v} is newer than this "
                            "agenthooks knows: left as is")), keep_rec
    # A flag given now (--budget) is applied to the user's file by the same splice.
    migrated, changed = config.set_values(migrated, settings)
    if migrated == text:
        return Step(Verdict("keep", pf.path, f"yours; already migrated (version {new_v})")), keep_rec
    if rec is not None and manifest.is_pristine(cur, rec):
        # Our own render, migrated by us: still pristine.
        keep_rec = dict(manifest.record(migrated.encode("utf-8"), pf.template, record["rev"],
                                        pf.mode, "config"))
    else:
        keep_rec = dict(keep_rec, rev=record["rev"])
    if old_v != new_v:
        what = "".join(f"{w}; " for w in ([f"added {', '.join(added)}"] if added else []) + changed)
        note = f"migrated version {old_v} -> {new_v}: {what}your values and comments kept"
    else:
        note = f"set {', '.join(changed)} as asked; your comments kept"
    return Step(Verdict("update", pf.path, note),
                writes=[(path, migrated.encode("utf-8"), (path.stat().st_mode & 0o777))],
                # A value the user just asked for is no surprise: a dirty file may take it.
                touches_edits=old_v != new_v and rec is not None
                and not manifest.is_pristine(cur, rec)), keep_rec


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


def _memory(s: Seen) -> Outcome:
    """Memory and the log: created when missing, else never touched."""
    if s.lexists:
        return Step(Verdict("keep", s.pf.path, "memory is never touched"
                            if s.pf.kind == "memory" else "")), None, None
    return Step(Verdict("create", s.pf.path), writes=[(s.path, s.new, s.pf.mode)]), None, None


def _not_regular(s: Seen) -> Outcome | None:
    """A symlink, folder or device where we would write: refused, left alone."""
    if s.lexists and s.cur is None:
        return Step(Verdict("skip", s.pf.path, "not a regular file: left alone; remove it "
                            "and run agenthooks install again"), refused=True), s.rec, None
    return None


def _missing(s: Seen) -> Outcome | None:
    """No file: created, unless the user deleted one we had written (kept deleted)."""
    if s.cur is not None:
        return None
    if s.rec is not None and s.pf.path not in s.restore:
        return Step(Verdict("keep", s.pf.path, f"deleted by you; --restore {s.pf.path} "
                            "brings it back")), s.rec, None
    return Step(Verdict("create", s.pf.path), writes=[(s.path, s.new, s.pf.mode)]), \
        s.record, s.new


def _config(s: Seen) -> Outcome:
    """config.yaml: the user's file, migrated in place (values and comments kept)."""
    refused = _not_regular(s)
    if refused is not None:
        return refused
    step, rec = _config_step(s.pf, s.path, s.cur, s.rec, s.record, s.restore, s.settings)
    return step, rec, None


def _registration(s: Seen) -> Outcome:
    """A file shared with the user (.claude/settings.json, ...): the framework module
    already merged our entries into its current text, keeping theirs."""
    early = _not_regular(s) or _missing(s)
    if early is not None:
        return early
    if s.cur == s.new:
        return Step(Verdict("identical", s.pf.path)), s.record, s.new
    # Only our entries are spliced in or out (frameworks/_jsonhooks.py): every byte of
    # the user's, uncommitted or not, stays. No clean tree needed.
    return Step(Verdict("update", s.pf.path, _registration_change(s.cur, s.new)),
                writes=[(s.path, s.new, s.pf.mode)]), s.record, s.new


def _registration_change(cur: bytes | None, new: bytes) -> str:
    """What the splice really changes: our hooks added to or taken from which events, and
    a top-level key of ours that comes or goes (--statusline / --no-statusline splice
    .claude/settings.json's statusLine)."""
    import json

    from agenthooks.frameworks._jsonhooks import OURS_RE

    try:
        old_doc, new_doc = json.loads(cur or b"{}"), json.loads(new)
    except (ValueError, TypeError):  # JSONC, or not JSON: count our commands in the text
        before = len(OURS_RE.findall((cur or b"").decode("utf-8", "replace")))
        after = len(OURS_RE.findall(new.decode("utf-8", "replace")))
        if before == 0 and after:
            return f"added our {after} hook entr{'y' if after == 1 else 'ies'}, yours kept"
        return "our entries refreshed, yours kept"
    if not isinstance(old_doc, dict) or not isinstance(new_doc, dict):
        return "our entries refreshed, yours kept"

    def events(doc: dict[str, Any]) -> set[str]:
        hooks = doc.get("hooks")
        if isinstance(hooks, dict):
            return {ev for ev, v in hooks.items() if OURS_RE.search(json.dumps(v))}
        return {"hooks"} if OURS_RE.search(json.dumps(hooks)) else set()

    said = []
    added, gone = sorted(events(new_doc) - events(old_doc)), sorted(events(old_doc) - events(new_doc))
    if added:
        said.append(f"added our hooks for {len(added)} event(s): {', '.join(added)}")
    if gone:
        said.append(f"took our hooks out of {len(gone)} event(s): {', '.join(gone)}")
    old_keys, new_keys = set(old_doc), set(new_doc)
    said += [f"our {k} removed" for k in sorted(old_keys - new_keys)] + \
        [f"our {k} added" for k in sorted(new_keys - old_keys) if k != "hooks"]
    return ", ".join(said + ["yours kept"]) if said else "our entries refreshed, yours kept"


def _owned(s: Seen) -> Outcome:
    """A file wholly ours (hooks, .gitignore, a framework's plugin or wrapper): replaced
    while pristine, three-way merged when edited, never overwritten when not ours."""
    early = _not_regular(s) or _missing(s)
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
    side = _side(path)
    side_rel = f"{pf.path}{NEW_SUFFIX}"
    if rec is not None and rec.get("pending"):
        if side.exists() or side.is_symlink():
            # Never overwrite a resolution the user may be working on.
            return Step(Verdict("conflict", pf.path, "unresolved: your file kept; "
                                + _resolve_hint(pf.path, side_rel))), rec, new
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
                            f"{side_rel}: " + _resolve_hint(pf.path, side_rel)),
                    writes=[(side, new, pf.mode)]), \
            dict(rec or record, pending=side.name, pending_blob=record["blob"]), new
    if base == new:
        return Step(Verdict("keep", pf.path, "edited by you; nothing new to merge")), record, new
    return _merge(s, cur, base, rec, record)


def _line_endings(s: Seen, cur: bytes) -> Outcome:
    """A bash script turned CRLF (a Windows editor, a copy, a zip) fails on every run, and
    its CRs are no edit of the user's: decided on its LF text, then written with LF."""
    lf = manifest.lf(cur)
    step, rec, base = _owned(replace(s, cur=lf))
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
    side = _side(path)
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
                            + _resolve_hint(pf.path, side_rel)),
                    writes=[(side, text, pf.mode)]), \
            dict(rec or {}, pending=side.name, pending_blob=record["blob"]), new
    unmerged = "; git shows it unmerged until you git add it" if s.in_git else ""
    return Step(Verdict("conflict", pf.path, f"{rc} conflict(s) marked in place: resolve "
                        f"them{unmerged}"),
                writes=[(path, merged, mode)], stage=(pf.path, base, cur, new, mode),
                touches_edits=True), record, new


# One classifier per kind of file; each reads on its own.
CLASSIFIERS: dict[str, Callable[[Seen], Outcome]] = {
    "memory": _memory,
    "log": _memory,
    "config": _config,
    "registration": _registration,
    "owned": _owned,
}


def classify(
    root: Path,
    planned: list[PlannedFile],
    recorded: dict[str, Any],
    *,
    conflict: str = "inline",
    restore: frozenset[str] = frozenset(),
    revs: dict[str, int] | None = None,
    settings: dict[str, Any] | None = None,
) -> Plan:
    """Decide every planned file without writing anything. `settings`: config.yaml keys
    given on this command line, spliced into the user's config.yaml."""
    revs = revs or TEMPLATE_REVS
    in_git = git_prefix(root) is not None
    steps: list[Step] = []
    records: dict[str, Any] = {}
    pristine: list[bytes] = []
    seens: list[Seen] = []
    planned_paths = {pf.path for pf in planned}
    unknown = sorted(set(restore) - planned_paths)
    if unknown:
        raise UserError(f"--restore {unknown[0]}: not a file agenthooks generates here")
    for pf in planned:
        path = root / pf.path
        new = pf.text.encode("utf-8")
        regular = path.is_file() and not path.is_symlink()
        seen = Seen(root=root, pf=pf, path=path, new=new, cur=path.read_bytes() if regular else None,
                    lexists=path.exists() or path.is_symlink(), rec=recorded.get(pf.path),
                    record=manifest.record(new, pf.template, revs.get(pf.template, 1),
                                           pf.mode, pf.kind),
                    restore=restore, conflict=conflict, in_git=in_git,
                    settings=settings or {})
        step, rec, base = CLASSIFIERS[pf.kind](seen)
        seens.append(seen)
        steps.append(step)
        if rec is not None:
            records[pf.path] = rec
        if base is not None:
            pristine.append(manifest.lf(base))  # stored as the manifest's blob id names it
    _restore_needed(seens, steps, records, pristine)
    _hold_release(seens, steps, records)
    steps.extend(_retired(root, recorded, planned_paths, records))
    return Plan(steps, records, pristine)


def sourced(text: bytes) -> set[str]:
    """The files a hook's text loads, relative to its folder: a past release's hooks
    sourced one another; today's load every part of lib/."""
    names = {a.decode() or b.decode() for a, b in SOURCES_RE.findall(text)}
    if b'/lib/prelude.sh"' in text:
        names |= {f"lib/{part}" for part in LIB}
    return names


def _after(seen: Seen, step: Step) -> bytes | None:
    """A planned file's bytes once the step ran (None: it will not be there)."""
    for path, data, _mode in step.writes:
        if path == seen.path:
            return data
    return None if seen.path in step.removes else seen.cur


def _restore_needed(seens: list[Seen], steps: list[Step], records: dict[str, Any],
                    pristine: list[bytes]) -> None:
    """A hook the user deleted that a hook still there sources comes back: without it
    the other hooks fail on every run. Repeated until nothing more is needed."""
    changed = True
    while changed:
        changed = False
        for i, s in enumerate(seens):
            if s.pf.kind != "owned" or s.cur is not None or s.lexists or s.rec is None \
                    or steps[i].writes or steps[i].verdict.verdict != "keep":
                continue
            needers = [o.path.name if o.pf.path.startswith(HOOK_DIR) else o.pf.path
                       for j, o in enumerate(seens) if j != i and _needs(o, _after(o, steps[j]), s)]
            if not needers:
                continue
            steps[i] = Step(Verdict("restore", s.pf.path, f"deleted, but needed by "
                                    f"{', '.join(needers)}"),
                            writes=[(s.path, s.new, s.pf.mode)])
            records[s.pf.path] = s.record
            pristine.append(s.new)
            changed = True


def _needs(o: Seen, text: bytes | None, s: Seen) -> bool:
    """Does O (with TEXT once upgraded) need the file S to run? A hook needs what it
    sources; a framework's registration, plugin or wrapper needs every hook it calls
    (kept deleted, the host would run a missing file at every event)."""
    if text is None or not s.pf.path.startswith(HOOK_DIR):
        return False
    if o.pf.kind == "registration" or o.pf.template.startswith("frameworks/"):
        return s.pf.path.encode() in CALLS_RE.findall(text)
    if not o.pf.path.startswith(HOOK_DIR) or o.pf.path.startswith(HOOK_LIB):
        return False
    return s.pf.path.removeprefix(HOOK_DIR) in sourced(text)


# How a framework's file names a hook it calls.
CALLS_RE = re.compile(rb"\.agent/hooks/[A-Za-z0-9_.-]+\.sh")


def _hold_release(seens: list[Seen], steps: list[Step], records: dict[str, Any]) -> None:
    """The hooks and their library are one release: while one of them is in conflict (the
    user's file kept, running, the merge beside it), the others stay at the installed release
    too, so that the hooks that run are always one set. The next install, once the conflict
    is resolved, updates them all."""
    held = [s.pf.path for s, step in zip(seens, steps)
            if s.pf.path.startswith(HOOK_DIR) and step.verdict.verdict == "conflict"]
    if not held:
        return
    why = f"held at the installed release while {', '.join(held)} is in conflict: " \
          "run agenthooks install again once it is resolved"
    for i, s in enumerate(seens):
        if not s.pf.path.startswith(HOOK_DIR) or s.pf.path in held \
                or not any(path == s.path for path, _data, _mode in steps[i].writes):
            continue
        if s.cur is None and not s.lexists:
            steps[i] = Step(Verdict("skip", s.pf.path, "not created yet: " + why))
            records.pop(s.pf.path, None)
        else:
            steps[i] = Step(Verdict("keep", s.pf.path, why))
            if s.rec is not None:
                records[s.pf.path] = s.rec
            else:
                records.pop(s.pf.path, None)


def _retired(root: Path, recorded: dict[str, Any], planned_paths: set[str],
             records: dict[str, Any]) -> list[Step]:
    """Recorded files this render no longer makes: ours go while pristine, edited ones
    stay; the records of the user's files (config, registrations) are carried over."""
    steps = []
    for relpath, rec in sorted(recorded.items()):
        if relpath in planned_paths or not isinstance(rec, dict):
            continue
        path = root / relpath
        if manifest.kind(rec) != "owned":
            records[relpath] = rec
        elif not (path.is_file() and not path.is_symlink()):
            continue
        elif manifest.is_pristine(path.read_bytes(), rec):
            steps.append(Step(Verdict("remove", relpath, "no longer generated"),
                              removes=[path]))
        else:
            steps.append(Step(Verdict("keep", relpath, "no longer generated; edited by "
                                      "you, left in place")))
    return steps


def drop_frameworks(root: Path, plan: Plan, planned: list[PlannedFile], selected: list[str],
                    recorded: dict[str, Any]) -> None:
    """Add to plan the unregistering of every framework not selected: the hooks are rendered
    only for the selected ones, so an entry left for another calls hooks that no longer speak
    its envelope. Each framework module's unregister() (the one uninstall uses) says what
    its files become; a file it does not touch but the manifest recorded gets a verdict too."""
    from agenthooks import frameworks

    files = recorded.get("files", {})
    planned_paths = {pf.path for pf in planned}
    # Taken before any step is added: the verdicts made above, not by another framework.
    by_path = {s.verdict.path: i for i, s in enumerate(plan.steps)}
    had = _had_frameworks(recorded)
    for name in frameworks.NAMES:
        mod = frameworks.get(name) if name not in selected else None
        if mod is None:
            continue
        why = f"{name} no longer selected" if name in had else f"{name} not selected"
        seen: set[str] = set()
        for rel, text in mod.unregister(root):
            if rel in planned_paths or rel in seen:
                continue
            seen.add(rel)
            _unregister_file(root, plan, rel, text, files, by_path.get(rel), why)
        _leftover_registrations(root, plan, name, files, seen | planned_paths, why)


def _had_frameworks(recorded: dict[str, Any]) -> set[str]:
    """The frameworks the last install wired: its answers and its framework files."""
    had = set(recorded.get("answers", {}).get("frameworks", []))
    had |= {str(r.get("template", "")).split("/", 1)[-1]
            for r in recorded.get("files", {}).values()
            if isinstance(r, dict) and str(r.get("template", "")).startswith("frameworks/")}
    return had


def _unregister_file(root: Path, plan: Plan, rel: str, text: str | None,
                     files: dict[str, Any], at: int | None, why: str) -> None:
    """One file of a dropped framework: TEXT is what unregister() leaves (None: nothing)."""
    path = root / rel
    rec = files.get(rel) if isinstance(files.get(rel), dict) else None
    if rec is not None and manifest.kind(rec) == "owned" and at is not None:
        # Decided above as no longer generated: removed when pristine. An edited
        # file keeps the user's part, without our entries, when it has one.
        if plan.steps[at].verdict.verdict == "keep" and text is not None:
            plan.steps[at] = Step(Verdict("update", rel, f"{why}: our entries "
                                          "removed, yours kept"),
                                  writes=[(path, text.encode("utf-8"),
                                           path.stat().st_mode & 0o777)])
        return
    edited = rec is not None and path.is_file() \
        and not manifest.is_pristine(path.read_bytes(), rec)
    if text is None:
        step = Step(Verdict("remove", rel, why), removes=[path], touches_edits=edited)
    else:
        step = Step(Verdict("update", rel, f"{why}: our entries removed, yours kept"),
                    writes=[(path, text.encode("utf-8"), path.stat().st_mode & 0o777)],
                    touches_edits=edited)
    plan.steps.append(step)
    plan.records.pop(rel, None)


def _leftover_registrations(root: Path, plan: Plan, name: str, files: dict[str, Any],
                            done: set[str], why: str) -> None:
    """Registration files the manifest recorded for NAME that unregister() did not name."""
    from agenthooks.frameworks._jsonhooks import OURS_RE

    for rel, rec in sorted(files.items()):
        if (not isinstance(rec, dict) or rec.get("template") != f"frameworks/{name}"
                or manifest.kind(rec) != "registration" or rel in done):
            continue
        plan.records.pop(rel, None)
        path = root / rel
        if not path.is_file():
            continue
        if OURS_RE.search(path.read_text(encoding="utf-8", errors="replace")):
            plan.steps.append(Step(Verdict("skip", rel, f"{why}, but our entries could not "
                                           "be taken out (is it valid?): remove them by hand"),
                                   refused=True))
        else:
            plan.steps.append(Step(Verdict("keep", rel, f"{why}; none of our entries in it")))


def _prune_empty(root: Path, folder: Path) -> None:
    """Remove folders a removal left empty, up to (never including) the repo root."""
    while folder != root and root in folder.parents:
        try:
            folder.rmdir()
        except OSError:
            return
        folder = folder.parent


# --- what a manifest may name, and what a plan may touch --------------------------------

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


def step_paths(plan: Plan) -> tuple[list[Path], list[Path]]:
    """(files, folders) the plan writes, moves, removes or removes whole."""
    files = [p for s in plan.steps for p in (*(w[0] for w in s.writes),
                                             *(p for m in s.moves for p in m), *s.removes)]
    return files, [p for s in plan.steps for p in s.trees]


def guard(root: Path, plan: Plan, seen: Iterable[str] = (), *, also: Iterable[Path] = (),
          write: bool = True, then: str = "nothing was written") -> None:
    """Before the first write: refuse (one line naming it) when a path the plan touches (or
    ALSO, written besides) goes through a link, or is not the regular file (or folder) it
    must be; SEEN (repo-relative) may be anything but a link. With WRITE, also when a folder
    written to is not writable."""
    files, folders = step_paths(plan)
    files += list(also)
    # git's own exclude file (install --local): in a linked worktree it is the main
    # repository's, outside this folder; written only when it is git's regular file.
    exclude = gitexclude.path(root) if any(not _under(root, f) for f in files) else None
    if exclude is not None and exclude in files:
        files.remove(exclude)
        if exclude.is_symlink() or (exclude.exists() and not exclude.is_file()) \
                or exclude.parent.is_symlink():
            raise safepath.Refused(f"{exclude} is not a regular file: {then}", hint=safepath.FIX)
    seen_paths = [root / r.rstrip("/") for r in seen]
    if exclude is not None:
        seen_paths = [p for p in seen_paths if os.path.normpath(p) != os.path.normpath(exclude)]
    safepath.check_paths(root, files, folders, seen_paths, then)
    if write:
        safepath.writable([p.parent for p in files] + [d.parent for d in folders], then)


def _under(root: Path, path: Path) -> bool:
    try:
        path.relative_to(root)
    except ValueError:
        return False
    return True


def apply(root: Path, plan: Plan, unstored: Callable[[str], None] | None = None) -> list[Verdict]:
    """Carry out the plan, install's or uninstall's, one step at a time: moves (a move
    onto a file replaces it), writes, removals; the verdicts, with notes saying what
    really happened. UNSTORED hears why the pristine renders could not be kept."""
    out = []
    for step in plan.steps:
        for src, dst in step.moves:
            os.replace(src, dst)
        for path, data, mode in step.writes:
            write_atomic(path, data, mode)
        for path in step.removes:
            if path.is_file() or path.is_symlink():
                path.unlink()
            _prune_empty(root, path.parent)
        for path in step.trees:
            shutil.rmtree(path)
            _prune_empty(root, path.parent)
        verdict = step.verdict
        if step.stage is not None and git_prefix(root) is not None \
                and not mark_unmerged(root, *step.stage):
            verdict = replace(verdict, note=verdict.note.replace(
                "git shows it unmerged until you git add it",
                "could not mark it unmerged in git"))
        out.append(verdict)
    why = store_blobs(root, plan.pristine)
    if why is not None and unstored is not None:
        unstored(UNSTORED.format(why=why))
    return out

