"""Small budgets: budget_tokens 50 to 200, at a start and after a compaction, on every userland:
every rule is shown and the block's estimate never passes the budget."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from support.claude_sessions import BEGIN, context, END, log, repo_for, RULES, run, START
from support.userlands import USERLANDS


# --- 8: small budgets keep the rules and never pass the budget -----------------

@pytest.mark.parametrize("budget", [50, 80, 120, 150, 200])
@pytest.mark.parametrize("userland", sorted(USERLANDS))
def test_a_small_budget_keeps_the_rules_and_is_never_passed(tmp_path: Path, userland: str, budget: int) -> None:
    repo, env = repo_for(tmp_path, userland)
    cfg = repo / ".agent/config.yaml"
    cfg.write_text(re.sub(r"(?m)^budget_tokens:.*$", f"budget_tokens: {budget}", cfg.read_text()))
    for stdin, hook in ((START, "pre_task"), ({**START, "source": "compact"}, "pre_task")):
        out = run(repo, hook, env, stdin)
        block = context(out.stdout)
        lines = block.splitlines()
        assert lines[0] == BEGIN and lines[-1] == END, block
        assert all(r in lines for r in RULES), block  # the rules alone are far under the budget
        assert "rules are left out" not in block
        tokens = [int(m) for m in re.findall(r"~(\d+) tokens of (\d+)", log(repo))[-1]]
        assert tokens[1] == budget and tokens[0] <= budget, log(repo)
