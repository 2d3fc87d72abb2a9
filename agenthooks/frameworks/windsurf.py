"""Windsurf (Cascade): .windsurf/hooks.json (shared, merged) and an always-on rules file.

Windsurf hooks cannot put text in front of the model (stdout is shown to the user only),
and there is no session-start or compaction event. So the durable layer is the rules file
.windsurf/rules/agent-memory.md (wholly ours; Cascade re-sends always-on rules with each
request), which tells the agent to read .agent/memory/. post_write_code -> post_edit
keeps the audit log and shows the stale-snapshot reminder to the user."""
from __future__ import annotations

from pathlib import Path

from agenthooks.frameworks import _jsonhooks
from agenthooks.files import OWNER_ID, PlannedFile

NAME = "windsurf"
PATH = ".windsurf/hooks.json"
RULES = ".windsurf/rules/agent-memory.md"


def command(hook: str) -> str:
    return f"bash .agent/hooks/{hook}.sh {NAME}"


def entries() -> dict[str, list[dict]]:  # type: ignore[type-arg]
    return {"post_write_code": [{"command": command("post_edit"), "show_output": True}]}


def rules_text(answers: dict) -> str:  # type: ignore[type-arg]
    if answers.get("lang") == "zh":
        body = (
            "# 项目记忆\n\n"
            "本仓库把长期记忆放在 `.agent/memory/`：\n\n"
            "- `.agent/memory/tattoo.md`：必须遵守的硬性规则。\n"
            "- `.agent/memory/snapshot.md`：当前任务快照（目标、已完成、进行中、待办、关键决定）。\n"
            "- `.agent/memory/notes.md`：经验笔记。\n\n"
            "开始任务前、以及对话被压缩或总结之后，先读 tattoo.md 和 snapshot.md。"
            "它们比对话中更早的内容更新：有出入时以它们为准。"
            "进度或决定变化时更新 snapshot.md。\n"
        )
    else:
        body = (
            "# Project memory\n\n"
            "This repository keeps its long-lived memory in `.agent/memory/`:\n\n"
            "- `.agent/memory/tattoo.md`: hard rules that must always be followed.\n"
            "- `.agent/memory/snapshot.md`: the current task (Goal, Done, In progress, Todo, "
            "Key decisions).\n"
            "- `.agent/memory/notes.md`: lessons learned.\n\n"
            "Read tattoo.md and snapshot.md before starting a task and again whenever the "
            "conversation has been compacted or summarized. They are current: where they "
            "differ from anything earlier in the conversation, they win. Update snapshot.md "
            "when progress or a decision changes.\n"
        )
    return f"---\ntrigger: always_on\n---\n<!-- {OWNER_ID} template=frameworks/windsurf-rules -->\n\n{body}"


def plan(root: Path, answers: dict) -> list[PlannedFile]:  # type: ignore[type-arg]
    text = _jsonhooks.plan_text(root, PATH, entries(), "flat")
    return [PlannedFile(PATH, text, 0o644, "registration", f"frameworks/{NAME}"),
            PlannedFile(RULES, rules_text(answers), 0o644, "owned", "frameworks/windsurf-rules")]


def unregister(root: Path) -> list[tuple[str, str | None]]:
    out = _jsonhooks.unregister(root, PATH, "flat")
    rules = root / RULES
    if rules.is_file() and OWNER_ID.encode() in rules.read_bytes():
        out.append((RULES, None))
    return out


def next_steps(answers: dict) -> list[str]:  # type: ignore[type-arg]
    return ["Windsurf: hooks cannot reach the model; the always-on rule "
            f"{RULES} tells Cascade to read .agent/memory/. Hooks do not run in Restricted Mode."]
