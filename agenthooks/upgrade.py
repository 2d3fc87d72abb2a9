"""Per-file verdicts for install and upgrade, and the writes they imply.

create     the file is new
identical  already what we would write
update     ours and pristine: replaced
merge      ours, edited by the user, three-way merged cleanly (git merge-file)
conflict   ours, edited, and the edit clashes: markers in place, or FILE.agenthooks-new
keep       memory, the user's config, or a file the user deleted (it stays deleted)
skip       not ours, in a path we write: moved aside to FILE.legacy, ours written
"""
from __future__ import annotations

import os
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agenthooks import manifest
from agenthooks.render import KNOWN_OWNER_IDS, TEMPLATE_REVS, PlannedFile


@dataclass(frozen=True)
class Verdict:
    verdict: str
    path: str
    note: str = ""

    def line(self) -> str:
        return f"  {self.verdict:<9}  {self.path}" + (f"  ({self.note})" if self.note else "")


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


def git_blob(root: Path, blob: str) -> bytes | None:
    """The pristine text of a past render, from the repo's object store."""
    try:
        proc = subprocess.run(["git", "-C", str(root), "cat-file", "blob", blob],
                              capture_output=True, check=False)
    except OSError:
        return None
    return proc.stdout if proc.returncode == 0 else None


def store_blobs(root: Path, texts: list[bytes]) -> None:
    """Keep each pristine render in git's object store, so the merge base survives
    even when the user never commits it."""
    if not texts or not (root / ".git").exists():
        return
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, data in enumerate(texts):
            p = Path(tmp) / str(i)
            p.write_bytes(data)
            paths.append(str(p))
        subprocess.run(["git", "-C", str(root), "hash-object", "-w", "--stdin-paths"],
                       input="\n".join(paths) + "\n", text=True, capture_output=True, check=False)


def merge3(cur: bytes, base: bytes, new: bytes, label: str) -> tuple[int, bytes]:
    """git merge-file: (0, merged) when clean, (n>0, text with conflict markers)."""
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for name, data in (("yours", cur), ("base", base), ("new", new)):
            p = Path(tmp) / name
            p.write_bytes(data)
            paths.append(str(p))
        proc = subprocess.run(
            ["git", "merge-file", "-p", "-L", f"{label} (yours)", "-L", "agenthooks (previous)",
             "-L", "agenthooks (new)", *paths],
            capture_output=True, check=False)
    if proc.returncode < 0 or proc.returncode > 127:
        raise OSError(f"git merge-file failed on {label}")
    return proc.returncode, proc.stdout


def decide(
    root: Path,
    planned: list[PlannedFile],
    recorded: dict[str, Any],
    *,
    dry_run: bool,
    conflict: str = "inline",
    restore: frozenset[str] = frozenset(),
) -> tuple[list[Verdict], dict[str, Any]]:
    """Classify every planned file, write unless dry_run; return verdicts and the new
    manifest records."""
    verdicts: list[Verdict] = []
    records: dict[str, Any] = {}
    pristine: list[bytes] = []
    writes: list[tuple[Path, bytes, int]] = []
    moves: list[tuple[Path, Path]] = []
    for pf in planned:
        path = root / pf.path
        new = pf.text.encode("utf-8")
        rec = recorded.get(pf.path)
        exists = path.is_file() and not path.is_symlink()
        cur = path.read_bytes() if exists else None
        if pf.kind in ("memory", "log"):
            if path.exists() or path.is_symlink():
                verdicts.append(Verdict("keep", pf.path, "memory is never touched" if pf.kind == "memory" else ""))
            else:
                verdicts.append(Verdict("create", pf.path))
                writes.append((path, new, pf.mode))
            continue
        if pf.kind == "config":
            if exists or rec is not None:
                verdicts.append(Verdict("keep", pf.path, "yours once written" if exists else "deleted by you"))
                records[pf.path] = rec or manifest.record(new, pf.template, TEMPLATE_REVS.get(pf.template, 1), pf.mode)
            else:
                verdicts.append(Verdict("create", pf.path))
                writes.append((path, new, pf.mode))
                records[pf.path] = manifest.record(new, pf.template, TEMPLATE_REVS.get(pf.template, 1), pf.mode)
            continue
        record = manifest.record(new, pf.template, TEMPLATE_REVS.get(pf.template, 1), pf.mode)
        if pf.kind == "registration":
            # A file shared with the user: the framework module already merged our entries in.
            records[pf.path] = record
            if cur is None:
                verdicts.append(Verdict("create", pf.path))
                writes.append((path, new, pf.mode))
            elif cur == new:
                verdicts.append(Verdict("identical", pf.path))
            else:
                verdicts.append(Verdict("update", pf.path, "our entries refreshed, yours kept"))
                writes.append((path, new, pf.mode))
            continue
        if cur is None and (path.exists() or path.is_symlink()):
            verdicts.append(Verdict("skip", pf.path, "not a regular file; left alone"))
            continue
        if cur is None:
            if rec is not None and pf.path not in restore:
                verdicts.append(Verdict("keep", pf.path, f"deleted by you; --restore {pf.path} brings it back"))
                records[pf.path] = rec
                continue
            verdicts.append(Verdict("create", pf.path))
            writes.append((path, new, pf.mode))
            records[pf.path] = record
            pristine.append(new)
            continue
        records[pf.path] = record
        pristine.append(new)
        if cur == new:
            mode_ok = (path.stat().st_mode & 0o777) == pf.mode
            verdicts.append(Verdict("identical", pf.path, "" if mode_ok else "mode fixed"))
            if not mode_ok:
                writes.append((path, new, pf.mode))
            continue
        if not is_ours(cur) and rec is None:
            legacy = path.with_name(path.name + ".legacy")
            verdicts.append(Verdict("skip", pf.path, f"not ours: moved to {legacy.name}, ours written"))
            moves.append((path, legacy))
            writes.append((path, new, pf.mode))
            continue
        if rec is not None and manifest.sha256(cur) == rec.get("sha256"):
            verdicts.append(Verdict("update", pf.path))
            writes.append((path, new, pf.mode))
            continue
        base = git_blob(root, rec["blob"]) if rec is not None and rec.get("blob") else None
        if base is None:
            side = path.with_name(path.name + ".agenthooks-new")
            verdicts.append(Verdict("conflict", pf.path, f"edited, no merge base: new version in {side.name}"))
            writes.append((side, new, pf.mode))
            records[pf.path] = dict(record, pending=True)
            continue
        rc, merged = merge3(cur, base, new, pf.path)
        if rc == 0:
            verdicts.append(Verdict("merge", pf.path, "your edits kept"))
            writes.append((path, merged, pf.mode))
        elif conflict == "new":
            side = path.with_name(path.name + ".agenthooks-new")
            verdicts.append(Verdict("conflict", pf.path, f"your file kept; new version in {side.name}"))
            writes.append((side, new, pf.mode))
        else:
            verdicts.append(Verdict("conflict", pf.path, f"{rc} conflict(s) marked in place: resolve, then commit"))
            writes.append((path, merged, pf.mode))
    if not dry_run:
        for src, dst in moves:
            os.replace(src, dst)
        for path, data, mode in writes:
            write_atomic(path, data, mode)
        store_blobs(root, pristine)
    return verdicts, records
