from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer


def register(app: typer.Typer) -> None:
    @app.command("messages")
    def messages_cmd(
        dir_: Annotated[Optional[Path], typer.Argument(
            metavar="[DIR]", help="Repo (default: git top level, else .)")] = None,
    ) -> int:
        """Print every text the hooks say to the agent, by name, as .agent/messages.yaml takes
        them (the repo's own words marked): copy the ones to change there, then run
        agenthooks install."""
        from agenthooks import manifest, messages, usermessages
        from agenthooks.files import target_dir

        root = target_dir(dir_)
        recorded = manifest.load(root).get("answers", {}).get("lang")
        lang = recorded if recorded in messages.LANGS else "en"
        typer.echo(usermessages.listing(root, lang), nl=False)
        return 0
