from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer


def register(app: typer.Typer) -> None:
    _rule(app)
    _note(app)


def _rule(app: typer.Typer) -> None:
    @app.command("rule")
    def rule_cmd(
        text: Annotated[str, typer.Argument(metavar="TEXT", help="One line.")],
        dir_: Annotated[Optional[Path], typer.Argument(
            metavar="[DIR]", help="Repo (default: git top level, else .)")] = None,
        remove: Annotated[bool, typer.Option("--remove",
            help="Take the rule that reads TEXT (same words) out of tattoo.md instead.")] = False,
    ) -> int:
        """Append '- TEXT' to tattoo.md. Exit 1 on multi-line or secret-bearing text, or a
        rule that contradicts one in tattoo.md; a warning when long; a duplicate is not
        written. --remove takes a rule out."""
        from agenthooks.memory import rule

        if remove:
            return rule.remove(text, dir_, typer.echo)
        return rule.run("rule", text, dir_, typer.echo)


def _note(app: typer.Typer) -> None:
    @app.command("note")
    def note_cmd(
        text: Annotated[str, typer.Argument(metavar="TEXT", help="One line.")],
        dir_: Annotated[Optional[Path], typer.Argument(
            metavar="[DIR]", help="Repo (default: git top level, else .)")] = None,
    ) -> int:
        """Append '- TEXT' to notes.md. Exit 1 on empty, multi-line or secret-bearing text;
        a warning when long or contradicting a rule; a duplicate is not written."""
        from agenthooks.memory import rule

        return rule.run("note", text, dir_, typer.echo)
