"""The manifest: git-compatible blob ids, kinds, and one-line errors."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from agenthooks import manifest
from agenthooks.errors import UserError


def test_blob_id_matches_git(tmp_path: Path) -> None:
    data = "line one\nzwei 二\n".encode()
    (tmp_path / "f").write_bytes(data)
    out = subprocess.run(["git", "hash-object", "--no-filters", str(tmp_path / "f")],
                         capture_output=True, text=True, check=True).stdout.strip()
    assert manifest.blob_id(data) == out


def test_record_kinds_and_pristine() -> None:
    rec = manifest.record(b"x", "hooks/pre_task.sh", 2, 0o755)
    assert rec["mode"] == "755" and "kind" not in rec and manifest.kind(rec) == "owned"
    assert manifest.kind(manifest.record(b"x", "frameworks/codex", 1, 0o644, "registration")) \
        == "registration"
    assert manifest.kind({"template": "config.yaml"}) == "config"
    assert manifest.is_pristine(b"x", rec) and not manifest.is_pristine(b"y", rec)


def test_unreadable_manifest_is_a_user_error(tmp_path: Path) -> None:
    (tmp_path / ".agent").mkdir()
    (tmp_path / manifest.PATH).write_text("{nope")
    with pytest.raises(UserError):
        manifest.load(tmp_path)
    (tmp_path / manifest.PATH).write_text("[]")
    with pytest.raises(UserError):
        manifest.load(tmp_path)


def test_dumps_is_stable() -> None:
    a = manifest.dumps({"lang": "en"}, {"b": {"x": 1}, "a": {"y": 2}})
    assert a == manifest.dumps({"lang": "en"}, {"a": {"y": 2}, "b": {"x": 1}})
    assert a.endswith("}\n")
