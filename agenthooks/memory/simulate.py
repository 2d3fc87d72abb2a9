"""agenthooks simulate: a compaction drill (R21) on a throwaway copy of .agent/.

The real hooks run in a temp folder in the order a host would run them: session start,
edits with a stale snapshot, prompts while the context grows, a compaction announced by
the host, a context length drop, a new session after a compaction. The drill checks
that memory came back each time, shows what was re-injected and the log lines."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from agenthooks import frameworks, hookrun, manifest, usermessages
from agenthooks.errors import UserError
from agenthooks.memory import boards, parse
from agenthooks.render import HOOKS

SID = "agenthooks-drill"
# What the drill's prompts say: the latest request the block after a compaction names.
PROMPT = "continue the drill"
BEGIN = "===== AGENT MEMORY BEGIN ====="
END = "===== AGENT MEMORY END ====="


# The envelopes the drill speaks: a framework's event names, where the name differs from
# Claude Code's, and whether its hooks answer in JSON (hookSpecificOutput.additionalContext).
# Any other installed framework is drilled with the generic envelope, and the drill says so.
ENVELOPES: dict[str, tuple[dict[str, str], bool]] = {frameworks.DEFAULT: ({}, False)}
ENVELOPES.update({fw.name: (dict(fw.drill.events), fw.drill.json)
                  for fw in frameworks.REGISTRY if fw.drill is not None})
# The log words of a reload the compaction event caused, and the edit tool's name, where a
# framework's differ from Claude Code's.
ANNOUNCED = {fw.name: fw.drill.announced for fw in frameworks.REGISTRY
             if fw.drill is not None and fw.drill.announced is not None}
TOOL_NAMES = {fw.name: fw.drill.tool for fw in frameworks.REGISTRY
              if fw.drill is not None and fw.drill.tool is not None}


def envelope(installed: list[str]) -> tuple[str, str]:
    """The framework to drill (the first installed one the drill speaks) and a note."""
    for name in installed:
        if name in ENVELOPES:
            return name, ""
    if installed:
        return frameworks.DEFAULT, (f"{', '.join(installed)}: an envelope the drill does not "
                                    f"speak; drilled with the {frameworks.DEFAULT} envelope")
    return frameworks.DEFAULT, ""


def context_of(framework: str, stdout: str) -> str:
    """The text the host hands the model, from a hook's stdout in the framework's form."""
    if not ENVELOPES[framework][1] or not stdout.strip():
        return stdout
    try:
        data = json.loads(stdout)
        text = data["hookSpecificOutput"]["additionalContext"]
    except (ValueError, KeyError, TypeError):
        return ""  # not the form the host reads: the host gives the model nothing
    return text if isinstance(text, str) else ""


@dataclass
class Result:
    name: str
    ok: bool
    detail: str


def _recorded_messages(root: Path) -> Any:
    try:
        return manifest.load(root).get("answers", {}).get("messages")
    except UserError:
        return None


class Drill:
    def __init__(self, root: Path, lang: str, cfg: dict[str, Any],
                 framework: str = frameworks.DEFAULT) -> None:
        self.root = root
        self.framework = framework
        self.agent = root / ".agent"
        # The words the installed hooks were rendered with (.agent/messages.yaml, as recorded).
        self.msg = usermessages.apply(lang, _recorded_messages(root))
        self.cfg = cfg
        self.results: list[Result] = []
        self.log_seen = 0
        env = {k: v for k, v in os.environ.items()
               if k not in ("AGENT_CONTEXT_LEN", "AGENTHOOKS_FRAMEWORK", "CLAUDECODE")}
        self.env = env

    def hook(self, name: str, payload: dict[str, Any], length: int | None = None) -> tuple[int, str]:
        env = dict(self.env)
        if length is not None:
            env["AGENT_CONTEXT_LEN"] = str(length)
        events, _json = ENVELOPES[self.framework]
        payload = dict(payload)
        event = payload.get("hook_event_name", "")
        payload["hook_event_name"] = events.get(event, event)
        if "tool_name" in payload:
            payload["tool_name"] = TOOL_NAMES.get(self.framework, payload["tool_name"])
        try:
            proc = hookrun.run(["bash", str(self.agent / "hooks" / f"{name}.sh"), self.framework],
                               input=json.dumps({"session_id": SID, **payload}),
                               capture_output=True, text=True, cwd=self.root, env=env,
                               timeout=30)
        except subprocess.TimeoutExpired:
            return 124, ""
        return proc.returncode, context_of(self.framework, proc.stdout)

    def new_log(self) -> list[str]:
        path = self.agent / "log" / "memory.log"
        lines = path.read_text("utf-8", "replace").splitlines() if path.is_file() else []
        new, self.log_seen = lines[self.log_seen:], len(lines)
        return new

    def step(self, name: str, ok: bool, detail: str) -> bool:
        self.results.append(Result(name, ok, detail))
        return ok

    def prompt(self, length: int | None, text: str = "") -> tuple[int, str]:
        text = text or PROMPT
        return self.hook("on_compact", {"hook_event_name": "UserPromptSubmit", "prompt": text},
                         length)


def _without(block: str, notice: str, extra: tuple[str, ...] = ()) -> str:
    """BLOCK without the reload NOTICE and the lines that may come with it (EXTRA: their
    start, e.g. the stale-snapshot line when the drill's edits are newer than the snapshot)."""
    return "\n".join(s for s in block.split("\n")
                     if s != notice and not (extra and s.startswith(extra)))


def _section(block: str, title: str) -> list[str]:
    out, inside = [], False
    for s in block.split("\n"):
        if s == title:
            inside = True
            continue
        if inside and (s.startswith("#") or s == "---"):
            break
        if inside:
            out.append(s)
    return out


def _start_and_edits(d: Drill, root: Path, cfg: dict[str, Any]) -> str:
    """Steps 1 and 2: the session start's block (empty when it failed), then the edits."""
    base = ""
    # 1. Session start.
    rc, out = d.hook("pre_task", {"hook_event_name": "SessionStart", "source": "startup"})
    logs = d.new_log()
    inj = d.agent / "injected_context.txt"
    published = inj.is_file() and \
        inj.read_text("utf-8", "replace").rstrip("\n") == out.rstrip("\n")
    if rc == 0 and out.startswith(BEGIN) and END in out and published and \
            any("memory loaded" in s for s in logs):
        base = out
        d.step("start", True, f"pre_task printed the block ({len(out.splitlines())} lines) "
                              "and published injected_context.txt")
    else:
        d.step("start", False, f"pre_task (status {rc}) did not print and publish the block"
                               f"{'' if published else '; injected_context.txt differs'}")
    # 2. Edits with a stale snapshot: one reminder, then quiet.
    snap = boards.path(d.agent, root)
    stale = int(cfg["stale_minutes"])
    if snap.is_file():
        old = time.time() - (stale + 2) * 60
        os.utime(snap, (old, old))
    edit = {"hook_event_name": "PostToolUse", "tool_name": "Edit",
            "tool_input": {"file_path": str(root / "src" / "app.py")}}
    rc1, out1 = d.hook("post_edit", edit)
    rc2, out2 = d.hook("post_edit", edit)
    logs = d.new_log()
    ok = rc1 == rc2 == 0 and snap.name in out1 and not out2.strip() and \
        any("reminded the agent" in s for s in logs)
    d.step("edits", ok, "post_edit reminded the agent once about the stale snapshot"
           if ok else f"post_edit (status {rc1}/{rc2}) did not remind exactly once")
    return base


def drill(root: Path, lang: str, cfg: dict[str, Any],
          framework: str = frameworks.DEFAULT) -> tuple[Drill, str, str]:
    """The session, step by step: (the drill, the start block, the first reloaded block)."""
    d = Drill(root, lang, cfg, framework)
    d.new_log()
    base = _start_and_edits(d, root, cfg)
    _growing_prompts(d)
    signalled = _compaction_signal(d)
    dropped = _length_drop(d)
    reloaded = signalled or dropped  # the first reload compared in step 7
    _resume_after_compaction(d)
    _working_set(d, signalled, int(cfg.get("working_set_files", 8)))
    # 7. What must survive came back: every rule and the In progress items the agent
    # started with. Notes (and older snapshot lines) may give way to the reload notice
    # when memory is near its budget: the block cuts those first, by design.
    if base and reloaded:
        title = _progress_title(root, lang)
        before, after = must_survive(base, d.msg, title), must_survive(reloaded, d.msg, title)
        lost = [s for s in before if s not in after]
        same = _without(reloaded, d.msg["reloaded"],
                        tuple(d.msg[k].split("%")[0] for k in ("stale", "fresh") if k in d.msg)) == base
        rules, prog = (len(_rules(base, d.msg)), len(_section(base, "### " + title)))
        d.step("content", not lost,
               (f"the reloaded block carries the start block's {rules} rule(s) and {prog} "
                f"In progress item(s)" + ("" if same else "; notes or older snapshot lines "
                                          "gave way to the reload notice, as the budget says"))
               if not lost else f"the reloaded block lost {len(lost)} line(s) that must "
               f"survive, first: {lost[0]!r}")
    return d, base, reloaded


def _progress_title(root: Path, lang: str) -> str:
    secs = parse.sections(parse.load_file(boards.path(root / ".agent", root), ""))
    return next((s.title for s in secs if s.key == "progress"),
                parse.SECTION_TITLES[lang]["progress"])


def _rules(block: str, m: dict[str, str]) -> list[str]:
    user = _section(block, "### " + m["user_rules"])
    proj = _section(block, "### " + m["project_rules"]) if user else _section(block, "## " + m["rules"])
    return [s for s in user + proj if s and s != m["no_rules"]]


def must_survive(block: str, m: dict[str, str], progress_title: str) -> list[str]:
    """The lines of a block a compaction must not lose: the rules and In progress."""
    return _rules(block, m) + [s for s in _section(block, "### " + progress_title) if s]


def _growing_prompts(d: Drill) -> None:
    """3. Prompts while the context grows: no reload (a periodic one is allowed)."""
    lens = (40000, 60000, 80000)
    bad = []
    for n in lens:
        rc, _ = d.prompt(n)
        if rc != 0:
            bad.append(f"status {rc}")
    logs = d.new_log()
    false = [s for s in logs if "compaction detected" in s and "periodic" not in s]
    ok = not bad and not false
    d.step("prompts", ok, f"no reload while the context grew {lens[0]} -> {lens[-1]} tokens"
           if ok else "on_compact " + ("failed: " + ", ".join(bad) if bad else
                                       "reloaded without a compaction: " + false[0]))


def _compaction_signal(d: Drill) -> str:
    """4. The host announces a compaction; the next prompt reloads. The block, or ''."""
    rc1, _ = d.hook("on_compact", {"hook_event_name": "PreCompact", "trigger": "auto"})
    rc2, out = d.prompt(200)
    logs = d.new_log()
    said = ANNOUNCED.get(d.framework, "announced")
    ok = rc1 == rc2 == 0 and out.startswith(BEGIN) and d.msg["reloaded"] in out and \
        any(said in s for s in logs) and any("compaction detected" in s for s in logs)
    d.step("compaction signal", ok, "PreCompact flagged it; the next prompt reloaded memory"
           if ok else f"no reload after PreCompact (status {rc1}/{rc2})")
    return out if ok else ""


def _length_drop(d: Drill) -> str:
    """5. A length drop alone. The reloaded block, or ''."""
    d.prompt(40000)
    rc1, _ = d.prompt(80000)
    rc2, out2 = d.prompt(300)
    logs = d.new_log()
    hit = [s for s in logs if "compaction detected" in s]
    ok = rc1 == rc2 == 0 and out2.startswith(BEGIN) and d.msg["reloaded"] in out2 and bool(hit)
    d.step("length drop", ok, "context 80000 -> 300 tokens: memory reloaded"
           if ok else f"no reload after the context dropped 80000 -> 300 (status {rc2})")
    return out2 if ok else ""


def _resume_after_compaction(d: Drill) -> None:
    """6. A new session after the host compacted: pre_task reloads, on_compact not again."""
    rc1, out = d.hook("pre_task", {"hook_event_name": "SessionStart", "source": "compact"})
    rc2, out2 = d.prompt(5000)
    logs = d.new_log()
    ok = rc1 == rc2 == 0 and out.startswith(BEGIN) and d.msg["compacted"] in out and \
        not out2.strip() and any("compaction detected" in s for s in logs)
    d.step("resume after compaction", ok,
           "SessionStart source=compact reloaded memory; the next prompt did not reload twice"
           if ok else f"pre_task after a compaction (status {rc1}/{rc2}) misbehaved")


def _working_set(d: Drill, reloaded: str, limit: int) -> None:
    """6b. The block after the announced compaction names the session's working set: the file
    edited in step 2 and the latest prompt (working_set_files: 0 keeps none)."""
    if not reloaded:
        return  # step 4 failed already
    section = d.msg["working"]
    if limit <= 0:
        ok = section not in reloaded
        d.step("working set", ok, "working_set_files is 0: the block names no working set"
               if ok else "working_set_files is 0, yet the block names a working set")
        return
    ok = section in reloaded and "src/app.py" in reloaded and d.msg["working_request"] % PROMPT in reloaded
    # Near the budget the working set gives way (before the goal and In progress), as it says.
    marks = tuple(d.msg[k].split("%d")[0] for k in ("snapshot_cut", "working_cut"))
    cut = not ok and any(s.startswith(marks) for s in reloaded.split("\n"))
    d.step("working set", ok or cut, "the block after the compaction names the file edited (src/app.py) "
           "and the latest request" if ok else "the block after the compaction had no room for the "
           "working set (it gives way before the goal and In progress)" if cut else "the block after "
           "the compaction does not name the file edited (src/app.py) and the latest request")


def _echo_failed(block: str, secs: list[parse.Section], msg: dict[str, str],
                 echo: Callable[[str], None]) -> None:
    """Tried and failed, when the snapshot has entries: what of it came back."""
    failed = [s for s in secs if s.key == "failed"]
    total = sum(len(s.items) for s in failed)
    if not total:
        return  # optional section: a snapshot without it is not worth a line
    got = _section(block, "### " + failed[0].title)
    marks = tuple(msg[k].split("%d")[0] for k in ("failed_cut", "snapshot_cut"))
    n = sum(not s.startswith(marks) for s in got)  # the cut markers are no entries
    echo(f"  {failed[0].title} ({n} of {total} lines):")
    for s in got or ["(none in the block: the installed hooks do not carry this section,"
                     " or the budget cut it)"]:
        echo(f"    {s}")


def _same_board(repo: parse.Repo, root: Path) -> None:
    """The copy's hooks read the board the repo's read: its HEAD's branch (a .git of one file,
    HEAD) and the board a detached HEAD used last."""
    gd = boards.git_dir(boards.worktree_of(repo.worktree or repo.root) or repo.root)
    head = gd / "HEAD" if gd is not None else None
    if head is None or not head.is_file():
        return
    (root / ".git").mkdir()
    shutil.copyfile(head, root / ".git" / "HEAD")
    last = repo.agent / "log" / "state" / "board.last"
    if last.is_file() and not last.is_symlink():
        (root / ".agent" / "log" / "state").mkdir(parents=True, exist_ok=True)
        shutil.copyfile(last, root / ".agent" / "log" / "state" / "board.last")


def run(dir_: Path | None, echo: Callable[[str], None]) -> int:
    repo = parse.find_repo(dir_)
    # The drill copies .agent/ (links as links) and runs the hooks on the copy.
    parse.guard(repo, parse.MEMORY_FILES, then="the drill was not run",
                dirs=(".agent/hooks", ".agent/hooks/lib"))
    for h in HOOKS:
        if not repo.hook(h).is_file():
            raise UserError(f".agent/hooks/{h}.sh: missing",
                            hint="run 'agenthooks install' to render the hooks")
    if repo.disabled():
        raise UserError(parse.DISABLED, hint="set enabled: true to run the drill")
    cfg = repo.config()
    with tempfile.TemporaryDirectory(prefix="agenthooks-drill-") as td:
        root = Path(td) / "repo"
        root.mkdir()
        shutil.copytree(repo.agent, root / ".agent", symlinks=True,
                        ignore=shutil.ignore_patterns("log", "injected_context.txt",
                                                      ".injected_context.txt.*"))
        (root / ".agent" / "log").mkdir(exist_ok=True)
        _same_board(repo, root)
        echo(f"agenthooks simulate: compaction drill on a throwaway copy of {repo.agent}")
        framework, note = envelope(repo.frameworks)
        echo(f"  envelope: {framework} (its payloads and output form)"
             + (f"; {note}" if note else ""))
        d, base, reloaded = drill(root, repo.lang, cfg, framework)
        for r in d.results:
            echo(f"  {'ok  ' if r.ok else 'FAIL'}  {r.name}: {r.detail}")
        block = reloaded or base
        if block:
            m = d.msg
            rules = _rules(block, m)
            secs = parse.sections(parse.load_file(boards.path(root / ".agent", root), ""))
            titles = {s.key: s.title for s in secs}
            prog = _section(block, "### " + titles.get("progress", parse.SECTION_TITLES[repo.lang]["progress"]))
            echo("re-injected after the compaction:" if reloaded else "injected at start:")
            echo(f"  rules ({len(rules)}):")
            for s in rules or ["(none)"]:
                echo(f"    {s}")
            echo(f"  In progress ({len(prog)}):")
            for s in prog or ["(none: after a compaction the agent could not say where it is;"
                              " fill In progress in the board)"]:
                echo(f"    {s}")
            _echo_failed(block, secs, m, echo)
            kept = _section(block, "## " + m["working"])
            if kept:
                echo(f"  {m['working']}:")
                for s in kept:
                    echo(f"    {s}")
        log = root / ".agent" / "log" / "memory.log"
        echo("log lines of the drill:")
        for s in (log.read_text("utf-8", "replace").splitlines() if log.is_file() else []):
            echo(f"  {s}")
    failed = [r for r in d.results if not r.ok]
    if failed:
        echo(f"drill FAILED: {len(failed)} step(s) failed ({', '.join(r.name for r in failed)}); "
             "the real .agent/ was not touched")
        return 1
    echo("drill passed: memory survives compaction; the real .agent/ was not touched")
    return 0
