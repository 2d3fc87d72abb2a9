"""Aider: `read: [.agent/injected_context.txt]` merged into .aider.conf.yml (shared).

Aider has no hooks. Files listed under `read:` are sent read-only with every request and
are never summarized away, so the memory block survives history summarization. The file is
written by pre_task: install runs it once (post_install), and any later pre_task run (from
another framework, or by hand) refreshes it.

The merge is a minimal text edit so the user's comments, order and other keys survive;
PyYAML only checks the result. No lint-cmd: aider shows a lint command's output to the
model only when it exits non-zero, and then asks the model to "fix" it (up to three
rounds per edit); a lint-cmd without a language prefix also replaces aider's own linters.
A reminder cannot be delivered that way without breaking aider's lint loop."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

from agenthooks import hookrun
from agenthooks.answer_types import Answers
from agenthooks.config import yaml_module
from agenthooks.errors import UserError
from agenthooks.files import PlannedFile
from agenthooks.frameworks._contract import Framework
from agenthooks.frameworks._start import BASH

NAME = "aider"
# Paths that, when present in a repo, suggest aider is in use.
DETECT: tuple[str, ...] = (".aider.conf.yml",)
PATH = ".aider.conf.yml"
ENTRY = ".agent/injected_context.txt"
_READ_RE = re.compile(r"^read[ \t]*:(.*)$")


def _parse(text: str) -> Any:
    yaml = yaml_module()
    try:
        return yaml.safe_load(text) if text.strip() else {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark is not None else ""
        raise UserError(f"{PATH} is not valid YAML{where}",
                        hint=f"fix {PATH} (or move it aside), then run agenthooks install again") from None


def _reads(data: Any) -> list[str]:
    if not isinstance(data, dict):
        raise UserError(f"{PATH} is not a YAML mapping",
                        hint=f"fix {PATH}, then run agenthooks install again")
    val = data.get("read")
    if val is None:
        return []
    return [str(v) for v in val] if isinstance(val, list) else [str(val)]


def merged_text(text: str) -> str:
    """text with ENTRY in its top-level `read:` list; unchanged when already there."""
    data = _parse(text)
    if ENTRY in _reads(data):
        return text
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    idx = next((i for i, ln in enumerate(lines) if _READ_RE.match(ln.rstrip("\r\n"))), None)
    if idx is None:
        lines.append(f"read: [{ENTRY}]\n")
    else:
        rest = _READ_RE.match(lines[idx].rstrip("\r\n")).group(1)  # type: ignore[union-attr]
        m = re.match(r"^(.*?)([ \t]+#.*)?$", rest)
        value, comment = m.group(1).strip(), m.group(2) or ""  # type: ignore[union-attr]
        if value.startswith("[") and value.endswith("]"):
            inner = value[1:-1].strip()
            new = f"[{inner}, {ENTRY}]" if inner else f"[{ENTRY}]"
            lines[idx] = f"read: {new}{comment}\n"
        elif value:
            lines[idx] = f"read: [{value}, {ENTRY}]{comment}\n"
        else:
            # A block list: add our item after its last item, with the same indent.
            j, indent = idx + 1, "  "
            last = idx
            while j < len(lines):
                m = re.match(r"^([ \t]*)- ", lines[j])
                if m:
                    indent, last = m.group(1), j
                elif lines[j].strip() and not lines[j].lstrip().startswith("#"):
                    break
                j += 1
            lines.insert(last + 1, f"{indent}- {ENTRY}\n")
    out = "".join(lines)
    data2 = _parse(out)
    reads_before = _reads(data)
    if _reads(data2) != reads_before + [ENTRY] or {k: v for k, v in data2.items() if k != "read"} != \
            {k: v for k, v in data.items() if k != "read"}:
        raise UserError(f"{PATH}: could not add {ENTRY} to read: safely",
                        hint=f"add `read: [{ENTRY}]` to {PATH} by hand")
    return out


def removed_text(text: str) -> str | None:
    """text without ENTRY; None when nothing else is left; text unchanged when absent."""
    data = _parse(text)
    if ENTRY not in _reads(data):
        return text
    out: list[str] = []
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        if re.match(rf"^[ \t]*-[ \t]*['\"]?{re.escape(ENTRY)}['\"]?[ \t]*$", body):
            continue
        m = _READ_RE.match(body)
        if m and ENTRY in m.group(1):
            value = m.group(1)
            value = re.sub(rf",[ \t]*['\"]?{re.escape(ENTRY)}['\"]?", "", value)
            value = re.sub(rf"['\"]?{re.escape(ENTRY)}['\"]?[ \t]*,?[ \t]*", "", value)
            if value.strip() in ("[]", ""):
                continue
            line = f"read:{value}\n"
        out.append(line)
    result = "".join(out)
    data2 = _parse(result)
    if isinstance(data2, dict) and "read" in data2 and data2["read"] is None:
        # Our item was the only one of a block list: the bare `read:` goes too.
        result = "".join(ln for ln in result.splitlines(keepends=True)
                         if not re.match(r"^read[ \t]*:[ \t]*$", ln.rstrip("\r\n")))
    if not result.strip() or _parse(result) in ({}, None):
        return None
    return result


def plan(root: Path, answers: Answers) -> list[PlannedFile]:
    path = root / PATH
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    return [PlannedFile(PATH, merged_text(text), 0o644, "registration", f"frameworks/{NAME}")]


def post_install(root: Path, answers: Answers) -> None:
    """Aider has no start hook: write .agent/injected_context.txt now."""
    hook = root / ".agent/hooks/pre_task.sh"
    if not hook.is_file():
        return
    try:
        hookrun.run([*BASH.split(), str(hook), NAME], cwd=root, stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60, check=False)
    except (OSError, subprocess.SubprocessError):
        pass


def unregister(root: Path) -> list[tuple[str, str | None]]:
    path = root / PATH
    if not path.is_file():
        return []
    try:
        text = path.read_text(encoding="utf-8")
        new = removed_text(text)
    except (OSError, UserError):
        return []
    return [] if new == text else [(PATH, new)]


def next_steps(answers: Answers) -> list[str]:
    return ["Aider: memory is read from .agent/injected_context.txt (written now); refresh it "
            "before a session with `bash -p .agent/hooks/pre_task.sh aider </dev/null >/dev/null`, "
            "e.g. in a shell alias for aider."]


FRAMEWORK = Framework(
    name=NAME, detect=DETECT, plan=plan, unregister=unregister, next_steps=next_steps,
    post_install=post_install,
)
