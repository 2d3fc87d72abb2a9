"""Will bash parse the hooks? Every .sh under .agent/hooks/ (a lib/ folder's too), read
as bash reads it: CRLF line endings (a Windows editor, a copy, a zip) make every run fail
with `$'\\r': command not found` or a syntax error, though the text is otherwise ours."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from agenthooks import hookrun

# A working copy checked out before .agent/.gitattributes existed (or with core.autocrlf=true and
# no attribute) keeps its CRLF: git sees no change to check out until the file is gone (tried on
# git 2.x: a renormalized, stat-clean file is not rewritten by git checkout).
CRLF_FIX = ("run agenthooks install to rewrite it with LF, or 'git add --renormalize .' (commit what it "
            "stages), then delete the file and check it out again (git checkout -- FILE); so it "
            "does not come back, keep .agent/.gitattributes committed (it pins hooks/*.sh to eol=lf), "
            "set git config core.autocrlf to false or input, and save hooks with LF line endings")


def scripts(root: Path) -> list[Path]:
    hooks = root / ".agent" / "hooks"
    if not hooks.is_dir():
        return []
    return sorted(p for p in hooks.rglob("*.sh") if p.is_file())


def problem(path: Path, bash: str) -> str | None:
    """Why bash cannot run path, or None when it parses."""
    if b"\r\n" in path.read_bytes():
        return "CRLF (Windows) line endings: bash fails on every run of it; " + CRLF_FIX
    try:
        proc = hookrun.run([bash, "-n", str(path)], stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=30, cwd=path.parent)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bash -n did not run: {exc}"
    if proc.returncode == 0:
        return None
    said = proc.stderr.replace(f"{path}: ", "").strip().splitlines()
    return (f"bash -n: {said[0] if said else f'status {proc.returncode}'}: fix that line "
            "(git diff shows what changed)")


def problems(root: Path) -> tuple[int, list[tuple[str, str]]]:
    """How many scripts were read, and (path relative to root, problem) for each that fails."""
    bash = shutil.which("bash")
    found = scripts(root)
    if bash is None:
        return 0, []  # doctor's bash line says so
    out = []
    for path in found:
        why = problem(path, bash)
        if why is not None:
            out.append((path.relative_to(root).as_posix(), why))
    return len(found), out
