"""The tunables in .agent/config.yaml: defaults, bounds, and reading a user's file."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from agenthooks.errors import UserError

CONFIG_VERSION = 1

DEFAULTS: dict[str, Any] = {
    "budget_tokens": 500,
    "notes_count": 5,
    "stale_minutes": 10,
    "drop_percent": 40,
    "reload_turns": 20,
    "lock_timeout_seconds": 5,
    "log_max_kb": 256,
    "summary_markers": (
        "This session is being continued from a previous conversation"
        "|CONTEXT CHECKPOINT COMPACTION|<state_snapshot>"
    ),
}

# The same bounds are rendered into the hooks' reader; outside them a value is ignored.
INT_BOUNDS: dict[str, tuple[int, int]] = {
    "budget_tokens": (50, 20000),
    "notes_count": (0, 100),
    "stale_minutes": (0, 10080),
    "drop_percent": (1, 99),
    "reload_turns": (0, 100000),
    "lock_timeout_seconds": (0, 120),
    "log_max_kb": (1, 102400),
}

# Bash variable that carries each key at run time.
BASH_VARS: dict[str, str] = {
    "budget_tokens": "AH_BUDGET",
    "notes_count": "AH_NOTES",
    "stale_minutes": "AH_STALE",
    "drop_percent": "AH_DROP",
    "reload_turns": "AH_TURNS",
    "lock_timeout_seconds": "AH_LOCK_TIMEOUT",
    "log_max_kb": "AH_LOG_MAX_KB",
}


def check_int(key: str, value: object) -> int:
    lo, hi = INT_BOUNDS[key]
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise UserError(f"{key} must be a whole number from {lo} to {hi}, not {value!r}")
    return value


def load(path: Path) -> dict[str, Any]:
    """Parse an existing config.yaml; a file that is not a YAML mapping is an error."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"cannot read {path}: {exc}") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark is not None else ""
        raise UserError(
            f"{path} is not valid YAML{where}",
            hint="fix or delete it, then run agenthooks install again",
        ) from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise UserError(f"{path} must be a YAML mapping of key: value lines")
    return data
