"""Merging our hook entries into a framework's JSON settings file, and taking them out.

Ownership rule: an entry is OURS when its command string names one of our hooks by
path, `.agent/hooks/pre_task.sh`, `.agent/hooks/post_edit.sh` or `.agent/hooks/on_compact.sh`
(any prefix: `$CLAUDE_PROJECT_DIR/`, `./`, a `git rev-parse` expression). Everything else in
the file is the user's and is kept as it is, in its order: other top-level keys, other
events, foreign handlers, even foreign handlers inside a group that also holds ours.

Two shapes exist:
  nested  {"hooks": {EVENT: [{"matcher": M, "hooks": [{"type": "command", "command": C}]}]}}
          (Claude Code, Codex, Gemini CLI)
  flat    {"hooks": {EVENT: [{"command": C, "matcher": M}]}}   (Cursor, Windsurf, Copilot CLI)

A merge drops every handler of ours from the file, then puts our new group (or handler) back
at the position where the first one of ours was for that event, or at the end: re-running
install refreshes ours in place and never duplicates them. Output: 2-space indent, keys in
the file's order (ours in a fixed order), non-ASCII kept, one trailing newline.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from agenthooks.errors import UserError

OURS_RE = re.compile(r"\.agent/hooks/(pre_task|post_edit|on_compact)\.sh")

Entry = dict[str, Any]


def is_ours(command: Any) -> bool:
    return isinstance(command, str) and OURS_RE.search(command) is not None


def _command_of(handler: Any, keys: tuple[str, ...]) -> Any:
    if not isinstance(handler, dict):
        return None
    for key in keys:
        if key in handler:
            return handler[key]
    return None


def load(root: Path, rel: str) -> dict[str, Any] | None:
    """The parsed file, or None when it does not exist. Raises UserError on a file that
    is not a JSON object, before anything is written."""
    path = root / rel
    if not path.exists():
        return None
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{rel}: cannot read it ({exc})",
                        hint=f"fix or move {rel}, then run agenthooks install again") from None
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise UserError(f"{rel} is not valid JSON (line {exc.lineno}, column {exc.colno})",  # type: ignore[attr-defined]
                        hint=f"fix {rel} (or move it aside), then run agenthooks install again") from None
    if not isinstance(data, dict):
        raise UserError(f"{rel} is not a JSON object",
                        hint=f"fix {rel} (or move it aside), then run agenthooks install again")
    hooks = data.get("hooks")
    if hooks is not None and not isinstance(hooks, dict):
        raise UserError(f"{rel}: \"hooks\" is not an object",
                        hint=f"fix {rel}, then run agenthooks install again")
    return data


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _strip_event(entries: Any, shape: str, keys: tuple[str, ...]) -> tuple[list[Any], int | None]:
    """Entries of one event without ours, and the index where the first of ours was."""
    if not isinstance(entries, list):
        return ([] if entries is None else [entries]), None
    out: list[Any] = []
    first: int | None = None
    for entry in entries:
        if shape == "flat":
            if is_ours(_command_of(entry, keys)):
                first = len(out) if first is None else first
                continue
            out.append(entry)
            continue
        inner = entry.get("hooks") if isinstance(entry, dict) else None
        if not isinstance(inner, list):
            out.append(entry)
            continue
        kept = [h for h in inner if not is_ours(_command_of(h, keys))]
        if len(kept) == len(inner):
            out.append(entry)
            continue
        first = len(out) if first is None else first
        if kept:
            out.append({**entry, "hooks": kept})
    return out, first


def strip(data: dict[str, Any], shape: str, keys: tuple[str, ...] = ("command",)) -> tuple[dict[str, Any], dict[str, int]]:
    """A copy of data without our entries (empty events and an empty "hooks" dropped),
    and per event the index where ours were."""
    data = dict(data)
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return data, {}
    new_hooks: dict[str, Any] = {}
    where: dict[str, int] = {}
    for event, entries in hooks.items():
        kept, first = _strip_event(entries, shape, keys)
        if first is not None:
            where[event] = first
        if kept or first is None:
            new_hooks[event] = kept if isinstance(entries, list) else entries
    if new_hooks:
        data["hooks"] = new_hooks
    else:
        data.pop("hooks", None)
    return data, where


def merge(current: dict[str, Any] | None, ours: dict[str, list[Entry]], shape: str,
          keys: tuple[str, ...] = ("command",), top: dict[str, Any] | None = None) -> dict[str, Any]:
    """current with our entries for each event (ours: EVENT -> entries to insert), placed
    where ours were before. top: keys we need at the top level (e.g. version) when absent."""
    data, where = strip(current or {}, shape, keys)
    for key, value in (top or {}).items():
        data.setdefault(key, value)
    hooks = dict(data.get("hooks") or {})
    for event, entries in ours.items():
        existing = hooks.get(event)
        lst = list(existing) if isinstance(existing, list) else []
        at = where.get(event, len(lst))
        lst[at:at] = entries
        hooks[event] = lst
    data["hooks"] = hooks
    return data


def plan_text(root: Path, rel: str, ours: dict[str, list[Entry]], shape: str,
              keys: tuple[str, ...] = ("command",), top: dict[str, Any] | None = None) -> str:
    return dumps(merge(load(root, rel), ours, shape, keys, top))


def unregister(root: Path, rel: str, shape: str, keys: tuple[str, ...] = ("command",),
               top: dict[str, Any] | None = None) -> list[tuple[str, str | None]]:
    """[(rel, text without ours)], [(rel, None)] when nothing but what we add is left,
    [] when the file is absent, unreadable, or holds nothing of ours."""
    try:
        current = load(root, rel)
    except UserError:
        return []
    if current is None:
        return []
    data, where = strip(current, shape, keys)
    if not where:
        return []
    leftover = {k: v for k, v in data.items() if not (top and k in top and top[k] == v)}
    if not leftover:
        return [(rel, None)]
    return [(rel, dumps(data))]


def group(handler: dict[str, Any], matcher: str | None = None) -> dict[str, Any]:
    """One matcher group holding one of our handlers (Claude Code, Codex, Gemini CLI shape)."""
    out: dict[str, Any] = {} if matcher is None else {"matcher": matcher}
    out["hooks"] = [handler]
    return out


def registration(root: Path, rel: str, name: str, ours: dict[str, list[Entry]]) -> Any:
    """The PlannedFile for a shared settings file with our nested entries merged in."""
    from agenthooks.render import PlannedFile

    return PlannedFile(rel, plan_text(root, rel, ours, "nested"), 0o644, "registration",
                       f"frameworks/{name}")


def claude_shaped(group_of: Any, edit_matcher: str) -> dict[str, list[Entry]]:
    """The event map Claude Code and Codex share: start (compact included) -> pre_task,
    each prompt -> on_compact, edits -> post_edit, the pre-compaction flag -> on_compact."""
    return {
        "SessionStart": [group_of("pre_task", "startup|resume|clear|compact")],
        "UserPromptSubmit": [group_of("on_compact")],
        "PostToolUse": [group_of("post_edit", edit_matcher)],
        "PreCompact": [group_of("on_compact")],
    }

