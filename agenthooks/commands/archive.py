from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer


def register(app: typer.Typer) -> None:
    @app.command("archive")
    def archive_cmd(
        dir_: Annotated[Optional[Path], typer.Argument(
            metavar="[DIR]", help="Repo (default: git top level, else .)")] = None,
        force: Annotated[bool, typer.Option("--force",
            help="Archive even a snapshot that has no items.")] = False,
    ) -> int:
        """Move the finished task's snapshot to memory/archive/snapshot_YYYYMMDD_HHMMSS.md
        and start a fresh one from the template. Archives are never injected."""
        from agenthooks.memory import archive

        return archive.run(dir_, typer.echo, force=force)
