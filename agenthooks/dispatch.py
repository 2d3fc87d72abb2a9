"""The dispatcher: one small bash script that, run by a host for any session, finds the
repository the session works in and runs that repository's own committed hook.

It is shipped twice from one file: in the Claude Code plugin (`plugin/hooks/dispatch.sh` in a
checkout, `agenthooks/plugin/hooks/dispatch.sh` in the wheel), and copied by `agenthooks install
--user` into the user's data folder (`$XDG_DATA_HOME/agenthooks/`, by default
`~/.local/share/agenthooks/`), from where the user's settings of each host run it. Its second
line names its release (`# agenthooks VERSION`): the version of the CLI and of the plugin."""
from __future__ import annotations

import os
import re
from pathlib import Path

from agenthooks import __version__

SCRIPT = "hooks/dispatch.sh"
# Its file name in the user's data folder; commands that name it are ours (_jsonhooks.OURS_RE).
USER_NAME = "agenthooks/dispatch.sh"
RELEASE_RE = re.compile(r"\A#![^\n]*\n# agenthooks ([0-9][^\s:]*)\n")
# A path we put in a command: single-quoted, it reads the same in sh, bash, zsh and fish.
_PLAIN = re.compile(r"[^'\\\x00-\x1f\x7f]+")


def plugin_dir() -> Path:
    """The Claude Code plugin's folder: shipped inside the package (the wheel force-includes
    it), in a checkout beside it. What `agenthooks plugin-path` prints."""
    here = Path(__file__).resolve().parent
    shipped = here / "plugin"
    return shipped if shipped.is_dir() else here.parent / "plugin"


def script_bytes() -> bytes:
    return (plugin_dir() / SCRIPT).read_bytes()


def release(data: bytes) -> str | None:
    """The version a dispatcher's second line names, None for a file that is not one."""
    found = RELEASE_RE.match(data.decode("utf-8", errors="replace"))
    return found.group(1) if found else None


def user_dir() -> Path:
    """Where a user-level install keeps the dispatcher and its record of what it wrote."""
    base = os.environ.get("XDG_DATA_HOME") or ""
    root = Path(base) if os.path.isabs(base) else Path.home() / ".local" / "share"
    return root / "agenthooks"


def word(path: str) -> str | None:
    """path as one shell word for every shell a host may run a command with; None when it
    holds a quote, a backslash or a control character, which no single form keeps intact."""
    return f"'{path}'" if _PLAIN.fullmatch(path) else None


def command(script: str, hook: str, framework: str, plugin: bool = False) -> str:
    """The command a host runs for one event: script is already a shell word."""
    return f"bash -p {script} {hook} {framework}" + (" --plugin" if plugin else "")


PLUGIN_SCRIPT = '"${CLAUDE_PLUGIN_ROOT}/' + SCRIPT + '"'
VERSION = __version__
