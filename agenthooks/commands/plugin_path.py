from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    @app.command("plugin-path")
    def plugin_path_cmd() -> int:
        """Print the folder of the Claude Code plugin shipped with this agenthooks (one line)."""
        from agenthooks import dispatch

        typer.echo(str(dispatch.plugin_dir()))
        return 0
