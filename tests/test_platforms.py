"""platforms.py: the runtime profile is the union of what every target needs."""
from __future__ import annotations

import pytest

from agenthooks import platforms


@pytest.mark.parametrize("targets, stat, lock, bash4", [
    (["linux"], "gnu", "flock", True),
    (["macos"], "bsd", "portable", False),
    (["busybox"], "gnu", "portable", True),
    (["linux", "macos"], "both", "both", False),
    (["linux", "busybox"], "gnu", "both", True),
    (["macos", "busybox"], "both", "portable", False),
    (["linux", "macos", "busybox"], "both", "both", False),
])
def test_profile_of_a_set_of_targets(targets: list[str], stat: str, lock: str, bash4: bool) -> None:
    prof = platforms.profile(targets)
    assert (prof.stat, prof.lock, prof.bash4) == (stat, lock, bash4)
    assert prof.as_dict() == {"stat": stat, "lock": lock, "bash4": bash4}


def test_profile_ignores_order_and_repeats() -> None:
    assert platforms.profile(["macos", "linux", "linux"]) == platforms.profile(["linux", "macos"])


def test_every_platform_is_described() -> None:
    assert set(platforms.DESCRIPTIONS) == set(platforms.PLATFORMS)


def test_this_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(platforms.platform, "system", lambda: "Darwin")
    assert platforms.this_machine() == "macos"
    monkeypatch.setattr(platforms.platform, "system", lambda: "Linux")
    tools = {"busybox": "/bin/busybox"}
    monkeypatch.setattr(platforms.shutil, "which", tools.get)
    assert platforms.this_machine() == "busybox"
    tools["flock"] = "/usr/bin/flock"
    assert platforms.this_machine() == "linux"
    tools.clear()
    assert platforms.this_machine() == "linux"
