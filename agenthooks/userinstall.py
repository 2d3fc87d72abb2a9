"""agenthooks install --user / uninstall --user: memory in every repository that has .agent/,
with nothing committed and nothing written into any repository.

install --user copies the dispatcher (dispatch.py: the same script the Claude Code plugin
runs) into the user's data folder and registers it in the user-level settings of each
selected host that has them: each framework module with `user_settings()` (the file) and
`user_entries(script)` (our events, each running the dispatcher). The merge is the project
files' (_jsonhooks): the user's keys, hooks, comments and line endings stay, ours are replaced
in place. What it wrote is recorded in user.json beside the dispatcher, so that uninstall
--user gives each file back byte for byte: our entries spliced out, a file it created deleted
when nothing else is left in it, the exact earlier text where only a splice could not restore
it (an empty "hooks" object the user had).

Nothing is written through a link that leads out of the user's own folders: the home folder,
and the folders the user named by environment variable (XDG_DATA_HOME and each host's, such as
CLAUDE_CONFIG_DIR); a link inside them is followed, so a settings file kept in a dotfiles
folder stays a link to it."""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, Callable

from agenthooks import __version__, dispatch, frameworks
from agenthooks.errors import UserError
from agenthooks.files import write_atomic
from agenthooks.frameworks import Framework, UserLevel, _jsonhooks, _jsontext
from agenthooks.upgrade.steps import Verdict

RECORD = "user.json"
SHAPE = "nested"


def hosts() -> list[tuple[Framework, UserLevel]]:
    """The frameworks with user-level hooks, in registry order, each with them."""
    return [(fw, fw.user) for fw in frameworks.REGISTRY if fw.user is not None]


def names() -> list[str]:
    return [fw.name for fw, _ in hosts()]


def script() -> Path:
    return dispatch.user_dir() / "dispatch.sh"


def record_path() -> Path:
    return dispatch.user_dir() / RECORD


def _roots() -> list[Path]:
    """The user's own folders: home, and those named by environment variable."""
    roots = [Path.home()]
    for var in ["XDG_DATA_HOME", *(user.home_var for _, user in hosts())]:
        value = os.environ.get(var) if var else None
        if value and os.path.isabs(value):
            roots.append(Path(value))
    return [r.resolve() for r in roots]


def real(path: Path) -> Path:
    """Where path's bytes go: links followed, refused when that is out of the user's folders
    or not a file."""
    found = path.resolve()
    if not any(found == r or r in found.parents for r in _roots()):
        raise UserError(f"{path} leads out of your folders (to {found}): not written",
                        hint="point the link into your home folder, or remove it")
    if found.exists() and not found.is_file():
        raise UserError(f"{path} is not a file: not written")
    return found


def _read(path: Path) -> str | None:
    if not path.exists():
        return None
    try:
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise UserError(f"{path} is not UTF-8 text", hint=f"fix {path}, then run it again") from None


def load_record() -> dict[str, Any]:
    path = record_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    except (OSError, ValueError):
        data = {}
    if not isinstance(data, dict):
        data = {}
    data.setdefault("frameworks", [])
    data.setdefault("files", {})
    return data


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _select(given: list[str] | None, recorded: list[str]) -> list[tuple[Framework, UserLevel]]:
    """The hosts to register: --framework, else the recorded ones, else those this machine
    shows (else the first)."""
    able = names()
    if given:
        bad = [n for n in given if n not in able]
        if bad:
            known = "a framework agenthooks knows" if frameworks.get(bad[0]) is None else \
                "a framework with user-level hooks agenthooks can register"
            raise UserError(f"--user: {bad[0]} is not {known} (it can: {', '.join(able)})",
                            hint="its hooks go into each repository: agenthooks install there")
        chosen = given
    else:
        chosen = [n for n in recorded if n in able] or \
            [n for n in frameworks.on_machine() if n in able] or able[:1]
    return [(fw, user) for fw, user in hosts() if fw.name in chosen]


