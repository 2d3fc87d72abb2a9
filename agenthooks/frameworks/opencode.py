"""OpenCode: a TypeScript plugin wholly ours, .opencode/plugins/agenthooks.ts.

OpenCode has no shell hooks; the plugin shells out to the bash hooks with Bun's $:
  experimental.chat.system.transform -> pre_task: the memory block is pushed into the
      system prompt of every request (pre_task runs for real once per session and after a
      compaction; in between `--show` rebuilds it fresh without writing anything);
  event session.compacted -> pre_task with source=compact at once (it logs the compaction
      and reloads memory, also when no request follows in that process); the next request
      takes its block;
  tool.execute.after for edit/write/patch/multiedit -> post_edit, whose reminder is
      appended to the tool output the model reads;
  experimental.session.compacting -> on_compact as PreCompact: what the summary must keep is
      added to OpenCode's summary prompt (output.context)."""
from __future__ import annotations

from pathlib import Path

from agenthooks.answer_types import Answers
from agenthooks.files import OWNER_ID, PlannedFile, owned_files
from agenthooks.templating import render_template
from agenthooks.frameworks._contract import Framework

NAME = "opencode"
# Paths that, when present in a repo, suggest opencode is in use.
DETECT: tuple[str, ...] = (".opencode", "opencode.json")
# experimental.session.compacting: the plugin adds on_compact's PreCompact output to the
# summary prompt (summary_budget_tokens).
SUMMARY_INSTRUCTIONS = True
PATH = ".opencode/plugins/agenthooks.ts"

def plugin_text() -> str:
    """The plugin, from templates/frameworks/opencode/agenthooks.ts.j2."""
    return render_template("frameworks/opencode/agenthooks.ts.j2", owner_id=OWNER_ID)


def plan(root: Path, answers: Answers) -> list[PlannedFile]:
    return [PlannedFile(PATH, plugin_text(), 0o644, "owned", "frameworks/opencode")]


def unregister(root: Path) -> list[tuple[str, str | None]]:
    return owned_files(root, PATH)


def next_steps(answers: Answers) -> list[str]:
    return ["OpenCode: restart opencode in this repo to load .opencode/plugins/agenthooks.ts "
            "(needs bash on PATH)."]


FRAMEWORK = Framework(
    name=NAME, detect=DETECT, plan=plan, unregister=unregister, next_steps=next_steps,
    summary_instructions=SUMMARY_INSTRUCTIONS,
)
