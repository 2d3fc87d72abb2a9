"""agenthooks install: answers, then the render plan, then per-file verdicts."""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Callable

from agenthooks import answers as answers_mod
from agenthooks import (config, frameworks, gitattributes, gitexclude, gitstore, install_talk,
                        installlock, manifest, render, safepath)
from agenthooks.answer_types import Answers, Flags
from agenthooks.errors import UserError
from agenthooks.files import PlannedFile, target_dir, write_atomic
from agenthooks.memory import boards, importer
from agenthooks.upgrade import apply, classify, retire, trust
from agenthooks.upgrade.steps import WRITES, Plan, Step, Verdict


def check_writable(root: Path) -> None:
    """Probe with a real file: permission bits lie for root and on read-only mounts."""
    import tempfile

    probe = root / ".agent" if (root / ".agent").is_dir() else root
    try:
        fd, name = tempfile.mkstemp(dir=probe, prefix=".agenthooks-probe-")
    except OSError:
        raise UserError(f"{probe}: not writable") from None
    os.close(fd)
    os.unlink(name)


def run(
    dir_: Path | None,
    flags: Flags,
    *,
    yes: bool,
    dry_run: bool,
    prompter_factory: Callable[[], answers_mod.Prompter] | None,
    echo: Callable[[str], None],
    conflict: str = "inline",
    restore: tuple[str, ...] = (),
    interactive: bool | None = None,
    allow_dirty: bool = False,
    import_rules: bool = False,
) -> int:
    root = target_dir(dir_)
    options = dict(yes=yes, dry_run=dry_run, prompter_factory=prompter_factory, echo=echo,
                   conflict=conflict, restore=restore, interactive=interactive,
                   allow_dirty=allow_dirty, import_rules=import_rules)
    if dry_run:  # reads only: no need to wait for another run
        return _run(root, dir_, flags, **options)  # type: ignore[arg-type]
    with installlock.held(root, "install"):
        return _run(root, dir_, flags, **options)  # type: ignore[arg-type]


def _run(
    root: Path,
    dir_: Path | None,
    flags: Flags,
    *,
    yes: bool,
    dry_run: bool,
    prompter_factory: Callable[[], answers_mod.Prompter] | None,
    echo: Callable[[str], None],
    conflict: str,
    restore: tuple[str, ...],
    interactive: bool | None,
    allow_dirty: bool,
    import_rules: bool,
) -> int:
    """The install, under the repo's lock: the manifest is read only once the lock is held,
    so a run that waited builds on what the other one wrote."""
    recorded, local = _recorded(root, flags)
    if (root / ".agent/config.yaml").is_file():
        config.check(root / ".agent/config.yaml")
    prompter = prompter_factory() if prompter_factory else None
    asking = prompter is not None and not yes and (
        sys.stdin.isatty() if interactive is None else interactive)
    if asking:
        echo(install_talk.INTRO)
    flags = flags.copy()
    flags["frameworks"] = answers_mod.edit_frameworks(
        flags.get("frameworks"), flags.get("add") or (), flags.get("remove") or (),
        recorded.get("answers", {}), root)
    answers = answers_mod.resolve(root, flags, recorded.get("answers", {}), yes=yes,
                                  prompter=prompter, interactive=interactive)
    if local:
        answers["local"] = True
    _check_board(root, answers, bool(flags.get("switch_board", False)))
    _check_target(root)
    regs, plan = _plan(root, answers, recorded, flags, conflict=conflict, restore=restore)
    _refuse_dirty(root, plan, allow_dirty)
    apply.guard(root, plan, [s.verdict.path for s in plan.steps],
                  also=[root / manifest.PATH], write=not dry_run)
    text = manifest.dumps(answers, plan.records)
    mpath = root / manifest.PATH
    old = mpath.read_text(encoding="utf-8") if mpath.is_file() else None
    mverdict = "identical" if old == text else ("create" if old is None else "update")
    gone = install_talk.dropped(recorded.get("answers", {}), answers)
    writes = any(v.verdict in WRITES for v in plan.verdicts) or mverdict != "identical"
    if asking and not dry_run and writes:
        assert prompter is not None
        install_talk.show_plan(echo, root, plan.verdicts, mverdict, gone)
        answers_mod.confirm_plan(prompter)
    verdicts = plan.verdicts if dry_run else _write(root, plan, answers, text, old)
    _report(echo, root, answers, verdicts, mverdict, regs, gone,
            dry_run=dry_run, asking=asking)
    importer.at_install(echo, root, asking=asking, all_=import_rules, dry_run=dry_run,
                        picker=getattr(prompter, "pick_rules", None) if asking else None)
    if not dry_run:
        install_talk.closing(echo, root, verdicts, mverdict != "identical", bool(answers.get("local")))
    _subfolder_hint(echo, root, dir_, answers)
    attention = [s for s in plan.steps if s.verdict.verdict == "conflict" or s.refused]
    return 1 if attention else 0


