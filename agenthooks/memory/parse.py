"""Reading .agent/memory/ the way the hooks' awk does (their lib/memory.awk): same skips, same
sections; tests/memory/test_memory_grammar.py runs one table of inputs through both.

Also the repo lookup and the hooks' token estimate (the one on the Python side); the
config reader is config.read."""
from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agenthooks import config as config_mod
from agenthooks import safepath
from agenthooks.errors import UserError
from agenthooks.files import make_dirs

MEMORY_FILES = ("tattoo", "snapshot", "notes")
SECTION_KEYS = ("goal", "done", "progress", "todo", "decisions")  # lint wants each of them
# Optional: snapshots written before the section existed stay valid, and nothing adds it.
OPTIONAL_KEYS = ("failed",)
SECTION_TITLES = {
    "en": {"goal": "Goal", "done": "Done", "progress": "In progress", "todo": "Todo",
           "decisions": "Key decisions", "failed": "Tried and failed"},
    "zh": {"goal": "目标", "done": "已完成", "progress": "进行中", "todo": "待办",
           "decisions": "关键决策", "failed": "已放弃"},
}
# Tried and failed: the block carries only its latest (last) few lines, and cuts them
# first among snapshot lines (FAILMAX in the block builder's awk).
FAILED_SHOWN = 3

_SECTIONS = (
    ("goal", re.compile(r"^(goals?|objective|目标|任务目标)$")),
    ("progress", re.compile(r"^(in[ -]?progress|progress|doing|进行中)$")),
    ("decisions", re.compile(r"^((key )?decisions|关键决策)$")),
    ("done", re.compile(r"^(done|completed|已完成)$")),
    ("todo", re.compile(r"^(todo|to[ -]do|next|待办)$")),
    ("failed", re.compile(r"^(tried and failed|failed approaches|rejected( approaches)?|dead[ -]?ends?"
                          r"|已放弃|放弃的方案|死胡同)$")),
)


def section_key(title: str) -> str:
    t = title.lower().rstrip(" \t\r")
    t = re.sub(r"(:|：)$", "", t)
    for key, rx in _SECTIONS:
        if rx.match(t):
            return key
    return "other"


@dataclass
class Line:
    no: int
    text: str


@dataclass
class Section:
    key: str
    title: str
    line: int
    items: list[Line] = field(default_factory=list)


@dataclass
class MemFile:
    path: Path
    label: str  # how findings name it: .agent/memory/tattoo.md, ~/.agent/memory/tattoo.md
    exists: bool = False
    raw: list[str] = field(default_factory=list)  # every physical line, without newlines
    partial: bool = False  # over `cap` bytes: only the part the hooks read was read
    encoding: str = ""  # not UTF-8: what it looks like (UTF-16 LE, ...)


# What the hooks read of a memory file at most (ah_whole in templates/hooks/lib/block.sh.j2):
# its first 256 KB (notes.md: its last). The tools that check memory read the same.
HOOK_CAP = 262144

_BOMS = ((b"\xff\xfe\x00\x00", "UTF-32 LE"), (b"\x00\x00\xfe\xff", "UTF-32 BE"),
         (b"\xff\xfe", "UTF-16 LE"), (b"\xfe\xff", "UTF-16 BE"))


def sniff_encoding(data: bytes) -> str:
    """'' for UTF-8 (or ASCII); else what the bytes look like: a UTF-16/32 byte order
    mark, or NUL bytes all through the text (UTF-16 with no mark)."""
    for bom, name in _BOMS:
        if data.startswith(bom):
            return name
    head = data[:4096]
    if len(head) >= 8 and head.count(0) * 4 >= len(head):
        return "UTF-16 or UTF-32 (NUL bytes all through it)"
    return ""


def read_head(path: Path, cap: int | None, tail: bool = False) -> tuple[bytes, bool]:
    """The file's bytes, or only its first (tail: last) `cap` bytes: (data, partial)."""
    with open(path, "rb") as fh:
        if cap is None:
            return fh.read(), False
        size = os.fstat(fh.fileno()).st_size
        if size <= cap:
            return fh.read(), False
        if tail:
            fh.seek(size - cap)
            data = fh.read(cap)
            cut = data.find(b"\n")
            return (data[cut + 1:] if cut >= 0 else data), True
        data = fh.read(cap)
        cut = data.rfind(b"\n")
        return (data[:cut + 1] if cut >= 0 else data), True


