"""What interactive install says around its questions: the opening line, the plan before
the last question, and what to do next."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Mapping

from agenthooks import manifest
from agenthooks.answer_types import Answers
from agenthooks.errors import UserError
from agenthooks.upgrade.steps import Verdict

INTRO = ("agenthooks install: a few questions, then the plan (every file it would write), "
         "then nothing is written until you say yes.")
# Verdicts that leave a path for `git add` (a removal is staged by `git add -A` only).
STAGED = ("create", "update", "merge", "conflict", "skip")


def dropped(recorded: Mapping[str, Any], answers: Answers) -> list[str]:
    """Frameworks the last install wired that this run unregisters."""
    return [f for f in recorded.get("frameworks", []) if f not in answers["frameworks"]]


def show_plan(echo: Callable[[str], None], root: Path, verdicts: list[Verdict],
              mverdict: str, gone: list[str]) -> None:
    echo(f"Plan for {root}:")
    for v in verdicts:
        echo(v.line())
    echo(Verdict(mverdict, manifest.PATH).line())
    for name in gone:
        echo(f"unregister {name}: wired at the last install, not selected now "
             f"(keep it with --add {name})")


def closing(echo: Callable[[str], None], root: Path, verdicts: list[Verdict],
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
