"""agenthooks uninstall: take out what install put in, and nothing else.

Our entries leave every framework settings file (each framework module's unregister());
our generated files go when they are pristine; a file install moved aside (FILE.legacy)
comes back; memory, the log, config.yaml and every file the user edited stay, and the
output says so. --purge also deletes .agent/ itself, after a confirmation."""
from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from agenthooks import frameworks, manifest, upgrade
from agenthooks.errors import UserError
from agenthooks.install import target_dir
from agenthooks.upgrade import Verdict


class NeedsConfirmation(UserError):
    code = 2


@dataclass
class Plan:
    verdicts: list[Verdict] = field(default_factory=list)
    writes: list[tuple[Path, bytes, int]] = field(default_factory=list)
    removes: list[Path] = field(default_factory=list)
    moves: list[tuple[Path, Path]] = field(default_factory=list)
    kept: dict[str, Any] = field(default_factory=dict)


def _framework_names(data: dict[str, Any]) -> list[str]:
    names = list(data.get("answers", {}).get("frameworks", []))
    for rec in data.get("files", {}).values():
        template = str(rec.get("template", "")) if isinstance(rec, dict) else ""
        if template.startswith("frameworks/"):
            names.append(template.split("/", 1)[1])
    return [n for n in frameworks.NAMES if n in names]


def classify(root: Path, data: dict[str, Any]) -> Plan:
    plan = Plan()
    files: dict[str, Any] = data.get("files", {})
    handled: set[str] = set()
    for name in _framework_names(data):
        mod = frameworks._module(name)
        if mod is None or not hasattr(mod, "unregister"):
            continue
        for rel, text in mod.unregister(root):
            handled.add(rel)
            path = root / rel
            if text is None:
                plan.verdicts.append(Verdict("remove", rel, f"held only our {name} entries"))
                plan.removes.append(path)
            else:
                plan.verdicts.append(Verdict("update", rel, f"our {name} entries removed, yours kept"))
                mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
                plan.writes.append((path, text.encode("utf-8"), mode))
    for rel, rec in sorted(files.items()):
        if rel in handled or not isinstance(rec, dict):
            continue
        kind = manifest.kind(rec)
        path = root / rel
        if kind == "registration":
            continue  # the framework module above owns that decision
        if kind == "config":
            if path.is_file():
                plan.verdicts.append(Verdict("keep", rel, "yours: delete it by hand, or --purge"))
                plan.kept[rel] = rec
            continue
        side = path.with_name(path.name + upgrade.NEW_SUFFIX)
        if side.is_file() and not side.is_symlink():
            plan.verdicts.append(Verdict("remove", str(Path(rel).with_name(side.name).as_posix()),
                                         "a new version install left for you to merge"))
            plan.removes.append(side)
        legacy = path.with_name(str(rec.get("legacy") or (path.name + upgrade.LEGACY_SUFFIX)))
        has_legacy = bool(rec.get("legacy")) and legacy.exists()
        exists = path.is_file() and not path.is_symlink()
        if exists and not manifest.is_pristine(path.read_bytes(), rec):
            note = "edited by you: left in place"
            if has_legacy:
                note += f"; your earlier file stays in {legacy.name}"
            plan.verdicts.append(Verdict("keep", rel, note))
            plan.kept[rel] = rec
            continue
        if exists:
            plan.removes.append(path)
        if has_legacy:
            plan.verdicts.append(Verdict("restore", rel, f"your file back from {legacy.name}"))
            plan.moves.append((legacy, path))
        elif exists:
            plan.verdicts.append(Verdict("remove", rel))
    for rel, note in ((".agent/memory/", "memory is never touched"),
                      (".agent/log/", "")):
        if (root / rel).is_dir():
            plan.verdicts.append(Verdict("keep", rel, note))
    return plan


def _prune_dirs(root: Path, paths: list[Path]) -> None:
    """Remove folders our removals left empty, up to (never including) the repo root."""
    for path in paths:
        parent = path.parent
        while parent != root and root in parent.parents:
            try:
                parent.rmdir()
            except OSError:
                break
            parent = parent.parent


def run(dir_: Path | None, *, purge: bool, yes: bool, dry_run: bool,
        confirm: Callable[[str], bool] | None, echo: Callable[[str], None]) -> int:
    root = target_dir(dir_)
    mpath = root / manifest.PATH
    if not (root / ".agent").is_dir():
        raise UserError(f"nothing to uninstall: no .agent/ in {root}")
    data = manifest.load(root)
    plan = classify(root, data)
    if purge and not dry_run and not yes:
        if confirm is None:
            raise NeedsConfirmation("--purge deletes .agent/ with your memory: pass --yes to "
                                    "confirm (no terminal to ask on)")
        if not confirm(f"Delete {root / '.agent'} and everything in it, memory included?"):
            echo("nothing was removed")
            return 1
    if purge:
        plan.verdicts = [v for v in plan.verdicts if not v.path.startswith(".agent/")]
        plan.verdicts.append(Verdict("remove", ".agent/", "--purge: memory, config and log too"))
    elif mpath.is_file():
        owned_kept = {r: v for r, v in plan.kept.items() if manifest.kind(v) != "config"}
        if owned_kept:
            plan.verdicts.append(Verdict("update", manifest.PATH, "keeps the records of the "
                                         "files left in place"))
        else:
            plan.verdicts.append(Verdict("remove", manifest.PATH))
    if not dry_run:
        for path, text, mode in plan.writes:
            upgrade.write_atomic(path, text, mode)
        for path in plan.removes:
            if path.is_file() or path.is_symlink():
                path.unlink()
        for src, dst in plan.moves:
            os.replace(src, dst)
        if purge:
            shutil.rmtree(root / ".agent")
        elif mpath.is_file():
            if any(manifest.kind(v) != "config" for v in plan.kept.values()):
                text = manifest.dumps(data.get("answers", {}), plan.kept)
                upgrade.write_atomic(mpath, text.encode("utf-8"), 0o644)
            else:
                mpath.unlink()
        _prune_dirs(root, plan.removes + ([mpath] if not purge else []))
    echo(("Would remove" if dry_run else "agenthooks uninstall") + f" in {root}:")
    for v in plan.verdicts:
        echo(v.line())
    if dry_run:
        echo("dry run: nothing was written")
    return 0
