"""agenthooks archive: the rendered `pre_task.sh --archive` does the work (one
implementation, the one the block's footer names for the agent); this checks the
outcome and refuses to archive a snapshot that holds nothing."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Callable

from agenthooks.errors import UserError
from agenthooks.memory import parse, show


def run(dir_: Path | None, echo: Callable[[str], None], force: bool = False) -> int:
    repo = parse.find_repo(dir_)
    snap = repo.file("snapshot")
    if not snap.exists:
        raise UserError(f"{snap.label}: missing, nothing to archive")
    if not force and not any(s.items for s in parse.sections(snap)):
        raise UserError(f"{snap.label} has no items yet: nothing to archive",
                        hint="pass --force to archive it anyway")
    before = set(repo.archives())
    out = show.run_pre_task(repo, "--archive").decode("utf-8", "replace")
    m = re.search(r"^archived: (\S+)$", out, re.M)
    made = sorted(set(repo.archives()) - before)
    if not m or not made:
        raise UserError("the snapshot was not archived",
                        hint="see .agent/log/memory.log (are the hooks disabled in config.yaml, "
                             "or is memory/archive a link?)")
    echo(f"archived {snap.label} to {m.group(1)}; started a fresh snapshot")
    return 0
