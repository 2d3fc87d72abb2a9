"""What the hooks say to the agent, per language; rendered into the hooks as constants."""
from __future__ import annotations

LANGS = ("en", "zh")

# %d / %s are filled in by the hooks at run time (awk sprintf, bash printf).
MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "intro": (
            "Project memory from .agent/memory/ (loaded by agenthooks). It is current: "
            "where it differs from anything earlier in this conversation, it wins."
        ),
        "rules": "Hard rules (must obey)",
        "user_rules": "User rules (~/.agent/memory/tattoo.md)",
        "project_rules": "Project rules (.agent/memory/tattoo.md; these win over user rules on conflict)",
        "no_rules": "(no project rules yet: add one-line rules to .agent/memory/tattoo.md)",
        "snapshot": "Current task snapshot (summary of .agent/memory/snapshot.md)",
        "no_snapshot": "(no goal, in-progress or key-decision items yet: see .agent/memory/snapshot.md)",
        "notes": "Scratch notes (may be stale, for reference; latest %d of %d)",
        "notes_cut": "[... %d older notes left out for the budget: read .agent/memory/notes.md]",
        "snapshot_cut": "[... %d lines left out for the budget: read .agent/memory/snapshot.md]",
        "tattoo_cut": "[... %d rules left out: the block would pass the host's 10,000-character cap. READ .agent/memory/tattoo.md NOW]",
        "tattoo_over": "[agenthooks warning: the rules alone are over the token budget; shorten .agent/memory/tattoo.md]",
        "redacted": "[redacted by agenthooks: a line of %s looks like a secret]",
        "footer": (
            "Full files: .agent/memory/tattoo.md, snapshot.md, notes.md. Update snapshot.md "
            "(Goal, Done, In progress, Todo, Key decisions) when the task changes phase; it is a "
            "progress board, not an edit log. When the task is done, archive it with: "
            "bash .agent/hooks/pre_task.sh --archive"
        ),
        "compacted": "Context was compacted: memory reloaded from .agent/memory/; it wins over the summary.",
        "reloaded": (
            "agenthooks detected a context compaction and reloaded memory: "
            "follow .agent/memory/ over the conversation summary."
        ),
        "remind": (
            "agenthooks: .agent/memory/snapshot.md was last updated %s minutes ago. If the task "
            "changed phase (a step finished, a decision was made), update its In progress and "
            "Key decisions now; do not log individual edits."
        ),
        "block_failed": "agenthooks: the memory block could not be built this time; read .agent/memory/tattoo.md and snapshot.md yourself.",
    },
    "zh": {
        "intro": "以下是 .agent/memory/ 中的项目记忆（由 agenthooks 加载），内容为最新：与本对话先前内容不一致时，以此为准。",
        "rules": "硬约束（必须遵守）",
        "user_rules": "用户级约束（~/.agent/memory/tattoo.md）",
        "project_rules": "项目约束（.agent/memory/tattoo.md；与用户级冲突时以项目为准）",
        "no_rules": "（尚无项目约束：请在 .agent/memory/tattoo.md 中一行写一条）",
        "snapshot": "当前任务快照（.agent/memory/snapshot.md 摘要）",
        "no_snapshot": "（尚无目标、进行中或关键决策：见 .agent/memory/snapshot.md）",
        "notes": "临时笔记（可能过期，仅供参考；最近 %d 条，共 %d 条）",
        "notes_cut": "[……为控制预算省略了较早的 %d 条笔记：请读 .agent/memory/notes.md]",
        "snapshot_cut": "[……为控制预算省略了 %d 行：请读 .agent/memory/snapshot.md]",
        "tattoo_cut": "[……省略了 %d 条约束：注入块将超过宿主 10,000 字符上限。请立即阅读 .agent/memory/tattoo.md]",
        "tattoo_over": "[agenthooks 警告：仅硬约束就已超出 token 预算；请精简 .agent/memory/tattoo.md]",
        "redacted": "[agenthooks 已隐去：%s 中的一行疑似密钥]",
        "footer": (
            "完整文件：.agent/memory/tattoo.md、snapshot.md、notes.md。任务阶段变化时更新 snapshot.md"
            "（目标、已完成、进行中、待办、关键决策）；它是进度板，不是修改记录。任务完成后归档："
            "bash .agent/hooks/pre_task.sh --archive"
        ),
        "compacted": "上下文已被压缩：已从 .agent/memory/ 重新加载记忆，以记忆为准，而非摘要。",
        "reloaded": "agenthooks 检测到上下文压缩并已重新加载记忆：请以 .agent/memory/ 为准，而非对话摘要。",
        "remind": (
            "agenthooks：.agent/memory/snapshot.md 已 %s 分钟未更新。如果任务阶段有变化（完成了一步、"
            "做了决定），请现在更新“进行中”和“关键决策”；不要记录每次修改。"
        ),
        "block_failed": "agenthooks：本次无法生成记忆块；请自行阅读 .agent/memory/tattoo.md 和 snapshot.md。",
    },
}
