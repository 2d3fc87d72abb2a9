"""agenthooks show: the block the agent would get now, printed by the real pre_task hook
(`pre_task.sh --show`, which writes nothing), with its size per section; or, with --json,
the memory as structure for programs."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable, Collection

from agenthooks import frameworks, hookrun, messages, redact
from agenthooks.errors import UserError, unknown
from agenthooks.memory import parse, working

BEGIN = "===== AGENT MEMORY BEGIN ====="
END = "===== AGENT MEMORY END ====="


def run_pre_task(repo: parse.Repo, *args: str, timeout: float = 60) -> bytes:
    """stdout of `bash .agent/hooks/pre_task.sh ARGS </dev/null`, or a UserError."""
    hook = repo.hook("pre_task")
    if not hook.is_file():
        raise UserError(f"{hook.relative_to(repo.root)}: missing",
                        hint="run 'agenthooks install' to render the hooks")
    try:
        proc = hookrun.run(["bash", str(hook), *args], stdin=subprocess.DEVNULL,
                           capture_output=True, cwd=repo.worktree or repo.root, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise UserError(f"pre_task.sh {' '.join(args)} did not finish in {timeout:.0f}s") from None
    except OSError as exc:
        raise UserError(f"cannot run bash: {exc.strerror or exc}") from None
    if proc.returncode != 0:
        first = proc.stderr.decode("utf-8", "replace").strip().splitlines()[:1]
        raise UserError(f"pre_task.sh {' '.join(args)} failed (status {proc.returncode})"
                        + (f": {first[0]}" if first else ""))
    if proc.stderr:
        sys.stderr.write(proc.stderr.decode("utf-8", "replace"))
    out: bytes = proc.stdout
    return out


def _headings() -> list[tuple[str, re.Pattern[str]]]:
    out = []
    for lang in messages.LANGS:
        m = messages.MESSAGES[lang]
        out.append(("rules", re.compile(re.escape("## " + m["rules"]) + "$")))
        out.append(("snapshot", re.compile(re.escape("## " + m["snapshot"]) + "$")))
        notes = re.escape("## " + m["notes"]).replace("%d", r"\d+")
        out.append(("notes", re.compile(notes + "$")))
    return out


def block_sections(block: str) -> list[dict[str, Any]]:
    """Split a plain block into header, rules, snapshot, notes, footer with the hooks'
    size estimate for each."""
    lines = block.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    heads = _headings()
    try:
        foot = len(lines) - 1 - lines[::-1].index("---")
    except ValueError:
        foot = len(lines)
    names: list[tuple[str, str]] = [("header", "header")]
    per: list[list[str]] = [[]]
    for i, line in enumerate(lines):
        if i == foot:
            names.append(("footer", "footer"))
            per.append([])
        elif i < foot:
            for key, rx in heads:
                if rx.match(line):
                    names.append((key, line[3:]))
                    per.append([])
                    break
        per[-1].append(line)
    out = []
    for (key, title), body in zip(names, per):
        out.append({"section": key, "title": title, "lines": len(body),
                    "chars": sum(parse.chars(s) for s in body),
                    "tokens": sum(parse.tokens(s) for s in body)})
    return out


def cells(text: str) -> int:
    """Terminal columns: CJK and other wide characters take two."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else
               0 if unicodedata.combining(c) else 1 for c in text)


def _fit(text: str, width: int) -> str:
    """Cut to `width` columns (with ...), then pad to it."""
    if cells(text) > width:
        while cells(text) > width - 3:
            text = text[:-1]
        text += "..."
    return text + " " * (width - cells(text))


def stats_table(secs: list[dict[str, Any]], budget: int) -> list[str]:
    width = min(max([cells(s["title"]) for s in secs] + [len("total")]), 60)
    rows = [f"{_fit('section', width)}  {'lines':>5}  {'chars':>6}  {'~tokens':>7}"]
    for s in secs:
        rows.append(f"{_fit(s['title'], width)}  {s['lines']:>5}  {s['chars']:>6}  {s['tokens']:>7}")
    tl = sum(s["lines"] for s in secs)
    tc = sum(s["chars"] for s in secs)
    tt = sum(s["tokens"] for s in secs)
    pct = tt * 100 // budget if budget else 0
    rows.append(f"{_fit('total', width)}  {tl:>5}  {tc:>6}  {tt:>7}  of budget {budget} ({pct}%)")
    if tt > budget:
        rows.append("over the budget: the hooks cut notes, then snapshot lines, and rules last, with a warning")
    return rows


def _item(ln: parse.Line, label: str, lang: str, keys: Collection[int] = ()) -> dict[str, Any]:
    if ln.no in keys or redact.find_secrets(ln.text):
        text = messages.MESSAGES[lang]["redacted"].replace("%s", f"{label}:{ln.no}")
        return {"line": ln.no, "text": text, "redacted": True}
    return {"line": ln.no, "text": ln.text.strip()}


