from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer


def register(app: typer.Typer) -> None:
    @app.command("lint")
    def lint_cmd(
        dir_: Annotated[Optional[Path], typer.Argument(
            metavar="[DIR]", help="Repo (default: git top level, else .)")] = None,
        quiet: Annotated[bool, typer.Option("--quiet", "-q",
            help="Print errors only.")] = False,
    ) -> int:
        """Check .agent/memory/: tattoo size and one rule a line, snapshot sections and
        edit-log growth, contradictions, secrets. Exit 1 on errors."""
        from agenthooks.memory import lint

        return lint.run(dir_, typer.echo, quiet=quiet)
