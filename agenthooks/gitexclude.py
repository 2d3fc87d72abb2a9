"""`install --local`: our block in the checkout's own `.git/info/exclude`, which git reads
like a .gitignore that is never committed, so `.agent/` (memory, hooks, manifest) and the
host's local settings file stay out of `git status` and out of every commit of this clone.

The block is ours between two marker lines; the rest of the file is the user's and kept as
it is. Uninstall takes the block out again, and the file with it when nothing else is left
(git makes one with comments at `git init`: it stays)."""
from __future__ import annotations

import subprocess
from pathlib import Path

from agenthooks.errors import UserError
from agenthooks.files import git_env

BEGIN = "# agenthooks install --local: kept out of git in this checkout only"
END = "# end of agenthooks install --local"


def path(root: Path) -> Path | None:
    """This checkout's info/exclude (a linked worktree's is its main repository's), None
    outside git."""
    try:
        proc = subprocess.run(["git", "-C", str(root), "rev-parse", "--git-path", "info/exclude"],
                              capture_output=True, text=True, check=False, env=git_env())
    except OSError:
        return None
    if proc.returncode != 0 or not proc.stdout.strip():
        return None
    found = Path(proc.stdout.strip())
    return found if found.is_absolute() else root / found


def _split(text: str) -> tuple[str, str | None, str]:
    """(before, our block or None, after)."""
    start = text.find(BEGIN + "\n")
    if start < 0 or (start and text[start - 1] != "\n"):
        return text, None, ""
    end = text.find("\n" + END + "\n", start)
    if end < 0:
        return text, None, ""
    stop = end + len(END) + 2
    return text[:start], text[start:stop], text[stop:]


def block(lines: list[str]) -> str:
    return BEGIN + "\n" + "".join(f"{line}\n" for line in lines) + END + "\n"


def planned(root: Path, lines: list[str]) -> tuple[Path, str | None, str]:
    """(the file, its text now or None, its text with our block holding lines). Raises
    UserError where the file cannot be ours to change (outside git, a link)."""
    target = path(root)
    if target is None:
        raise UserError(f"--local: {root} is not in a git repository: there is nothing to "
                        "keep its memory out of (install without --local)")
    if target.is_symlink() or (target.exists() and not target.is_file()):
        raise UserError(f"--local: {target} is not a plain file: not written",
                        hint="make it a plain file, then run agenthooks install --local again")
    old = target.read_text(encoding="utf-8") if target.exists() else None
    before, _, after = _split(old or "")
    if before and not before.endswith("\n"):
        before += "\n"
    return target, old, before + block(lines) + after


def unplanned(root: Path) -> tuple[Path, str] | None:
    """(the file, its text without our block) when it holds one."""
    target = path(root)
    if target is None or target.is_symlink() or not target.is_file():
        return None
    text = target.read_text(encoding="utf-8")
    before, ours, after = _split(text)
    if ours is None:
        return None
    return target, before + after


def lines_of(root: Path) -> list[str]:
    """The lines of our block, [] when there is none."""
    target = path(root)
    if target is None or target.is_symlink() or not target.is_file():
        return []
    _, ours, _ = _split(target.read_text(encoding="utf-8"))
    return [] if ours is None else ours.splitlines()[1:-1]
