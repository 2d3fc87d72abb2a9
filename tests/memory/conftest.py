from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from support.helpers import SAMPLE_SNAPSHOT, SAMPLE_TATTOO, install, make_repo, write_memory


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    r = make_repo(tmp_path)
    install(r)
    write_memory(r, tattoo=SAMPLE_TATTOO, snapshot=SAMPLE_SNAPSHOT,
                 notes="# Scratch notes\n- redis runs on 6380 locally\n")
    return r

