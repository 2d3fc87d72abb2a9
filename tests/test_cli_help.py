"""--help shows every command's whole summary, and `help` is a command."""
from __future__ import annotations

import inspect
import os

from support.helpers import cli

from agenthooks import cli as cli_mod


def summaries() -> dict[str, str]:
    out = {}
    for info in cli_mod.app.registered_commands:
        doc = info.help if isinstance(info.help, str) else inspect.getdoc(info.callback) or ""
        out[str(info.name)] = " ".join(doc.split("\n\n", 1)[0].split())
    for group in cli_mod.app.registered_groups:
        assert group.typer_instance is not None
        out[str(group.name)] = " ".join(str(group.typer_instance.info.help).split())
    return out


def test_help_shows_each_commands_whole_summary_at_80_columns() -> None:
    proc = cli("--help", env={"COLUMNS": "80"})
    assert proc.returncode == 0
    said = "".join(proc.stdout.split())  # click wraps lines (a hyphen too): compare without
    for name, summary in summaries().items():
        assert summary and "".join(summary.split()) in said, (name, summary)
    board = " ".join(cli("board", "--help", env={"COLUMNS": "80"}).stdout.split())
    assert "Move In progress item N (or the one that reads TEXT) to Done" in board
    assert "to Done..." not in board


def test_help_is_a_command() -> None:
    whole = cli("help")
    assert whole.returncode == 0 and whole.stdout == cli("--help").stdout
    one = cli("help", "import")
    assert one.returncode == 0 and one.stdout == cli("import", "--help").stdout
    sub = cli("help", "board", "done")
    assert sub.returncode == 0 and "Usage: agenthooks board done" in sub.stdout
    bad = cli("help", "nosuch")
    assert bad.returncode == 2 and "No such command 'nosuch'" in bad.stderr
    assert os.linesep not in bad.stderr.rstrip("\n").split("\n")[0]
