"""Git plumbing for upgrades: pristine renders kept in the object store under
refs/agenthooks/pristine (the merge bases), git merge-file, the index stages of an
unmerged file, and which files have uncommitted changes. Every call tolerates a missing
git or a directory that is no repo."""
from __future__ import annotations

import functools
import subprocess
import tempfile
from pathlib import Path

from agenthooks import manifest
from agenthooks.errors import UserError
from agenthooks.files import git_env

# Keeps every pristine render reachable, so `git gc` never prunes a merge base that was
# never committed (the user edited the hook before the first commit).
PRISTINE_REF = "refs/agenthooks/pristine"
# What it costs when the ref cannot be kept (a reference-transaction hook refuses it):
# the renders stay in the object store, where the manifest's blob ids find them, until gc.
UNSTORED = ("the merge bases were not kept under " + PRISTINE_REF + " ({why}): upgrades still "
            "merge your edits to the generated files while git keeps them (unreferenced "
            "objects: until `git gc` prunes them, 2 weeks by default), and for good once the "
            "files are committed unedited; past that, an edited file gets the new version beside "
            "it (FILE.agenthooks-new) to merge by hand")


def _git(root: Path, *args: str, input: bytes | None = None,
         env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes] | None:
    try:
        return subprocess.run(["git", "-C", str(root), *args], input=input,
                              capture_output=True, check=False,
                              env=git_env(env, root))
    except OSError:
        return None


def git_prefix(root: Path) -> str | None:
    """root's path inside its git work tree ('' at the top), or None when not in one."""
    return _git_prefix(str(root))


@functools.lru_cache(maxsize=None)
def _git_prefix(root: str) -> str | None:
    # Asked several times per install; the answer cannot change during one.
    proc = _git(Path(root), "rev-parse", "--is-inside-work-tree", "--show-prefix")
    if proc is None or proc.returncode != 0:
        return None
    lines = proc.stdout.decode("utf-8", "replace").splitlines()
    if not lines or lines[0].strip() != "true":
        return None
    return lines[1].strip() if len(lines) > 1 else ""


def git_blob(root: Path, blob: str) -> bytes | None:
    """The pristine text of a past render, from the repo's object store, or None."""
    if not blob or len(blob) != 40:
        return None
    proc = _git(root, "cat-file", "blob", blob)
    if proc is None or proc.returncode != 0:
        return None
    return proc.stdout if manifest.blob_id(proc.stdout) == blob else None


def hash_objects(root: Path, texts: list[bytes]) -> list[str] | None:
    """Write each text to the object store (no filters: the bytes we rendered); their ids."""
    if not texts:
        return []
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, data in enumerate(texts):
            p = Path(tmp) / str(i)
            p.write_bytes(data)
            paths.append(str(p))
        proc = _git(root, "hash-object", "-w", "--no-filters", "--stdin-paths",
                    input=("\n".join(paths) + "\n").encode())
    if proc is None or proc.returncode != 0:
        return None
    ids = proc.stdout.decode().split()
    expected = [manifest.blob_id(t) for t in texts]
    return ids if ids == expected else None


def store_blobs(root: Path, texts: list[bytes]) -> str | None:
    """Keep each pristine render in git's object store, reachable from PRISTINE_REF, so
    the merge base survives even when the user never commits it. None when kept (or when
    there is nothing to keep, or no repo); else why not, in git's words."""
    if not texts or git_prefix(root) is None:
        return None
    ids = hash_objects(root, list({manifest.blob_id(t): t for t in texts}.values()))
    if ids is None:
        return "git hash-object failed"
    entries: dict[str, str] = {}
    old = _git(root, "ls-tree", PRISTINE_REF)
    if old is not None and old.returncode == 0:
        for line in old.stdout.decode().splitlines():
            meta, _, name = line.partition("\t")
            parts = meta.split()
            if len(parts) == 3 and parts[1] == "blob":
                entries[name] = parts[2]
    before = dict(entries)
    entries.update({i: i for i in ids})
    if entries == before:
        return None
    listing = "".join(f"100644 blob {sha}\t{name}\n" for name, sha in sorted(entries.items()))
    tree = _git(root, "mktree", input=listing.encode())
    if tree is None or tree.returncode != 0:
        return "git mktree failed"
    ref = _git(root, "update-ref", PRISTINE_REF, tree.stdout.decode().strip())
    if ref is not None and ref.returncode == 0:
        return None
    said = (ref.stderr.decode("utf-8", "replace").strip().splitlines() if ref is not None else [])
    return f"git update-ref {PRISTINE_REF} refused" + (f": {said[-1][:160]}" if said else "")


def has_pristine_ref(root: Path) -> bool:
    if git_prefix(root) is None:
        return False
    proc = _git(root, "rev-parse", "--verify", "--quiet", PRISTINE_REF)
    return proc is not None and proc.returncode == 0


def delete_pristine_ref(root: Path) -> None:
    """Uninstall: the merge bases are needed no more (git gc prunes them later)."""
    _git(root, "update-ref", "-d", PRISTINE_REF)


def mark_unmerged(root: Path, relpath: str, base: bytes, ours: bytes, theirs: bytes,
                  mode: int) -> bool:
    """Record index stages 1/2/3 so `git status` shows the file unmerged (UU) and a
    commit is blocked until the user resolves and `git add`s it, as copier does."""
    prefix = git_prefix(root)
    if prefix is None:
        return False
    ids = hash_objects(root, [base, ours, theirs])
    if ids is None:
        return False
    path = prefix + relpath
    gmode = "100755" if mode & 0o111 else "100644"
    info = f"0 {'0' * 40}\t{path}\n" + "".join(
        f"{gmode} {sha} {stage}\t{path}\n" for stage, sha in zip((1, 2, 3), ids))
    proc = _git(root, "update-index", "--index-info", input=info.encode())
    return proc is not None and proc.returncode == 0


def tracked(root: Path, relpath: str) -> bool:
    """Does git track a file at relpath, or under it?"""
    proc = _git(root, "ls-files", "-z", "--", relpath)
    return proc is not None and proc.returncode == 0 and bool(proc.stdout)


def dirty(root: Path, relpaths: list[str]) -> list[str]:
    """Those of relpaths that git sees as modified, staged or untracked."""
    prefix = git_prefix(root)
    if prefix is None or not relpaths:
        return []
    proc = _git(root, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--",
                *relpaths)
    if proc is None or proc.returncode != 0:
        return []
    seen = set()
    items = proc.stdout.decode("utf-8", "replace").split("\0")
    for item in items:
        if len(item) > 3 and item[2] == " ":
            seen.add(item[3:])
    return [p for p in relpaths if prefix + p in seen]


def merge3(cur: bytes, base: bytes, new: bytes, label: str) -> tuple[int, bytes]:
    """git merge-file: (0, merged) when clean, (n>0, text with conflict markers)."""
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for name, data in (("yours", cur), ("base", base), ("new", new)):
            p = Path(tmp) / name
            p.write_bytes(data)
            paths.append(str(p))
        try:
            proc = subprocess.run(
                ["git", "merge-file", "-p", "-L", f"{label} (yours)", "-L",
                 "agenthooks (previous)", "-L", "agenthooks (new)", *paths],
                capture_output=True, check=False, env=git_env())
        except OSError:
            raise UserError(f"{label} was edited and merging it needs git, which is not "
                            "installed: install git, or move your edits aside") from None
    if proc.returncode < 0 or proc.returncode > 127:
        raise UserError(f"git merge-file failed on {label}: "
                        + proc.stderr.decode("utf-8", "replace").strip()[:200])
    return proc.returncode, proc.stdout
