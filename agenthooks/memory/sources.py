"""The agent instruction files a repo already has (CLAUDE.md, AGENTS.md, ...; in a
monorepo also the nested AGENTS.md / CLAUDE.md / GEMINI.md of its packages), and the
pieces of them that read as rules: what `agenthooks import` offers and what lint compares
tattoo.md with. Read only: nothing here writes, and the source files are never edited.

A file is read once, under its real name (a CLAUDE.md that is a link to AGENTS.md is
AGENTS.md), and never through a link that leaves the repo. Its markdown is read as
blocks: list items (with the lines that continue them and their sub-items) and
paragraphs. A list item is judged on its own (rulelike.judge); the items of a lead-in
("Make sure you have one of:") are parts of its sentence and are never taken apart from
it; a paragraph gives the sentences that say must / never / always."""
from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from agenthooks.files import git_env
from agenthooks.memory import parse, rulelike

# Hosts' own instruction files at the repo's top, in the order they are offered.
FILES = ("CLAUDE.md", "AGENTS.md", "GEMINI.md", ".cursorrules", ".clinerules",
         ".windsurfrules", ".github/copilot-instructions.md")
GLOBS = ((".cursor/rules", "*.mdc"),)
# The ones hosts also load from a subfolder (a package of a monorepo).
NESTED = ("AGENTS.md", "CLAUDE.md", "GEMINI.md")
MAX_NESTED = 200  # files: a monorepo's packages, not every vendored copy
_SKIP_DIRS = {"node_modules", "vendor", "third_party", "dist", "build", "target", "__pycache__",
              "venv", ".venv"}

_ITEM = re.compile(r"^([ \t]*)(?:[-*+]|\d+[.)])[ \t]+(?:\[[ xX]\][ \t]*)?(\S.*)$")
_FENCE = re.compile(r"^[ \t]*(```|~~~)")
_HEADING = re.compile(r"^[ \t]{0,3}#{1,6}[ \t]+(.*?)[ \t#]*$")
_NEGATIVE = re.compile(r"\b(don'?ts?|do\s+not|avoid|never|anti-?patterns?|forbidden)\b|禁止|不要",
                       re.I)


@dataclass(frozen=True)
class Item:
    source: str  # the file, from the repo root, POSIX separators
    line: int
    text: str  # plain text, as it would be written to tattoo.md (no list marker)
    why: str = ""  # "" when it reads as a standalone rule; else why it is not offered
    binding: bool = False  # says must / never / always / ...
    scope: str = ""  # "" for the repo's own files; a package folder for a nested file
    joined: int = 0  # a lead-in and its items taken as one rule: how many items


@dataclass
class _Node:
    line: int
    indent: int
    text: str
    heading: str
    children: list["_Node"] = field(default_factory=list)
    lead: tuple[int, str] | None = None  # the paragraph sentence that opens this list


# --- which files ------------------------------------------------------------------------


def _inside(root: Path, p: Path) -> str | None:
    """p's real path from the repo root (POSIX), or None when it leaves the repo or is not
    a regular file."""
    try:
        real = p.resolve()
        rel = real.relative_to(root.resolve()).as_posix()
    except (OSError, ValueError):
        return None
    return rel if real.is_file() else None


def paths(root: Path) -> list[Path]:
    """The top-level instruction files, each once by its real path."""
    out: list[Path] = []
    for name in FILES:
        p = root / name
        if p.is_dir() and not p.is_symlink():  # .clinerules/ holds one file per topic
            out += sorted(q for q in p.iterdir() if q.is_file() and not q.name.startswith("."))
        elif p.is_file():
            out.append(p)
    for folder, pattern in GLOBS:
        d = root / folder
        if d.is_dir() and not d.is_symlink():
            out += sorted(q for q in d.glob(pattern) if q.is_file())
    return _once(root, out)


def _once(root: Path, found: list[Path]) -> list[Path]:
    seen: set[str] = set()
    out = []
    for p in found:
        rel = _inside(root, p)
        if rel is None or rel in seen:
            continue
        seen.add(rel)
        out.append(root / rel)
    return out


