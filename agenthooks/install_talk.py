"""What interactive install says around its questions: the opening line, the plan before
the last question, and what to do next. Also --add/--remove on the recorded frameworks."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterable, Optional

from agenthooks import frameworks, manifest, upgrade
from agenthooks.answers import check
from agenthooks.errors import UserError

INTRO = ("agenthooks install: a few questions, then the plan (every file it would write), "
         "then nothing is written until you say yes.")
# Verdicts that leave a path for `git add` (a removal is staged by `git add -A` only).
STAGED = ("create", "update", "merge", "conflict", "skip")


def edit_frameworks(given: list[str] | None, add: Iterable[str], remove: Iterable[str],
                    recorded: dict[str, Any], root: Path) -> list[str] | None:
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


def dropped(recorded: dict[str, Any], answers: dict[str, Any]) -> list[str]:
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


def closing(echo: Callable[[str], None], verdicts: list[upgrade.Verdict],
            manifest_written: bool, local: bool = False) -> None:
    """The next steps: rules, a look at the block, and the exact paths to stage."""
    echo("next: put your rules in .agent/memory/tattoo.md "
         "(or bring them from CLAUDE.md/AGENTS.md with `agenthooks import`)")
    echo("next: see what the agent will get: agenthooks show")
    if local:
        echo("nothing to commit: this install is kept out of git in this checkout "
             "(.git/info/exclude)")
        return
    paths = git_add_paths([v.path for v in verdicts if v.verdict in STAGED]
                          + ([manifest.PATH] if manifest_written else []))
    if paths:
        echo("next: commit them: git add " + " ".join(paths))


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
    """The repo's existing one-line rules (CLAUDE.md, AGENTS.md, ...) not yet in tattoo.md:
    picked at a prompt (all ticked), all with --import, none with --yes alone. Every
    install offers the ones still missing; the source files are never edited."""
    from agenthooks.memory import importer, parse

    offer = [f for f in importer.find_rules(root) if not f.skip]
    if not offer or not (asking or all_ or dry_run):
        return
    if dry_run:
        for f in offer:
            echo(f"import: {f.label()}")
        how = "would be imported" if all_ else "would be offered (--import takes them all)"
        echo(f"dry run: {len(offer)} rule(s) from {_sources(offer)} {how} into {TATTOO}")
        return
    picked = offer if all_ else picker(offer) if picker else []
    if not picked:
        echo(f"imported no rules into {TATTOO}")
        return
    importer.append_rules(root, picked)
    echo(f"imported {len(picked)} rule(s) into {TATTOO} from {_sources(picked)} "
         "(those files are unchanged)")
    parse.log(parse.find_repo(root), "import",
              f"appended {len(picked)} rule(s) to tattoo.md from {_sources(picked)}")


TATTOO = ".agent/memory/tattoo.md"


def _sources(found: list[Any]) -> str:
    return ", ".join(sorted({f.source for f in found}))
