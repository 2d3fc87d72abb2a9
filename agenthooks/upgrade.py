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
skip       not ours, in a path we write: moved aside to FILE.legacy and ours written,
           or refused (left alone) with a one-line hint
remove     ours, pristine, and no longer generated

Everything is classified first (`classify`), written afterwards (`apply`): a dry run is
the same classification without the writes, so it prints the same verdicts.
"""
from __future__ import annotations

import os
import functools
import subprocess
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Optional

from agenthooks import config, manifest
from agenthooks.errors import UserError
from agenthooks.render import KNOWN_OWNER_IDS, TEMPLATE_REVS, PlannedFile

# Keeps every pristine render reachable, so `git gc` never prunes a merge base that was
# never committed (the user edited the hook before the first commit).
PRISTINE_REF = "refs/agenthooks/pristine"
NEW_SUFFIX = ".agenthooks-new"
LEGACY_SUFFIX = ".legacy"
MARKER = b">>>>>>> agenthooks (new)"
WRITES = ("create", "update", "merge", "conflict", "skip", "remove")


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


def is_ours(data: bytes) -> bool:
    return any(owner.encode() in data for owner in KNOWN_OWNER_IDS)


def write_atomic(path: Path, data: bytes, mode: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


# --- git plumbing: every call tolerates a missing git or a directory that is no repo ---


def _git(root: Path, *args: str, input: bytes | None = None,
         env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes] | None:
    try:
        return subprocess.run(["git", "-C", str(root), *args], input=input,
                              capture_output=True, check=False,
                              env={**os.environ, **env} if env else None)
    except OSError:
        return None


def git_prefix(root: Path) -> str | None:
    """root's path inside its git work tree ('' at the top), or None when not in one."""
    return _git_prefix(str(root))


@functools.lru_cache(maxsize=None)
def _git_prefix(root: str) -> str | None:
    # Asked several times per install; the answer cannot change during one.
    proc = _git(Path(root), "rev-parse", "--is-inside-work-tree", "--show-prefix")
    if proc is None or proc.returncode != 0:
        return None
    lines = proc.stdout.decode("utf-8", "replace").splitlines()
    if not lines or lines[0].strip() != "true":
        return None
    return lines[1].strip() if len(lines) > 1 else ""


def git_blob(root: Path, blob: str) -> bytes | None:
    """The pristine text of a past render, from the repo's object store, or None."""
    if not blob or len(blob) != 40:
        return None
    proc = _git(root, "cat-file", "blob", blob)
    if proc is None or proc.returncode != 0:
        return None
    return proc.stdout if manifest.blob_id(proc.stdout) == blob else None


def hash_objects(root: Path, texts: list[bytes]) -> list[str] | None:
    """Write each text to the object store (no filters: the bytes we rendered); their ids."""
    if not texts:
        return []
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, data in enumerate(texts):
            p = Path(tmp) / str(i)
            p.write_bytes(data)
            paths.append(str(p))
        proc = _git(root, "hash-object", "-w", "--no-filters", "--stdin-paths",
                    input=("\n".join(paths) + "\n").encode())
    if proc is None or proc.returncode != 0:
        return None
    ids = proc.stdout.decode().split()
    expected = [manifest.blob_id(t) for t in texts]
    return ids if ids == expected else None


def store_blobs(root: Path, texts: list[bytes]) -> bool:
    """Keep each pristine render in git's object store, reachable from PRISTINE_REF, so
    the merge base survives even when the user never commits it. False when not stored."""
    if not texts or git_prefix(root) is None:
        return False
    ids = hash_objects(root, list({manifest.blob_id(t): t for t in texts}.values()))
    if ids is None:
        return False
    entries: dict[str, str] = {}
    old = _git(root, "ls-tree", PRISTINE_REF)
    if old is not None and old.returncode == 0:
        for line in old.stdout.decode().splitlines():
            meta, _, name = line.partition("\t")
            parts = meta.split()
            if len(parts) == 3 and parts[1] == "blob":
                entries[name] = parts[2]
    before = dict(entries)
    entries.update({i: i for i in ids})
    if entries == before:
        return True
    listing = "".join(f"100644 blob {sha}\t{name}\n" for name, sha in sorted(entries.items()))
    tree = _git(root, "mktree", input=listing.encode())
    if tree is None or tree.returncode != 0:
        return False
    ref = _git(root, "update-ref", PRISTINE_REF, tree.stdout.decode().strip())
    return ref is not None and ref.returncode == 0


def has_pristine_ref(root: Path) -> bool:
    if git_prefix(root) is None:
        return False
    proc = _git(root, "rev-parse", "--verify", "--quiet", PRISTINE_REF)
    return proc is not None and proc.returncode == 0


