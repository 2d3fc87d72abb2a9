from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer


def register(app: typer.Typer) -> None:
    @app.command("import")
    def import_cmd(
        file: Annotated[Optional[Path], typer.Argument(
            metavar="[FILE]", help="One instruction file (default: all the known ones).")] = None,
        dir_: Annotated[Optional[Path], typer.Argument(
            metavar="[DIR]", help="Repo (default: git top level, else .)")] = None,
        yes: Annotated[bool, typer.Option("--yes", "-y",
            help="No prompt: import the ticked rules (must/never/always, up to the rule "
                 "limit); with --all every rule offered.")] = False,
        all_: Annotated[bool, typer.Option("--all",
            help="With --yes: every rule offered, ticked or not.")] = False,
        dry_run: Annotated[bool, typer.Option("--dry-run",
            help="List what would be imported and why the rest is not; change nothing.")] = False,
        undo: Annotated[bool, typer.Option("--undo",
            help="Take the imported rules out of tattoo.md again (as recorded in "
                 ".agent/imports.txt).")] = False,
    ) -> int:
        """Bring the rules of CLAUDE.md, AGENTS.md, GEMINI.md, .cursorrules, .cursor/rules/*.mdc,
        .clinerules, .windsurfrules, .github/copilot-instructions.md (and a monorepo's nested
        AGENTS.md, CLAUDE.md, GEMINI.md, for their package) into tattoo.md.

        Only what reads as a rule is offered: no links, fragments, command tips or
        descriptions. You pick; must/never/always rules start ticked. The source files
        are never edited."""
        from agenthooks.memory import importer

        if undo:
            return importer.undo(file if file is not None and dir_ is None else dir_, typer.echo)
        return importer.run(file, dir_, yes=yes, dry_run=dry_run, echo=typer.echo, all_=all_)
