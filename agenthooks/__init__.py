"""agenthooks: compaction-proof memory for coding agents, as committed pure-bash hooks."""
from __future__ import annotations

__version__ = "0.3.0"
