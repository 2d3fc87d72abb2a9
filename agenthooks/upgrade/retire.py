"""Files this render no longer makes: recorded files of ours that are no longer generated,
and the files of frameworks no longer selected (their entries taken out, the user's kept)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from agenthooks import manifest
from agenthooks.files import PlannedFile
from agenthooks.upgrade.steps import Plan, Step, Verdict


def retired(root: Path, recorded: dict[str, Any], planned_paths: set[str],
             records: dict[str, Any]) -> list[Step]:
    """Recorded files this render no longer makes: ours go while pristine, edited ones
    stay; the records of the user's files (config, registrations) are carried over."""
    steps = []
    for relpath, rec in sorted(recorded.items()):
        if relpath in planned_paths or not isinstance(rec, dict):
            continue
        path = root / relpath
        if manifest.kind(rec) != "owned":
            records[relpath] = rec
        elif not (path.is_file() and not path.is_symlink()):
            continue
        elif manifest.is_pristine(path.read_bytes(), rec):
            steps.append(Step(Verdict("remove", relpath, "no longer generated"),
                              removes=[path]))
        else:
            steps.append(Step(Verdict("keep", relpath, "no longer generated; edited by "
                                      "you, left in place")))
    return steps


def drop_frameworks(root: Path, plan: Plan, planned: list[PlannedFile], selected: list[str],
                    recorded: dict[str, Any]) -> None:
    """Add to plan the unregistering of every framework not selected: the hooks are rendered
    only for the selected ones, so an entry left for another calls hooks that no longer speak
    its envelope. Each framework module's unregister() (the one uninstall uses) says what
    its files become; a file it does not touch but the manifest recorded gets a verdict too."""
    from agenthooks import frameworks

    files = recorded.get("files", {})
    planned_paths = {pf.path for pf in planned}
    # Taken before any step is added: the verdicts made above, not by another framework.
    by_path = {s.verdict.path: i for i, s in enumerate(plan.steps)}
    had = _had_frameworks(recorded)
    for name in frameworks.NAMES:
        mod = frameworks.get(name) if name not in selected else None
        if mod is None:
            continue
        why = f"{name} no longer selected" if name in had else f"{name} not selected"
        seen: set[str] = set()
        for rel, text in mod.unregister(root):
            if rel in planned_paths or rel in seen:
                continue
            seen.add(rel)
            _unregister_file(root, plan, rel, text, files, by_path.get(rel), why)
        _leftover_registrations(root, plan, name, files, seen | planned_paths, why)


def _had_frameworks(recorded: dict[str, Any]) -> set[str]:
    """The frameworks the last install wired: its answers and its framework files."""
    had = set(recorded.get("answers", {}).get("frameworks", []))
    had |= {str(r.get("template", "")).split("/", 1)[-1]
            for r in recorded.get("files", {}).values()
            if isinstance(r, dict) and str(r.get("template", "")).startswith("frameworks/")}
    return had


def _unregister_file(root: Path, plan: Plan, rel: str, text: str | None,
                     files: dict[str, Any], at: int | None, why: str) -> None:
    """One file of a dropped framework: TEXT is what unregister() leaves (None: nothing)."""
    path = root / rel
    rec = files.get(rel) if isinstance(files.get(rel), dict) else None
    if rec is not None and manifest.kind(rec) == "owned" and at is not None:
        # Decided above as no longer generated: removed when pristine. An edited
        # file keeps the user's part, without our entries, when it has one.
        if plan.steps[at].verdict.verdict == "keep" and text is not None:
            plan.steps[at] = Step(Verdict("update", rel, f"{why}: our entries "
                                          "removed, yours kept"),
                                  writes=[(path, text.encode("utf-8"),
                                           path.stat().st_mode & 0o777)])
        return
    edited = rec is not None and path.is_file() \
        and not manifest.is_pristine(path.read_bytes(), rec)
    if text is None:
        step = Step(Verdict("remove", rel, why), removes=[path], touches_edits=edited)
    else:
        step = Step(Verdict("update", rel, f"{why}: our entries removed, yours kept"),
                    writes=[(path, text.encode("utf-8"), path.stat().st_mode & 0o777)],
                    touches_edits=edited)
    plan.steps.append(step)
    plan.records.pop(rel, None)


def _leftover_registrations(root: Path, plan: Plan, name: str, files: dict[str, Any],
                            done: set[str], why: str) -> None:
    """Registration files the manifest recorded for NAME that unregister() did not name."""
    from agenthooks.frameworks._jsonhooks import OURS_RE

    for rel, rec in sorted(files.items()):
        if (not isinstance(rec, dict) or rec.get("template") != f"frameworks/{name}"
                or manifest.kind(rec) != "registration" or rel in done):
            continue
        plan.records.pop(rel, None)
        path = root / rel
        if not path.is_file():
            continue
        if OURS_RE.search(path.read_text(encoding="utf-8", errors="replace")):
            plan.steps.append(Step(Verdict("skip", rel, f"{why}, but our entries could not "
                                           "be taken out (is it valid?): remove them by hand"),
                                   refused=True))
        else:
            plan.steps.append(Step(Verdict("keep", rel, f"{why}; none of our entries in it")))