def nested(root: Path) -> list[Path]:
    """AGENTS.md / CLAUDE.md / GEMINI.md below the top (git's own view of the tree: tracked
    and untracked files, not ignored ones), each once, none under .agent/."""
    rels = _git_nested(root)
    if rels is None:
        rels = _walk_nested(root)
    found = [root / r for r in sorted(rels) if "/" in r and not r.startswith(".agent/")]
    return _once(root, found)[:MAX_NESTED]


def _git_nested(root: Path) -> list[str] | None:
    specs = [f":(glob)**/{name}" for name in NESTED]
    try:
        proc = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "--cached", "--others",
                               "--exclude-standard", "--", *specs],
                              capture_output=True, env=git_env(), timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if proc.returncode != 0:
        return None
    return sorted({r for r in proc.stdout.decode("utf-8", "replace").split("\0") if r})


def _walk_nested(root: Path) -> list[str]:
    out: list[str] = []
    for folder, dirs, files in os.walk(root):
        rel = Path(folder).relative_to(root).as_posix()
        depth = 0 if rel == "." else rel.count("/") + 1
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIP_DIRS
                         and depth < 8)
        if rel != ".":
            out += [f"{rel}/{f}" for f in files if f in NESTED]
        if len(out) >= MAX_NESTED:
            break
    return out


# --- reading one file -------------------------------------------------------------------


def _body(raw: list[str]) -> int:
    """Index of the first line after YAML front matter (`---` ... `---` at the top)."""
    if raw and raw[0].strip() == "---":
        for i in range(1, len(raw)):
            if raw[i].strip() in ("---", "..."):
                return i + 1
    return 0


class _Blocks:
    """A markdown file as ("para", (line, text)) and ("list", [_Node]) in file order; code
    fences, HTML, comments, tables and rules dropped; a heading closes what is open."""

    def __init__(self) -> None:
        self.out: list[tuple[str, object]] = []
        self.heading = ""
        self.para: list[tuple[int, str]] = []
        self.last_para: tuple[int, str] | None = None  # the paragraph just closed, if nothing since
        self.stack: list[_Node] = []  # the open list items, outermost first
        self.top: list[_Node] | None = None
        self.blank = False

    def close_para(self) -> None:
        if self.para:
            self.last_para = (self.para[0][0], " ".join(t for _, t in self.para))
            self.out.append(("para", self.last_para))
            self.para = []

    def close_list(self) -> None:
        self.top, self.stack = None, []

    def item(self, no: int, indent: int, text: str) -> None:
        node = _Node(no, indent, text, self.heading)
        while self.stack and self.stack[-1].indent >= indent:
            self.stack.pop()
        if self.stack:
            self.stack[-1].children.append(node)
        else:
            if self.top is None:
                self.close_para()
                self.top = []
                node.lead = _lead(self.last_para)
                self.out.append(("list", self.top))
            self.top.append(node)
        self.stack.append(node)
        self.last_para, self.blank = None, False

    def text(self, no: int, s: str) -> None:
        stripped = s.strip()
        if stripped.startswith(("|", "<")) or re.match(r"^[-=*_ ]{3,}$", stripped):
            self.close_para()
            self.close_list()
            self.last_para = None
            return
        stripped = re.sub(r"^(>[ \t]?)+", "", stripped)
        indent = len(s) - len(s.lstrip())
        if self.stack and (not self.blank or indent > self.stack[-1].indent):
            self.stack[-1].text += " " + stripped  # continues the item (lazily or indented)
        else:
            self.close_list()
            self.para.append((no, stripped))
        self.blank = False

    def read(self, raw: list[str]) -> list[tuple[str, object]]:
        fence = comment = False
        for i in range(_body(raw), len(raw)):
            no, s = i + 1, raw[i]
            heading, item = _HEADING.match(s), _ITEM.match(s)
            if comment:
                comment = "-->" not in s
            elif _FENCE.match(s):
                fence = not fence
                self.close_para()
                self.last_para = None
            elif fence:
                continue
            elif not s.strip():
                self.close_para()
                self.blank = True
            elif re.match(r"^[ \t]*<!--", s):
                comment = "-->" not in s
                self.close_para()
            elif heading is not None:
                self.close_para()
                self.close_list()
                self.heading, self.last_para, self.blank = heading.group(1), None, False
            elif item is not None:
                self.item(no, len(item.group(1).expandtabs(4)), item.group(2).strip())
            else:
                self.text(no, s)
        self.close_para()
        return self.out


