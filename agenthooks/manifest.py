"""What install rendered, kept in .agent/.agenthooks.json: read and written only here.

Per file: the template and its rev, the sha256 of the text, and its git blob id, which
`git cat-file -p` turns back into the exact pristine text for a three-way merge."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Mapping

from agenthooks import __version__
from agenthooks.errors import UserError

PATH = ".agent/.agenthooks.json"
SCHEMA = 1


def lf(data: bytes) -> bytes:
    """CRLF -> LF: a CRLF checkout (core.autocrlf=true) and an LF one of the same commit
    hash alike, and a file whose only change is its line endings is pristine."""
    return data.replace(b"\r\n", b"\n")


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def blob_id(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def load(root: Path) -> dict[str, Any]:
    path = root / PATH
    if not path.exists() and not path.is_symlink():
        return {"schema": SCHEMA, "answers": {}, "files": {}}
    if path.is_symlink() or not path.is_file():  # a FIFO is never opened
        raise UserError(f"{PATH} is not a regular file",
                        hint=f"delete {PATH} and run agenthooks install again")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UserError(f"{PATH} is unreadable ({exc})",
                        hint=f"delete {PATH} and run agenthooks install again") from None
    if not isinstance(data, dict) or not isinstance(data.get("files", {}), dict):
        raise UserError(f"{PATH} is not an agenthooks manifest")
    data.setdefault("answers", {})
    data.setdefault("files", {})
    return data


def record(text: bytes, template: str, rev: int, mode: int, kind: str = "owned") -> dict[str, Any]:
    text = lf(text)
    rec = {"template": template, "rev": rev, "sha256": sha256(text),
           "blob": blob_id(text), "mode": oct(mode)[2:]}
    if kind != "owned":
        rec["kind"] = kind
    return rec


def kind(rec: dict[str, Any]) -> str:
    """owned | config | registration; records written before kinds were kept are inferred."""
    if rec.get("kind"):
        return str(rec["kind"])
    return "config" if rec.get("template") == "config.yaml" else "owned"


def is_pristine(data: bytes, rec: dict[str, Any]) -> bool:
    return sha256(lf(data)) == rec.get("sha256")


def dumps(answers: Mapping[str, Any], files: dict[str, Any]) -> str:
    doc = {"agenthooks": __version__, "schema": SCHEMA, "answers": answers,
           "files": dict(sorted(files.items()))}
    return json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