def delete_pristine_ref(root: Path) -> None:
    """Uninstall: the merge bases are needed no more (git gc prunes them later)."""
    _git(root, "update-ref", "-d", PRISTINE_REF)


def mark_unmerged(root: Path, relpath: str, base: bytes, ours: bytes, theirs: bytes,
                  mode: int) -> bool:
    """Record index stages 1/2/3 so `git status` shows the file unmerged (UU) and a
    commit is blocked until the user resolves and `git add`s it, as copier does."""
    prefix = git_prefix(root)
    if prefix is None:
        return False
    ids = hash_objects(root, [base, ours, theirs])
    if ids is None:
        return False
    path = prefix + relpath
    gmode = "100755" if mode & 0o111 else "100644"
    info = f"0 {'0' * 40}\t{path}\n" + "".join(
        f"{gmode} {sha} {stage}\t{path}\n" for stage, sha in zip((1, 2, 3), ids))
    proc = _git(root, "update-index", "--index-info", input=info.encode())
    return proc is not None and proc.returncode == 0


def dirty(root: Path, relpaths: list[str]) -> list[str]:
    """Those of relpaths that git sees as modified, staged or untracked."""
    prefix = git_prefix(root)
    if prefix is None or not relpaths:
        return []
    proc = _git(root, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--",
                *relpaths)
    if proc is None or proc.returncode != 0:
        return []
    seen = set()
    items = proc.stdout.decode("utf-8", "replace").split("\0")
    for item in items:
        if len(item) > 3 and item[2] == " ":
            seen.add(item[3:])
    return [p for p in relpaths if prefix + p in seen]


