from pathlib import Path
from typing import Annotated, Optional

import typer

WHAT = {
    "goal": "Add a line under Goal (目标).",
    "doing": "Add a line under In progress (进行中).",
    "todo": "Add a line under Todo (待办).",
    "decide": "Add a line under Key decisions (关键决策).",
    "tried": "Add a line under Tried and failed (已放弃): what was tried and why it failed.",
    "done": "Move In progress item N (or the one that reads TEXT) to Done (已完成); other "
            "text is added to Done.",
}


def register(app: typer.Typer) -> None:
    board = typer.Typer(no_args_is_help=False, invoke_without_command=True,
                        help="The progress board (.agent/memory/boards/BRANCH.md, or "
                             ".agent/memory/snapshot.md: config.yaml's board:) from the command "
                             "line: list it, add one line to a section, or switch the model.")

    @board.callback()
    def listing(
        ctx: typer.Context,
        switch: Annotated[Optional[str], typer.Option(
            "--switch", metavar="local|branch|shared",
            help="Move this repo's board to another model (byte for byte; config.yaml and "
                 ".agent/.gitignore follow) and print the git commands that record it.")] = None,
        force: Annotated[bool, typer.Option(
            "--force", help="With --switch: append to a target board that holds items.")] = False,
    ) -> None:
        """List the board, In progress numbered (for `board done N`)."""
        if switch is not None:
            from agenthooks import board_switch

            raise typer.Exit(board_switch.run(None, switch, force, typer.echo))
        if ctx.invoked_subcommand is None:
            from agenthooks.memory import board as board_mod

            raise typer.Exit(board_mod.run("list", None, None, typer.echo))

    @board.command("list")
    def list_cmd(
        dir_: Annotated[Optional[Path], typer.Argument(
            metavar="[DIR]", help="Repo (default: git top level, else .)")] = None,
    ) -> int:
        """List the board, In progress numbered (for `board done N`)."""
        from agenthooks.memory import board as board_mod

        return board_mod.run("list", None, dir_, typer.echo)

    for verb, what in WHAT.items():
        _verb(board, verb, what)
    app.add_typer(board, name="board")


def _verb(board: typer.Typer, verb: str, what: str) -> None:
    def cmd(
        text: Annotated[str, typer.Argument(metavar="TEXT" if verb != "done" else "N|TEXT",
                                            help="One line.")],
        dir_: Annotated[Optional[Path], typer.Argument(
            metavar="[DIR]", help="Repo (default: git top level, else .)")] = None,
    ) -> int:
        from agenthooks.memory import board as board_mod

        return board_mod.run(verb, text, dir_, typer.echo)

    cmd.__doc__ = what + (" Refused when empty, multi-line, secret-bearing or contradicting "
                          "a rule; not written twice.")
    board.command(verb)(cmd)
