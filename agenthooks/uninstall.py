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
from pathlib import Path
from typing import Any, Callable

from agenthooks import frameworks, gitattributes, gitexclude, gitstore, installlock, manifest, safepath
from agenthooks.errors import UserError
from agenthooks.files import target_dir
from agenthooks.upgrade import apply, release, trust
from agenthooks.upgrade.steps import LEGACY_SUFFIX, NEW_SUFFIX, Plan, Step, Verdict


class NeedsConfirmation(UserError):
    code = 2


def _framework_names(data: dict[str, Any]) -> list[str]:
    names = list(data.get("answers", {}).get("frameworks", []))
    for rec in data.get("files", {}).values():
        template = str(rec.get("template", "")) if isinstance(rec, dict) else ""
        if template.startswith("frameworks/"):
            names.append(template.split("/", 1)[1])
    return [n for n in frameworks.NAMES if n in names]


def classify(root: Path, data: dict[str, Any]) -> Plan:
    """Every step uninstall takes, as upgrade's Plan: records are what the manifest keeps."""
    plan = Plan([], {}, [])
    files: dict[str, Any] = data.get("files", {})
    handled = _registrations(root, data, plan)
    for rel, rec in sorted(files.items()):
        if rel in handled or not isinstance(rec, dict):
            continue
        _recorded(root, rel, rec, plan)
    _orphans(root, plan)
    _memory(root, plan)
    _runtime(root, plan)
    _exclude(root, plan)
    return plan


def _exclude(root: Path, plan: Plan) -> None:
    """An install --local: its block leaves .git/info/exclude (the user's lines stay)."""
    found = gitexclude.unplanned(root)
    if found is not None:
        path, text = found
        plan.steps.append(Step(Verdict("update", os.path.relpath(path, root), "our --local block "
                                       "removed, yours kept"),
                               writes=[(path, text.encode("utf-8"), path.stat().st_mode & 0o777)]))


def _registrations(root: Path, data: dict[str, Any], plan: Plan) -> set[str]:
    """Each framework's entries taken out by its own module, and our block of the top
    .gitattributes; the files they handled."""
    step = plan.steps.append
    files: dict[str, Any] = data.get("files", {})
    handled: set[str] = set()
    for name in _framework_names(data):
        mod = frameworks.get(name)
        if mod is None:
            continue
        for rel, text in mod.unregister(root):
            handled.add(rel)
            path = root / rel
            rec = files.get(rel)
            legacy = path.with_name(str(rec["legacy"])) if isinstance(rec, dict) and rec.get("legacy") else None
            if text is None and legacy is not None and legacy.is_file():  # ours replaced yours
                step(Step(Verdict("restore", rel, f"your file back from {legacy.name}"),
                          moves=[(legacy, path)]))
            elif text is None:
                step(Step(Verdict("remove", rel, f"held only our {name} entries"), removes=[path]))
            else:
                mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
                step(Step(Verdict("update", rel, f"our {name} entries removed, yours kept"),
                          writes=[(path, text.encode("utf-8"), mode)]))
    for rel, text in gitattributes.unregister(root):  # our block in the top .gitattributes
        handled.add(rel)
        path = root / rel
        if text is None:
            step(Step(Verdict("remove", rel, "held only our block"), removes=[path]))
        else:
            step(Step(Verdict("update", rel, "our block removed, yours kept"),
                      writes=[(path, text.encode("utf-8"), path.stat().st_mode & 0o777)]))
    return handled


