"""agenthooks archive: the rendered `pre_task.sh --archive` does the work (one
implementation, the one the block's footer names for the agent); this checks the
outcome and refuses to archive a snapshot that holds nothing."""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Callable

from agenthooks import templating
from agenthooks.errors import UserError
from agenthooks.files import write_atomic
from agenthooks.memory import parse, show


def _fresh_or_undo(repo: parse.Repo, path: Path, moved: Path, had_dir: bool) -> None:
    """The hook moved the snapshot away (a rename needs no space) and then wrote a fresh
    one; on a full disk that write leaves an empty or cut file. Write the fresh snapshot
    whole here, or move the old one back and fail: complete, or nothing changed."""
    try:
        expected = templating.environment().get_template(
            f"memory/{repo.lang}/snapshot.md.j2").render().encode("utf-8")
    except Exception:  # noqa: BLE001 - no template to compare with: only emptiness is known
        expected = b""
    try:
        got = path.read_bytes()
    except OSError:
        got = b""
    if got and (got == expected or not expected.startswith(got)):
        return
    try:
        if not expected:
            raise OSError("no fresh snapshot to write")
        write_atomic(path, expected, 0o644)
        return
    except OSError as exc:
        reason = exc.strerror or str(exc)
    os.replace(moved, path)
    if not had_dir:
        try:
            moved.parent.rmdir()
        except OSError:
            pass
    raise UserError(f"cannot write a fresh {path.name} ({reason}): nothing archived, "
                    "the snapshot is where it was")


def run(dir_: Path | None, echo: Callable[[str], None], force: bool = False) -> int:
    repo = parse.find_repo(dir_)
    # The hook it runs writes the archive, the log, the session state and a trace.
    parse.guard(repo, ("snapshot",), then="the snapshot was not archived",
                more=(".agent/log/trace.log",),
                dirs=(".agent/memory/archive", ".agent/log/state"))
    snap = repo.file("snapshot")
    if not snap.exists:
        raise UserError(f"{snap.label}: missing, nothing to archive")
    if not force and not any(s.items for s in parse.sections(snap)):
        raise UserError(f"{snap.label} has no items yet: nothing to archive",
                        hint="pass --force to archive it anyway")
    before = set(repo.archives())
    had_dir = repo.archive_dir.is_dir()
    # The hook refuses an empty snapshot too (the block's footer names it to the agent).
    out = show.run_pre_task(repo, "--archive", *(["--force"] if force else [])).decode("utf-8", "replace")
    m = re.search(r"^archived: (\S+)$", out, re.M)
    made = sorted(set(repo.archives()) - before)
    if not m or not made:
        raise UserError(f"{snap.label} was not archived",
                        hint="see .agent/log/memory.log (are the hooks disabled in config.yaml, "
                             "or is memory/archive a link?)")
    _fresh_or_undo(repo, snap.path, made[-1], had_dir)
    echo(f"archived {snap.label} to {m.group(1)}; started a fresh board")
    return 0
