"""The hooks and their library are one release: a deleted hook that another still sources
comes back, and while one is in conflict the others stay at the installed release."""
from __future__ import annotations

import re
from typing import Any

from agenthooks.render import LIB
from agenthooks.upgrade.seen import Seen
from agenthooks.upgrade.steps import HOOK_DIR, HOOK_LIB, Step, Verdict


# How a past release's hook sources another: `AH_LIB=${BASH_SOURCE[0]%post_edit.sh}pre_task.sh`
# then `. "$AH_LIB"`, or `. "$AH_HOOKS/pre_task.sh"`. Today's hooks load every part of
# .agent/hooks/lib/ (HOOK_LIB), so each hook needs all of them.
SOURCES_RE = re.compile(rb'AH_LIB=\$\{BASH_SOURCE\[0\]%[^}]*\}([A-Za-z0-9_.-]+\.sh)'
                        rb'|(?:^|[;&|\s])(?:\.|source)\s+"?\$\{?AH_HOOKS\}?/([A-Za-z0-9_.-]+\.sh)')


def sourced(text: bytes) -> set[str]:
    """The files a hook's text loads, relative to its folder: a past release's hooks
    sourced one another; today's load every part of lib/."""
    names = {a.decode() or b.decode() for a, b in SOURCES_RE.findall(text)}
    if b'/lib/prelude.sh"' in text:
        names |= {f"lib/{part}" for part in LIB}
    return names


def _after(seen: Seen, step: Step) -> bytes | None:
    """A planned file's bytes once the step ran (None: it will not be there)."""
    for path, data, _mode in step.writes:
        if path == seen.path:
            return data
    return None if seen.path in step.removes else seen.cur


def restore_needed(seens: list[Seen], steps: list[Step], records: dict[str, Any],
                    pristine: list[bytes]) -> None:
    """A hook the user deleted that a hook still there sources comes back: without it
    the other hooks fail on every run. Repeated until nothing more is needed."""
    changed = True
    while changed:
        changed = False
        for i, s in enumerate(seens):
            if s.pf.kind != "owned" or s.cur is not None or s.lexists or s.rec is None \
                    or steps[i].writes or steps[i].verdict.verdict != "keep":
                continue
            needers = [o.path.name if o.pf.path.startswith(HOOK_DIR) else o.pf.path
                       for j, o in enumerate(seens) if j != i and _needs(o, _after(o, steps[j]), s)]
            if not needers:
                continue
            steps[i] = Step(Verdict("restore", s.pf.path, f"deleted, but needed by "
                                    f"{', '.join(needers)}"),
                            writes=[(s.path, s.new, s.pf.mode)])
            records[s.pf.path] = s.record
            pristine.append(s.new)
            changed = True


def _needs(o: Seen, text: bytes | None, s: Seen) -> bool:
    """Does O (with TEXT once upgraded) need the file S to run? A hook needs what it
    sources; a framework's registration, plugin or wrapper needs every hook it calls
    (kept deleted, the host would run a missing file at every event)."""
    if text is None or not s.pf.path.startswith(HOOK_DIR):
        return False
    if o.pf.kind == "registration" or o.pf.template.startswith("frameworks/"):
        return s.pf.path.encode() in CALLS_RE.findall(text)
    if not o.pf.path.startswith(HOOK_DIR) or o.pf.path.startswith(HOOK_LIB):
        return False
    return s.pf.path.removeprefix(HOOK_DIR) in sourced(text)


# How a framework's file names a hook it calls.
CALLS_RE = re.compile(rb"\.agent/hooks/[A-Za-z0-9_.-]+\.sh")


def hold_release(seens: list[Seen], steps: list[Step], records: dict[str, Any]) -> None:
    """The hooks and their library are one release: while one of them is in conflict (the
    user's file kept, running, the merge beside it), the others stay at the installed release
    too, so that the hooks that run are always one set. The next install, once the conflict
    is resolved, updates them all."""
    held = [s.pf.path for s, step in zip(seens, steps)
            if s.pf.path.startswith(HOOK_DIR) and step.verdict.verdict == "conflict"]
    if not held:
        return
    why = f"held at the installed release while {', '.join(held)} is in conflict: " \
          "run agenthooks install again once it is resolved"
    for i, s in enumerate(seens):
        if not s.pf.path.startswith(HOOK_DIR) or s.pf.path in held \
                or not any(path == s.path for path, _data, _mode in steps[i].writes):
            continue
        if s.cur is None and not s.lexists:
            steps[i] = Step(Verdict("skip", s.pf.path, "not created yet: " + why))
            records.pop(s.pf.path, None)
        else:
            steps[i] = Step(Verdict("keep", s.pf.path, why))
            if s.rec is not None:
                records[s.pf.path] = s.rec
            else:
                records.pop(s.pf.path, None)
