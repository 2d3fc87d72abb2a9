"""Merging our hook entries into a framework's JSON settings file, and taking them out.

Ownership rule: an entry is OURS when its command string names one of our hooks by
path, `.agent/hooks/pre_task.sh`, `.agent/hooks/post_edit.sh` or `.agent/hooks/on_compact.sh`
(any prefix: `$CLAUDE_PROJECT_DIR/`, `./`, a `git rev-parse` expression), or the dispatcher
of a user-level install, `agenthooks/dispatch.sh` (in the user's settings). Everything else in
the file is the user's and is kept as it is, in its order: other top-level keys, other
events, foreign handlers, even foreign handlers inside a group that also holds ours.

Two shapes exist:
  nested  {"hooks": {EVENT: [{"matcher": M, "hooks": [{"type": "command", "command": C}]}]}}
          (Claude Code, Codex, Gemini CLI)
  flat    {"hooks": {EVENT: [{"command": C, "matcher": M}]}}   (Cursor, Windsurf, Copilot CLI)
The event map is the "hooks" member of the document, or (under=None) the document itself:
Factory Droid's .factory/hooks.json is {EVENT: [...]}.

A merge drops every handler of ours from the file, then puts our new group (or handler) back
at the position where the first one of ours was for that event, or at the end: re-running
install refreshes ours in place and never duplicates them.

The file is edited as text (`_jsontext`): only our entries are spliced in or out, so the
user's indent, key order, comments (JSONC), final newline, line endings and a byte-order
mark stay as they are, and uninstall gives back the file install found. A merge whose
result has the same structure as the file returns the file unchanged. A new file is
written 2-space indented with one trailing newline.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from agenthooks.errors import UserError
from agenthooks.frameworks import _jsontext
from agenthooks.frameworks._start import BASH

OURS_RE = re.compile(r"\.agent/hooks/(pre_task|post_edit|on_compact)\.sh|agenthooks/dispatch\.sh")

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


BOM = "\ufeff"
_FIX = "fix {rel} (or move it aside), then run agenthooks install again"


def read(root: Path, rel: str) -> str | None:
    """The file's text exactly as stored (no newline translation), or None when absent.
    Refused (safepath) when it, or a folder on its way, is a link, or it is not a regular
    file: nothing is merged into a file outside the repo, and no FIFO is opened."""
    from agenthooks import safepath

    path = root / rel
    safepath.check(root, [rel], then="not read, nothing written")
    if not path.exists():
        return None
    try:
        return path.read_bytes().decode("utf-8")
    except OSError as exc:
        raise UserError(f"{rel}: cannot read it ({exc})",
                        hint=f"fix or move {rel}, then run agenthooks install again") from None
    except UnicodeDecodeError:
        raise UserError(f"{rel} is not UTF-8 text", hint=_FIX.format(rel=rel)) from None


def _checked(rel: str, body: str, under: str | None = "hooks") -> _jsontext.Value:
    """The parsed document (JSON or JSONC), refusing what a merge cannot keep intact."""
    try:
        top = _jsontext.parse(body)
    except _jsontext.SyntaxProblem as exc:
        raise UserError(f"{rel} is not valid JSON ({exc.what}: line {exc.line}, column {exc.col})",
                        hint=_FIX.format(rel=rel)) from None
    if top.kind != "object":
        raise UserError(f"{rel} is not a JSON object", hint=_FIX.format(rel=rel))
    hooks = top.member(under) if under else None
    for obj, where in ((top, ""), (hooks.value if hooks else None, f' in "{under}"')):
        dup = _jsontext.duplicate(obj) if obj is not None and obj.kind == "object" else None
        if dup is not None:
            key, a, b = dup
            la, lb = _jsontext.line_of(body, a.start), _jsontext.line_of(body, b.start)
            # Both on one line (a one-line file): the columns tell them apart, not "lines 1 and 1".
            at = (f"line {la}, columns {a.start - body.rfind(chr(10), 0, a.start)} and "
                  f"{b.start - body.rfind(chr(10), 0, b.start)}") if la == lb \
                else f"lines {la} and {lb}"
            raise UserError(f"{rel} has the key {json.dumps(key, ensure_ascii=False)} twice{where} "
                            f"({at}): only the last one would count",
                            hint=f"merge the two into one in {rel}, then run agenthooks install again")
    if hooks is not None and hooks.value.kind != "object":
        raise UserError(f"{rel}: \"{under}\" is not an object",
                        hint=f"fix {rel}, then run agenthooks install again")
    return top


def load(root: Path, rel: str, under: str | None = "hooks") -> dict[str, Any] | None:
    """The parsed file, or None when it does not exist. Raises UserError on a file that
    is not a JSON object, before anything is written."""
    text = read(root, rel)
    if text is None:
        return None
    body = text[len(BOM):] if text.startswith(BOM) else text
    if not body.strip():
        return {}
    return _checked(rel, body, under).data  # type: ignore[no-any-return]


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


def strip(data: dict[str, Any], shape: str, keys: tuple[str, ...] = ("command",),
          under: str | None = "hooks") -> tuple[dict[str, Any], dict[str, int]]:
    """A copy of data without our entries (empty events and an empty "hooks" dropped),
    and per event the index where ours were."""
    if under is None:
        wrapped, at = strip({"hooks": data}, shape, keys)
        return wrapped.get("hooks", {}), at
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
          keys: tuple[str, ...] = ("command",), top: dict[str, Any] | None = None,
          under: str | None = "hooks") -> dict[str, Any]:
    """current with our entries for each event (ours: EVENT -> entries to insert), placed
    where ours were before. top: keys we need at the top level (e.g. version) when absent."""
    if under is None:
        return merge({"hooks": current or {}}, ours, shape, keys)["hooks"]  # type: ignore[no-any-return]
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


def _find_ours(body: str, top: _jsontext.Value, shape: str, keys: tuple[str, ...],
               keep: frozenset[str], under: str | None = "hooks") -> tuple[_jsontext.Value, int] | None:
    """The first splice that takes out one of our handlers: (container, index). A group
    left with no handler goes, then an event left empty (unless in keep: ours go back
    there), then "hooks" itself; the same rules as strip(), except that an event or
    "hooks" holding a comment stays (empty but for the comment)."""
    hooks_m = top.member(under) if under else None
    if under and (hooks_m is None or hooks_m.value.kind != "object"):
        return None
    hooks = hooks_m.value if hooks_m is not None else top
    for ei, ev in enumerate(hooks.items):
        arr = ev.value
        if arr.kind != "array":
            continue
        for gi, g in enumerate(arr.items):
            if shape == "flat":
                if not is_ours(_command_of(g.value.data, keys)):
                    continue
                target = (arr, gi)
            else:
                inner_m = g.value.member("hooks") if g.value.kind == "object" else None
                if inner_m is None or inner_m.value.kind != "array":
                    continue
                inner = inner_m.value
                mine = [i for i, h in enumerate(inner.items) if is_ours(_command_of(h.value.data, keys))]
                if not mine:
                    continue
                target = (inner, mine[0]) if len(mine) < len(inner.items) else (arr, gi)
            if target[0] is arr and len(arr.items) == 1 and ev.key not in keep \
                    and _bare(body, arr):
                if hooks_m is not None and len(hooks.items) == 1 and _bare(body, hooks):
                    return top, top.items.index(hooks_m)
                return hooks, ei
            return target
    return None


def _bare(body: str, container: _jsontext.Value) -> bool:
    """Nothing but its items in container: no comment of the user's would go with it."""
    inner = body[container.start + 1:container.end - 1]
    for item in reversed(container.items):
        inner = inner[:item.start - container.start - 1] + inner[item.end - container.start - 1:]
    return not inner.strip(" \t\r\n,")