def merge3(cur: bytes, base: bytes, new: bytes, label: str) -> tuple[int, bytes]:
    """git merge-file: (0, merged) when clean, (n>0, text with conflict markers)."""
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for name, data in (("yours", cur), ("base", base), ("new", new)):
            p = Path(tmp) / name
            p.write_bytes(data)
            paths.append(str(p))
        try:
            proc = subprocess.run(
                ["git", "merge-file", "-p", "-L", f"{label} (yours)", "-L",
                 "agenthooks (previous)", "-L", "agenthooks (new)", *paths],
                capture_output=True, check=False)
        except OSError:
            raise UserError(f"{label} was edited and merging it needs git, which is not "
                            "installed: install git, or move your edits aside") from None
    if proc.returncode < 0 or proc.returncode > 127:
        raise UserError(f"git merge-file failed on {label}: "
                        + proc.stderr.decode("utf-8", "replace").strip()[:200])
    return proc.returncode, proc.stdout


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
    planned_paths = {pf.path for pf in planned}
    unknown = sorted(set(restore) - planned_paths)
    if unknown:
        raise UserError(f"--restore {unknown[0]}: not a file agenthooks generates here")
    for pf in planned:
        path = root / pf.path
        new = pf.text.encode("utf-8")
        rec = recorded.get(pf.path)
        lexists = path.exists() or path.is_symlink()
        regular = path.is_file() and not path.is_symlink()
        cur = path.read_bytes() if regular else None
        if pf.kind in ("memory", "log"):
            if lexists:
                steps.append(Step(Verdict("keep", pf.path, "memory is never touched"
                                          if pf.kind == "memory" else "")))
            else:
                steps.append(Step(Verdict("create", pf.path), writes=[(path, new, pf.mode)]))
            continue
        record = manifest.record(new, pf.template, revs.get(pf.template, 1), pf.mode,
                                 "owned" if pf.kind == "owned" else pf.kind)
        if lexists and not regular:
            steps.append(Step(Verdict("skip", pf.path, "not a regular file: left alone; "
                                      "remove it and run agenthooks install again"),
                              refused=True))
            if rec is not None:
                records[pf.path] = rec
            continue
        if pf.kind == "config":
            step, records[pf.path] = _config_step(pf, path, cur, rec, record, restore,
                                                   settings or {})
            steps.append(step)
            continue
        if cur is None:
            if rec is not None and pf.path not in restore:
                steps.append(Step(Verdict("keep", pf.path, f"deleted by you; --restore "
                                          f"{pf.path} brings it back")))
                records[pf.path] = rec
                continue
            steps.append(Step(Verdict("create", pf.path), writes=[(path, new, pf.mode)]))
            records[pf.path] = record
            pristine.append(new)
            continue
        if pf.kind == "registration":
            # Shared with the user: the framework module already merged our entries into
            # the current text, keeping theirs.
            records[pf.path] = record
            pristine.append(new)
            if cur == new:
                steps.append(Step(Verdict("identical", pf.path)))
            else:
                # Only our entries are spliced in or out (frameworks/_jsonhooks.py): every
                # byte of the user's, uncommitted or not, stays. No clean tree needed.
                steps.append(Step(Verdict("update", pf.path, "our entries refreshed, yours kept"),
                                  writes=[(path, new, pf.mode)]))
            continue
        if cur == new:
            records[pf.path] = record
            pristine.append(new)
            if (path.stat().st_mode & 0o777) != pf.mode:
                steps.append(Step(Verdict("update", pf.path, f"mode set to {oct(pf.mode)[2:]}"),
                                  writes=[(path, new, pf.mode)]))
            else:
                steps.append(Step(Verdict("identical", pf.path)))
            continue
        if rec is None and not is_ours(cur):
            legacy = path.with_name(path.name + LEGACY_SUFFIX)
            if legacy.exists() or legacy.is_symlink():
                steps.append(Step(Verdict("skip", pf.path, f"not ours, and {legacy.name} "
                                          "already exists: left alone; move one of them away "
                                          "and run agenthooks install again"), refused=True))
                continue
            steps.append(Step(Verdict("skip", pf.path, f"not ours: moved to {legacy.name}, "
                                      "ours written"),
                              moves=[(path, legacy)], writes=[(path, new, pf.mode)]))
            records[pf.path] = dict(record, legacy=legacy.name)
            pristine.append(new)
            continue
        pristine.append(new)
        if rec is not None and rec.get("legacy"):
            record = dict(record, legacy=rec["legacy"])
        if rec is not None and manifest.is_pristine(cur, rec):
            steps.append(Step(Verdict("update", pf.path), writes=[(path, new, pf.mode)]))
            records[pf.path] = record
            continue
        if MARKER in cur:
            steps.append(Step(Verdict("conflict", pf.path, "still has conflict markers from "
                                      "the last upgrade: resolve them")))
            records[pf.path] = rec or record
            continue
        side = _side(path)
        side_rel = f"{pf.path}{NEW_SUFFIX}"
        if rec is not None and rec.get("pending"):
            if side.exists() or side.is_symlink():
                # Never overwrite a resolution the user may be working on.
                steps.append(Step(Verdict("conflict", pf.path, "unresolved: your file kept; "
                                          + _resolve_hint(pf.path, side_rel))))
                records[pf.path] = rec
                continue
            # The side file is gone: the user reconciled their file with the version it
            # held (moved it into place, or deleted it to keep theirs). That version is
            # the merge base from now on.
            pending_blob = rec.get("pending_blob")
            rec = {k: v for k, v in rec.items() if k not in ("pending", "pending_blob")}
            if pending_blob == record["blob"]:
                steps.append(Step(Verdict("keep", pf.path, f"edited by you; conflict resolved "
                                          f"({side.name} is gone)")))
                records[pf.path] = record
                continue
            if pending_blob:
                rec["blob"] = pending_blob
        base = git_blob(root, rec.get("blob", "")) if rec is not None else None
        if base is None:
            why = "edited, no merge base" if rec is not None else "ours, but not in the manifest"
            steps.append(Step(Verdict("conflict", pf.path, f"{why}: your file kept, new "
                                      f"version in {side_rel}: "
                                      + _resolve_hint(pf.path, side_rel)),
                              writes=[(side, new, pf.mode)]))
            # Still no base next time: the same verdict, until the user reconciles the two.
            records[pf.path] = dict(rec or record, pending=side.name, pending_blob=record["blob"])
            continue
        if base == new:
            steps.append(Step(Verdict("keep", pf.path, "edited by you; nothing new to merge")))
            records[pf.path] = record
            continue
        rc, merged = merge3(cur, base, new, pf.path)
        mode = path.stat().st_mode & 0o777 | (pf.mode & 0o111)
        if rc == 0:
            records[pf.path] = record
            if merged == cur:
                steps.append(Step(Verdict("keep", pf.path, "edited by you; the upgrade "
                                          "was already in your version")))
            else:
                steps.append(Step(Verdict("merge", pf.path, "your edits kept"),
                                  writes=[(path, merged, mode)], touches_edits=True))
        elif conflict == "new" or runs_as_code(pf, path):
            # The user's file stays in place and keeps running while the conflict waits.
            if conflict == "new":
                what, text = f"new version in {side_rel}", new
            else:
                what, text = f"{rc} conflict(s) marked in {side_rel}", merged
            steps.append(Step(Verdict("conflict", pf.path, f"your file kept and still runs; "
                                      f"{what}: " + _resolve_hint(pf.path, side_rel)),
                              writes=[(side, text, pf.mode)]))
            # Until the side file is gone the clash is reported again, never dropped; then
            # the version it held becomes the merge base.
            records[pf.path] = dict(rec, pending=side.name, pending_blob=record["blob"])
        else:
            records[pf.path] = record
            unmerged = "; git shows it unmerged until you git add it" if in_git else ""
            steps.append(Step(Verdict("conflict", pf.path, f"{rc} conflict(s) marked in "
                                      f"place: resolve them{unmerged}"),
                              writes=[(path, merged, mode)], stage=(pf.path, base, cur, new, mode),
                              touches_edits=True))
    for relpath, rec in sorted(recorded.items()):
        if relpath in planned_paths or not isinstance(rec, dict):
            continue
        path = root / relpath
        if manifest.kind(rec) != "owned":
            records[relpath] = rec
            continue
        if not (path.is_file() and not path.is_symlink()):
            continue
        if manifest.is_pristine(path.read_bytes(), rec):
            steps.append(Step(Verdict("remove", relpath, "no longer generated"),
                              removes=[path]))
        else:
            steps.append(Step(Verdict("keep", relpath, "no longer generated; edited by "
                                      "you, left in place")))
    return Plan(steps, records, pristine)