def read_lines(path: Path, data: bytes | None = None) -> list[str]:
    data = path.read_bytes() if data is None else data
    text = data.decode("utf-8", errors="replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text:
        return []
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    return [ln[:-1] if ln.endswith("\r") else ln for ln in lines]


def load_file(path: Path, label: str, cap: int | None = None, tail: bool = False) -> MemFile:
    """cap: read only the part the hooks read (see HOOK_CAP); None: the whole file, for
    the tools that rewrite it."""
    mf = MemFile(path, label)
    if path.is_file():
        try:
            data, mf.partial = read_head(path, cap, tail)
            mf.encoding = sniff_encoding(data)
            mf.raw = read_lines(path, data)
            mf.exists = True
        except OSError:
            pass
    return mf


def content_lines(raw: list[str], unclosed_hides: bool = True) -> list[tuple[Line, bool]]:
    """(line, is_content) for every line: blank lines and HTML comments are not content.
    A comment opens with a line starting `<!--` and runs to the first line holding `-->`,
    but never past a blank line: an unclosed `<!--` hides its own paragraph, no more
    (unclosed_hides=False, as the hooks read tattoo.md: only its opening line)."""
    out: list[tuple[Line, bool]] = []
    incomment, opened = False, 0

    def reopen() -> None:  # the comment never closed: the lines after its opening line count
        for j in range(opened, len(out)):
            ln = out[j][0]
            out[j] = (ln, not unclosed_hides and not re.match(r"^[ \t\r]*(<!--|$)", ln.text))

    for i, s in enumerate(raw, 1):
        if not s.strip(" \t\r"):
            if incomment:
                reopen()
            incomment = False
            out.append((Line(i, s), False))
            continue
        if incomment:
            if "-->" in s:
                incomment = False
            out.append((Line(i, s), False))
            continue
        if re.match(r"^[ \t]*<!--", s):
            if "-->" not in s:
                incomment, opened = True, len(out) + 1
            out.append((Line(i, s), False))
            continue
        out.append((Line(i, s), True))
    if incomment:
        reopen()
    return out


def rules(mf: MemFile) -> list[Line]:
    """Tattoo rules: content lines that are not '# ' headings."""
    return [ln for ln, ok in content_lines(mf.raw, unclosed_hides=False)
            if ok and not re.match(r"^#[ \t]", ln.text)]


def sections(mf: MemFile) -> list[Section]:
    out: list[Section] = []
    cur: Section | None = None
    for ln, ok in content_lines(mf.raw):
        if not ok:
            continue
        m = re.match(r"^#{2,}[ \t]+(.*)$", ln.text)
        if m:
            cur = Section(section_key(m.group(1)), m.group(1).strip(), ln.no)
            out.append(cur)
            continue
        if re.match(r"^#[ \t]", ln.text):
            cur = None
            continue
        if cur is not None:
            cur.items.append(ln)
    return out


def notes(mf: MemFile) -> list[Line]:
    """Notes: content lines that do not start with "#" (after blanks), as the hooks pick them."""
    return [ln for ln, ok in content_lines(mf.raw) if ok and not re.match(r"^[ \t]*#", ln.text)]


# A package's own rules in a monorepo: .agent/memory/scopes/<package folder>/tattoo.md.
SCOPES = "scopes"


def scope_label(scope: str) -> str:
    """The rules file of SCOPE (a package folder, "" for the repo), from the repo root."""
    return f".agent/memory/{SCOPES}/{scope}/tattoo.md" if scope else ".agent/memory/tattoo.md"


@dataclass
class Repo:
    root: Path
    agent: Path
    mem: Path
    lang: str
    frameworks: list[str]
    # The work tree the command runs in: its branch names the board (local, branch). The
    # root's own, unless it is a worktree without .agent/ of its own (find_repo).
    worktree: Path | None = None

    @property
    def board(self) -> Path:
        """The progress board (memory/boards.py: config.yaml's board: and the branch)."""
        from agenthooks.memory import boards

        return boards.path(self.agent, self.worktree or self.root)

    def label(self, path: Path) -> str:
        """How findings name a file of .agent/: .agent/memory/..., or its whole path when
        the memory is another checkout's."""
        rel = path.relative_to(self.agent).as_posix()
        return f".agent/{rel}" if self.worktree in (None, self.root) else str(path)

    def file(self, name: str, cap: int | None = None) -> MemFile:
        """A memory file by name; "snapshot" is the progress board, wherever it lives."""
        path = self.board if name == "snapshot" else self.mem / f"{name}.md"
        return load_file(path, self.label(path), cap, tail=name == "notes")

    def tattoo_of(self, scope: str = "", cap: int | None = None) -> MemFile:
        """The rules file of a package of a monorepo (scope: its folder), or the repo's
        own tattoo.md for scope ""."""
        if not scope:
            return self.file("tattoo", cap)
        label = scope_label(scope)
        return load_file(self.root / label, label, cap)

    def scopes(self) -> list[str]:
        """The packages that have a rules file under .agent/memory/scopes/."""
        base = self.mem / SCOPES
        if not base.is_dir() or base.is_symlink():
            return []
        return sorted(p.parent.relative_to(base).as_posix() for p in base.rglob("tattoo.md")
                      if p.is_file() and not p.is_symlink())

    def user_tattoo(self, cap: int | None = None) -> MemFile | None:
        home = os.environ.get("HOME")
        if not home:
            return None
        p = Path(home) / ".agent" / "memory" / "tattoo.md"
        try:
            if p.resolve() == (self.mem / "tattoo.md").resolve():
                return None
        except OSError:
            return None
        mf = load_file(p, "~/.agent/memory/tattoo.md", cap)
        return mf if mf.exists else None

    @property
    def archive_dir(self) -> Path:
        """Where the board is archived: memory/archive/, a branch's: memory/archive/boards/BRANCH/."""
        from agenthooks.memory import boards

        return boards.archive_dir(self.agent, self.worktree or self.root)

    def archives(self) -> list[Path]:
        d = self.archive_dir
        return sorted(p for p in d.glob("*.md") if p.is_file()) if d.is_dir() else []

    def hook(self, name: str) -> Path:
        return self.agent / "hooks" / f"{name}.sh"

    def config(self) -> dict[str, object]:
        return config_mod.read(self.agent / "config.yaml")

    def disabled(self) -> bool:
        """enabled: false, as the hooks read it: every hook is then a silent no-op."""
        return self.config().get("enabled") is False

    @property
    def log(self) -> Path:
        return self.agent / "log" / "memory.log"


def find_repo(dir_: Path | None) -> Repo:
    from agenthooks import manifest
    from agenthooks.files import target_dir

    root = target_dir(dir_)
    agent, worktree = root / ".agent", root
    if not agent.is_dir():
        # A worktree branched before .agent/ was committed: the main checkout's memory, as
        # the hooks use it there, with this worktree's board.
        main = _main_checkout(root)
        if main is None or not (main / ".agent").is_dir():
            raise UserError(f"no .agent/ in {root}", hint="run 'agenthooks install' first")
        root, agent = main, main / ".agent"
    answers: dict[str, Any] = {}
    try:
        answers = manifest.load(root).get("answers", {})
    except UserError:
        pass
    lang = answers.get("lang") if answers.get("lang") in SECTION_TITLES else None
    if lang is None:
        from agenthooks.memory import boards

        snap = load_file(boards.path(agent, worktree), "")
        lang = "zh" if any(re.search(r"[\u4e00-\u9fff]", s) for s in snap.raw) else "en"
    fws = answers.get("frameworks")
    return Repo(root, agent, agent / "memory", lang,
                [str(f) for f in fws] if isinstance(fws, list) else [], worktree)


def _main_checkout(root: Path) -> Path | None:
    """The main checkout of the linked worktree ROOT (its .git file's gitdir, that folder's
    commondir), or None."""
    from agenthooks.memory import boards

    gd = boards.git_dir(root) if (root / ".git").is_file() else None
    if gd is None or not (gd / "commondir").is_file():
        return None
    common = gd / "commondir"
    line = common.read_text(encoding="utf-8", errors="replace").strip()
    top = (gd / line if not Path(line).is_absolute() else Path(line)).resolve()
    return top.parent if top.name == ".git" else None


# Said by show, simulate and doctor: silent no-op hooks are otherwise invisible.
DISABLED = "hooks are disabled: .agent/config.yaml has enabled: false"


def tokens(line: str) -> int:
    """The hooks' estimate for one line: one token per 3- or 4-byte UTF-8 sequence
    (CJK width), one per 4 other bytes, rounded as awk does."""
    b = line.encode("utf-8", errors="replace")
    if not any(c >= 0x80 for c in b):
        return (len(b) + 4) // 4
    w = sum(1 for c in b if 0xE0 <= c <= 0xF4)
    cont = sum(1 for c in b if 0x80 <= c <= 0xBF)
    return w + (len(b) - cont - w + 4) // 4


def text_tokens(text: str) -> int:
    """The hooks' estimate for a text: the sum of its lines' (split at every newline)."""
    return sum(tokens(line) for line in text.split("\n"))


def chars(line: str) -> int:
    """Characters as hosts count them (UTF-16 units), plus the newline."""
    return len(line.encode("utf-16-le")) // 2 + 1


def now() -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S")


# The names the CLI's own log lines carry (import, rule, note, board, promote): no agent
# session wrote them, so memory health never counts them as one.
CLI_HOOKS = ("import", "rule", "note", "board", "promote")


def guard(repo: Repo, names: tuple[str, ...], then: str = "nothing was written",
          more: tuple[str, ...] = (), dirs: tuple[str, ...] = ()) -> None:
    """Before a memory command reads what it rewrites, or writes: .agent/, memory/ and log/
    are real folders, and the memory files NAMES (tattoo, notes...), memory.log and MORE
    (repo-relative) are regular files or absent. A link, a FIFO or a device is refused in one
    line naming it, before anything is opened."""
    safepath.check(repo.root, (".agent", ".agent/memory", ".agent/log", *dirs), "dir", then)
    safepath.check(repo.root, [f".agent/memory/{n}.md" for n in names]
                   + [".agent/log/memory.log", *more], "file", then)


def log(repo: Repo, hook: str, message: str) -> None:
    """One line in the hooks' format; a log that cannot be written (or is a link, or not a
    regular file) is a warning."""
    import sys

    message = message.replace("\n", " ")
    try:
        safepath.check(repo.root, (".agent", ".agent/log"), "dir")
        make_dirs(repo.log.parent)
        fd = safepath.open_regular(repo.log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, "memory.log")
        try:
            os.write(fd, f"[{now()}] {hook}: {message}\n".encode("utf-8"))
        finally:
            os.close(fd)
    except (OSError, UserError):
        sys.stderr.write(f"agenthooks: {message} (log not writable)\n")