class _Plan:
    def __init__(self) -> None:
        self.verdicts: list[Verdict] = []
        self.writes: list[tuple[Path, bytes | None]] = []  # None: remove

    def add(self, verdict: Verdict, path: Path | None = None, data: bytes | None = None,
            remove: bool = False) -> None:
        self.verdicts.append(verdict)
        if path is not None and (data is not None or remove):
            self.writes.append((path, None if remove else data))

    def apply(self) -> None:
        for path, data in self.writes:
            if data is None:
                if path.exists():
                    path.unlink()
            else:
                write_atomic(path, data)  # a file's mode kept (0o644 when new)


def _verdict(old: str | None, new: str) -> str:
    return "identical" if old == new else "create" if old is None else "update"


def install(given: list[str] | None, *, dry_run: bool, echo: Callable[[str], None]) -> int:
    record = load_record()
    mods = _select(given, list(record["frameworks"]))
    plan = _Plan()
    target = script()
    word = dispatch.word(str(target))
    if word is None:
        raise UserError(f"{target}: a path with a quote or a backslash cannot go into a hook "
                        "command", hint="set XDG_DATA_HOME to a plain path")
    dest = real(target)
    data = dispatch.script_bytes()
    old = dest.read_bytes() if dest.exists() else None
    plan.add(Verdict("identical" if old == data else "create" if old is None else "update",
                     str(target), "the dispatcher: runs each repository's own .agent/hooks/"),
             dest, data if old != data else None)
    files: dict[str, Any] = dict(record["files"])
    for fw, user in mods:
        path = user.settings()
        dest = real(path)
        text = _read(dest)
        new = _jsonhooks.merge_text(str(path), text, user.entries(word), SHAPE)
        rec = dict(files.get(str(path)) or {"created": text is None})
        if text is not None and "restore" not in rec and \
                _jsonhooks.without_ours(str(path), text, SHAPE) == text:
            back = _jsonhooks.without_ours(str(path), new, SHAPE)
            if back != text:  # a splice alone would not give this text back
                rec.update(restore=text, stripped=_sha(back))
        files[str(path)] = rec
        plan.add(Verdict(_verdict(text, new), str(path), f"{fw.name}: runs the dispatcher; "
                         "yours kept" if text else f"{fw.name}: runs the dispatcher"),
                 dest, new.encode("utf-8") if new != text else None)
    chosen = [fw.name for fw, _ in mods]
    made = list(record.get("folders", []))
    for written, _ in plan.writes:
        made += [str(d) for d in _missing(written.parent) if str(d) not in made]
    for fw, user in hosts():
        if fw.name in record["frameworks"] and fw.name not in chosen:
            _unregister(user, files, plan, why=f"{fw.name}: not selected now")
    doc = {"agenthooks": __version__, "frameworks": chosen, "folders": made,
           "files": {k: v for k, v in sorted(files.items())
                     if k in {str(user.settings()) for _, user in mods}}}
    text = json.dumps(doc, indent=2, sort_keys=True) + "\n"
    rpath = record_path()
    rold = _read(real(rpath))
    plan.add(Verdict(_verdict(rold, text), str(rpath), "what install --user wrote, for "
                     "uninstall --user"), real(rpath), text.encode("utf-8") if rold != text else None)
    if not dry_run:
        plan.apply()
    _said(plan, mods, dry_run, echo)
    return 0


def _said(plan: _Plan, mods: list[tuple[Framework, UserLevel]], dry_run: bool,
          echo: Callable[[str], None]) -> None:
    echo(("Would write" if dry_run else "agenthooks install --user") + ":")
    for v in plan.verdicts:
        echo(v.line())
    if dry_run:
        echo("dry run: nothing was written")
        return
    echo(f"every repository with .agent/ now gets its memory in {', '.join(fw.name for fw, _ in mods)}, "
         "from any folder of it, with nothing committed; a repository without .agent/ gets "
         "nothing (agenthooks install there adds it; --local keeps it out of git)")
    for _, user in mods:
        for step in user.next_steps():
            echo(f"next: {step}")


