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
            help="No prompt: import every rule found (non-interactive).")] = False,
        dry_run: Annotated[bool, typer.Option("--dry-run",
            help="List what would be imported; change nothing.")] = False,
    ) -> int:
        """Append one-line rules from CLAUDE.md, AGENTS.md, GEMINI.md, .cursorrules,
        .cursor/rules/*.mdc, .clinerules, .windsurfrules, .github/copilot-instructions.md
        to tattoo.md (you pick; all ticked). The source files are never edited."""
        from agenthooks.memory import importer

        return importer.run(file, dir_, yes=yes, dry_run=dry_run, echo=typer.echo)
