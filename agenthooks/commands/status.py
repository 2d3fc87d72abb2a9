from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer


def register(app: typer.Typer) -> None:
    @app.command("status")
    def status_cmd(
        dir_: Annotated[Optional[Path], typer.Argument(
            metavar="[DIR]", help="Repo (default: git top level, else .)")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print the same as JSON.")] = False,
        session: Annotated[Optional[str], typer.Option(
            "--session", metavar="ID", help="Only this session (an id or its start).")] = None,
        all_: Annotated[bool, typer.Option("--all", help="Every session, not the latest 5.")] = False,
    ) -> int:
        """What memory did in each recent session: loads, reloads, compactions and their
        signals, tokens injected, reminders, context use. Reads only."""
        from agenthooks import health
        from agenthooks.memory import parse

        repo = parse.find_repo(dir_)
        data = health.report(repo.root, session=session, all_=all_)
        if as_json:
            typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
        else:
            for line in health.format_report(data):
                typer.echo(line)
        return 0