def _recorded(root: Path, rel: str, rec: dict[str, Any], plan: Plan) -> None:
    """A file the manifest records: removed while pristine, kept when edited."""
    step = plan.steps.append
    kind = manifest.kind(rec)
    path = root / rel
    if kind == "registration":
        return  # the framework module above owns that decision
    if kind == "config":
        if path.is_file() and manifest.is_pristine(path.read_bytes(), rec):
            step(Step(Verdict("remove", rel, "never edited: only the defaults"), removes=[path]))
        elif path.is_file():
            step(Step(Verdict("keep", rel, "edited by you: delete it by hand, or --purge")))
            plan.records[rel] = rec
        return
    side = path.with_name(path.name + NEW_SUFFIX)
    if side.is_file() and not side.is_symlink():
        step(Step(Verdict("remove", str(Path(rel).with_name(side.name).as_posix()),
                          "a new version install left for you to merge"), removes=[side]))
    legacy = path.with_name(str(rec.get("legacy") or (path.name + LEGACY_SUFFIX)))
    has_legacy = bool(rec.get("legacy")) and legacy.exists()
    exists = path.is_file() and not path.is_symlink()
    if exists and not manifest.is_pristine(path.read_bytes(), rec):
        note = "edited by you: left in place"
        if has_legacy:
            note += f"; your earlier file stays in {legacy.name}"
        step(Step(Verdict("keep", rel, note)))
        plan.records[rel] = rec
    elif has_legacy:  # the move back replaces our file
        step(Step(Verdict("restore", rel, f"your file back from {legacy.name}"),
                  moves=[(legacy, path)]))
    elif exists:
        step(Step(Verdict("remove", rel), removes=[path]))


def _orphans(root: Path, plan: Plan) -> None:
    """An edited hook left in place that sources a file uninstall takes out can no longer
    run: its verdict says so, so nobody finds out from the agent's next failing run."""
    # A move puts the user's earlier file back over ours: ours is gone all the same.
    gone = {p for s in plan.steps for p in s.removes} | \
        {dst for s in plan.steps for _src, dst in s.moves}
    for i, s in enumerate(plan.steps):
        path = root / s.verdict.path
        if s.verdict.verdict != "keep" or not s.verdict.path.endswith(".sh") \
                or not path.is_file():
            continue
        lost = sorted(n for n in release.sourced(path.read_bytes()) if path.parent / n in gone
                      and n != path.name)
        if lost:
            what = lost[0] if len(lost) == 1 else f"{lost[0]} (and {len(lost) - 1} more)"
            plan.steps[i] = Step(Verdict("keep", s.verdict.path, s.verdict.note + "; it "
                                         f"sources {what}, which uninstall takes out, so it can no "
                                         "longer run: delete it, or keep a copy of "
                                         f"{'it' if len(lost) == 1 else 'them'}"))


def _stock_memory(name: str) -> set[bytes]:
    """The texts install (or a hook, when one is missing) writes for memory file name, in
    every language: such a file holds nothing anyone wrote."""
    from agenthooks import messages, templating

    env = templating.environment()
    out = set()
    for lang in messages.MESSAGES:
        try:
            out.add(env.get_template(f"memory/{lang}/{name}").render().encode("utf-8"))
        except Exception:  # noqa: BLE001 - no template of that name: nothing to match
            continue
    return out


def _memory(root: Path, plan: Plan) -> None:
    """Memory files still exactly as install wrote them go; any other memory stays."""
    mem = root / ".agent/memory"
    if not mem.is_dir():
        return
    for path in sorted(mem.iterdir()):
        rel = path.relative_to(root).as_posix()
        if path.is_dir() and not path.is_symlink():
            plan.steps.append(Step(Verdict("keep", rel + "/", "memory is never touched")))
        elif (path.is_file() and not path.is_symlink() and path.suffix == ".md"
              and path.read_bytes() in _stock_memory(path.name + ".j2")):
            plan.steps.append(Step(Verdict("remove", rel, "the stock template, never written "
                                           "to"), removes=[path]))
        else:
            plan.steps.append(Step(Verdict("keep", rel, "memory is never touched")))


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
            plan.steps.append(Step(Verdict("remove", path.relative_to(root).as_posix(),
                                           "written by the hooks at run time"), removes=[path]))
    for name in RUNTIME_DIRS:
        path = agent / name
        if path.is_dir() and not path.is_symlink():
            plan.steps.append(Step(Verdict("remove", f".agent/{name}/", "the hooks' log, state "
                                           "and locks"), trees=[path]))


