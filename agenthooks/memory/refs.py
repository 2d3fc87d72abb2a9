"""Repo paths a memory line names that are not in the repo (renamed or deleted): memory
about moved code, caught before the agent trusts it.

Cheap on purpose: words that look like paths, one filesystem lookup each (cached), no git
process and no code analysis. A path counts when it has a known extension (`auth.py`,
`tests/test_x.py:12`), or a slash and a first folder that exists (`src/auth`): prose such
as and/or, I/O or origin/main is then no path. URLs, absolute paths outside the repo,
globs and .agent/log/ are never checked."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

EXTENSIONS = frozenset((
    "py pyi js mjs cjs jsx ts tsx vue svelte go rs java kt kts scala rb php c h cc cpp cxx hpp "
    "cs swift m mm dart lua pl r ex exs erl hs clj ml sh bash zsh fish ps1 bat sql graphql proto "
    "md rst txt adoc json jsonc yaml yml toml ini cfg conf env lock xml html htm css scss sass "
    "less j2 jinja tmpl tf hcl gradle mk cmake ipynb csv").split())
# Product names spelled like files: prose, not paths.
NAMES = frozenset(("node.js", "vue.js", "next.js", "nuxt.js", "react.js", "three.js", "d3.js",
                   "express.js", "chart.js", "moment.js", "ember.js", "backbone.js",
                   "angular.js", "alpine.js", "p5.js", "deno.js", "nest.js"))
# Folders a basename lookup does not walk: tools' and dependencies' trees, not the project's.
PRUNE = frozenset((".git", "node_modules", ".venv", "venv", "__pycache__", ".tox", ".mypy_cache",
                   ".pytest_cache", "dist", "build", "target", ".next"))
WALK_CAP = 100000  # entries; past it, bare names (no folder) are not checked

# Words are ASCII runs: CJK text around a path (修改了src/auth.py的) ends the word.
_SPLIT = re.compile(r"[\s`'\"<>()\u0080-\uffff]+|\]\(")
_URL = re.compile(r"^[A-Za-z][\w+.-]*://|^(www\.|mailto:)|@"
                  r"|^[\w-]+(\.[\w-]+)*\.(com|org|net|io|dev|ai|co|app|edu|gov|cn|uk|de|jp)(/|$)")
_GLOB = re.compile(r"[*?\[\]{}$%]")
_LOC = re.compile(r"(::[\w\[\].-]*|#L\d+(-L?\d+)?|:\d+([-:]\d+)*)$")  # a line or a test
_PATH = re.compile(r"^(\./)?[\w.+-]+(/[\w.+-]+)*/?$", re.ASCII)
_TRIM = ".,;:!?|[]{}*~"


@dataclass(frozen=True)
class Stale:
    line: int
    path: str  # relative to the repo root, without its :line suffix


def words(text: str) -> list[str]:
    return [w for w in _SPLIT.split(text) if w]


def known_ext(rel: str) -> bool:
    name = rel.rstrip("/").rsplit("/", 1)[-1].lstrip(".")
    return "." in name and name.rsplit(".", 1)[1].lower() in EXTENSIONS


def candidate(word: str, root: Path) -> str | None:
    """The repo path a word names, relative to root and normalised, or None."""
    if _URL.search(word):
        return None
    w = _LOC.sub("", word.lstrip(_TRIM.replace(".", "")).rstrip(_TRIM)).rstrip(_TRIM)
    if w.startswith("/") and _PATH.match(w[1:]):
        try:  # absolute: only inside the repo
            w = Path(w).relative_to(root).as_posix()
        except ValueError:
            return None
    if not w or _GLOB.search(w) or w.startswith("~") or not _PATH.match(w):
        return None
    if "/" not in w and (not known_ext(w) or w.lower() in NAMES):
        return None
    if not known_ext(w) and not re.search(r"[A-Za-z_]", w):
        return None  # 2024/01/02, 1/2
    rel = os.path.normpath(w)
    if rel.startswith("..") or rel == ".":
        return None  # outside the repo
    if rel == ".agent/log" or rel.startswith(".agent/log/"):
        return None  # the hooks' own files come and go
    return rel


class Checker:
    """Existence under one repo root, each path looked up once."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.seen: dict[str, bool] = {}
        self._names: set[str] | None = None

    def _basenames(self) -> set[str]:
        if self._names is None:
            names: set[str] = set()
            count = 0
            for top, dirs, files in os.walk(self.root):
                dirs[:] = [d for d in dirs if d not in PRUNE]
                names.update(files)
                names.update(dirs)
                count += len(files) + len(dirs)
                if count > WALK_CAP:
                    names = set()
                    self._names = names
                    return names
            self._names = names
        return self._names

    def missing(self, rel: str) -> bool:
        if rel in self.seen:
            return self.seen[rel]
        gone = not os.path.lexists(self.root / rel)
        if gone and "/" not in rel:
            # A bare name says no folder: any file of that name in the tree is the one meant.
            names = self._basenames()
            gone = bool(names) and rel not in names
        elif gone and not known_ext(rel) and not os.path.isdir(self.root / rel.split("/", 1)[0]):
            gone = False  # and/or, origin/main: no path unless its first folder exists
        self.seen[rel] = gone
        return gone

    def stale(self, lines: list[tuple[int, str]]) -> list[Stale]:
        out = []
        for no, text in lines:
            done: set[str] = set()
            for word in words(text):
                rel = candidate(word, self.root)
                if rel is not None and rel not in done and self.missing(rel):
                    done.add(rel)
                    out.append(Stale(no, rel))
        return out
