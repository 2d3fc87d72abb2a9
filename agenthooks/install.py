"""agenthooks install: answers, then the render plan, then per-file verdicts."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any, Callable

from agenthooks import answers as answers_mod
from agenthooks import config, frameworks, manifest, render, upgrade
from agenthooks.errors import UserError


def target_dir(given: Path | None) -> Path:
    """DIR, else the git top level of the current directory, else the current directory."""
    if given is not None:
        root = given.expanduser()
        if not root.exists():
            raise UserError(f"{root}: no such directory")
        if not root.is_dir():
            raise UserError(f"{root}: not a directory")
        return root.resolve()
    try:
        proc = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True,
                              text=True, check=False)
        if proc.returncode == 0 and proc.stdout.strip():
            return Path(proc.stdout.strip())
    except OSError:
        pass
    return Path.cwd()


def check_writable(root: Path) -> None:
    probe = root / ".agent" if (root / ".agent").is_dir() else root
    if not os.access(probe, os.W_OK | os.X_OK):
        raise UserError(f"{probe}: not writable")


def run(
    dir_: Path | None,
    flags: dict[str, Any],
    *,
    yes: bool,
    dry_run: bool,
    prompter_factory: Callable[[], answers_mod.Prompter] | None,
    echo: Callable[[str], None],
    conflict: str = "inline",
    restore: tuple[str, ...] = (),
    interactive: bool | None = None,
) -> int:
    root = target_dir(dir_)
    recorded = manifest.load(root)
    if (root / ".agent/config.yaml").is_file():
        config.load(root / ".agent/config.yaml")
    prompter = prompter_factory() if prompter_factory else None
    answers = answers_mod.resolve(root, flags, recorded.get("answers", {}), yes=yes,
                                  prompter=prompter, interactive=interactive)
    check_writable(root)
    planned = render.plan(answers) + frameworks.registrations(root, answers)
    verdicts, records = upgrade.decide(root, planned, recorded.get("files", {}),
                                       dry_run=dry_run, conflict=conflict,
                                       restore=frozenset(restore))
    text = manifest.dumps(answers, records)
    mpath = root / manifest.PATH
    old = mpath.read_text(encoding="utf-8") if mpath.is_file() else None
    mverdict = "identical" if old == text else ("create" if old is None else "update")
    if not dry_run and old != text:
        upgrade.write_atomic(mpath, text.encode("utf-8"), 0o644)
    echo(("Would write" if dry_run else "agenthooks install") + f" in {root}:")
    for v in verdicts:
        echo(v.line())
    echo(upgrade.Verdict(mverdict, manifest.PATH).line())
    changed = sum(v.verdict not in ("identical", "keep") for v in verdicts)
    if dry_run:
        echo(f"dry run: {changed} file(s) would change; nothing was written")
    elif changed == 0 and mverdict == "identical":
        echo("up to date: nothing changed")
    for step in frameworks.next_steps(answers):
        echo(f"next: {step}")
    conflicts = [v for v in verdicts if v.verdict == "conflict"]
    return 1 if conflicts and not dry_run else 0
