"""agenthooks import: the rules of the repo's existing instruction files (sources.py) into
tattoo.md; a nested file's rules (a package of a monorepo) into that package's own
`.agent/memory/scopes/PACKAGE/tattoo.md`. The installer offers the same step:

    found = importer.find_rules(root)     # every piece, with why it is not offered
    offer = [f for f in found if not f.skip]
    importer.apply(root, picked, declined=[f for f in offer if f not in picked])

What is offered: the pieces that read as rules (rulelike.py), not already in the target
file, not decided at an earlier import (decided.py: `.agent/imports.txt`), not a secret,
not contradicting the target file or an earlier offer. What starts ticked (TICK_RULE):
the binding ones (must / never / always / don't ...), whole, as long as the target keeps
within lint_max_rules. Only the target files and `.agent/imports.txt` are written; the
source files never are."""
from __future__ import annotations

import math
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional

from agenthooks import redact
from agenthooks.errors import MissingAnswer, UserError
from agenthooks.memory import addline, decided, lint, parse, promote, rulelike, sources

TICK_RULE = "ticked: the rules that say must/never/always/don't, up to {max} in each tattoo.md"
MAX_CHARS = addline.MAX_CHARS


@dataclass
class Found:
    source: str  # AGENTS.md, packages/api/AGENTS.md, .cursor/rules/style.mdc, ...
    line: int
    text: str  # the rule as it will be written, without a list marker
    skip: str = ""  # why it is not offered
    binding: bool = False
    scope: str = ""  # the package of a nested file ("" for the repo)
    note: str = ""  # shortened, joined, ...
    ticked: bool = False

    @property
    def target(self) -> str:
        return parse.scope_label(self.scope)

    def label(self) -> str:
        return f"{self.text}  [{self.source}:{self.line}]" + (f"  ({self.note})" if self.note else "")

    def decision(self, verdict: str) -> decided.Decision:
        return decided.Decision(verdict, f"{self.source}:{self.line}", self.text)


def _against(repo: parse.Repo, scope: str) -> list[tuple[str, list[parse.Line]]]:
    """What a new rule of SCOPE must not contradict, as lint errs: its tattoo file, and for
    the repo's own one the snapshot's live sections too."""
    tat = repo.tattoo_of(scope)
    out = [(tat.label, parse.rules(tat))]
    if not scope:
        snap = repo.file("snapshot")
        out.append((snap.label, [ln for s in parse.sections(snap)
                                 if s.key not in ("done", "failed") for ln in s.items]))
    return out


def find_rules(root: Path, only: Path | None = None, with_nested: bool = True) -> list[Found]:
    """Every piece of the instruction files (or of `only`), in file order, each with the
    reason it is not offered (skip), or offered and ticked or not."""
    repo = _repo(root)
    max_rules = int(repo.config()["lint_max_rules"])  # type: ignore[call-overload]
    known = decided.by_key(repo.root)
    files: dict[str, parse.MemFile] = {}
    counts: dict[str, int] = {}
    taken: dict[str, list[Found]] = {}
    out = []
    for it in sources.all_items(repo.root, only, with_nested):
        f = Found(it.source, it.line, it.text, it.why, it.binding, it.scope,
                  f"a lead-in and its {it.joined} items, as one rule" if it.joined else "")
        out.append(f)
        if f.skip and redact.find_secrets(f.text):
            f.skip = "a secret"  # whatever else it is, say what matters most
        if f.skip:
            continue
        if f.scope not in files:
            files[f.scope] = repo.tattoo_of(f.scope)
            counts[f.scope] = len(parse.rules(files[f.scope]))
            taken[f.scope] = []
        _shorten(f)
        tat = files[f.scope]
        res = addline.check(f.text, tat, parse.rules(tat), _against(repo, f.scope))
        earlier = taken[f.scope]
        before = known.get((f.scope, promote.key(f.text)))
        if res.errors:
            f.skip = "a secret" if "secret" in res.errors[0] else "not one line"
        elif res.duplicate:
            f.skip = f"already in {tat.label}"
        elif before is not None:
            f.skip = (f"declined before ({decided.PATH})" if before.verdict == "declined"
                      else f"imported before and since removed ({decided.PATH})")
        elif any(promote.key(t.text) == promote.key(f.text) for t in earlier):
            f.skip = "the same as an earlier item"
        elif any("contradicts" in w for w in res.warnings):
            f.skip = f"contradicts {tat.label}"
        elif _contradicts(f, earlier):
            f.skip = "contradicts an earlier item"
        else:
            earlier.append(f)
            if f.binding and not f.note.startswith(("shortened", "over")) \
                    and counts[f.scope] < max_rules:
                f.ticked = True
                counts[f.scope] += 1
    return out