def _check_board(root: Path, answers: Answers, switching: bool) -> None:
    """--board on an installed repo that keeps its board elsewhere: the board must move with
    it, which `agenthooks board --switch` does (and then installs)."""
    current = answers_mod.current_board(root)
    if current is not None and answers["board"] != current and not switching:
        raise UserError(f"--board {answers['board']}: this repo's board is {current} "
                        f"(.agent/config.yaml)", hint=f"agenthooks board --switch {answers['board']} "
                        "moves the board and changes the setting")


def _board(root: Path, answers: Answers) -> list[PlannedFile]:
    """A branch's board (board: local, branch) for the branch installed on, from the snapshot
    template, where none is yet; the hooks never make one (a new branch starts its own)."""
    if answers.get("board", "shared") == "shared":
        return []
    rel = boards.relpath(root / ".agent", root, answers["board"])  # outside git: snapshot.md
    text = render.render(f"memory/{answers['lang']}/snapshot.md", {})
    return [PlannedFile(f".agent/{rel}", text, 0o644, "memory")]


def _warn(message: str) -> None:
    print(f"agenthooks: warning: {message}", file=sys.stderr)


def _recorded(root: Path, flags: Flags) -> tuple[dict[str, Any], bool]:
    """The manifest as far as it can be trusted (a linked .agent/, memory/, log/... refused
    before anything is read), and whether this install stays out of git (--local)."""
    safepath.check_agent(root)
    recorded = trust.trusted(manifest.load(root), _warn)
    return recorded, _local(root, bool(flags.get("local", False)), recorded.get("answers", {}))


def _check_target(root: Path) -> None:
    """A folder we can write to; outside git it works, but the hooks are meant to be committed."""
    check_writable(root)
    if gitstore.git_prefix(root) is None:
        print(f"agenthooks: warning: {root} is not in a git repository; installing there "
              "(the hooks are meant to be committed: git init first)", file=sys.stderr)


def _write(root: Path, plan: Plan, answers: Answers, text: str,
           old: str | None) -> list[Verdict]:
    """The plan's files, then the manifest (TEXT, when it changed from OLD), then what a
    framework needs once its files are there."""
    verdicts = apply.apply(root, plan, unstored=_warn)
    if old != text:
        write_atomic(root / manifest.PATH, text.encode("utf-8"), 0o644)
    frameworks.post_install(root, answers)
    return verdicts


def _plan(root: Path, answers: Answers, recorded: dict[str, Any], flags: Flags,
          *, conflict: str, restore: tuple[str, ...]) -> tuple[dict[str, list[Any]], Plan]:
    """Every file's verdict, the unregistering of dropped frameworks included; no writes."""
    regs = frameworks.registrations(root, answers)
    planned = render.plan(answers) + [pf for pfs in regs.values() for pf in pfs]
    planned += _board(root, answers)
    # The top .gitattributes block: LF checkouts for the files we own outside .agent/
    # (none in a --local install: that file is committed).
    top = None if answers.get("local") else gitattributes.plan(root, planned)
    if top is not None:
        planned.append(top)
    restore_paths = frozenset(_relpath(root, r) for r in restore)
    # Flags whose value lives in config.yaml are applied to it when given on this run.
    # (A flag, or a new answer at the prompt; a recorded answer never overrides the file.)
    before = recorded.get("answers", {})
    settings: dict[str, Any] = {}
    if flags.get("budget_tokens") is not None \
            or before.get("budget_tokens", answers["budget_tokens"]) != answers["budget_tokens"]:
        settings["budget_tokens"] = answers["budget_tokens"]
    if flags.get("board") is not None or before.get("board", answers["board"]) != answers["board"]:
        settings["board"] = answers["board"]
    plan = classify.classify(root, planned, recorded.get("files", {}), conflict=conflict,
                            restore=restore_paths, settings=settings)
    retire.drop_frameworks(root, plan, planned, answers["frameworks"], recorded)
    if top is None:
        _drop_gitattributes(root, plan)
    if answers.get("local"):
        _exclude(root, plan, regs)
    return regs, plan


# --- install --local: this checkout only, nothing to commit -------------------------------

