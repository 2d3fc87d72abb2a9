"""Helpers for the memory tool tests."""
from __future__ import annotations

from pathlib import Path


def tree(root: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under root with its bytes and mtime, for 'nothing was written' checks."""
    return {str(p.relative_to(root)): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(root.rglob("*"))
            if p.is_file() and not str(p.relative_to(root)).startswith(".git/")}
