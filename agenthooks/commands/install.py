from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from agenthooks import frameworks, install
from agenthooks.answer_types import Flags


def register(app: typer.Typer) -> None:
    app.command("install")(install_cmd)


UserFlag = Annotated[bool, typer.Option(
    "--user", help="No repo: register the dispatcher in your user-level settings of each host "
    "(--framework) that has them, so every repo with .agent/ gets its memory; nothing committed. "
    "Undo: uninstall --user.")]
BoardFlag = Annotated[Optional[str], typer.Option(
    "--board", metavar="local|branch|shared", help="Where each task's progress board lives (a new "
    "install; default local): local, memory/boards/BRANCH.md kept out of git; branch, the same "
    "committed; shared, one memory/snapshot.md. An installed repo: agenthooks board --switch.")]
LocalFlag = Annotated[bool, typer.Option(
    "--local", help="This checkout only: registrations in the hosts' local settings "
    "(.claude/settings.local.json), .agent/ kept out of git by .git/info/exclude.")]


def _prompter() -> Any:
    from agenthooks.answers import QuestionaryPrompter

    return QuestionaryPrompter()


def _user(dir_: Optional[Path], local: bool, framework: Optional[list[str]], dry_run: bool) -> int:
    from agenthooks import userinstall
    from agenthooks.errors import UserError

    if dir_ is not None or local:
        raise UserError("--user installs into no repo: give it no DIR and no --local",
                        hint="agenthooks install --user [--framework NAME]...")
    return userinstall.install(framework, dry_run=dry_run, echo=typer.echo)


def install_cmd(
    dir_: Annotated[Optional[Path], typer.Argument(
        metavar="[DIR]", help="Repo to install into (default: git top level, else .)")] = None,
    yes: Annotated[bool, typer.Option("--yes", "-y",
        help="No prompts: recorded answers, then defaults.")] = False,
    framework: Annotated[Optional[list[str]], typer.Option(
        "--framework", "-f", metavar="NAME",
        help="Agent framework to wire (repeatable): " + " ".join(frameworks.NAMES) + ".")] = None,
    add: Annotated[Optional[list[str]], typer.Option(
        "--add", metavar="NAME",
        help="Wire one more framework (repeatable); the recorded ones stay.")] = None,
    remove: Annotated[Optional[list[str]], typer.Option(
        "--remove", metavar="NAME",
        help="Unregister one framework (repeatable); the recorded others stay.")] = None,
    platform: Annotated[Optional[list[str]], typer.Option(
        "--platform", "-p", metavar="NAME",
        help="System the committed hooks must run on (repeatable): linux macos busybox windows.")] = None,
    lang: Annotated[Optional[str], typer.Option(
        "--lang", metavar="en|zh", help="Language of memory templates and messages.")] = None,
    budget: Annotated[Optional[str], typer.Option(
        "--budget", metavar="TOKENS", help="Injection budget (budget_tokens): written to a new config.yaml, "
                                   "updated in an existing one.")] = None,
    statusline: Annotated[bool, typer.Option("--statusline",
        help="Claude Code: show memory in the status line (never replaces yours).")] = False,
    no_statusline: Annotated[bool, typer.Option("--no-statusline",
        help="Claude Code: take our status line out.")] = False,
    dry_run: Annotated[bool, typer.Option("--dry-run",
        help="Print every verdict; write nothing.")] = False,
    conflict: Annotated[str, typer.Option("--conflict", metavar="inline|new",
        help="An edit that clashes with the upgrade: inline puts the merge with markers in "
             "FILE.agenthooks-new for hooks and framework files (they keep running) and in "
             "place for the rest; new puts the new version in FILE.agenthooks-new.")] = "inline",
    restore: Annotated[Optional[list[str]], typer.Option("--restore", metavar="FILE",
        help="Bring back a generated file you deleted (repeatable).")] = None,
    allow_dirty: Annotated[bool, typer.Option("--allow-dirty",
        help="Upgrade even when files it would merge into have uncommitted changes.")] = False,
    import_: Annotated[bool, typer.Option("--import",
        help="With --yes: import every rule found in CLAUDE.md, AGENTS.md, ... into "
             "tattoo.md (without it --yes imports none).")] = False,
    user: UserFlag = False,
    local: LocalFlag = False,
    board: BoardFlag = None,
) -> int:
    """Scaffold .agent/ and render the hooks; re-run to upgrade."""
    from agenthooks.errors import UserError

    if conflict not in ("inline", "new"):
        raise UserError(f"--conflict must be inline or new, not {conflict!r}")
    if user:
        return _user(dir_, local, framework, dry_run)
    flags: Flags = {"frameworks": framework, "add": add, "remove": remove, "platforms": platform, "lang": lang,
             "budget_tokens": budget, "board": board,
             "statusline": True if statusline else False if no_statusline else None,
             "local": local}
    return install.run(dir_, flags, yes=yes, dry_run=dry_run,
                       prompter_factory=_prompter if sys.stdin.isatty() and not yes else None,
                       echo=typer.echo, conflict=conflict,
                       restore=tuple(restore or ()), allow_dirty=allow_dirty,
                       import_rules=import_)