def _local(root: Path, given: bool, recorded: dict[str, Any]) -> bool:
    """Is this a --local install (given now, or recorded)? Refused where it cannot keep
    its promise: a checkout that commits .agent/, or one installed for the team."""
    if not given:
        return bool(recorded.get("local"))
    if recorded.get("frameworks") and not recorded.get("local"):
        raise UserError("--local: this checkout has an install for the team (its files are "
                        "meant to be committed)", hint="run agenthooks uninstall first, then "
                        "agenthooks install --local")
    if gitstore.git_prefix(root) is None:
        raise UserError(f"--local: {root} is not in a git repository: there is nothing to keep "
                        "its memory out of", hint="install without --local")
    if gitstore.tracked(root, ".agent"):
        raise UserError("--local: this repository commits .agent/: its memory is shared here",
                        hint="install without --local; or use the plugin or agenthooks install "
                        "--user, which run the committed hooks")
    return True


def _exclude(root: Path, plan: Plan, regs: dict[str, list[Any]]) -> None:
    """Every file outside .agent/ must be a host's local settings file; all of them and
    .agent/ go into our block of .git/info/exclude."""
    paths = [".agent/"]
    for name, pfs in regs.items():
        fw = frameworks.get(name)
        local = fw.local_path if fw is not None else None
        for pf in pfs:
            if pf.path.startswith(".agent/"):
                continue
            if pf.path != local:
                raise UserError(f"--local: {name} has no settings file of this checkout's own "
                                f"(its hooks would go into {pf.path}, which is committed)",
                                hint=f"drop it (--framework), and let agenthooks install --user "
                                f"--framework {name} run the hooks for every repository instead")
            paths.append(pf.path)
    target, old, new = gitexclude.planned(root, ["/" + p for p in paths])
    if old == new:
        return
    shown = os.path.relpath(target, root)
    plan.steps.append(Step(
        Verdict("create" if old is None else "update", shown,
                        "kept out of git in this checkout: " + " ".join(paths)),
        writes=[(target, new.encode("utf-8"), 0o644)]))


def _subfolder_hint(echo: Callable[[str], None], root: Path, dir_: Path | None,
                    answers: Answers) -> None:
    """Run from a subfolder of the repo: where a host started there loads no project hooks."""
    here = Path(dir_).expanduser().resolve() if dir_ is not None else Path.cwd().resolve()
    if here == root.resolve() or root.resolve() not in here.parents:
        return
    for name in answers["frameworks"]:
        fw = frameworks.get(name)
        if fw is not None and fw.subfolder_hint:
            echo(f"note: {fw.subfolder_hint}")


def _drop_gitattributes(root: Path, plan: Plan) -> None:
    """No file of ours outside .agent/ any more: our block leaves the top .gitattributes."""
    for rel, text in gitattributes.unregister(root):
        path = root / rel
        plan.records.pop(rel, None)
        if text is None:
            plan.steps.append(Step(Verdict("remove", rel, "held only our block"),
                                           removes=[path]))
        else:
            plan.steps.append(Step(Verdict("update", rel, "our block removed, yours kept"),
                                           writes=[(path, text.encode("utf-8"), path.stat().st_mode & 0o777)]))


def _refuse_dirty(root: Path, plan: Plan, allow_dirty: bool) -> None:
    edited = [s.verdict.path for s in plan.steps if s.touches_edits]
    dirty = gitstore.dirty(root, edited) if not allow_dirty else []
    if dirty:
        more = f" and {len(dirty) - 1} more" if len(dirty) > 1 else ""
        raise UserError(f"{dirty[0]}{more} has uncommitted changes that this upgrade would "
                        "rewrite: commit or stash them first, or pass --allow-dirty")


def _report(echo: Callable[[str], None], root: Path, answers: Answers,
            verdicts: list[Verdict], mverdict: str,
            regs: dict[str, list[Any]], gone: list[str], *, dry_run: bool, asking: bool) -> None:
    echo(("Would write" if dry_run else "agenthooks install") + f" in {root}:")
    for v in verdicts:
        echo(v.line())
    echo(Verdict(mverdict, manifest.PATH).line())
    # The manifest is a file on the verdict list too: the count matches the lines above.
    changed = sum(v.verdict in WRITES for v in verdicts) + (mverdict != "identical")
    if dry_run:
        echo(f"dry run: {changed} file(s) would change; nothing was written")
    elif changed == 0 and mverdict == "identical":
        echo("up to date: nothing changed")
    touched = {v.path for v in verdicts if v.verdict in WRITES}
    for note in frameworks.notices(root, answers):
        echo(f"note: {note}")
    for step in frameworks.next_steps(answers, touched, regs):
        echo(f"next: {step}")
    if dry_run:
        for name in gone:
            echo(f"unregister {name}: wired at the last install, not selected now")


def _relpath(root: Path, given: str) -> str:
    """--restore FILE, given relative to the repo root (or absolute), as a manifest path."""
    path = Path(given)
    if path.is_absolute():
        try:
            path = path.resolve().relative_to(root)
        except ValueError:
            raise UserError(f"--restore {given}: not inside {root}") from None
    return path.as_posix()  # Path already dropped any leading ./
