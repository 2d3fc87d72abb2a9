"""Is every file teammates need going to be committed? Git's own ignore rules decide
(`git check-ignore -v --no-index`: .gitignore files, .git/info/exclude, core.excludesFile),
for each file an install wrote that the repo's model commits: the hooks and their library,
.agent/config.yaml, .agent/.gitignore and .gitattributes, the manifest, the framework
registrations inside the repo, and memory (tattoo.md, notes.md, the board unless it is local, a package's
rules, .agent/imports.txt). A file git already tracks is committed whatever a pattern
says. `git add .codex` exits 0 and adds nothing when .gitignore says `.codex/*`: the
finding names the ignoring line and the `git add -f` that commits the file anyway."""
from __future__ import annotations

import shlex
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agenthooks import manifest
from agenthooks.files import git_env
from agenthooks.gitstore import git_prefix
from agenthooks.memory import boards, decided, parse

# The manifest kinds whose files are committed (the log is not: .agent/.gitignore says so).
COMMITTED_KINDS = ("owned", "config", "registration")


@dataclass(frozen=True)
class Ignored:
    path: str  # from the repo root
    source: str  # the file holding the pattern (.gitignore, .git/info/exclude, ...)
    line: int
    pattern: str

    def where(self) -> str:
        return f"{self.source}:{self.line}:{self.pattern}"

    def say(self) -> str:
        return f"{self.path} is ignored by {self.where()}"


def needed(root: Path, files: dict[str, Any]) -> list[str]:
    """The files of ours under ROOT that the repo's model commits, as they are now."""
    out = [rel for rel, rec in sorted(files.items())
           if isinstance(rec, dict) and manifest.kind(rec) in COMMITTED_KINDS]
    out.append(manifest.PATH)
    mem = [f".agent/memory/{name}.md" for name in parse.MEMORY_FILES if name != "snapshot"]
    try:
        repo = parse.find_repo(root)
        mem += [parse.scope_label(s) for s in repo.scopes()]
        # The board, where the model commits it (board: local keeps it out of git).
        if boards.model(repo.agent) != "local":
            mem.append(repo.label(repo.board))
    except Exception:  # noqa: BLE001 - no .agent/ yet: the top files alone
        pass
    out += mem + [decided.PATH]
    return [rel for rel in dict.fromkeys(out)
            if not rel.startswith("/") and ".." not in rel.split("/")
            and (root / rel).is_file() and not (root / rel).is_symlink()]


def ignored(root: Path, paths: list[str]) -> list[Ignored]:
    """The PATHS git would leave out of `git add`: matched by an ignore pattern (not a `!`
    one) and not tracked. [] outside git."""
    if not paths or git_prefix(root) is None:
        return []
    proc = _git(root, ["check-ignore", "-v", "--no-index", "-z", "--stdin"],
                "\0".join(paths) + "\0")
    if proc is None:
        return []
    fields = proc.split("\0")
    found = []
    for i in range(0, len(fields) - 3, 4):
        source, line, pattern, path = fields[i:i + 4]
        if not pattern or pattern.startswith("!"):
            continue
        found.append(Ignored(path, source, int(line) if line.isdigit() else 0, pattern))
    if not found:
        return []
    tracked = set((_git(root, ["ls-files", "-z", "--", *[f.path for f in found]]) or "")
                  .split("\0"))
    return [f for f in found if f.path not in tracked]


def _git(root: Path, args: list[str], stdin: str | None = None) -> str | None:
    try:
        proc = subprocess.run(["git", "-C", str(root), *args], input=stdin,
                              capture_output=True, text=True, env=git_env(), timeout=60,
                              check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout if proc.returncode in (0, 1) else None


def fix(found: list[Ignored]) -> str:
    """The command that commits them anyway."""
    return "git add -f " + " ".join(shlex.quote(f.path) for f in found)
