"""The render plan: which template makes which file, and the context they are rendered with
(the Jinja environment is templating.py's)."""
from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

from agenthooks import __version__, config, frameworks, messages, platforms, redact, statefiles, \
    usermessages
from agenthooks.answer_types import Answers
from agenthooks.files import KNOWN_OWNER_IDS, OWNER_ID, PlannedFile  # noqa: F401 - re-exported
from agenthooks.templating import environment, templates_dir  # noqa: F401 - re-exported

HOOKS = ("pre_task", "post_edit", "on_compact")
# The hooks' library, .agent/hooks/lib/: sourced (the .sh) or run by awk -f (the .awk), never
# run as commands. Every render has every part: lock.sh is the lock where flock is missing or fails.
LIB = ("prelude.sh", "where.sh", "io.sh", "say.sh", "cache.sh", "runtime.sh", "lock.sh", "context.sh",
       "state.sh", "block.sh", "memory.awk", "block.awk", "clean.awk", "archive.sh", "working.sh",
       "compaction.sh", "audit.awk", "scopes.sh", "subagent.sh")

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


def envelopes(template_root: str | None = None) -> list[str]:
    """Frameworks with an output envelope: those whose own templates hold one
    (templates/frameworks/<name>/envelope.sh.j2); the others get plain text."""
    base = Path(template_root) if template_root else templates_dir()
    return [n for n in frameworks.NAMES if (base / "frameworks" / n / "envelope.sh.j2").is_file()]


def context(answers: Answers, template_root: str | None = None,
            revs: dict[str, int] | None = None) -> dict[str, Any]:
    lib_rev = (revs or TEMPLATE_REVS)["hooks/pre_task.sh"]
    env = environment(template_root)
    lang = answers["lang"]
    memory = {
        name: env.get_template(f"memory/{lang}/{name}.md.j2").render()
        for name in ("tattoo", "snapshot", "notes")
    }
    selected = answers["frameworks"]
    return {
        "version": __version__,
        "platforms": answers["platforms"],
        "frameworks": selected,
        "known_frameworks": frameworks.NAMES,
        "transcript_frameworks": [f for f in frameworks.TRANSCRIPTS if f in selected],
        "inline_tokens": {f: c for f, c in frameworks.INLINE_TOKENS.items() if f in selected},
        "profile": platforms.profile(answers["platforms"]).as_dict(),
        "defaults": config.DEFAULTS,
        "tunables": config.TUNABLES,
        "config_defaults": " ".join(f"{t.var}={shlex.quote(config.bash_value(t))}"
                                    for t in config.TUNABLES),
        "config_header": config.HEADER,
        "bash_value": config.bash_value,
        "int_bounds": config.INT_BOUNDS,
        "config_vars": config.BASH_VARS,
        "config_version": config.CONFIG_VERSION,
        "answers": answers,
        # A past release's templates (tests install one) knew one board, snapshot.md.
        # The repo's own words (.agent/messages.yaml, recorded as an answer) over the release's.
        "msg": usermessages.apply(lang, answers.get("messages")) if not template_root else
        {k: v.replace("@BOARD@", ".agent/memory/snapshot.md") for k, v in messages.MESSAGES[lang].items()},
        "memory_templates": memory,
        "secret_eres": redact.awk_patterns(),
        "lookalikes": redact.awk_lookalikes(),
        "secret_ere": redact.combined_ere(),  # templates before hooks rev 4
        "envelope_frameworks": envelopes(template_root),
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
        "config_default_words": [f"{t.var}={shlex.quote(config.bash_value(t))}" for t in config.TUNABLES],
        # The rev of the tree rendered: its config.values tag and its loader's release check.
        "cache_rev": lib_rev,
        "lib_rev": lib_rev,
    }


def render(name: str, ctx: dict[str, Any], template_root: str | None = None, **extra: Any) -> str:
    text = environment(template_root).get_template(name + ".j2").render(**ctx, **extra)
    return text.replace("\r\n", "\n")


def lib_parts(ctx: dict[str, Any], template_root: str | None) -> list[str]:
    """The library files this render makes: those a past release's templates hold (none
    before hooks/lib/ existed; before release 9, lock.sh only where the portable lock might
    be needed)."""
    lib = (Path(template_root) if template_root else templates_dir()) / "hooks" / "lib"
    old = (revs_of(template_root) or {}).get("hooks/pre_task.sh", 9) < 9
    return [part for part in LIB if (lib / f"{part}.j2").is_file()
            and (part != "lock.sh" or not old or ctx["profile"]["lock"] != "flock")]


def revs_of(template_root: str | None) -> dict[str, int] | None:
    """A past release's template revs (its revs.json), or None for ours."""
    if not template_root:
        return None
    import json

    path = Path(template_root) / "revs.json"
    return json.loads(path.read_text()) if path.is_file() else None


def plan(answers: Answers, template_root: str | None = None,
         revs: dict[str, int] | None = None) -> list[PlannedFile]:
    """Everything install would write under .agent/, rendered, in a stable order (revs: the
    template revs of another template tree, for a past release's hooks)."""
    revs = revs or TEMPLATE_REVS
    ctx = context(answers, template_root, revs)
    config_text = render("config.yaml", ctx, template_root)
    files = []
    for hook in HOOKS:
        name = f"hooks/{hook}.sh"
        owner = f"{OWNER_ID} template={name}@{revs[name]}"
        # The hooks carry the config as installed: while the file is unchanged, no run parses it.
        text = render(name, ctx, template_root, hook=hook, owner_line=owner, config_text=config_text)
        files.append(PlannedFile(f".agent/{name}", text, 0o755, "owned", name))
    for part in lib_parts(ctx, template_root):
        name = f"hooks/lib/{part}"
        owner = f"{OWNER_ID} template={name}@{revs[name]}"
        text = render(name, ctx, template_root, hook=part, owner_line=owner)
        files.append(PlannedFile(f".agent/{name}", text, 0o644, "owned", name))
    for name, dest in (("agent/gitignore", ".agent/.gitignore"),
                       ("agent/gitattributes", ".agent/.gitattributes")):
        files.append(PlannedFile(dest, render(name, ctx, template_root), 0o644, "owned", name))
    files.append(PlannedFile(".agent/config.yaml", config_text, 0o644, "config", "config.yaml"))
    for name, text in ctx["memory_templates"].items():
        # A branch's board (board: local, branch) is the installer's to place: install.py.
        if name != "snapshot" or answers.get("board", "shared") == "shared":
            files.append(PlannedFile(f".agent/memory/{name}.md", text, 0o644, "memory"))
    files.append(PlannedFile(".agent/log/memory.log", "", 0o644, "log"))
    return files