def _strip_text(body: str, shape: str, keys: tuple[str, ...],
                keep: frozenset[str] = frozenset(), under: str | None = "hooks") -> str:
    while True:
        hit = _find_ours(body, _jsontext.parse(body), shape, keys, keep, under)
        if hit is None:
            return body
        body = _jsontext.remove(body, *hit)


def _event_map(doc: _jsontext.Value, under: str | None) -> _jsontext.Value | None:
    """The object holding the events: the document's `under` member, or the document."""
    if under is None:
        return doc
    found = doc.member(under)
    return found.value if found is not None else None


def merge_text(rel: str, text: str | None, ours: dict[str, list[Entry]], shape: str,
               keys: tuple[str, ...] = ("command",), top: dict[str, Any] | None = None,
               under: str | None = "hooks") -> str:
    """text (the file as stored, None when absent) with our entries spliced in. top: keys a
    new file starts with (Cursor's version)."""
    bom = BOM if text is not None and text.startswith(BOM) else ""
    body = (text or "")[len(bom):]
    if not body.strip():
        return bom + dumps(merge({}, ours, shape, keys, top, under))
    data = _checked(rel, body, under).data
    _, where = strip(data, shape, keys, under)
    body = _strip_text(body, shape, keys, frozenset(ours), under)
    # top (Cursor's "version") goes into a new file only: a key of the user's file that we
    # added could not be told apart from theirs at uninstall.
    for event, entries in ours.items():
        doc = _jsontext.parse(body)
        if under is not None and doc.member(under) is None:
            body = _jsontext.insert(body, doc, len(doc.items), {}, under)
            doc = _jsontext.parse(body)
        hooks = _event_map(doc, under)
        assert hooks is not None
        ev = hooks.member(event)
        if ev is None:
            body = _jsontext.insert(body, hooks, len(hooks.items), entries, event)
            continue
        if ev.value.kind != "array":
            body = _jsontext.replace(body, ev.value, entries)
            continue
        at = where.get(event, len(ev.value.items))
        for j, entry in enumerate(entries):
            arr = _event_map(_jsontext.parse(body), under).member(event).value  # type: ignore[union-attr]
            body = _jsontext.insert(body, arr, at + j, entry)
    if json.dumps(_jsontext.parse(body).data) == json.dumps(data):
        return text  # type: ignore[return-value]  # nothing changes: not a byte either
    return bom + body


