"""Pi: a TypeScript extension wholly ours, .pi/extensions/agenthooks.ts.

Pi has no shell hooks; its extensions (loaded from .pi/extensions/ with no build step and
no trust step) subscribe to its events, and this one starts the bash hooks:
  before_agent_start -> pre_task: the block is appended to the system prompt Pi rebuilds
      for every prompt, so no compaction ever summarizes it away (pre_task runs for real
      on the first prompt of a session in each process; later prompts take `--show`);
  session_compact (after /compact or an automatic compaction) -> pre_task with
      source=compact, which logs the compaction and reloads memory; its block is the
      system prompt's on the next prompt;
  tool_result of edit and write -> post_edit, whose reminder is appended to the tool
      result the model reads."""
from __future__ import annotations

from pathlib import Path

from agenthooks.answer_types import Answers
from agenthooks.files import OWNER_ID, PlannedFile, owned_files
from agenthooks.templating import render_template
from agenthooks.frameworks._contract import Framework

NAME = "pi"
# Paths that, when present in a repo, suggest pi is in use.
DETECT: tuple[str, ...] = (".pi",)
ON_MACHINE = (".pi", "pi")
PATH = ".pi/extensions/agenthooks.ts"


def extension_text() -> str:
    """The extension, from templates/frameworks/pi/agenthooks.ts.j2."""
    return render_template("frameworks/pi/agenthooks.ts.j2", owner_id=OWNER_ID)


def plan(root: Path, answers: Answers) -> list[PlannedFile]:
    return [PlannedFile(PATH, extension_text(), 0o644, "owned", f"frameworks/{NAME}")]


def unregister(root: Path) -> list[tuple[str, str | None]]:
    return owned_files(root, PATH)


def next_steps(answers: Answers) -> list[str]:
    return ["Pi: start pi in this repo (or /reload a running session) to load "
            ".pi/extensions/agenthooks.ts (needs bash on PATH)."]


FRAMEWORK = Framework(
    name=NAME, detect=DETECT, plan=plan, unregister=unregister, next_steps=next_steps,
    on_machine=ON_MACHINE,
)
