from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Callable, Optional

import typer


def register(app: typer.Typer) -> None:
    @app.command("uninstall")
    def uninstall_cmd(
        dir_: Annotated[Optional[Path], typer.Argument(
            metavar="[DIR]", help="Repo to uninstall from (default: git top level, else .)")] = None,
        purge: Annotated[bool, typer.Option("--purge",
            help="Also delete .agent/ itself: memory, config and log.")] = False,
        yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask before --purge.")] = False,
        dry_run: Annotated[bool, typer.Option("--dry-run",
            help="Print what would be removed; write nothing.")] = False,
        user: Annotated[bool, typer.Option("--user",
            help="Undo install --user: our entries out of your user-level settings (each file "
                 "as it was), the dispatcher removed. No repo is touched.")] = False,
    ) -> int:
        """Remove our registrations, pristine generated files and runtime files; keep memory written to and your edits."""
        from agenthooks import uninstall

        if user:
            from agenthooks import userinstall
            from agenthooks.errors import UserError

            if dir_ is not None or purge:
                raise UserError("--user uninstalls from no repo: give it no DIR and no --purge")
            return userinstall.uninstall(dry_run=dry_run, echo=typer.echo)

        def ask(message: str) -> bool:
            import questionary

            # auto_enter=False: a one-key answer waits for Enter, as install's questions do.
            return bool(questionary.confirm(message, default=False, auto_enter=False).unsafe_ask())

        confirm: Callable[[str], bool] | None = \
            ask if sys.stdin.isatty() and sys.stdout.isatty() else None

        return uninstall.run(dir_, purge=purge, yes=yes, dry_run=dry_run, confirm=confirm,
                             echo=typer.echo)