def _writable(root: Path, plan: Plan, purge: bool) -> None:
    """Refuse before the first write when a folder we must change is not writable (a
    read-only mount; permission bits lie for root): one line, nothing removed."""
    import tempfile

    folders = {p.parent for st in plan.steps for p, _, _ in st.writes}
    folders |= {p.parent for st in plan.steps for p in st.removes + st.trees}
    folders |= {d.parent for st in plan.steps for _, d in st.moves}
    folders |= {root / ".agent", root} if purge else {root / ".agent"}
    for folder in sorted(f for f in folders if f.is_dir()):
        try:
            fd, name = tempfile.mkstemp(dir=folder, prefix=".agenthooks-probe-")
        except OSError as exc:
            raise UserError(f"{folder}: not writable ({exc.strerror or exc}): nothing was "
                            "removed") from None
        os.close(fd)
        os.unlink(name)


def _warn(message: str) -> None:
    import sys

    print(f"agenthooks: warning: {message}", file=sys.stderr)


def run(dir_: Path | None, *, purge: bool, yes: bool, dry_run: bool,
        confirm: Callable[[str], bool] | None, echo: Callable[[str], None]) -> int:
    root = target_dir(dir_)
    if dry_run:  # reads only: no need to wait for another run
        return _run(root, purge=purge, yes=yes, dry_run=dry_run, confirm=confirm, echo=echo)
    with installlock.held(root, "uninstall"):
        return _run(root, purge=purge, yes=yes, dry_run=dry_run, confirm=confirm, echo=echo)


def _run(root: Path, *, purge: bool, yes: bool, dry_run: bool,
         confirm: Callable[[str], bool] | None, echo: Callable[[str], None]) -> int:
    mpath = root / manifest.PATH
    # A linked .agent/, memory/, log/...: refused before anything is read or removed.
    safepath.check_agent(root, then="nothing was removed")
    if not (root / ".agent").is_dir():
        raise UserError(f"nothing to uninstall: no .agent/ in {root}")
    data = trust.trusted(manifest.load(root), _warn)
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
        plan.steps = [st for st in plan.steps if not st.verdict.path.startswith(".agent/")]
        plan.steps.append(Step(Verdict("remove", ".agent/", "--purge: memory, config and log "
                                       "too"), trees=[root / ".agent"]))
        drop_ref = True
    elif mpath.is_file():
        if any(manifest.kind(v) != "config" for v in plan.records.values()):
            kept = manifest.dumps(data.get("answers", {}), plan.records).encode("utf-8")
            plan.steps.append(Step(Verdict("update", manifest.PATH, "keeps the records of the "
                                           "files left in place"), writes=[(mpath, kept, 0o644)]))
        else:
            plan.steps.append(Step(Verdict("remove", manifest.PATH), removes=[mpath]))
            drop_ref = True
    else:
        drop_ref = True
    # The merge bases of past renders: needed only while a record stays.
    drop_ref = drop_ref and gitstore.has_pristine_ref(root)
    if drop_ref:
        plan.steps.append(Step(Verdict("remove", gitstore.PRISTINE_REF, "git ref holding the "
                                       "merge bases of our renders")))
    apply.guard(root, plan, list(data.get("files", {})), write=False, then="nothing was removed")
    if not dry_run:
        _writable(root, plan, purge)
        try:
            apply.apply(root, plan)
            if drop_ref:
                gitstore.delete_pristine_ref(root)
        except OSError as exc:
            raise UserError(f"{exc.filename or root}: {exc.strerror or exc}: uninstall stopped "
                            "part way; fix that and run agenthooks uninstall again") from None
    echo(("Would remove" if dry_run else "agenthooks uninstall") + f" in {root}:")
    for v in plan.verdicts:
        echo(v.line())
    if dry_run:
        echo("dry run: nothing was written")
    return 0