def _blocks(raw: list[str]) -> list[tuple[str, object]]:
    return _Blocks().read(raw)


def _lead(para: object) -> tuple[int, str] | None:
    """The last sentence of the paragraph just before a list, when it opens the list."""
    if not isinstance(para, tuple):
        return None
    no, text = para
    last = rulelike.sentences(text)[-1:] or [""]
    return (no, last[0]) if rulelike.lead_in(last[0]) else None


def _fragmentary(text: str) -> bool:
    return rulelike.judge(text).why == "a fragment" or text[:1].islower()


def read(path: Path, label: str, scope: str = "") -> list[Item]:
    """Every piece of one file worth a verdict: its list items (a lead-in's items as one
    piece) and the sentences of its paragraphs that read as rules."""
    mf = parse.load_file(path, label, parse.HOOK_CAP)
    folder = label.rpartition("/")[0]
    fix = rulelike.LinkFix(folder)
    out: list[Item] = []

    def item(no: int, text: str, *, prose: bool = False, heading: str = "",
             why: str = "") -> None:
        plain = rulelike.plain(text, fix)
        if not why:
            v = rulelike.judge(text, prose=prose, under_negative=bool(_NEGATIVE.search(heading)))
            why, binding = v.why, v.binding
        else:
            binding = False
        if prose and why:
            return  # prose that is no rule is explanation: not worth a line
        out.append(Item(label, no, plain, why, binding, scope))

    def group(nodes: list[_Node], lead: tuple[int, str] | None) -> None:
        if lead is not None and (rulelike.alternatives(lead[1])
                                 or any(_fragmentary(n.text) for n in nodes)):
            parts = [re.sub(r"[\s,;.]*(\b(or|and)\b)?[\s,;.]*$", "", n.text, flags=re.I)
                     for n in nodes]
            joined = f"{lead[1]} " + "; ".join(p for p in parts if p)
            v = rulelike.judge(joined)
            if not v.why and not any(n.children for n in nodes):
                out.append(Item(label, lead[0], rulelike.plain(joined, fix), "", v.binding,
                                scope, len(nodes)))
                return
            for n in nodes:
                item(n.line, n.text, why=f"part of the sentence on line {lead[0]}")
            return
        for n in nodes:
            if n.children and rulelike.lead_in(n.text):
                group(n.children, (n.line, n.text))
                continue
            if rulelike.lead_in(n.text):
                item(n.line, n.text, why="a lead-in to what follows it")
                continue
            item(n.line, n.text, heading=n.heading)
            for c in _descendants(n):
                item(c.line, c.text, why=f"a detail of line {n.line}")

    for kind, value in _blocks(mf.raw):
        if kind == "list":
            nodes = value if isinstance(value, list) else []
            group(nodes, nodes[0].lead if nodes else None)
        elif isinstance(value, tuple):
            no, text = value
            for s in rulelike.sentences(text):
                if not rulelike.lead_in(s):
                    item(no, s, prose=True)
    return out


def _descendants(n: _Node) -> list[_Node]:
    out = []
    for c in n.children:
        out.append(c)
        out += _descendants(c)
    return out


def scope_of(label: str) -> str:
    """The package a nested file speaks for: its folder ("" at the top)."""
    return label.rpartition("/")[0] if label.rpartition("/")[2] in NESTED else ""


def all_items(root: Path, only: Path | None = None, with_nested: bool = False) -> list[Item]:
    """Every piece of the instruction files (or of `only`), in file order; the nested ones
    of a monorepo too when with_nested."""
    found: list[Item] = []
    if only is not None:
        files = [only]
    else:
        files = paths(root) + (nested(root) if with_nested else [])
    seen: set[str] = set()
    for p in files:
        label = _inside(root, p)
        scope = scope_of(label or "")
        if label is None:
            if only is None:
                continue
            label = str(p)  # a file named on the command line, outside the repo: its
            scope = ""  # rules are the repo's
        if label in seen:
            continue
        seen.add(label)
        found += read(p, label, scope)
    return found

