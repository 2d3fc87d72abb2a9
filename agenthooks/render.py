"""The render plan: which template makes which file, and the context they are rendered with
(the Jinja environment is templating.py's)."""
from __future__ import annotations

from typing import Any

from agenthooks import config, frameworks, platforms, redact, statefiles, usermessages
from agenthooks.answer_types import Answers
from agenthooks.files import KNOWN_OWNER_IDS, OWNER_ID, PlannedFile  # noqa: F401 - re-exported
from agenthooks.templating import environment, templates_dir  # noqa: F401 - re-exported

HOOKS = ("pre_task", "post_edit", "on_compact")
# The hooks' library, .agent/hooks/lib/: sourced (the .sh) or run by awk -f (the .awk), never
# run as commands. Every render has every part: lock.sh is the lock where flock is missing or fails.
LIB = ("prelude.sh", "where.sh", "io.sh", "say.sh", "cache.sh", "runtime.sh", "lock.sh", "context.sh",
       "state.sh", "block.sh", "memory.awk", "block.awk", "clean.awk", "archive.sh", "working.sh",
       "compaction.sh", "audit.awk", "scopes.sh", "subagent.sh", "json.sh", "anyjson.sh")

# Bump a template's rev only when its output changes; upgrades compare revs. The hooks and
# their library are one release: the loader checks each part's rev against the hooks'.
TEMPLATE_REVS = {
    "hooks/pre_task.sh": 9,
    "hooks/post_edit.sh": 9,
    "hooks/on_compact.sh": 9,
    **{f"hooks/lib/{name}": 9 for name in LIB},
    "config.yaml": 4,
    "agent/gitignore": 1,
    "agent/gitattributes": 2,
}


def context(answers: Answers) -> dict[str, Any]:
    lib_rev = TEMPLATE_REVS["hooks/pre_task.sh"]
    env = environment()
    lang = answers["lang"]
    memory = {
        name: env.get_template(f"memory/{lang}/{name}.md.j2").render()
        for name in ("tattoo", "snapshot", "notes")
    }
    selected = answers["frameworks"]
    return {
        "platforms": answers["platforms"],
        "frameworks": selected,
        "known_frameworks": frameworks.NAMES,
        "transcript_frameworks": [f for f in frameworks.TRANSCRIPTS if f in selected],
        "inline_tokens": {f: c for f, c in frameworks.INLINE_TOKENS.items() if f in selected},
        "profile": platforms.profile(answers["platforms"]).as_dict(),
        "tunables": config.TUNABLES,
        "config_header": config.HEADER,
        "bash_value": config.bash_value,
        "int_bounds": config.INT_BOUNDS,
        "config_vars": config.BASH_VARS,
        "config_version": config.CONFIG_VERSION,
        "answers": answers,
        # The repo's own words (.agent/messages.yaml, recorded as an answer) over the release's.
        "msg": usermessages.apply(lang, answers.get("messages")),
        "memory_templates": memory,
        "lookalikes": redact.awk_lookalikes(),
        "slots": frameworks.hook_slots(selected),
        "tail_search": frameworks.transcript_search(selected),
        "formats": statefiles.formats(lib_rev),
        "effects": statefiles.effects_header,
        "secret_pieces": redact.awk_source(),
        "secret_file_arms": redact.secret_file_arms(),
        # Frameworks whose pre-compaction output reaches the host's summarizer (SUMMARY_EVENT).
        "summary_frameworks": [fw for fw in frameworks.SUMMARIES if fw in selected],
        "invisible_source": redact.awk_invisible_source(),
        "key_eres": redact.awk_key(),
        # The rev of the tree rendered: its loader's release check.
        "lib_rev": lib_rev,
    }


def render(name: str, ctx: dict[str, Any], **extra: Any) -> str:
    text = environment().get_template(name + ".j2").render(**ctx, **extra)
    return text.replace("\r\n", "\n")


def plan(answers: Answers) -> list[PlannedFile]:
    """Everything install would write under .agent/, rendered, in a stable order."""
    ctx = context(answers)
    config_text = render("config.yaml", ctx)
    files = []
    for hook in HOOKS:
        name = f"hooks/{hook}.sh"
        owner = f"{OWNER_ID} template={name}@{TEMPLATE_REVS[name]}"
        text = render(name, ctx, hook=hook, owner_line=owner)
        files.append(PlannedFile(f".agent/{name}", text, 0o755, "owned", name))
    for part in LIB:
        name = f"hooks/lib/{part}"
        owner = f"{OWNER_ID} template={name}@{TEMPLATE_REVS[name]}"
        text = render(name, ctx, hook=part, owner_line=owner)
        files.append(PlannedFile(f".agent/{name}", text, 0o644, "owned", name))
    for name, dest in (("agent/gitignore", ".agent/.gitignore"),
                       ("agent/gitattributes", ".agent/.gitattributes")):
        files.append(PlannedFile(dest, render(name, ctx), 0o644, "owned", name))
    files.append(PlannedFile(".agent/config.yaml", config_text, 0o644, "config", "config.yaml"))
    for name, text in ctx["memory_templates"].items():
        # A branch's board (board: local, branch) is the installer's to place: install.py.
        if name != "snapshot" or answers.get("board", "shared") == "shared":
            files.append(PlannedFile(f".agent/memory/{name}.md", text, 0o644, "memory"))
    files.append(PlannedFile(".agent/log/memory.log", "", 0o644, "log"))
    return files
