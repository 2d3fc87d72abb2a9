"""Fixtures for the end-to-end tests that run the real agent CLIs offline."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

try:
    from .clis import CLIs, Sandbox, make_sandbox, require_clis
    from .mockapi import MockAPI
except ImportError:  # tests/e2e is not a package
    from clis import CLIs, Sandbox, make_sandbox, require_clis  # type: ignore[no-redef]
    from mockapi import MockAPI  # type: ignore[no-redef]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "e2e: runs the real agent CLIs (tests/e2e/pins.txt) against a mock API")


@pytest.fixture(scope="session")
def clis() -> CLIs:
    """The pinned CLIs (`make e2e-deps`); skip, or fail under CI=true."""
    return require_clis()


@pytest.fixture
def sandbox(tmp_path: Path) -> Sandbox:
    """A throwaway HOME plus a git repo with user.name/email set."""
    return make_sandbox(tmp_path)


@pytest.fixture
def mock_api(sandbox: Sandbox) -> Iterator[MockAPI]:
    """A fresh mock model API (and refusing proxy) on 127.0.0.1 for one test."""
    with MockAPI(workdir=sandbox.repo) as mock:
        yield mock
