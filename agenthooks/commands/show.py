from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer


def register(app: typer.Typer) -> None:
    @app.command("show")
    def show_cmd(
        dir_: Annotated[Optional[Path], typer.Argument(
            metavar="[DIR]", help="Repo (default: git top level, else .)")] = None,
        framework: Annotated[Optional[str], typer.Option(
            "--framework", "-f", metavar="NAME",
            help="Print the block in this framework's envelope.")] = None,
        as_json: Annotated[bool, typer.Option(
            "--json", help="Print the memory as JSON (rules, snapshot, notes, archive).")] = False,
    ) -> int:
        """Print exactly what the agent would get now (stdout) and its size per section
        against the budget (stderr). Writes nothing."""
        from agenthooks import health
        from agenthooks.memory import show

        return show.run(dir_, framework, as_json, note=health.fresh_note)
