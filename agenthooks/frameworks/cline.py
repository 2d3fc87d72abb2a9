"""Cline: executable hook files wholly ours under .clinerules/hooks/ (extension 3.x/4.x).

Cline (extension 4.x, CLI 3.x) passes hook output to the model only from PreToolUse and
PostToolUse, and has no task-start signal and no PreCompact it acts on. So:
  PreToolUse  -> on_compact: memory on the FIRST tool call of a task (a task id without
                 hook state yet), on the first tool call after a compaction (Cline CLI's
                 SESSION.compaction.json has a new updated_at, see
                 templates/frameworks/cline/detect.sh.j2), and every reload_turns tool calls.
  PostToolUse -> post_edit, for edit tools only (editor, apply_patch, write_to_file,
                 replace_in_file): the stale-snapshot reminder.
Each file is a small bash wrapper: it always prints exactly one JSON line, {"cancel":false}
when the hook has nothing to say or fails, so Cline never cancels a tool because of us."""
from __future__ import annotations

from pathlib import Path

from agenthooks.answer_types import Answers
from agenthooks.files import OWNER_ID, PlannedFile, owned_files
from agenthooks.templating import render_template
from agenthooks.frameworks._contract import Framework

NAME = "cline"
# Paths that, when present in a repo, suggest cline is in use.
DETECT: tuple[str, ...] = (".clinerules", ".cline")
# Its code in the hooks: slot -> template under templates/frameworks/NAME/ (render.slots).
HOOK_SLOTS = {"envelope": "envelope.sh.j2", "detect": "detect.sh.j2", "reload": "on_compact.sh.j2"}
DIR = ".clinerules/hooks"
EDIT_TOOLS = "editor|apply_patch|write_to_file|replace_in_file"

def wrapper(event: str, hook: str) -> str:
    """A wrapper, from templates/frameworks/cline/wrapper.sh.j2; PostToolUse runs the
    hook for edit tools only."""
    return render_template("frameworks/cline/wrapper.sh.j2", event=event, hook=hook,
                           owner_id=OWNER_ID,
                           edit_tools=EDIT_TOOLS if event == "PostToolUse" else "")


FILES = (("PreToolUse", "on_compact"), ("PostToolUse", "post_edit"))


def plan(root: Path, answers: Answers) -> list[PlannedFile]:
    return [PlannedFile(f"{DIR}/{event}", wrapper(event, hook), 0o755, "owned",
                        f"frameworks/cline/{event}") for event, hook in FILES]


def unregister(root: Path) -> list[tuple[str, str | None]]:
    return owned_files(root, *(f"{DIR}/{event}" for event, _hook in FILES))


def next_steps(answers: Answers) -> list[str]:
    return ["Cline: turn hooks on (extension setting 'Enable Hooks'; CLI: "
            "cline config set hooks-enabled=true). Tested with Cline CLI 3.0.65, which passes "
            "PreToolUse and PostToolUse output to the model; memory arrives with the first "
            "tool call."]


FRAMEWORK = Framework(
    name=NAME, detect=DETECT, plan=plan, unregister=unregister, next_steps=next_steps,
    hook_slots=HOOK_SLOTS,
)
