"""What interactive install says around its questions: the opening line, the plan before
the last question, and what to do next. Also --add/--remove on the recorded frameworks."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Optional

from agenthooks import frameworks, manifest, upgrade
from agenthooks.answer_types import Answers
from agenthooks.answers import check
from agenthooks.errors import UserError

INTRO = ("agenthooks install: a few questions, then the plan (every file it would write), "
         "then nothing is written until you say yes.")
# Verdicts that leave a path for `git add` (a removal is staged by `git add -A` only).
STAGED = ("create", "update", "merge", "conflict", "skip")


def edit_frameworks(given: list[str] | None, add: Iterable[str], remove: Iterable[str],
                    recorded: Mapping[str, Any], root: Path) -> list[str] | None:
    """--add/--remove applied to --framework, else to the recorded frameworks (else what
    the repo shows): the rest stays as it was. None when neither was given."""
    add, remove = list(add), list(remove)
    if not add and not remove:
        return given
    for names in (add, remove):
        if names:
            check("frameworks", names)  # an unknown name fails here, not silently
    base = list(given or recorded.get("frameworks") or frameworks.detect(root))
    out = [f for f in base + [a for a in add if a not in base] if f not in remove]
    if not out:
        raise UserError(f"--remove {' --remove '.join(remove)} leaves no framework: "
                        "uninstall instead (agenthooks uninstall), or --add another")
    return out


def dropped(recorded: Mapping[str, Any], answers: Answers) -> list[str]:
    """Frameworks the last install wired that this run unregisters."""
    return [f for f in recorded.get("frameworks", []) if f not in answers["frameworks"]]


def show_plan(echo: Callable[[str], None], root: Path, verdicts: list[upgrade.Verdict],
              mverdict: str, gone: list[str]) -> None:
    echo(f"Plan for {root}:")
    for v in verdicts:
        echo(v.line())
    echo(upgrade.Verdict(mverdict, manifest.PATH).line())
    for name in gone:
        echo(f"unregister {name}: wired at the last install, not selected now "
             f"(keep it with --add {name})")


def closing(echo: Callable[[str], None], root: Path, verdicts: list[upgrade.Verdict],
            manifest_written: bool, local: bool = False) -> None:
    """The next steps: rules, a look at the block, and the exact paths to stage, with a
    `git add -f` for each file the repo's ignore rules would leave out (named with the
    ignoring line: teammates would not get it)."""
    from agenthooks import committed

    written = [v.path for v in verdicts if v.verdict in STAGED] \
        + ([manifest.PATH] if manifest_written else [])
    try:
        files = manifest.load(root).get("files", {})
    except UserError:
        files = {}
    needed = committed.needed(root, files)
    lost = committed.ignored(root, needed)
    if not written and not lost:
        return  # up to date, and nothing left out: nothing to do next
    echo("next: put your rules in .agent/memory/tattoo.md "
         "(or bring them from CLAUDE.md/AGENTS.md with `agenthooks import`)")
    echo("next: see what the agent will get: agenthooks show")
    if local:
        echo("nothing to commit: this install is kept out of git in this checkout "
             "(.git/info/exclude)")
        return
    for f in lost:
        echo(f"warning: {f.say()}: git add skips it, so teammates would not get it")
    gone = {f.path for f in lost}
    tops = {f.path.split("/", 1)[0] for f in lost}
    # A top folder whose every committed file is ignored is left to git add -f alone:
    # `git add .codex` would stage nothing (or fail, for a `.codex/` pattern).
    kept = [p for p in written if p not in gone]
    plain = [p for p in git_add_paths(kept)
             if p not in tops or any(w.split("/", 1)[0] == p for w in kept if w in needed)]
    line = " && ".join(filter(None, ["git add " + " ".join(plain) if plain else "",
                                     committed.fix(lost) if lost else ""]))
    if line:
        echo("next: commit them: " + line)


def git_add_paths(paths: list[str]) -> list[str]:
    """Each path's top folder (or the file, at the repo root), in first-seen order: every
    one exists after this run, so git add never fails on a pathspec."""
    out: list[str] = []
    for p in paths:
        top = p.split("/", 1)[0]
        if top not in out:
            out.append(top)
    return out


def import_rules(echo: Callable[[str], None], root: Path, *, asking: bool, all_: bool,
                 dry_run: bool, picker: Optional[Callable[[list[Any]], Optional[list[Any]]]]) -> None:
    """The rules of the repo's instruction files (CLAUDE.md, AGENTS.md, ...) not yet in
    tattoo.md nor decided before: counted, then picked at a prompt (pages that fit the
    screen, ticked by importer.TICK_RULE; the unticked ones are remembered as declined),
    the ticked ones with --import, none with --yes alone (a hint says how). A nested
    file's rules (a package of a monorepo) are left to `agenthooks import`, which
    offers them for their package. The source files are never edited."""
    from agenthooks.memory import importer, parse

    found = importer.find_rules(root)
    top = [f for f in found if not f.scope]
    offer = [f for f in top if not f.skip]
    nested = [f for f in found if f.scope and not f.skip]
    if nested and not dry_run:
        files = list(dict.fromkeys(f.source for f in nested))
        echo(f"note: {len(nested)} rule(s) in {len(files)} nested instruction file(s) "
             f"({', '.join(files[:3])}{', ...' if len(files) > 3 else ''}): "
             "agenthooks import offers them for their packages")
    if not offer:
        return
    ticked = [f for f in offer if f.ticked]
    if dry_run:
        for f in offer:
            echo(f"import: {'[x]' if f.ticked else '[ ]'} {f.label()}")
        if all_:
            echo(f"dry run: {len(ticked)} of {len(offer)} rule(s) from {_sources(offer)} would "
                 f"be imported into {TATTOO} (the ticked ones)")
        else:
            echo(f"dry run: {len(offer)} rule(s) from {_sources(offer)} would be offered, "
                 f"{len(ticked)} ticked (--import takes those)")
        echo(importer.tick_rule(root))
        return
    if not asking and not (all_ and ticked):
        echo(f"next: {len(offer)} rule(s) of {_sources(offer)} are not in {TATTOO}: "
             "agenthooks import picks them" + (f" (install --yes --import takes the "
                                               f"{len(ticked)} ticked)" if ticked else ""))
        return
    declined: list[Any] = []
    if not asking:
        picked = ticked
    else:
        echo(importer.summary(top))
        echo(importer.tick_rule(root))
        chosen = picker(offer) if picker else []
        if chosen is None:  # Ctrl-C at the rules: the install stays, no rule is written
            echo(f"imported no rules into {TATTOO} (cancelled; offered again next time)")
            return
        picked = chosen
        declined = [f for f in offer if f not in picked]
    written = importer.apply(root, picked, declined)
    if declined:
        echo(f"left {len(declined)} rule(s) out: recorded in .agent/imports.txt, "
             "not offered again")
    if not picked:
        echo(f"imported no rules into {TATTOO}")
        return
    echo(f"imported {len(picked)} rule(s) into {TATTOO} from {_sources(picked)} "
         "(those files are unchanged; agenthooks import --undo takes them out)")
    importer.log(parse.find_repo(root), picked, written)


TATTOO = ".agent/memory/tattoo.md"


def _sources(found: list[Any]) -> str:
    return ", ".join(sorted({f.source for f in found}))
