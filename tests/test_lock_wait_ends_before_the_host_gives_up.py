"""lock_timeout_seconds stays below the time every host registration gives a hook (30 s),
with room for the block: one cap, the same in config.TUNABLES, config.yaml's comment, the
hooks' reader and the Python reader; a larger value is ignored (the default is used) and
logged, as any out-of-range value."""
from __future__ import annotations

import json
from pathlib import Path

from support.helpers import install, log_lines, make_repo, run_hook

from agenthooks import config


def registered_timeouts(repo: Path) -> dict[str, float]:
    """Seconds each framework's written registration gives a hook, from the real files."""
    out: dict[str, float] = {}
    for rel in (".claude/settings.json", ".codex/hooks.json", ".gemini/settings.json",
                ".cursor/hooks.json", ".github/hooks/agenthooks.json"):
        found: list[float] = []

        def walk(node: object) -> None:
            if isinstance(node, dict):
                for key, value in node.items():
                    if key in ("timeout", "timeoutSec") and isinstance(value, (int, float)):
                        found.append(value / 1000 if rel.startswith(".gemini") else value)
                    walk(value)
            elif isinstance(node, list):
                for value in node:
                    walk(value)

        walk(json.loads((repo / rel).read_text()))
        assert found, rel
        out[rel] = min(found)
    return out


def test_the_lock_cap_is_below_every_registration(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo, *[a for n in ("claude-code", "codex", "gemini-cli", "cursor", "copilot-cli")
                    for a in ("--framework", n)])
    timeouts = registered_timeouts(repo)
    assert set(timeouts.values()) == {config.HOST_TIMEOUT}, timeouts
    lo, hi = config.INT_BOUNDS["lock_timeout_seconds"]
    assert (lo, hi) == (0, config.LOCK_TIMEOUT_MAX)
    assert hi <= config.HOST_TIMEOUT - 10  # the block still has time to be printed
    assert f"At most {hi}" in (repo / ".agent/config.yaml").read_text()
    assert f'ah_int AH_LOCK_TIMEOUT "$val" 0 {hi}' in (repo / ".agent/hooks/lib/runtime.sh").read_text()


def test_a_value_past_the_cap_is_ignored_and_logged(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code")
    cfg = repo / ".agent/config.yaml"
    text = cfg.read_text()
    for value, ignored in ((config.LOCK_TIMEOUT_MAX, False), (config.LOCK_TIMEOUT_MAX + 1, True),
                           (120, True)):
        cfg.write_text(text.replace("lock_timeout_seconds: 5", f"lock_timeout_seconds: {value}"))
        assert config.read(cfg)["lock_timeout_seconds"] == (5 if ignored else value)
        before = len(log_lines(repo))
        out = run_hook(repo, "pre_task", {"session_id": "s", "source": "startup"})
        assert out.returncode == 0, out.stderr
        said = [ln for ln in log_lines(repo)[before:] if "lock_timeout_seconds" in ln]
        assert bool(said) == ignored, (value, said)