def without_ours(rel: str, text: str, shape: str, keys: tuple[str, ...] = ("command",)) -> str:
    """text with each entry of ours spliced out and the rest byte for byte (an event or
    "hooks" left empty goes too). Raises UserError on a file that is not a JSON object."""
    bom = BOM if text.startswith(BOM) else ""
    body = text[len(bom):]
    if not body.strip():
        return text
    _checked(rel, body)
    return bom + _strip_text(body, shape, keys)


def plan_text(root: Path, rel: str, ours: dict[str, list[Entry]], shape: str,
              keys: tuple[str, ...] = ("command",), top: dict[str, Any] | None = None,
              under: str | None = "hooks") -> str:
    return merge_text(rel, read(root, rel), ours, shape, keys, top, under)


def unregister(root: Path, rel: str, shape: str, keys: tuple[str, ...] = ("command",),
               top: dict[str, Any] | None = None,
               under: str | None = "hooks") -> list[tuple[str, str | None]]:
    """[(rel, text without ours)], [(rel, None)] when nothing but what we add is left,
    [] when the file is absent, unreadable, or holds nothing of ours."""
    try:
        text = read(root, rel)
        current = load(root, rel, under)
    except UserError:
        return []
    if text is None or current is None:
        return []
    data, where = strip(current, shape, keys, under)
    if not where:
        return []
    leftover = {k: v for k, v in data.items() if not (top and k in top and top[k] == v)}
    if not leftover:
        return [(rel, None)]
    bom = BOM if text.startswith(BOM) else ""
    return [(rel, bom + _strip_text(text[len(bom):], shape, keys, under=under))]


def walk_up_command(hook: str, name: str, start: str = "$PWD") -> str:
    """A command that finds the repo from any folder below it, with no variable and no git:
    it walks up from start to the nearest folder holding .agent/hooks/HOOK.sh (so a
    subfolder, a git submodule and a repo outside git all work) and exits 0 quietly when
    there is none. One single-quoted `bash -p -c` program (both bashes privileged, see `_start`): valid under bash, zsh, fish and sh."""
    script = f'"$d/.agent/hooks/{hook}.sh"'
    return (f"{BASH} -c 'd={start}; while [ ! -f {script} ]; do "
            f"[ \"${{d%/*}}\" != \"$d\" ] || exit 0; d=${{d%/*}}; done; exec {BASH} {script} {name}'")


def group(handler: dict[str, Any], matcher: str | None = None) -> dict[str, Any]:
    """One matcher group holding one of our handlers (Claude Code, Codex, Gemini CLI shape)."""
    out: dict[str, Any] = {} if matcher is None else {"matcher": matcher}
    out["hooks"] = [handler]
    return out


def registration(root: Path, rel: str, name: str, ours: dict[str, list[Entry]],
                 under: str | None = "hooks") -> Any:
    """The PlannedFile for a shared settings file with our nested entries merged in."""
    from agenthooks.files import PlannedFile

    return PlannedFile(rel, plan_text(root, rel, ours, "nested", under=under), 0o644,
                       "registration", f"frameworks/{name}")


def claude_shaped(group_of: Any, edit_matcher: str) -> dict[str, list[Entry]]:
    """The event map Claude Code and Codex share: start (compact included) -> pre_task,
    each prompt -> on_compact, edits -> post_edit, the pre- and post-compaction events ->
    on_compact, which only flags them (PostCompact's output reaches no model in either host);
    a subagent's start -> pre_task, which gives it the rules and In progress (every agent type:
    config.yaml's subagent_skip says which get nothing)."""
    return {
        "SessionStart": [group_of("pre_task", "startup|resume|clear|compact")],
        "SubagentStart": [group_of("pre_task")],
        "UserPromptSubmit": [group_of("on_compact")],
        "PostToolUse": [group_of("post_edit", edit_matcher)],
        "PreCompact": [group_of("on_compact")],
        "PostCompact": [group_of("on_compact")],
    }