def structure(repo: parse.Repo, block: str | None) -> dict[str, Any]:
    """The memory as data (R29). Secret-looking lines are redacted here too."""
    tat = repo.file("tattoo")
    snap = repo.file("snapshot")
    notes = repo.file("notes")
    user = repo.user_tattoo()
    cfg = repo.config()
    lang = repo.lang
    return {
        "root": str(repo.root),
        "lang": lang,
        "budget_tokens": cfg["budget_tokens"],
        "notes_count": cfg["notes_count"],
        "rules": {
            "user": [_item(ln, user.label, lang, redact.key_lines(user.raw))
                     for ln in parse.rules(user)] if user else [],
            "project": [_item(ln, tat.label, lang, redact.key_lines(tat.raw)) for ln in parse.rules(tat)],
        },
        "snapshot": {
            "exists": snap.exists,
            "path": snap.label,
            "board": cfg["board"],
            "sections": [
                {"key": s.key, "title": s.title, "line": s.line,
                 "items": [_item(ln, snap.label, lang, redact.key_lines(snap.raw)) for ln in s.items]}
                for s in parse.sections(snap)
            ],
        },
        "notes": [_item(ln, notes.label, lang, redact.key_lines(notes.raw)) for ln in parse.notes(notes)],
        "archive": [
            {"path": str(p.relative_to(repo.root)), "name": p.name, "bytes": p.stat().st_size}
            for p in repo.archives()
        ],
        "block": None if block is None else {
            "tokens": parse.text_tokens(block.rstrip("\n")),
            "chars": sum(parse.chars(s) for s in block.rstrip("\n").split("\n")),
            "sections": block_sections(block),
        },
    }


def package_rules(repo: parse.Repo) -> list[dict[str, Any]]:
    """Each monorepo package with rules of its own (.agent/memory/scopes/PACKAGE/tattoo.md),
    which post_edit says at the agent's first edit under the package: its folder, file, rules."""
    return [{"package": scope, "file": parse.scope_label(scope), "rules": len(parse.rules(repo.tattoo_of(scope)))}
            for scope in repo.scopes()]


def run(dir_: Path | None, framework: str | None, as_json: bool,
        out: Callable[[bytes], None] | None = None,
        err: Callable[[str], None] | None = None,
        note: Callable[[Path], str | None] | None = None) -> int:
    """Print the block and its figures; NOTE(agent) may add a line after them (the command
    passes health's fresh-session advice: health reads memory, so memory cannot ask it)."""
    def stdout(b: bytes) -> None:
        sys.stdout.buffer.write(b)
        sys.stdout.buffer.flush()

    def stderr(s: str) -> None:
        sys.stderr.write(s + "\n")

    out = out or stdout
    err = err or stderr
    if framework is not None and framework not in frameworks.NAMES:
        raise unknown("framework", framework, frameworks.NAMES)
    repo = parse.find_repo(dir_)
    if repo.disabled():
        err(f"agenthooks: {parse.DISABLED}")
    budget = int(repo.config()["budget_tokens"])  # type: ignore[call-overload]
    if as_json:
        block = None
        if repo.hook("pre_task").is_file():
            block = run_pre_task(repo, "--show", frameworks.DEFAULT).decode("utf-8", "replace")
        data = structure(repo, block)
        data["working_set"] = working.latest(repo.agent, int(repo.config().get("working_set_files", 8)))  # type: ignore[call-overload]
        data["package_rules"] = package_rules(repo)
        out((json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))
        return 0
    args = ["--show"] + ([framework] if framework else [])
    shown = run_pre_task(repo, *args)
    out(shown)
    text = shown.decode("utf-8", "replace")
    if not text.startswith(BEGIN):
        # An envelope (JSON for the host): measure the plain block it carries.
        text = run_pre_task(repo, "--show", frameworks.DEFAULT).decode("utf-8", "replace")
    if not text.startswith(BEGIN):
        return 0  # the hook printed its one-line warning instead of a block
    fw = framework or os.environ.get("AGENTHOOKS_FRAMEWORK") or frameworks.DEFAULT
    if repo.frameworks and fw not in repo.frameworks and fw != frameworks.DEFAULT:
        err(f"note: {fw} is not among the installed frameworks "
            f"({', '.join(repo.frameworks)}); the hook printed its plain form")
    for row in stats_table(block_sections(text), budget):
        err(row)
    kept = working.latest(repo.agent, int(repo.config().get("working_set_files", 8)))  # type: ignore[call-overload]
    if kept:
        err(f"after a compaction, session {kept['session']}'s block also names (its working set): "
            f"files {', '.join(kept['files']) or '(none)'}; the latest request: {kept['request'] or '(none)'}")
    packages = package_rules(repo)
    if packages:
        err("package rules, said at the agent's first edit under the package (not in this block): "
            + ", ".join(f"{p['package']} ({p['rules']} rules)" for p in packages))
    line = note(repo.agent) if note else None
    if line:
        err(line)
    return 0
