"""Every planned file decided, without writing anything: one classifier per kind of file,
then the rules across files (release.py) and the files no longer generated (retire.py).
A dry run is the same classification without the writes, so it prints the same verdicts."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from agenthooks import manifest
from agenthooks.errors import UserError
from agenthooks.files import PlannedFile
from agenthooks.gitstore import git_prefix
from agenthooks.render import TEMPLATE_REVS
from agenthooks.upgrade.owned import owned
from agenthooks.upgrade.release import hold_release, restore_needed
from agenthooks.upgrade.retire import retired
from agenthooks.upgrade.seen import Outcome, Seen
from agenthooks.upgrade.shared import config_file, memory, registration
from agenthooks.upgrade.steps import Plan, Step


# One classifier per kind of file; each reads on its own.
CLASSIFIERS: dict[str, Callable[[Seen], Outcome]] = {
    "memory": memory,
    "log": memory,
    "config": config_file,
    "registration": registration,
    "owned": owned,
}


def classify(
    root: Path,
    planned: list[PlannedFile],
    recorded: dict[str, Any],
    *,
    conflict: str = "inline",
    restore: frozenset[str] = frozenset(),
    settings: dict[str, Any] | None = None,
) -> Plan:
    """Decide every planned file without writing anything. `settings`: config.yaml keys
    given on this command line, spliced into the user's config.yaml."""
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
                    record=manifest.record(new, pf.template, TEMPLATE_REVS.get(pf.template, 1),
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
    restore_needed(seens, steps, records, pristine)
    hold_release(seens, steps, records)
    steps.extend(retired(root, recorded, planned_paths, records))
    return Plan(steps, records, pristine)