def _repo(root: Path) -> parse.Repo:
    """The repo, or before the first install (a dry run) what it will be: empty memory."""
    try:
        return parse.find_repo(root)
    except UserError:
        agent = root / ".agent"
        return parse.Repo(root, agent, agent / "memory", "en", [])


def _shorten(f: Found) -> None:
    """A rule over lint's line cap: its leading whole sentences that fit, else whole."""
    if len(f.text) <= MAX_CHARS:
        return
    short, kept, total = rulelike.shorten(f.text, MAX_CHARS)
    if kept < total:
        f.note = f"shortened: its first {kept} of {total} sentences"
        f.text = short
    else:
        f.note = f"over {MAX_CHARS} characters: lint will warn; shorten it"


def _contradicts(f: Found, earlier: list[Found]) -> bool:
    new = lint.claims("new", [parse.Line(0, f.text)], "error")
    old = [c for e in earlier for c in lint.claims(e.source, [parse.Line(e.line, e.text)], "error")]
    return any(x.path == "new" for x in lint.check_contradictions([old, new]))


def tick_rule(root: Path) -> str:
    max_rules = int(_repo(root).config()["lint_max_rules"])  # type: ignore[call-overload]
    return TICK_RULE.format(max=max_rules)


def summary(found: list[Found]) -> str:
    """One line: how many rules, where from, how many ticked, how many pieces are not rules."""
    offer = [f for f in found if not f.skip]
    notrule = [f for f in found if f.skip and not f.skip.startswith(("already", "declined",
                                                                       "imported before"))]
    decided_before = len(found) - len(offer) - len(notrule)
    where = ", ".join(dict.fromkeys(f.source for f in offer))
    out = f"{len(offer)} rule(s) found in {where}" if offer else "no new rules found"
    if offer:
        out += f" ({sum(f.ticked for f in offer)} ticked)"
    extra = []
    if notrule:
        extra.append(f"{len(notrule)} other piece(s) are not rules (links, fragments, tips, "
                     "descriptions)")
    if decided_before:
        extra.append(f"{decided_before} already in tattoo.md or decided before")
    return out + ("; " + "; ".join(extra) if extra else "")


def apply(root: Path, picked: list[Found],
          declined: list[Found] | None = None) -> dict[str, list[str]]:
    """Append `- TEXT` for each picked rule to its target file; record the picked ones as
    imported and DECLINED as declined (.agent/imports.txt). The lines written, by target."""
    written: dict[str, list[str]] = {}
    for f in picked:
        written.setdefault(f.target, []).append(addline.bullet(f.text))
    for target, lines in written.items():
        path = root / target
        if not path.exists() and target != parse.scope_label(""):
            scope = next(f.scope for f in picked if f.target == target)
            lines.insert(0, f"# Hard rules for {scope}/")
        addline.append_lines(path, lines, root)
    decided.add(root, [f.decision("imported") for f in picked]
                + [f.decision("declined") for f in declined or []])
    return written


def append_rules(root: Path, picked: list[Found]) -> list[str]:
    """Append the picked rules (recorded as imported); the lines written."""
    return [ln for lines in apply(root, picked).values() for ln in lines]


