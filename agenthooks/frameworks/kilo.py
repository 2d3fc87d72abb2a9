"""Kilo CLI: a TypeScript plugin wholly ours, .kilo/plugins/agenthooks.ts.

Kilo is a fork of OpenCode with its plugin API, but it reads .kilo/ (and the legacy
.kilocode/), never .opencode/: the OpenCode plugin (see opencode.py), placed there and
naming kilo to the hooks:
  experimental.chat.system.transform -> pre_task: the block in the system prompt of every
      request (pre_task runs for real once per session and after a compaction; in between
      `--show` rebuilds it without writing anything);
  event session.compacted -> pre_task with source=compact at once (also when no request
      follows: `kilo run --command compact`); the next request takes its block;
  tool.execute.after for edit/write/patch/multiedit -> post_edit, whose reminder is
      appended to the tool output the model reads.
No trust step: Kilo loads project plugins as it starts."""
from __future__ import annotations

from pathlib import Path

from agenthooks.answer_types import Answers
from agenthooks.files import OWNER_ID, PlannedFile, owned_files
from agenthooks.templating import render_template
from agenthooks.frameworks._contract import Framework

NAME = "kilo"
# Paths that, when present in a repo, suggest kilo is in use.
DETECT: tuple[str, ...] = (".kilo", ".kilocode", "kilo.json")
ON_MACHINE = (".config/kilo", "kilo")
# experimental.session.compacting (OpenCode's plugin API): the plugin adds on_compact's
# PreCompact output to the summary prompt (summary_budget_tokens).
SUMMARY_INSTRUCTIONS = True
PATH = ".kilo/plugins/agenthooks.ts"


def plugin_text() -> str:
    """The plugin, from templates/frameworks/kilo/agenthooks.ts.j2."""
    return render_template("frameworks/kilo/agenthooks.ts.j2", owner_id=OWNER_ID, host=NAME,
                           host_title="Kilo")


def plan(root: Path, answers: Answers) -> list[PlannedFile]:
    return [PlannedFile(PATH, plugin_text(), 0o644, "owned", f"frameworks/{NAME}")]


def unregister(root: Path) -> list[tuple[str, str | None]]:
    return owned_files(root, PATH)


def next_steps(answers: Answers) -> list[str]:
    return ["Kilo: start kilo in this repo to load .kilo/plugins/agenthooks.ts "
            "(needs bash on PATH); a running session loads it on its next start."]


FRAMEWORK = Framework(
    name=NAME, detect=DETECT, plan=plan, unregister=unregister, next_steps=next_steps,
    on_machine=ON_MACHINE, summary_instructions=SUMMARY_INSTRUCTIONS,
)
