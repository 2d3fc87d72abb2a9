from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer


def register(app: typer.Typer) -> None:
    @app.command("edit")
    def edit_cmd(
        which: Annotated[str, typer.Argument(
            metavar="[tattoo|snapshot|notes]", help="Memory file (default: tattoo).")] = "tattoo",
        dir_: Annotated[Optional[Path], typer.Argument(
            metavar="[DIR]", help="Repo (default: git top level, else .)")] = None,
    ) -> int:
        """Open a memory file in $VISUAL, else $EDITOR, else vi."""
        from agenthooks.memory import edit

        return edit.run(which, dir_)
