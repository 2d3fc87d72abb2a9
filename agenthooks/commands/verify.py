from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer


def register(app: typer.Typer) -> None:
    @app.command("verify")
    def verify_cmd(
        dir_: Annotated[Optional[Path], typer.Argument(
            metavar="[DIR]", help="Repo (default: git top level, else .)")] = None,
        transcript: Annotated[Optional[Path], typer.Option(
            "--transcript", metavar="PATH",
            help="A Claude Code, Codex or Gemini CLI transcript (default: this repo's latest).")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    ) -> int:
        """Prove memory came back: for every compaction in a session transcript, is the
        memory block (delimiters and today's rules) in the context after it? Exit 0 when
        every one was, 1 when one was not, 2 when there is no transcript or it cannot be read."""
        from agenthooks import health
        from agenthooks.memory import parse

        repo = parse.find_repo(dir_)
        data = health.verify_report(repo.root, transcript)
        if as_json:
            typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
        else:
            for line in health.format_verify(data):
                typer.echo(line)
        return 0 if data["ok"] else 1
