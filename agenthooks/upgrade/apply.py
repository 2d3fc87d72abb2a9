"""Carrying out a plan: first the guard (no link, nothing but the regular files and folders
expected, all writable), then the steps one at a time."""
from __future__ import annotations

import os
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Callable, Iterable

from agenthooks import gitexclude, safepath
from agenthooks.files import write_atomic
from agenthooks.gitstore import UNSTORED, git_prefix, mark_unmerged, store_blobs
from agenthooks.upgrade.steps import Plan, Verdict


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


def _prune_empty(root: Path, folder: Path) -> None:
    """Remove folders a removal left empty, up to (never including) the repo root."""
    while folder != root and root in folder.parents:
        try:
            folder.rmdir()
        except OSError:
            return
        folder = folder.parent
