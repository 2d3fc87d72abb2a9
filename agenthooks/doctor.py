"""agenthooks doctor: is this install healthy? Reads only; writes nothing in the repo.

Each check is ok, warn (worth knowing, still healthy) or fail (exit 1)."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable

from agenthooks import __version__, config, frameworks, hookrun, manifest, messages, render, syntax, usermessages
from agenthooks.answer_types import Answers, unchecked
from agenthooks.errors import UserError
from agenthooks.files import is_ours
from agenthooks.upgrade.steps import MARKER, NEW_SUFFIX, resolve_hint

HOOK_REF = re.compile(r"\.agent/hooks/([A-Za-z0-9_.-]+\.sh)")


@dataclass(frozen=True)
class Check:
    name: str
    status: str  # ok | warn | fail
    message: str


def fix_missing(root: Path, missing: list[str], files: dict[str, Any]) -> str:
    """The install command that brings the missing paths back: install keeps a file it
    recorded deleted (the user's choice) unless --restore names it, or a hook still there
    sources it. A missing folder stands for the recorded files under it."""
    restore = sorted({rel for rel in files for m in missing
                      if (rel == m or rel.startswith(m.rstrip("/") + "/"))
                      and not (root / rel).exists()})
    return "agenthooks install" + "".join(f" --restore {rel}" for rel in restore)


STALE_RECORD = ("{rel} is recorded as edited by you, but it is exactly what agenthooks renders "
                "(a stale record: two installs at once?): run agenthooks install to record it")


def _hooks(root: Path, files: dict[str, Any],
           renders: dict[str, str] | None = None) -> list[Check]:
    out = []
    for hook in render.HOOKS:
        rel = f".agent/hooks/{hook}.sh"
        path = root / rel
        rec = files.get(rel)
        name = f"hook {hook}.sh"
        if not path.is_file():
            deleted = " (deleted)" if rec is not None else ""
            out.append(Check(name, "fail", f"{rel} is missing{deleted}: run "
                             + fix_missing(root, [rel], files)))
            continue
        data = path.read_bytes()
        if not os.access(path, os.X_OK):
            out.append(Check(name, "fail", f"{rel} is not executable: chmod +x {rel}"))
            continue
        if MARKER in data:
            out.append(Check(name, "fail", f"{rel} has unresolved conflict markers: resolve them"))
            continue
        side = path.with_name(path.name + NEW_SUFFIX)
        if side.exists():
            out.append(Check(name, "fail", f"an upgrade conflict waits in {rel}{NEW_SUFFIX} "
                             f"(your {hook}.sh still runs): "
                             + resolve_hint(rel, rel + NEW_SUFFIX)))
            continue
        if not is_ours(data):
            out.append(Check(name, "fail", f"{rel} is not an agenthooks hook"))
            continue
        if rec is None:
            out.append(Check(name, "warn", f"{rel} is not in the manifest: run agenthooks install"))
        elif manifest.is_pristine(data, rec):
            out.append(Check(name, "ok", "present, executable, pristine"))
        elif renders is not None and manifest.lf(data) == renders.get(rel, "").encode("utf-8"):
            out.append(Check(name, "fail", STALE_RECORD.format(rel=rel)))
        else:
            out.append(Check(name, "ok", "present, executable, edited by you (upgrades merge "
                             "into it)"))
    return out


def _syntax(root: Path) -> list[Check]:
    """bash -n on every script under .agent/hooks/: a hook that does not parse fails each
    run (exit 2 blocks the prompt in Claude Code) while looking present and pristine."""
    count, bad = syntax.problems(root)
    if bad:
        return [Check(f"syntax {rel}", "fail", why) for rel, why in bad]
    if count:
        return [Check("syntax", "ok", f"bash parses all {count} script(s) in .agent/hooks/")]
    return []


def _pending(root: Path, files: dict[str, Any]) -> list[Check]:
    """Upgrade conflicts waiting in files other than the hooks (checked above)."""
    hooks = {f".agent/hooks/{hook}.sh" for hook in render.HOOKS}
    out = []
    for rel in sorted(set(files) - hooks):
        path = root / rel
        side = rel + NEW_SUFFIX
        if (root / side).exists():
            out.append(Check(f"file {rel}", "fail", f"an upgrade conflict waits in {side}: "
                             + resolve_hint(rel, side)))
        elif path.is_file() and MARKER in path.read_bytes():
            out.append(Check(f"file {rel}", "fail", "has unresolved conflict markers: resolve "
                             "them, then git add it"))
    return out


def _manifest(root: Path, data: dict[str, Any]) -> list[Check]:
    problems = []
    files = data.get("files", {})
    for rel, rec in sorted(files.items()):
        if not isinstance(rec, dict) or not {"sha256", "blob", "template"} <= set(rec):
            problems.append(f"{rel}: incomplete record")
            continue
        if rel.startswith("/") or ".." in Path(rel).parts:
            problems.append(f"{rel}: path outside the repo")
    try:
        answers = data.get("answers", {})
        for key in ("frameworks", "platforms"):
            if key in answers:
                from agenthooks import answers as answers_mod

                answers_mod.check(key, answers[key])
    except UserError as exc:
        problems.append(f"answers: {exc}")
    if problems:
        return [Check("manifest", "fail", "; ".join(problems) + ": run agenthooks install")]
    return [Check("manifest", "ok", f"{len(files)} file(s) recorded")]


def _outdated(data: dict[str, Any], root: Path) -> list[Check]:
    old = []
    for rel, rec in sorted(data.get("files", {}).items()):
        if not isinstance(rec, dict) or manifest.kind(rec) == "config":
            continue  # config.yaml is judged by its version: line below
        if rec.get("pending") and (root / (rel + NEW_SUFFIX)).exists():
            continue  # a waiting conflict, reported on its own line
        current = render.TEMPLATE_REVS.get(str(rec.get("template", "")))
        if current is not None and isinstance(rec.get("rev"), int) and rec["rev"] < current:
            old.append(rel)
    cfg = root / ".agent/config.yaml"
    if cfg.is_file():
        try:
            config.check(cfg)  # not YAML: the config.yaml line names the error
            if config.version_of(cfg.read_text(encoding="utf-8")) < config.CONFIG_VERSION:
                old.append(".agent/config.yaml")
        except (UserError, OSError, UnicodeDecodeError):
            pass
    if old:
        by = str(data.get("agenthooks", "") or "an earlier agenthooks")
        by = f"agenthooks {by}" if by[:1].isdigit() else by
        when = (f"installed by an earlier build of agenthooks {__version__}"
                if by == f"agenthooks {__version__}" else f"installed by {by}")
        return [Check("templates", "fail", f"installed templates are older than this "
                      f"agenthooks {__version__}'s ({when}; {', '.join(sorted(set(old)))}): "
                      "run agenthooks install to upgrade")]
    return [Check("templates", "ok", f"current for agenthooks {__version__}")]


def _registrations(root: Path, answers: Answers, files: dict[str, Any]) -> list[Check]:
    out = []
    for name in answers.get("frameworks", []):
        mod = frameworks.get(name)
        if mod is None:
            continue
        try:
            planned = mod.plan(root, answers)
        except UserError as exc:
            out.append(Check(f"framework {name}", "fail", str(exc)))
            continue
        except Exception as exc:  # noqa: BLE001 - another module: report, never crash
            out.append(Check(f"framework {name}", "fail", f"cannot check: {exc}"))
            continue
        problems, gone = [], []
        for pf in planned:
            path = root / pf.path
            if not path.is_file():
                problems.append(f"{pf.path} is missing")
                gone.append(pf.path)
                continue
            text = path.read_bytes().decode("utf-8", errors="replace")  # CRLF kept
            if text != pf.text:
                problems.append(f"{pf.path} lacks our current entries")
            for hook in sorted(set(HOOK_REF.findall(text))):
                if not (root / ".agent/hooks" / hook).is_file():
                    problems.append(f"{pf.path} points at .agent/hooks/{hook}, which is missing")
                    gone.append(f".agent/hooks/{hook}")
        if problems:
            out.append(Check(f"framework {name}", "fail",
                             "; ".join(problems) + ": run " + fix_missing(root, gone, files)))
        elif planned:
            out.append(Check(f"framework {name}", "ok",
                             f"registered in {', '.join(pf.path for pf in planned)}"))
        else:
            out.append(Check(f"framework {name}", "ok", "nothing to register (see install's next steps)"))
    return out


def renders(data: dict[str, Any], root: Path) -> dict[str, str] | None:
    """What install would write under .agent/hooks/ now, when the installed hooks are this
    release's (else None: the templates check says what to do)."""
    answers = unchecked(data.get("answers", {}))
    files = data.get("files", {})
    try:
        planned = {pf.path: pf for pf in render.plan(answers) if pf.path.startswith(".agent/hooks/")}
    except Exception:  # noqa: BLE001 - answers that no longer render: other checks say so
        return None
    for rel, pf in planned.items():
        rec = files.get(rel)
        if isinstance(rec, dict) and rec.get("rev") != render.TEMPLATE_REVS.get(pf.template):
            return None
    return {rel: pf.text for rel, pf in planned.items()}


def _served(root: Path, data: dict[str, Any], now: dict[str, str] | None) -> list[Check]:
    """The hooks on disk serve every framework the answers register: for each one, the
    lines its render adds (its envelope, its transcript reader, ...) are there. A run that
    rendered for another set (two installs at once, an .agenthooks-new moved into place)
    leaves a framework registered against hooks that do not speak its envelope."""
    answers = unchecked(data.get("answers", {}))
    selected = [f for f in answers.get("frameworks", []) if f in frameworks.NAMES]
    if now is None or not selected:
        return []
    disk = {}
    for rel in now:
        path = root / rel
        if not path.is_file() or path.is_symlink():
            continue
        text = path.read_bytes().decode("utf-8", "replace").replace("\r\n", "\n")
        template = rel.removeprefix(".agent/")
        # Only this release's renders: a hook the user kept from an earlier release (a
        # resolved conflict) serves its hosts its own way.
        if f"template={template}@{render.TEMPLATE_REVS.get(template)}\n" in text:
            disk[rel] = set(text.split("\n"))
    missing: dict[str, list[str]] = {}
    for name in selected:
        others = [f for f in selected if f != name] or [frameworks.DEFAULT]
        try:
            without = {pf.path: pf.text for pf in render.plan(unchecked({**answers, "frameworks": others}))}
        except Exception:  # noqa: BLE001
            continue
        for rel, text in now.items():
            need = set(text.split("\n")) - set(without.get(rel, "").split("\n"))
            if rel in disk and need - disk[rel]:
                missing.setdefault(name, []).append(rel)
    out = []
    for name, rels in missing.items():
        files = sorted(rels)
        out.append(Check(
            f"hooks for {name}", "fail",
            f"{name} is registered, but {', '.join(files)} {'was' if len(files) == 1 else 'were'} "
            "rendered without it (its envelope is missing): render "
            f"{'it' if len(files) == 1 else 'them'} again (edits of yours in "
            f"{'it' if len(files) == 1 else 'them'} are lost): rm {' '.join(files)} && "
            "agenthooks install" + "".join(f" --restore {f}" for f in files)))
    return out


def _stale_records(root: Path, data: dict[str, Any], now: dict[str, str] | None) -> list[Check]:
    """Library files recorded as edited by the user that are byte for byte the render
    (the hooks themselves are checked in _hooks)."""
    if now is None:
        return []
    out = []
    hooks = {f".agent/hooks/{hook}.sh" for hook in render.HOOKS}
    for rel, text in sorted(now.items()):
        rec = data.get("files", {}).get(rel)
        path = root / rel
        if rel in hooks or not isinstance(rec, dict) or not path.is_file():
            continue
        cur = path.read_bytes()
        if not manifest.is_pristine(cur, rec) and manifest.lf(cur) == text.encode("utf-8"):
            out.append(Check(f"file {rel}", "fail", STALE_RECORD.format(rel=rel)))
    return out


def _committed(root: Path, files: dict[str, Any], local: bool = False) -> list[Check]:
    """Every file teammates need, against git's ignore rules (committed.py); an install kept
    out of git on purpose (install --local) has nothing to commit."""
    from agenthooks import committed, gitstore

    if gitstore.git_prefix(root) is None:
        return []
    if local:
        return [Check("committed", "ok", "install --local: kept out of git in this checkout on purpose")]
    lost = committed.ignored(root, committed.needed(root, files))
    if lost:
        return [Check("committed", "fail", "; ".join(f.say() for f in lost)
                      + f": git add skips {'it' if len(lost) == 1 else 'them'}, so teammates "
                      f"would not get {'it' if len(lost) == 1 else 'them'}: {committed.fix(lost)}")]
    return [Check("committed", "ok", "no file teammates need is ignored by git")]


def _unselected(root: Path, answers: Answers) -> list[Check]:
    """Our entries in the settings of a framework the hooks were not rendered for: they call
    hooks that do not speak its envelope. Every framework's files are scanned."""
    selected = list(answers.get("frameworks", []))
    out = []
    for name in frameworks.NAMES:
        mod = frameworks.get(name) if name not in selected else None
        if mod is None:
            continue
        try:
            found = [rel for rel, _ in mod.unregister(root)]
        except Exception as exc:  # noqa: BLE001 - another module: report, never crash
            out.append(Check(f"framework {name}", "warn", f"cannot check: {exc}"))
            continue
        if found:
            out.append(Check(f"framework {name}", "fail",
                             f"{', '.join(found)} still call(s) our hooks, which are rendered "
                             f"without {name} (frameworks: {', '.join(selected) or 'none'}): "
                             f"run agenthooks install to take them out, or add "
                             f"--framework {name} to keep it"))
    return out


def _neighbours(root: Path, answers: Answers) -> list[Check]:
    """A host that keeps only the last additionalContext of several session-start hooks
    (Copilot CLI: github/copilot-cli #3589) and runs another one beside ours: memory, or the
    other hook's context, may be dropped. Each such framework module names them
    (`start_neighbours`)."""
    out = []
    for fw in frameworks.REGISTRY:
        if fw.name not in answers.get("frameworks", []):
            continue
        found = [f"{rel} ({command[:60]})" for rel, command in fw.start_neighbours(root)]
        if found:
            out.append(Check(f"{fw.name} neighbours", "warn",
                             f"{fw.name} also runs the session- or subagent-start hook(s) of "
                             f"{'; '.join(found)}, and keeps only the last one's additionalContext: memory "
                             "or theirs may be dropped at a (subagent's) start. Keep one such hook that adds "
                             "context, or check what the agent gets with agenthooks show"))
    return out


def _config(root: Path, answers: Answers) -> list[Check]:
    """Parse config.yaml as YAML, and with the hooks' own bash reader."""
    cfg = root / ".agent/config.yaml"
    if not cfg.is_file():
        return [Check("config.yaml", "warn", "missing: the hooks use their defaults")]
    try:
        config.check(cfg)
    except UserError as exc:
        return [Check("config.yaml", "fail", str(exc))]
    bash = shutil.which("bash")
    if bash is None:
        return []
    hooks = root / ".agent/hooks"
    if (hooks / "pre_task.sh").is_file():
        scripts = {p.relative_to(hooks).as_posix(): p.read_bytes() for p in hooks.rglob("*")
                   if p.is_file() and not p.is_symlink()}
    else:
        try:
            scripts = {pf.path.removeprefix(".agent/hooks/"): pf.text.encode()
                       for pf in render.plan(answers) if pf.path.startswith(".agent/hooks/")}
        except Exception:  # noqa: BLE001 - no answers to render with: YAML check only
            return [Check("config.yaml", "ok", "valid YAML")]
    # Run the real reader on a copy, so the check writes nothing in the repo.
    with tempfile.TemporaryDirectory() as tmp:
        agent = Path(tmp) / ".agent"
        (agent / "hooks").mkdir(parents=True)
        (agent / "log").mkdir()
        (agent / "memory").mkdir()
        for rel, data in scripts.items():  # the hooks and their library
            (agent / "hooks" / rel).parent.mkdir(parents=True, exist_ok=True)
            (agent / "hooks" / rel).write_bytes(data)
        shutil.copyfile(cfg, agent / "config.yaml")
        try:
            proc = hookrun.run([bash, str(agent / "hooks/pre_task.sh"), "--show"],
                               stdin=subprocess.DEVNULL, capture_output=True, text=True,
                               timeout=30, cwd=tmp)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return [Check("config.yaml", "fail", f"the hooks' reader did not run: {exc}")]
        log = (agent / "log/memory.log")
        said = proc.stderr + (log.read_text(encoding="utf-8", errors="replace")
                              if log.is_file() else "")
    bad = [line for line in said.splitlines() if "config.yaml:" in line]
    if bad:
        msg = bad[0].split("config.yaml:", 1)[1].strip()
        return [Check("config.yaml", "fail", f"the hooks cannot read it: {msg}")]
    return [Check("config.yaml", "ok", "valid YAML, read cleanly by the hooks")]


def _messages(root: Path, answers: Answers) -> list[Check]:
    """.agent/messages.yaml: texts the hooks can say, and the ones the hooks were rendered
    with (install renders them in)."""
    path = root / usermessages.PATH
    if not path.exists() and not path.is_symlink() and not answers.get("messages"):
        return []
    lang = str(answers.get("lang")) if answers.get("lang") in messages.LANGS else "en"
    try:
        own = usermessages.read(root, lang)
    except UserError as exc:
        return [Check("messages.yaml", "fail", str(exc))]
    if own != (answers.get("messages") or {}):
        return [Check("messages.yaml", "warn", "changed since the hooks were rendered: the agent "
                      "still gets the earlier words until you run agenthooks install")]
    return [Check("messages.yaml", "ok", f"{len(own)} text(s) in the repo's own words, rendered into the hooks")]


def _enabled(root: Path) -> list[Check]:
    """A warning, not a failure: turning the hooks off is a choice, but a silent one."""
    from agenthooks.memory import parse

    if config.read(root / ".agent/config.yaml").get("enabled") is False:
        return [Check("enabled", "warn", parse.DISABLED)]
    return []


def _outside(root: Path) -> list[Check]:
    """Memory the hooks do not read: a memory file (or memory/, or .agent/) that resolves
    outside the repository through a symbolic link."""
    out: list[Check] = []
    try:
        top = root.resolve()
    except OSError:
        return out
    from agenthooks.memory import boards

    for name in ("tattoo", "snapshot", "notes"):
        path = root / ".agent" / "memory" / f"{name}.md"
        if name == "snapshot":
            path = boards.path(root / ".agent", root)
            name = path.relative_to(root / ".agent" / "memory").as_posix()[:-3]
        try:
            real = path.resolve()
        except OSError:
            continue
        if path.is_symlink() or path.parent.is_symlink() or path.parent.parent.is_symlink():
            if top != real and top not in real.parents:
                out.append(Check(f"memory {name}.md", "warn",
                                 f"resolves outside the repository ({real}), through a symbolic "
                                 "link: the hooks do not read it"))
    return out


def _lint(root: Path) -> list[Check]:
    """The memory lint (agenthooks.memory.lint), when that module is installed."""
    try:
        import importlib

        lint = importlib.import_module("agenthooks.memory.lint")
        parse = importlib.import_module("agenthooks.memory.parse")
        fn = getattr(lint, "lint")
        repo = parse.find_repo(root)
    except (ImportError, AttributeError, UserError):
        return []
    try:
        items = list(fn(repo))
    except Exception as exc:  # noqa: BLE001 - another module: report, never crash
        return [Check("memory lint", "warn", f"could not run: {type(exc).__name__}: {exc}")]
    errors = [i for i in items if str(getattr(i, "level", "")).lower() == "error"]
    if errors:
        return [Check("memory lint", "fail", f"{len(errors)} error(s), first: {errors[0]}: "
                      "run agenthooks lint")]
    if items:
        return [Check("memory lint", "warn", f"{len(items)} warning(s): run agenthooks lint")]
    return [Check("memory lint", "ok", "clean")]


def _sessions(root: Path) -> list[Check]:
    """Memory health from memory.log: the last session compacted past the recommendation,
    a host announcement of a compaction that no reload followed."""
    from agenthooks import health

    found = health.from_log(health.read_log(root / ".agent"))
    if not found:
        return []
    out = []
    last, limit = found[0], health.fresh_after(root / ".agent")
    if health.recommends_fresh(last, limit):
        out.append(Check("sessions", "warn", f"the last session ({last.session_id}) was compacted "
                         f"{last.compactions}x (fresh_after_compactions: {limit}): start a "
                         "fresh session; memory carries over"))
    for s in found:
        if s.announced_unreloaded:
            out.append(Check("sessions", "warn", f"memory.log: the host announced a compaction at "
                             f"{s.announced_unreloaded} (session {s.session_id}) and no reload "
                             "followed: run agenthooks verify"))
    return out or [Check("sessions", "ok", f"{len(found)} session(s) in memory.log; every "
                         "announced compaction was followed by a reload")]


def _everywhere(root: Path, answers: Answers | None) -> list[Check]:
    """What runs our hooks beyond the repo's own settings (the Claude Code plugin, a
    user-level install), per host, and whether memory then comes once: the dispatcher steps
    aside where the repo's registration is loaded, so only a user's settings that run a
    repo's hooks directly inject twice. answers None: a repo without .agent/."""
    from agenthooks import dispatch, userinstall

    out = []
    for fw, user in userinstall.hosts():
        via_user, direct = userinstall.registered(user)
        plugin = fw.plugin_enabled(root)
        if not (via_user or plugin or direct):
            continue
        name = f"{fw.name} beyond the repo"
        routes = [r for r, on in (("the agenthooks plugin", plugin),
                                  (f"your user-level install ({user.settings()})", via_user)) if on]
        what = " and ".join(routes) or f"your user settings ({user.settings()})"
        if via_user:
            script = userinstall.script()
            found = dispatch.release(script.read_bytes()) if script.is_file() else None
            if found is None:
                out.append(Check(name, "fail", f"{user.settings()} runs {script}, which is "
                                 "missing: run agenthooks install --user"))
            elif found != __version__:
                out.append(Check(name, "warn", f"{script} is from agenthooks {found}: run "
                                 "agenthooks install --user to bring it to " + __version__))
        if answers is None:
            out.append(Check(name, "ok", f"{what} run(s) the hooks of any repo with .agent/, "
                             "and stay(s) silent here until it has one"))
            continue
        registered = [rel for rel, _ in fw.unregister(root)]
        if direct and (registered or routes):
            twice = registered[0] if registered else routes[0]
            out.append(Check(name, "fail", f"{user.settings()} runs a repo's .agent/hooks/ "
                             f"directly, and {twice} runs them too: memory is injected twice. "
                             f"Take those entries out of {user.settings()} (agenthooks "
                             "install --user runs the hooks of every repo, once)"))
            continue
        if registered:
            out.append(Check(name, "ok", f"{what} step(s) aside where {', '.join(registered)} "
                             "is loaded, so memory comes once (a session started in a subfolder, "
                             "which loads no project hooks, gets it from them)"))
        else:
            out.append(Check(name, "ok", f"memory comes from {what}; nothing in the repo "
                             "registers the hooks"))
        if fw.name not in answers.get("frameworks", []):
            out.append(Check(name, "warn", f"the hooks are rendered without {fw.name}: its "
                             "sessions get the block as plain text, and no reminder after an "
                             f"edit reaches the model: agenthooks install --add {fw.name}"))
    return out


def _board(root: Path) -> list[Check]:
    """Which file the board is (config.yaml's board: and the branch), and whether git keeps
    it as the model says: local boards out of git, the others in it."""
    from agenthooks import committed, gitstore
    from agenthooks.memory import boards

    agent = root / ".agent"
    model, path = boards.model(agent), boards.path(agent, root)
    rel = path.relative_to(root).as_posix()
    state = "" if path.is_file() else ", not started yet (normal for a new branch)"
    where = {"local": "kept out of git", "branch": "committed", "shared": "committed, one for every branch"}
    in_git = gitstore.git_prefix(root) is not None
    out = [Check("board", "ok", f"{model}: {rel}{state}" + (f" ({where[model]})" if in_git else ""))]
    if not in_git or not path.is_file():
        return out
    ignored = bool(committed.ignored(root, [rel]))
    if model == "local" and gitstore.tracked(root, rel):
        out.append(Check("board", "warn", f"{rel} is tracked by git, though board: local keeps it "
                         f"out: git rm --cached {rel} (the file stays)"))
    elif model == "local" and not ignored:
        out.append(Check("board", "warn", f"{rel} is not ignored by git (.agent/.gitignore lacks "
                         "/memory/boards/?): a commit would carry this branch's board; run "
                         "agenthooks install"))
    elif model != "local" and ignored:
        out.append(Check("board", "warn", f"{rel} is ignored by git, though board: {model} commits "
                         f"it: git add -f {rel}"))
    return out


def _start_folder(root: Path, answers: Answers) -> list[Check]:
    """Where each host must start to run the repo's hooks (a host started in a subfolder may
    load no project hooks), unless the plugin or a user-level install runs them anywhere."""
    from agenthooks import userinstall

    out = []
    for name in answers.get("frameworks", []):
        fw = frameworks.get(name)
        if fw is None or not fw.subfolder_hint:
            continue
        anywhere = fw.plugin_enabled(root)
        if fw.user is not None:
            anywhere = anywhere or userinstall.registered(fw.user)[0]
        if not anywhere:
            out.append(Check(f"{name} start folder", "ok", f"start it in {root}: {fw.subfolder_hint}"))
    return out


def checks(root: Path) -> list[Check]:
    agent = root / ".agent"
    if not agent.is_dir():
        return [Check("layout", "fail", f"no .agent/ in {root}: no memory here yet. To add it, "
                      "run agenthooks install (its files committed, for everyone who clones "
                      "the repo) or agenthooks install --local (this checkout only, nothing "
                      "committed)")] + _everywhere(root, None)
    out = []
    try:
        data = manifest.load(root)
    except UserError as exc:
        data = {"answers": {}, "files": {}}
        out.append(Check("manifest", "fail", f"{exc}: run agenthooks install"))
    missing = [p for p in (".agent/hooks", ".agent/memory", ".agent/config.yaml",
                           manifest.PATH) if not (root / p).exists()]
    out.insert(0, Check("layout", "fail" if missing else "ok",
                        f"missing {', '.join(missing)}: run "
                        + fix_missing(root, missing, data.get("files", {})) if missing
                        else "complete"))
    if (root / manifest.PATH).is_file() and not any(c.name == "manifest" for c in out):
        out += _manifest(root, data)
    out.append(Check("bash", "ok" if shutil.which("bash") else "fail",
                     shutil.which("bash") or "bash is not on PATH: the hooks cannot run"))
    now = renders(data, root)
    out += _hooks(root, data.get("files", {}), now)
    out += _syntax(root)
    out += _pending(root, data.get("files", {}))
    out += _stale_records(root, data, now)
    out += _outdated(data, root)
    answers = unchecked(data.get("answers", {}))
    if answers.get("frameworks"):
        out += _registrations(root, answers, data.get("files", {}))
        out += _served(root, data, now)
    if "frameworks" in answers:
        out += _unselected(root, answers)
    out += _neighbours(root, answers)
    out += _committed(root, data.get("files", {}), bool(answers.get("local")))
    out += _config(root, answers)
    out += _messages(root, answers)
    out += _enabled(root)
    out += _outside(root)
    out += _board(root)
    out += _start_folder(root, answers)
    out += _lint(root)
    out += _sessions(root)
    out += _everywhere(root, answers)
    return out


def run(root: Path, *, as_json: bool, echo: Callable[[str], None]) -> int:
    found = checks(root)
    healthy = all(c.status != "fail" for c in found)
    if as_json:
        echo(json.dumps({"root": str(root), "healthy": healthy,
                         "checks": [asdict(c) for c in found]}, indent=2, ensure_ascii=False))
    else:
        for c in found:
            echo(f"  {c.status:<4}  {c.name}: {c.message}")
        echo("healthy" if healthy else "not healthy: fix the fail lines above")
    return 0 if healthy else 1
