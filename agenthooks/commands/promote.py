from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer


def register(app: typer.Typer) -> None:
    @app.command("promote")
    def promote_cmd(
        dir_: Annotated[Optional[Path], typer.Argument(
            metavar="[DIR]", help="Repo (default: git top level, else .)")] = None,
        yes: Annotated[bool, typer.Option("--yes", "-y",
            help="No prompt (with --all: take every candidate).")] = False,
        all_: Annotated[bool, typer.Option("--all", help="Pick every candidate.")] = False,
        min_count: Annotated[int, typer.Option("--min", metavar="N",
            help="How often a note must recur.")] = 3,
        list_only: Annotated[bool, typer.Option("--list",
            help="List the candidates; change nothing.")] = False,
    ) -> int:
        """Turn notes that recur 3+ times into one-line rules in tattoo.md (you pick)."""
        from agenthooks.memory import promote

        return promote.run(dir_, yes=yes, all_=all_, min_count=min_count,
                           list_only=list_only, echo=typer.echo)
