"""platforms.py: the runtime profile is the union of what every target needs."""
from __future__ import annotations

import pytest

from agenthooks import platforms


@pytest.mark.parametrize("targets, stat, lock, bash4, windows", [
    (["linux"], "gnu", "flock", True, False),
    (["macos"], "bsd", "portable", False, False),
    (["busybox"], "gnu", "portable", True, False),
    (["windows"], "gnu", "portable", True, True),
    (["linux", "macos"], "both", "both", False, False),
    (["linux", "busybox"], "gnu", "both", True, False),
    (["linux", "windows"], "gnu", "both", True, True),
    (["macos", "busybox"], "both", "portable", False, False),
    (["macos", "windows"], "both", "portable", False, True),
    (["busybox", "windows"], "gnu", "portable", True, True),
    (["linux", "macos", "busybox"], "both", "both", False, False),
    (["linux", "macos", "busybox", "windows"], "both", "both", False, True),
])
def test_profile_of_a_set_of_targets(targets: list[str], stat: str, lock: str, bash4: bool,
                                     windows: bool) -> None:
    prof = platforms.profile(targets)
    assert (prof.stat, prof.lock, prof.bash4, prof.windows) == (stat, lock, bash4, windows)
    assert prof.as_dict() == {"stat": stat, "lock": lock, "bash4": bash4, "windows": windows}


def test_profile_ignores_order_and_repeats() -> None:
    assert platforms.profile(["macos", "linux", "linux"]) == platforms.profile(["linux", "macos"])


def test_every_platform_is_described() -> None:
    assert set(platforms.DESCRIPTIONS) == set(platforms.PLATFORMS)


def _not_windows(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(platforms.os, "name", "posix")
    monkeypatch.setattr(platforms.sys, "platform", "linux")


def test_this_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    _not_windows(monkeypatch)
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


@pytest.mark.parametrize("uname", ["MINGW64_NT-10.0-19045", "MINGW32_NT-6.1", "MSYS_NT-10.0-22631",
                                   "CYGWIN_NT-10.0", "mingw64_nt-10.0"])
def test_this_machine_is_windows_under_git_bash_msys_and_cygwin(monkeypatch: pytest.MonkeyPatch,
                                                                 uname: str) -> None:
    _not_windows(monkeypatch)
    monkeypatch.setattr(platforms.platform, "system", lambda: uname)
    monkeypatch.setattr(platforms.shutil, "which", {"busybox": "/bin/busybox"}.get)
    assert platforms.this_machine() == "windows"


@pytest.mark.parametrize("os_name, sys_platform", [("nt", "win32"), ("posix", "cygwin"), ("posix", "msys")])
def test_this_machine_is_windows_for_a_windows_python(monkeypatch: pytest.MonkeyPatch, os_name: str,
                                                      sys_platform: str) -> None:
    monkeypatch.setattr(platforms.os, "name", os_name)
    monkeypatch.setattr(platforms.sys, "platform", sys_platform)
    monkeypatch.setattr(platforms.platform, "system", lambda: "Windows")
    assert platforms.this_machine() == "windows"


def test_windows_is_a_platform_the_install_accepts(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from agenthooks import answers

    assert answers.check("platforms", ["windows", "linux"]) == ["linux", "windows"]
    assert "windows" in dict(answers._choices("platforms"))
