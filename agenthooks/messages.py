"""What the hooks say to the agent, per language; rendered into the hooks as constants."""
from __future__ import annotations

LANGS = ("en", "zh")

# %d / %s are filled in by the hooks at run time (awk sprintf, bash printf); @BOARD@ afterwards,
# with the progress board's path (.agent/memory/snapshot.md, .agent/memory/boards/BRANCH.md).
MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "intro": (
            "Project memory (.agent/memory/, loaded by agenthooks): current, and it wins "
            "over anything earlier in this conversation."
        ),
        "rules": "Hard rules (must obey)",
        "user_rules": "User rules (~/.agent/memory/tattoo.md)",
        "project_rules": "Project rules (.agent/memory/tattoo.md; these win over user rules on conflict)",
        "no_rules": "(no project rules yet: add one-line rules to .agent/memory/tattoo.md)",
        "snapshot": "Current task snapshot (summary)",
        "no_snapshot": "(no goal, in-progress or key-decision items yet: see @BOARD@)",
        # A branch's board not started (board: local or branch): normal, never an error.
        "no_board": ("(no progress board for this branch yet: when the task needs one, start @BOARD@ "
                     "with ## Goal, ## In progress, ## Key decisions)"),
        "notes": "Scratch notes (may be stale; latest %d of %d)",
        "notes_cut": "[... %d older notes left out for the budget: read .agent/memory/notes.md]",
        "snapshot_cut": "[... %d lines left out for the budget: read @BOARD@]",
        # Tried and failed past its latest few lines: no budget cut, the section's own limit.
        "failed_cut": "[... %d older entries left out: read @BOARD@]",
        "tattoo_cut": "[agenthooks WARNING: %d of %d rules are left out, over the budget or the host's 10,000-character cap: READ .agent/memory/tattoo.md NOW, and shorten it]",
        "tattoo_cut_short": "[agenthooks WARNING: %d of %d rules left out for the budget: READ .agent/memory/tattoo.md]",
        "tattoo_over": "[agenthooks warning: the rules alone are over the token budget; shorten .agent/memory/tattoo.md]",
        "redacted": "[redacted by agenthooks: a line of %s looks like a secret]",
        "mem_cut": "[agenthooks: over %d KB or binary, read in part only: %s; read and shorten it]",
        "footer": (
            "Full files: .agent/memory/. Update @BOARD@ when the task changes phase "
            "(a progress board, not an edit log). Task done: bash .agent/hooks/pre_task.sh --archive"
        ),
        "compacted": (
            "Context was compacted: memory reloaded from .agent/memory/; it wins over the summary. "
            "This is the same task, continued, not a new session: do not start over or greet; "
            "resume the In progress item and the user's latest request."
        ),
        "reloaded": (
            "agenthooks detected a context compaction and reloaded memory: "
            "follow .agent/memory/ over the conversation summary. "
            "This is the same task, continued, not a new session: do not start over or greet; "
            "resume the In progress item and the user's latest request."
        ),
        "remind": (
            "agenthooks: @BOARD@ was last updated %s minutes ago. If the task "
            "changed phase (a step finished, a decision was made), update its In progress and "
            "Key decisions now; do not log individual edits."
        ),
        "flush": (
            "agenthooks: context is %s%% full, a compaction is near: update @BOARD@ "
            "now (In progress, Key decisions, Tried and failed)."
        ),
        "stale": (
            "agenthooks: @BOARD@ is %s min older than your last edit: check In progress against "
            "the code before you continue."
        ),
        "block_failed": "agenthooks: the memory block could not be built this time; read .agent/memory/tattoo.md and @BOARD@ yourself.",
        "memory_gone": "agenthooks: .agent/memory/ is missing right now (renamed, or a git checkout under way); project memory was not loaded: read .agent/memory/ once it is back ('agenthooks install' restores it).",
        "memory_missing": "agenthooks: .agent/memory/ has no %s: not loaded ('agenthooks install' restores it).",
        "memory_outside": "agenthooks: not loaded: .agent/memory/ %s, a symbolic link out of this repository (the hooks read nothing outside it).",
        "fresh": "This session was compacted %dx: start a fresh session when you can; memory carries over (.agent/memory/).",
        # The working set, in the block after a compaction (kept by the hooks, per session).
        "working": "Before the compaction (kept by agenthooks)",
        "working_files": "Files you were editing, latest last: %s",
        "working_request": "The user's latest request: %s",
        "working_cut": "[... %d lines left out for the budget: read %s]",
        # The instructions for the host's summary (PreCompact), plain text.
        "summary_intro": (
            "When you summarize this conversation, keep the following verbatim (.agent/memory/ is "
            "the durable record; agenthooks reloads it after the compaction):"
        ),
        "summary_rules": "The project's hard rules (must obey):",
        "summary_rules_file": "The project's %d hard rules: they are in .agent/memory/tattoo.md.",
        "summary_progress": "In progress:",
        "summary_decisions": "Key decisions:",
        "summary_more": "(%d more in @BOARD@)",
        "summary_request": "The user's latest request: %s",
        "summary_files": "The files being edited, latest last: %s",
        # What the summary dropped, said once at the next prompt.
        "audit_dropped": "agenthooks: the compaction summary left out %s; the memory block has them: follow it.",
        "audit_done": "agenthooks: the compaction summary calls %s done, which the board does not: check it before you move on.",
        "audit_rule": "rule %d (\"%s\")",
        "audit_item": "In progress item %d (\"%s\")",
        # A monorepo package's own rules, said at the agent's first edit under the package.
        "package_rules": "Rules of the package %s (%s) for your work under it (must obey; the project's rules hold too):",
        "package_cut": "[... %d more rules of this package left out for the budget: read %s]",
        # A subagent's memory (SubagentStart): the rules and what the task is doing now.
        "subagent_intro": "Project memory for this subagent (.agent/memory/): the rules and the main task's In progress items.",
        "subagent_rules_cut": "[... %d rules left out for the budget: read .agent/memory/tattoo.md]",
        "subagent_progress": "In progress (the main task; from @BOARD@)",
        # The board or the rules changed since this session last read them, by another session.
        "changed": ("agenthooks: %s changed at %s since this session last read it, not by an edit of this "
                    "session: re-read it before you update it."),
    },
    "zh": {
        "intro": "项目记忆（.agent/memory/，由 agenthooks 加载）：内容为最新，与先前对话不一致时以此为准。",
        "rules": "硬约束（必须遵守）",
        "user_rules": "用户级约束（~/.agent/memory/tattoo.md）",
        "project_rules": "项目约束（.agent/memory/tattoo.md；与用户级冲突时以项目为准）",
        "no_rules": "（尚无项目约束：请在 .agent/memory/tattoo.md 中一行写一条）",
        "snapshot": "当前任务快照（摘要）",
        "no_snapshot": "（尚无目标、进行中或关键决策：见 @BOARD@）",
        "no_board": "（这个分支还没有进度板：任务需要时，新建 @BOARD@，写上 ## 目标、## 进行中、## 关键决策）",
        "notes": "临时笔记（可能过期；最近 %d 条，共 %d 条）",
        "notes_cut": "[……为控制预算省略了较早的 %d 条笔记：请读 .agent/memory/notes.md]",
        "snapshot_cut": "[……为控制预算省略了 %d 行：请读 @BOARD@]",
        "failed_cut": "[……省略了较早的 %d 条：请读 @BOARD@]",
        "tattoo_cut": "[agenthooks 警告：%d 条约束（共 %d 条）因超出预算或宿主 10,000 字符上限而省略：请立即阅读 .agent/memory/tattoo.md，并精简它]",
        "tattoo_cut_short": "[agenthooks 警告：%d 条约束（共 %d 条）因预算省略：请阅读 .agent/memory/tattoo.md]",
        "tattoo_over": "[agenthooks 警告：仅硬约束就已超出 token 预算；请精简 .agent/memory/tattoo.md]",
        "redacted": "[agenthooks 已隐去：%s 中的一行疑似密钥]",
        "mem_cut": "[agenthooks：超过 %d KB 或含二进制内容，只读取了一部分：%s；请阅读并精简它]",
        "footer": (
            "完整文件：.agent/memory/。任务阶段变化时更新 @BOARD@（进度板，不是修改记录）。"
            "任务完成后归档：bash .agent/hooks/pre_task.sh --archive"
        ),
        "compacted": (
            "上下文已被压缩：已从 .agent/memory/ 重新加载记忆，以记忆为准，而非摘要。"
            "这是同一任务的继续，不是新会话：不要从头开始或打招呼；继续“进行中”的事项和用户最近的请求。"
        ),
        "reloaded": (
            "agenthooks 检测到上下文压缩并已重新加载记忆：请以 .agent/memory/ 为准，而非对话摘要。"
            "这是同一任务的继续，不是新会话：不要从头开始或打招呼；继续“进行中”的事项和用户最近的请求。"
        ),
        "remind": (
            "agenthooks：@BOARD@ 已 %s 分钟未更新。如果任务阶段有变化（完成了一步、"
            "做了决定），请现在更新“进行中”和“关键决策”；不要记录每次修改。"
        ),
        "flush": "agenthooks：上下文已用 %s%%，即将压缩：请现在更新 @BOARD@（进行中、关键决策、已放弃）。",
        "stale": "agenthooks：@BOARD@ 比你最近一次修改早 %s 分钟：继续之前，请对照代码核对“进行中”。",
        "block_failed": "agenthooks：本次无法生成记忆块；请自行阅读 .agent/memory/tattoo.md 和 @BOARD@。",
        "memory_gone": "agenthooks：.agent/memory/ 暂时不存在（被重命名，或 git checkout 进行中）；未加载项目记忆：恢复后请自行阅读 .agent/memory/（'agenthooks install' 可恢复）。",
        "memory_missing": "agenthooks：.agent/memory/ 缺少 %s：未加载（'agenthooks install' 可恢复）。",
        "memory_outside": "agenthooks：未加载 .agent/memory/ %s：它是指向本仓库之外的符号链接（钩子不读取仓库以外的内容）。",
        "fresh": "本会话已被压缩 %d 次：方便时请开启新会话；记忆会延续（.agent/memory/）。",
        "working": "压缩之前（由 agenthooks 记下）",
        "working_files": "你正在编辑的文件（最近的在后）：%s",
        "working_request": "用户最新的请求：%s",
        "working_cut": "[……为控制预算省略了 %d 行：请读 %s]",
        "summary_intro": "总结这段对话时，请原样保留以下内容（.agent/memory/ 是持久记录；压缩之后 agenthooks 会重新加载它）：",
        "summary_rules": "项目硬约束（必须遵守）：",
        "summary_rules_file": "项目的 %d 条硬约束：见 .agent/memory/tattoo.md。",
        "summary_progress": "进行中：",
        "summary_decisions": "关键决策：",
        "summary_more": "（另有 %d 条，见 @BOARD@）",
        "summary_request": "用户最新的请求：%s",
        "summary_files": "正在编辑的文件（最近的在后）：%s",
        "audit_dropped": "agenthooks：压缩摘要漏掉了 %s；记忆块里有它们：以记忆块为准。",
        "audit_done": "agenthooks：压缩摘要说 %s 已完成，而进度板并没有：继续之前请先核对。",
        "audit_rule": "约束 %d（“%s”）",
        "audit_item": "进行中第 %d 项（“%s”）",
        "package_rules": "包 %s 的约束（%s），适用于你在其中的工作（必须遵守；项目约束同样有效）：",
        "package_cut": "[……为控制预算省略了本包的另外 %d 条约束：请读 %s]",
        "subagent_intro": "本子代理的项目记忆（.agent/memory/）：约束和主任务的“进行中”条目。",
        "subagent_rules_cut": "[……为控制预算省略了 %d 条约束：请读 .agent/memory/tattoo.md]",
        "subagent_progress": "进行中（主任务；见 @BOARD@）",
        "changed": "agenthooks：%s 在 %s 被改动了，不是本会话的修改，而是在本会话上次读取之后：更新它之前请先重新读一遍。",
    },
}