def pages(offer: list[Found], rows: int | None = None, cols: int | None = None) -> list[list[Found]]:
    """OFFER cut into pages that each fit the terminal (a long label takes several rows),
    one target file at a time."""
    size = shutil.get_terminal_size((100, 24))
    rows = rows or size.lines
    cols = max(cols or size.columns, 20)
    room = max(rows - 6, 3)  # the question, the instruction, a line of margin
    out: list[list[Found]] = []
    page: list[Found] = []
    used = 0
    for f in offer:
        need = math.ceil((len(f.label()) + 4) / cols)
        if page and (used + need > room or page[-1].target != f.target):
            out.append(page)
            page, used = [], 0
        page.append(f)
        used += need
    if page:
        out.append(page)
    return out


def ask_pages(offer: list[Found], message: str = "", instruction: str = "",
              **pt: Any) -> Optional[list[Found]]:
    """One checkbox a page (each fits the screen), the rules ticked as found says. None
    when the user cancels (nothing is written then)."""
    import questionary

    book = pages(offer)
    picked: list[Found] = []
    seen = 0
    for n, page in enumerate(book, 1):
        first, last = seen + 1, seen + len(page)
        seen = last
        target = page[0].target
        where = "/".join(dict.fromkeys(f.source for f in page))
        head = message or "Bring these rules from {where} into {target}?"
        title = head.format(where=where, target=target) + \
            (f" ({first}-{last} of {len(offer)})" if len(book) > 1 else "")
        choices = [questionary.Choice(f.label(), value=i, checked=f.ticked)
                   for i, f in enumerate(page)]
        enter = "import the ticked" if n == len(book) else "the next page"
        hint = f"({instruction or f'space: tick or untick, enter: {enter}'})"
        got = questionary.checkbox(title, choices=choices, instruction=hint, **pt).ask()
        if got is None:
            return None
        picked += [page[i] for i in got]
    return picked


def ask_checkbox(found: list[Found], message: str = "", **pt: Any) -> Optional[list[Found]]:
    """The rules in one or more pages, ticked by the tick rule."""
    return ask_pages(found, message, **pt)


def run(file: Path | None, dir_: Path | None, *, yes: bool, dry_run: bool,
        echo: Callable[[str], None], tty: bool | None = None, all_: bool = False,
        picker: Callable[[list[Found]], Optional[list[Found]]] | None = None) -> int:
    if file is not None and dir_ is None and file.is_dir():
        file, dir_ = None, file  # `agenthooks import DIR`
    repo = parse.find_repo(dir_)
    parse.guard(repo, ("tattoo",))
    only = None
    if file is not None:
        only = file if file.is_absolute() or file.exists() else repo.root / file
        if not only.is_file():
            raise UserError(f"{file}: no such file")
    found = find_rules(repo.root, only)
    if not found:
        where = str(file) if file is not None else \
            ", ".join(sources.FILES) + ", .cursor/rules/*.mdc and nested " + "/".join(sources.NESTED)
        echo(f"no instruction files with rules in {where}: nothing to import")
        return 0
    offer = [f for f in found if not f.skip]
    echo(summary(found))
    for f in found:
        mark = "[x]" if f.ticked else "[ ]" if not f.skip else "   "
        echo(f"  {mark} {f.label()}" + (f"  (skipped: {f.skip})" if f.skip else "")
             + (f"  -> {f.target}" if f.scope and not f.skip else ""))
    if offer:
        echo(tick_rule(repo.root))
    if dry_run or not offer:
        if dry_run:
            n = len(offer) if all_ else sum(f.ticked for f in offer)
            echo(f"dry run: {n} rule(s) would be appended" + ("" if all_ or yes else
                 " with --yes (--all: every one offered)"))
        return 0
    tty = sys.stdin.isatty() and sys.stdout.isatty() if tty is None else tty
    if yes:
        picked = offer if all_ else [f for f in offer if f.ticked]
        declined: list[Found] = []
    elif not tty:
        raise MissingAnswer("no terminal to pick rules on",
                            hint="run it in a terminal, or pass --yes to import the ticked "
                                 "rules (--yes --all: every one offered)")
    else:
        chosen = (picker or ask_checkbox)(offer)
        if chosen is None:
            raise KeyboardInterrupt
        picked = chosen
        declined = [f for f in offer if f not in picked]
    written = apply(repo.root, picked, declined)
    if declined:
        echo(f"{len(declined)} rule(s) left out: recorded in {decided.PATH}, not offered again")
    if not picked:
        echo("nothing picked: no rule was written")
        return 0
    for target, lines in written.items():
        for r in lines:
            echo(f"added to {target}: {r}")
    log(repo, picked, written)
    return 0