def drop_frameworks(root: Path, plan: Plan, planned: list[PlannedFile], selected: list[str],
                    recorded: dict[str, Any]) -> None:
    """Add to plan the unregistering of every framework not selected: the hooks are rendered
    only for the selected ones, so an entry left for another calls hooks that no longer speak
    its envelope. Each framework module's unregister() (the one uninstall uses) says what
    its files become; a file it does not touch but the manifest recorded gets a verdict too."""
    from agenthooks import frameworks
    from agenthooks.frameworks._jsonhooks import OURS_RE

    files = recorded.get("files", {})
    planned_paths = {pf.path for pf in planned}
    by_path = {s.verdict.path: i for i, s in enumerate(plan.steps)}
    had = set(recorded.get("answers", {}).get("frameworks", []))
    had |= {str(r.get("template", "")).split("/", 1)[-1] for r in files.values()
            if isinstance(r, dict) and str(r.get("template", "")).startswith("frameworks/")}
    for name in frameworks.NAMES:
        mod = frameworks._module(name) if name not in selected else None
        if mod is None or not hasattr(mod, "unregister"):
            continue
        why = f"{name} no longer selected" if name in had else f"{name} not selected"
        seen: set[str] = set()
        for rel, text in mod.unregister(root):
            if rel in planned_paths or rel in seen:
                continue
            seen.add(rel)
            path = root / rel
            rec = files.get(rel) if isinstance(files.get(rel), dict) else None
            at = by_path.get(rel)
            if rec is not None and manifest.kind(rec) == "owned" and at is not None:
                # Decided above as no longer generated: removed when pristine. An edited
                # file keeps the user's part, without our entries, when it has one.
                if plan.steps[at].verdict.verdict == "keep" and text is not None:
                    plan.steps[at] = Step(Verdict("update", rel, f"{why}: our entries "
                                                  "removed, yours kept"),
                                          writes=[(path, text.encode("utf-8"),
                                                   path.stat().st_mode & 0o777)])
                continue
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
        for rel, rec in sorted(files.items()):
            if (not isinstance(rec, dict) or rec.get("template") != f"frameworks/{name}"
                    or manifest.kind(rec) != "registration" or rel in seen
                    or rel in planned_paths):
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


def apply(root: Path, plan: Plan) -> list[Verdict]:
    """Carry out the plan; the verdicts, with notes saying what really happened."""
    out = []
    for step in plan.steps:
        for src, dst in step.moves:
            os.replace(src, dst)
        for path, data, mode in step.writes:
            write_atomic(path, data, mode)
        for path in step.removes:
            path.unlink()
            _prune_empty(root, path.parent)
        verdict = step.verdict
        if step.stage is not None and git_prefix(root) is not None \
                and not mark_unmerged(root, *step.stage):
            verdict = replace(verdict, note=verdict.note.replace(
                "git shows it unmerged until you git add it",
                "could not mark it unmerged in git"))
        out.append(verdict)
    store_blobs(root, plan.pristine)
    return out


def decide(
    root: Path,
    planned: list[PlannedFile],
    recorded: dict[str, Any],
    *,
    dry_run: bool,
    conflict: str = "inline",
    restore: frozenset[str] = frozenset(),
    revs: dict[str, int] | None = None,
) -> tuple[list[Verdict], dict[str, Any]]:
    """Classify every planned file, write unless dry_run; return verdicts and the new
    manifest records."""
    plan = classify(root, planned, recorded, conflict=conflict, restore=restore, revs=revs)
    verdicts = plan.verdicts if dry_run else apply(root, plan)
    return verdicts, plan.records
