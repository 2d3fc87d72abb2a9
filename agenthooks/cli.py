"""The typer app: signatures and exit codes only; the work is in the modules."""
from __future__ import annotations

import importlib
import sys
from typing import Annotated, Any, Optional

import typer

from agenthooks import __version__
from agenthooks.errors import UserError

COMMANDS: tuple[str, ...] = ("install", "doctor", "uninstall", "show", "lint", "simulate", "archive", "promote",
            "status", "verify")
# Writing memory from the command line: import rules, add a rule or note, open an editor.
COMMANDS += ("import_rules", "rule", "edit", "board")
# What the hooks say to the agent, in the repo's own words (.agent/messages.yaml).
COMMANDS += ("messages",)
# Beyond one repo: the Claude Code plugin's folder, for --plugin-dir and a `command` source.
COMMANDS += ("plugin_path",)

app = typer.Typer(
    name="agenthooks",
    help="Compaction-proof memory for coding agents: pure-bash hooks that reload .agent/memory/.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"agenthooks {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[Optional[bool], typer.Option(
        "--version", callback=_version, is_eager=True, help="Print the version and exit.")] = None,
) -> None:
    pass


for _name in COMMANDS:
    try:
        _mod = importlib.import_module(f"agenthooks.commands.{_name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"agenthooks.commands.{_name}":
            raise
        continue
    _mod.register(app)


@app.command("help")
def _help(
    command: Annotated[Optional[list[str]], typer.Argument(
        metavar="[COMMAND]...", help="The command (and subcommand) to explain.")] = None,
) -> int:
    """Show the help of agenthooks, or of COMMAND."""
    return main([*(command or []), "--help"])


def _whole_summaries(typer_app: typer.Typer) -> None:
    """Each command's summary in --help is its docstring's whole first paragraph: click
    would cut it at the first period or the terminal's width, with '...'."""
    import inspect

    def unset(value: Any) -> bool:  # None, or typer's placeholder for a default
        return value is None or type(value).__name__ == "DefaultPlaceholder"

    def first(doc: Any) -> str | None:
        return None if unset(doc) else " ".join(str(doc or "").split("\n\n", 1)[0].split()) or None

    for info in typer_app.registered_commands:
        if unset(info.short_help):
            info.short_help = first(info.help) or first(
                inspect.getdoc(info.callback) if info.callback else None)
    for group in typer_app.registered_groups:
        sub = group.typer_instance
        if sub is None:
            continue
        text = first(sub.info.help) or first(group.help)
        if unset(group.short_help):
            group.short_help = text
        if unset(sub.info.short_help):
            sub.info.short_help = text
        _whole_summaries(sub)


_whole_summaries(app)


def _fail(message: str, hint: str | None = None) -> None:
    sys.stderr.write(f"agenthooks: {message}\n")
    if hint:
        sys.stderr.write(f"hint: {hint}\n")


def _click() -> Any:
    """typer >= 0.23 vendors click as typer._click; older typer depends on click itself.
    Found at run time, so mypy passes with either typer and no click installed."""
    try:
        return importlib.import_module("typer._click")
    except ImportError:  # pragma: no cover - older typer
        return importlib.import_module("click")


click = _click()
# typer >= 0.23 vendors click without click.exceptions.Exit / Abort: name what exists.
_EXIT = tuple({typer.Exit, *filter(None, [getattr(click.exceptions, "Exit", None)])})
_ABORT = tuple({typer.Abort, *filter(None, [getattr(click.exceptions, "Abort", None)])})


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; every failure is one line on stderr and an exit code."""
    args = sys.argv[1:] if argv is None else argv
    if not args:  # bare agenthooks: the whole help, as --help prints it, not one error line
        args = ["--help"]
    try:
        rc: Any = app(args=args, prog_name="agenthooks", standalone_mode=False)
    except UserError as exc:
        _fail(str(exc), exc.hint)
        return exc.code
    except _EXIT as exc:
        return int(exc.exit_code)
    except _ABORT:
        _fail("interrupted: nothing was written")
        return 130
    except KeyboardInterrupt:
        _fail("interrupted: nothing was written")
        return 130
    except click.ClickException as exc:
        # One line, as for every other error: click's usage banner is left to --help.
        ctx = getattr(exc, "ctx", None)
        path = ctx.command_path if ctx is not None else "agenthooks"
        _fail(" ".join(exc.format_message().split()), f"run '{path} --help'")
        return int(exc.exit_code)
    except OSError as exc:
        _fail(f"{exc.strerror or exc}: {exc.filename or ''}".rstrip(": "))
        return 1
    except Exception as exc:  # noqa: BLE001 - the last resort, still one line
        _fail(f"unexpected error: {type(exc).__name__}: {exc}",
              "report it with the command you ran and 'agenthooks --version'")
        return 3
    if rc == 130:
        _fail("interrupted: nothing was written")
    return rc if isinstance(rc, int) else 0