def _missing(folder: Path) -> list[Path]:
    """The folders a write into folder creates, innermost first."""
    out = []
    while not folder.exists() and folder != folder.parent:
        out.append(folder)
        folder = folder.parent
    return out


def _unregister(user: UserLevel, files: dict[str, Any], plan: _Plan, why: str) -> None:
    path = user.settings()
    try:
        dest = real(path)
        text = _read(dest)
    except UserError as exc:
        plan.add(Verdict("skip", str(path), f"{exc}: take our entries out by hand"))
        return
    if text is None:
        return
    try:
        stripped = _jsonhooks.without_ours(str(path), text, SHAPE)
    except UserError as exc:
        plan.add(Verdict("skip", str(path), f"{exc}: take our entries out by hand"))
        return
    rec = files.pop(str(path), {})
    if stripped == text:
        return
    if rec.get("restore") is not None and rec.get("stripped") == _sha(stripped):
        plan.add(Verdict("restore", str(path), f"{why}: your file as it was"), dest,
                 str(rec["restore"]).encode("utf-8"))
    elif rec.get("created") and _empty(stripped):
        plan.add(Verdict("remove", str(path), f"{why}: it held only our entries"), dest,
                 remove=True)
    else:
        plan.add(Verdict("update", str(path), f"{why}: our entries removed, yours kept"), dest,
                 stripped.encode("utf-8"))


def _empty(text: str) -> bool:
    body = text[1:] if text.startswith(_jsonhooks.BOM) else text
    try:
        return not body.strip() or _jsontext.parse(body).data == {}
    except _jsontext.SyntaxProblem:
        return False


def uninstall(*, dry_run: bool, echo: Callable[[str], None]) -> int:
    record = load_record()
    files: dict[str, Any] = dict(record["files"])
    plan = _Plan()
    for fw, user in hosts():
        _unregister(user, files, plan, why=fw.name)
    target = script()
    dest = real(target)
    if dest.is_file() and dispatch.release(dest.read_bytes()) is not None:
        plan.add(Verdict("remove", str(target), "the dispatcher"), dest, remove=True)
    elif dest.exists():
        plan.add(Verdict("keep", str(target), "not our dispatcher"))
    rpath = record_path()
    if rpath.is_file():
        plan.add(Verdict("remove", str(rpath)), real(rpath), remove=True)
    if not plan.verdicts:
        raise UserError("nothing to uninstall: no user-level install of agenthooks "
                        f"({', '.join(str(user.settings()) for _, user in hosts())} hold none of "
                        "our entries)")
    if not dry_run:
        plan.apply()
        # The folders install made, when nothing else is in them now; the others stay.
        for folder in [*record.get("folders", []), str(dispatch.user_dir())]:
            try:
                Path(folder).rmdir()
            except OSError:
                pass
    echo(("Would remove" if dry_run else "agenthooks uninstall --user") + ":")
    for v in plan.verdicts:
        echo(v.line())
    if dry_run:
        echo("dry run: nothing was written")
    return 0


# --- for doctor: what runs our hooks beyond the repository's own settings ---------------

def registered(user: UserLevel) -> tuple[bool, bool]:
    """(the user's settings of a host run the dispatcher, they run a repository's hooks
    directly); both False when the file is missing or unreadable."""
    try:
        text = _read(user.settings())
        data = _jsonhooks.load(user.settings().parent, user.settings().name) if text else None
    except (UserError, OSError):
        return False, False
    commands = [h.get("command", "") for groups in ((data or {}).get("hooks") or {}).values()
                if isinstance(groups, list) for g in groups if isinstance(g, dict)
                for h in (g.get("hooks") or []) if isinstance(h, dict)]
    mine = [c for c in commands if isinstance(c, str) and _jsonhooks.is_ours(c)]
    return (any(dispatch.USER_NAME in c for c in mine),
            any(dispatch.USER_NAME not in c for c in mine))