def at_install(echo: Callable[[str], None], root: Path, *, asking: bool, all_: bool,
               dry_run: bool, picker: Optional[Callable[[list[Found]], Optional[list[Found]]]]) -> None:
    """The rules of the repo's instruction files (CLAUDE.md, AGENTS.md, ...) not yet in
    tattoo.md nor decided before: counted, then picked at a prompt (pages that fit the
    screen, ticked by TICK_RULE; the unticked ones are remembered as declined),
    the ticked ones with --import, none with --yes alone (a hint says how). A nested
    file's rules (a package of a monorepo) are left to `agenthooks import`, which
    offers them for their package. The source files are never edited."""
    found = find_rules(root)
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
        echo(tick_rule(root))
        return
    if not asking and not (all_ and ticked):
        echo(f"next: {len(offer)} rule(s) of {_sources(offer)} are not in {TATTOO}: "
             "agenthooks import picks them" + (f" (install --yes --import takes the "
                                               f"{len(ticked)} ticked)" if ticked else ""))
        return
    declined: list[Found] = []
    if not asking:
        picked = ticked
    else:
        echo(summary(top))
        echo(tick_rule(root))
        chosen = picker(offer) if picker else []
        if chosen is None:  # Ctrl-C at the rules: the install stays, no rule is written
            echo(f"imported no rules into {TATTOO} (cancelled; offered again next time)")
            return
        picked = chosen
        declined = [f for f in offer if f not in picked]
    written = apply(root, picked, declined)
    if declined:
        echo(f"left {len(declined)} rule(s) out: recorded in .agent/imports.txt, "
             "not offered again")
    if not picked:
        echo(f"imported no rules into {TATTOO}")
        return
    echo(f"imported {len(picked)} rule(s) into {TATTOO} from {_sources(picked)} "
         "(those files are unchanged; agenthooks import --undo takes them out)")
    log(parse.find_repo(root), picked, written)


TATTOO = ".agent/memory/tattoo.md"


def _sources(found: list[Found]) -> str:
    return ", ".join(sorted({f.source for f in found}))


def log(repo: parse.Repo, picked: list[Found], written: dict[str, list[str]]) -> None:
    targets = ", ".join(t.removeprefix(".agent/memory/") for t in written)
    parse.log(repo, "import", f"appended {len(picked)} rule(s) to {targets} from "
                              + ", ".join(sorted({f.source for f in picked})))


def undo(dir_: Path | None, echo: Callable[[str], None]) -> int:
    """Take out of every tattoo file the rules an import put there and that are still
    there; forget those imports (the next install offers them again)."""
    repo = parse.find_repo(dir_)
    imported = [d for d in decided.load(repo.root) if d.verdict == "imported"]
    if not imported:
        echo(f"no imported rules recorded in {decided.PATH}: nothing to undo")
        return 0
    total = 0
    for scope in dict.fromkeys(d.scope for d in imported):
        keys = {d.key[1] for d in imported if d.scope == scope}
        mf = repo.tattoo_of(scope)
        gone = addline.remove_rules(repo.root, mf, keys)
        for r in gone:
            echo(f"removed from {mf.label}: {r}")
        total += len(gone)
    decided.forget(repo.root, {d.key for d in imported})
    echo(f"undid the import of {len(imported)} rule(s): {total} line(s) removed"
         + (f"; {len(imported) - total} were no longer there" if total < len(imported) else ""))
    parse.log(repo, "import", f"undo: removed {total} imported rule(s)")
    return 0
