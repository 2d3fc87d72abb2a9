from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer


def register(app: typer.Typer) -> None:
    @app.command("simulate")
    def simulate_cmd(
        dir_: Annotated[Optional[Path], typer.Argument(
            metavar="[DIR]", help="Repo (default: git top level, else .)")] = None,
    ) -> int:
        """Compaction drill on a throwaway copy of .agent/: start, edits, prompts, a
        compaction, a length drop; checks memory came back. Exit 1 if a step fails."""
        from agenthooks.memory import simulate

        return simulate.run(dir_, typer.echo)
