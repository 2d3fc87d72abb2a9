from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer


def register(app: typer.Typer) -> None:
    @app.command("doctor")
    def doctor_cmd(
        dir_: Annotated[Optional[Path], typer.Argument(
            metavar="[DIR]", help="Repo to check (default: git top level, else .)")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="One JSON document on stdout.")] = False,
    ) -> int:
        """Check the install: layout, hooks, manifest, registrations, config; exit 1 if unhealthy."""
        from agenthooks import doctor
        from agenthooks.files import target_dir

        return doctor.run(target_dir(dir_), as_json=as_json, echo=typer.echo)
