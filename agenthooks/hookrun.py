"""The one way the CLI starts a hook (show, simulate, doctor, a framework's post-install):
bash on .agent/hooks/*.sh with git's location variables unset, so a caller that exported
GIT_DIR / GIT_WORK_TREE (a git hook, a script) hands none of them to the hook or to what it
runs (the hooks themselves ask git nothing)."""
from __future__ import annotations

import os
import subprocess
from typing import Any, Mapping

from agenthooks.files import GIT_LOCATION_VARS


def hook_env(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """base (default: our environment) less git's location variables."""
    src = os.environ if base is None else base
    return {k: v for k, v in src.items() if k not in GIT_LOCATION_VARS}


def run(args: list[str], *, env: Mapping[str, str] | None = None,
        **kw: Any) -> subprocess.CompletedProcess[Any]:
    """subprocess.run(args, ...) for a hook: env (default: ours) cleaned by hook_env."""
    return subprocess.run(args, env=hook_env(env), **kw)
