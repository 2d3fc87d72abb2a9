"""The files the user shares with us: memory and the log (created, never touched),
config.yaml (migrated in place, values and comments kept) and a framework's registration
(our entries spliced in, theirs kept)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from agenthooks import config, manifest
from agenthooks.errors import UserError
from agenthooks.files import PlannedFile
from agenthooks.upgrade.seen import Outcome, Seen, missing, not_regular
from agenthooks.upgrade.steps import Step, Verdict


def memory(s: Seen) -> Outcome:
    """Memory and the log: created when missing, else never touched."""
    if s.lexists:
        return Step(Verdict("keep", s.pf.path, "memory is never touched"
                            if s.pf.kind == "memory" else "")), None, None
    return Step(Verdict("create", s.pf.path), writes=[(s.path, s.new, s.pf.mode)]), None, None


def config_file(s: Seen) -> Outcome:
    """config.yaml: the user's file, migrated in place (values and comments kept)."""
    refused = not_regular(s)
    if refused is not None:
        return refused
    step, rec = _config_step(s.pf, s.path, s.cur, s.rec, s.record, s.restore, s.settings)
    return step, rec, None


def _config_step(pf: PlannedFile, path: Path, cur: bytes | None, rec: dict[str, Any] | None,
                 record: dict[str, Any], restore: frozenset[str],
                 settings: dict[str, Any]) -> tuple[Step, dict[str, Any]]:
    new = pf.text.encode("utf-8")
    if cur is None:
        if rec is not None and pf.path not in restore:
            return Step(Verdict("keep", pf.path, f"deleted by you; --restore {pf.path} "
                                "brings it back")), rec
        return Step(Verdict("create", pf.path), writes=[(path, new, pf.mode)]), record
    try:
        text = cur.decode("utf-8")
    except UnicodeDecodeError:
        raise UserError(f"{pf.path} is not UTF-8 text: fix or delete it, then run "
                        "agenthooks install again") from None
    migrated, old_v, new_v, added = config.migrate(text)
    keep_rec = rec or record
    if old_v > config.CONFIG_VERSION:
        return Step(Verdict("keep", pf.path, f"yours; version {old_v} is newer than this "
                            "agenthooks knows: left as is")), keep_rec
    # A flag given now (--budget) is applied to the user's file by the same splice.
    migrated, changed = config.set_values(migrated, settings)
    if migrated == text:
        return Step(Verdict("keep", pf.path, f"yours; already migrated (version {new_v})")), keep_rec
    if rec is not None and manifest.is_pristine(cur, rec):
        # Our own render, migrated by us: still pristine.
        keep_rec = dict(manifest.record(migrated.encode("utf-8"), pf.template, record["rev"],
                                        pf.mode, "config"))
    else:
        keep_rec = dict(keep_rec, rev=record["rev"])
    if old_v != new_v:
        what = "".join(f"{w}; " for w in ([f"added {', '.join(added)}"] if added else []) + changed)
        note = f"migrated version {old_v} -> {new_v}: {what}your values and comments kept"
    else:
        note = f"set {', '.join(changed)} as asked; your comments kept"
    return Step(Verdict("update", pf.path, note),
                writes=[(path, migrated.encode("utf-8"), (path.stat().st_mode & 0o777))],
                # A value the user just asked for is no surprise: a dirty file may take it.
                touches_edits=old_v != new_v and rec is not None
                and not manifest.is_pristine(cur, rec)), keep_rec


def registration(s: Seen) -> Outcome:
    """A file shared with the user (.claude/settings.json, ...): the framework module
    already merged our entries into its current text, keeping theirs."""
    early = not_regular(s) or missing(s)
    if early is not None:
        return early
    if s.cur == s.new:
        return Step(Verdict("identical", s.pf.path)), s.record, s.new
    # Only our entries are spliced in or out (frameworks/_jsonhooks.py): every byte of
    # the user's, uncommitted or not, stays. No clean tree needed.
    return Step(Verdict("update", s.pf.path, _registration_change(s.cur, s.new)),
                writes=[(s.path, s.new, s.pf.mode)]), s.record, s.new


def _registration_change(cur: bytes | None, new: bytes) -> str:
    """What the splice really changes: our hooks added to or taken from which events, and
    a top-level key of ours that comes or goes (--statusline / --no-statusline splice
    .claude/settings.json's statusLine)."""
    import json

    from agenthooks.frameworks._jsonhooks import OURS_RE

    try:
        old_doc, new_doc = json.loads(cur or b"{}"), json.loads(new)
    except (ValueError, TypeError):  # JSONC, or not JSON: count our commands in the text
        before = len(OURS_RE.findall((cur or b"").decode("utf-8", "replace")))
        after = len(OURS_RE.findall(new.decode("utf-8", "replace")))
        if before == 0 and after:
            return f"added our {after} hook entr{'y' if after == 1 else 'ies'}, yours kept"
        return "our entries refreshed, yours kept"
    if not isinstance(old_doc, dict) or not isinstance(new_doc, dict):
        return "our entries refreshed, yours kept"

    def events(doc: dict[str, Any]) -> set[str]:
        hooks = doc.get("hooks")
        if isinstance(hooks, dict):
            return {ev for ev, v in hooks.items() if OURS_RE.search(json.dumps(v))}
        return {"hooks"} if OURS_RE.search(json.dumps(hooks)) else set()

    said = []
    added, gone = sorted(events(new_doc) - events(old_doc)), sorted(events(old_doc) - events(new_doc))
    if added:
        said.append(f"added our hooks for {len(added)} event(s): {', '.join(added)}")
    if gone:
        said.append(f"took our hooks out of {len(gone)} event(s): {', '.join(gone)}")
    old_keys, new_keys = set(old_doc), set(new_doc)
    said += [f"our {k} removed" for k in sorted(old_keys - new_keys)] + \
        [f"our {k} added" for k in sorted(new_keys - old_keys) if k != "hooks"]
    return ", ".join(said + ["yours kept"]) if said else "our entries refreshed, yours kept"
