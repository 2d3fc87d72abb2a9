"""Small budgets hold, on every userland: a budget of 50 with CJK rules gives at most 50 tokens,
counted as agenthooks counts them."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from agenthooks.memory import parse
from support.helpers import install, make_repo
from support.inside_runs import ALL, BEGIN, END, run, START
from support.userlands import env_for, USERLANDS


# --- the budget ---

@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("userland", ALL)
def test_a_small_budget_holds_with_cjk_rules(tmp_path: Path, userland: str, lang: str) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--platform", USERLANDS[userland][0], "--framework", "generic", "--lang", lang)
    cfg = repo / ".agent/config.yaml"
    cfg.write_text(cfg.read_text().replace("budget_tokens: 500", "budget_tokens: 50"))
    (repo / ".agent/memory/tattoo.md").write_text(
        "# 规则\n- 所有接口都返回统一的结构体并且记录日志\n- 缩进使用四个空格不要使用制表符号\n"
        "- 提交之前必须运行全部测试并修复失败\n")
    env = {**os.environ, **env_for(userland, tmp_path)}
    block = run(repo, "pre_task", env, START).stdout.rstrip("\n")
    assert block.startswith(BEGIN) and block.endswith(END)
    assert parse.text_tokens(block) <= 50, (parse.text_tokens(block), block)
    assert "tattoo.md" in block  # the warning that rules were left out, and where they are
