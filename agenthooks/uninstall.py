"""agenthooks uninstall: take out what install put in, and nothing else.

Our entries leave every framework settings file (each framework module's unregister());
our generated files go when they are pristine, and so do config.yaml and the memory files
while they are still the stock ones install wrote; a file install moved aside (FILE.legacy)
comes back; the hooks' runtime files (injected_context.txt, log/ with its state and locks)
go; memory written to, an edited config.yaml and every file the user edited stay, and the
output says so. So a repo whose memory was never written to is left as git saw it before
install. refs/agenthooks/pristine goes with the last record. --purge also deletes .agent/
itself, after a confirmation."""
from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from agenthooks import frameworks, gitstore, manifest, upgrade
from agenthooks.errors import UserError
from agenthooks.files import target_dir, write_atomic
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
    trees: list[Path] = field(default_factory=list)


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
        mod = frameworks.get(name)
        if mod is None:
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
            if path.is_file() and manifest.is_pristine(path.read_bytes(), rec):
                plan.verdicts.append(Verdict("remove", rel, "never edited: only the defaults"))
                plan.removes.append(path)
            elif path.is_file():
                plan.verdicts.append(Verdict("keep", rel, "edited by you: delete it by hand, "
                                             "or --purge"))
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
    _memory(root, data, plan)
    _runtime(root, plan)
    return plan


def _stock_memory(name: str) -> set[bytes]:
    """The texts install (or a hook, when one is missing) writes for memory file name, in
    every language: such a file holds nothing anyone wrote."""
    from agenthooks import messages, render
    from agenthooks.install import template_override

    template_root, _ = template_override()
    out = set()
    for root in {None, template_root}:
        env = render.environment(root)
        for lang in messages.MESSAGES:
            try:
                out.add(env.get_template(f"memory/{lang}/{name}").render().encode("utf-8"))
            except Exception:  # noqa: BLE001 - a template tree without it: nothing to match
                continue
    return out


def _memory(root: Path, data: dict[str, Any], plan: Plan) -> None:
    """Memory files still exactly as install wrote them go; any other memory stays."""
    mem = root / ".agent/memory"
    if not mem.is_dir():
        return
    for path in sorted(mem.iterdir()):
        rel = path.relative_to(root).as_posix()
        if path.is_dir() and not path.is_symlink():
            plan.verdicts.append(Verdict("keep", rel + "/", "memory is never touched"))
        elif (path.is_file() and not path.is_symlink() and path.suffix == ".md"
              and path.read_bytes() in _stock_memory(path.name + ".j2")):
            plan.verdicts.append(Verdict("remove", rel, "the stock template, never written to"))
            plan.removes.append(path)
        else:
            plan.verdicts.append(Verdict("keep", rel, "memory is never touched"))


# What the hooks write at run time; .agent/.gitignore hides exactly these while installed.
RUNTIME_FILES = ("injected_context.txt",)
RUNTIME_GLOBS = (".injected_context.txt.*",)
RUNTIME_DIRS = ("log",)


def _runtime(root: Path, plan: Plan) -> None:
    agent = root / ".agent"
    paths = [agent / n for n in RUNTIME_FILES] + sorted(
        p for g in RUNTIME_GLOBS for p in agent.glob(g))
    for path in paths:
        if path.is_file() or path.is_symlink():
            plan.verdicts.append(Verdict("remove", path.relative_to(root).as_posix(),
                                         "written by the hooks at run time"))
            plan.removes.append(path)
    for name in RUNTIME_DIRS:
        path = agent / name
        if path.is_dir() and not path.is_symlink():
            plan.verdicts.append(Verdict("remove", f".agent/{name}/", "the hooks' log, state "
                                         "and locks"))
            plan.trees.append(path)


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


def _writable(root: Path, plan: Plan, purge: bool) -> None:
    """Refuse before the first write when a folder we must change is not writable (a
    read-only mount; permission bits lie for root): one line, nothing removed."""
    import tempfile

    folders = {p.parent for p, _, _ in plan.writes} | {p.parent for p in plan.removes}
    folders |= {p.parent for p in plan.trees} | {d.parent for _, d in plan.moves}
    folders |= {root / ".agent", root} if purge else {root / ".agent"}
    for folder in sorted(f for f in folders if f.is_dir()):
        try:
            fd, name = tempfile.mkstemp(dir=folder, prefix=".agenthooks-probe-")
        except OSError as exc:
            raise UserError(f"{folder}: not writable ({exc.strerror or exc}): nothing was "
                            "removed") from None
        os.close(fd)
        os.unlink(name)


def _apply(root: Path, plan: Plan, data: dict[str, Any], *, purge: bool,
           drop_ref: bool) -> None:
    mpath = root / manifest.PATH
    for path, text, mode in plan.writes:
        write_atomic(path, text, mode)
    for path in plan.removes:
        if path.is_file() or path.is_symlink():
            path.unlink()
    for path in plan.trees:
        shutil.rmtree(path)
    for src, dst in plan.moves:
        os.replace(src, dst)
    if purge:
        shutil.rmtree(root / ".agent")
    elif mpath.is_file():
        if any(manifest.kind(v) != "config" for v in plan.kept.values()):
            kept = manifest.dumps(data.get("answers", {}), plan.kept)
            write_atomic(mpath, kept.encode("utf-8"), 0o644)
        else:
            mpath.unlink()
    _prune_dirs(root, plan.removes + [t / "x" for t in plan.trees]
                + ([mpath] if not purge else []))
    if drop_ref:
        gitstore.delete_pristine_ref(root)


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
    drop_ref = False
    if purge:
        plan.verdicts = [v for v in plan.verdicts if not v.path.startswith(".agent/")]
        plan.verdicts.append(Verdict("remove", ".agent/", "--purge: memory, config and log too"))
        drop_ref = True
    elif mpath.is_file():
        owned_kept = {r: v for r, v in plan.kept.items() if manifest.kind(v) != "config"}
        if owned_kept:
            plan.verdicts.append(Verdict("update", manifest.PATH, "keeps the records of the "
                                         "files left in place"))
        else:
            plan.verdicts.append(Verdict("remove", manifest.PATH))
            drop_ref = True
    else:
        drop_ref = True
    # The merge bases of past renders: needed only while a record stays.
    drop_ref = drop_ref and gitstore.has_pristine_ref(root)
    if drop_ref:
        plan.verdicts.append(Verdict("remove", gitstore.PRISTINE_REF, "git ref holding the "
                                     "merge bases of our renders"))
    if not dry_run:
        _writable(root, plan, purge)
        try:
            _apply(root, plan, data, purge=purge, drop_ref=drop_ref)
        except OSError as exc:
            raise UserError(f"{exc.filename or root}: {exc.strerror or exc}: uninstall stopped "
                            "part way; fix that and run agenthooks uninstall again") from None
    echo(("Would remove" if dry_run else "agenthooks uninstall") + f" in {root}:")
    for v in plan.verdicts:
        echo(v.line())
    if dry_run:
        echo("dry run: nothing was written")
    return 0
