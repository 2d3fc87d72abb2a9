from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer


def register(app: typer.Typer) -> None:
    for kind, target in (("rule", "tattoo.md"), ("note", "notes.md")):
        _one(app, kind, target)


def _one(app: typer.Typer, kind: str, target: str) -> None:
    def cmd(
        text: Annotated[str, typer.Argument(metavar="TEXT", help="One line.")],
        dir_: Annotated[Optional[Path], typer.Argument(
            metavar="[DIR]", help="Repo (default: git top level, else .)")] = None,
    ) -> int:
        from agenthooks.memory import rule

        return rule.run(kind, text, dir_, typer.echo)

    cmd.__doc__ = (f"Append '- TEXT' to {target}. Exit 1 on multi-line or secret-bearing "
                   "text; a warning when long or contradicting; a duplicate is not written.")
    app.command(kind)(cmd)
