"""agenthooks edit: the memory file in the user's editor ($VISUAL, else $EDITOR, else vi)."""
from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path

from agenthooks.errors import UserError, unknown
from agenthooks.memory import parse


def editor() -> list[str]:
    # Like git: the variable may carry arguments ("code --wait").
    for var in ("VISUAL", "EDITOR"):
        value = os.environ.get(var, "").strip()
        if value:
            return shlex.split(value)
    return ["vi"]


def run(which: str, dir_: Path | None) -> int:
    if which not in parse.MEMORY_FILES:
        raise unknown("memory file", which, parse.MEMORY_FILES)
    repo = parse.find_repo(dir_)
    parse.guard(repo, (which,), then="the editor was not started")
    path = repo.mem / f"{which}.md"
    cmd = editor()
    try:
        return subprocess.call([*cmd, str(path)])
    except OSError as exc:
        raise UserError(f"cannot run editor {cmd[0]!r}: {exc.strerror or exc}",
                        hint="set VISUAL or EDITOR to an editor on PATH") from None
