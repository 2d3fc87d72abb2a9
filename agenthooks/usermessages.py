""".agent/messages.yaml: the texts the hooks say to the agent, worded by the user without
editing bash.

The hooks carry their texts as constants (no file is read for them at run time). A repo that
wants other words writes `NAME: text` lines to .agent/messages.yaml (committed, reviewed like
code); `agenthooks install` checks them and renders the hooks with them, so an upgrade
re-renders the hooks with the user's words instead of stopping on a hook edited by hand.
The file holds only what differs (`agenthooks messages` prints every name with its text);
the words that are not in it stay the release's, and improve with it.

Each text is checked before anything is written: a name the hooks know, one line, no
backslash or control character, the default's placeholders (%s, %d, %%) in the default's
order and no other %, at most MAX_TEXT characters, nothing that looks like a secret. The
block's three headings (FIXED) are not changed here: agenthooks' own tools read them back."""
from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Any

from agenthooks import messages, redact
from agenthooks.errors import UserError

PATH = ".agent/messages.yaml"
# The headings show and status find the block's sections by.
FIXED = ("rules", "snapshot", "notes")
MAX_TEXT = 1000
MAX_BYTES = 65536
_PERCENT = re.compile(r"%(?:.|$)", re.S)
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def editable(lang: str) -> dict[str, str]:
    """The texts of LANG a messages.yaml may change, by name."""
    return {k: v for k, v in messages.MESSAGES[lang].items() if k not in FIXED}


def problem(lang: str, name: object, text: object) -> str | None:
    """Why NAME: TEXT cannot be a text of the hooks (None when it can)."""
    if not isinstance(name, str) or name not in messages.MESSAGES[lang]:
        return f"{name!r} is not a text of the hooks (agenthooks messages lists them)"
    if name in FIXED:
        return f"{name} is a heading agenthooks reads back from the block (show, status), kept as it is"
    if not isinstance(text, str) or not text.strip():
        return f"{name} must be a line of text"
    if len(text) > MAX_TEXT:
        return f"{name} is over {MAX_TEXT} characters"
    if _CONTROL.search(text) or "\\" in text:
        return f"{name} must be one line, with no backslash or control character"
    want = _PERCENT.findall(messages.MESSAGES[lang][name])
    if _PERCENT.findall(text) != want:
        where = ", ".join(want) if want else "none"
        return (f"{name} must keep the placeholders of its default in that order ({where}; "
                "%% is a percent sign) and no other %")
    if redact.find_secrets(text):
        return f"{name} looks like it holds a secret"
    return None


def apply(lang: str, given: Any) -> dict[str, str]:
    """The texts of LANG with GIVEN's (a recorded answer) put in: only those that pass the
    check, so that a manifest edited by hand renders what a messages.yaml could."""
    out = dict(messages.MESSAGES[lang])
    if isinstance(given, dict):
        out.update({k: v for k, v in given.items() if problem(lang, k, v) is None})
    return out


def read(root: Path, lang: str) -> dict[str, str]:
    """The checked texts of ROOT's .agent/messages.yaml ({} without one). A file that is a
    link, not a regular file, not YAML, or holds a text the hooks cannot say is a UserError
    naming it; nothing has been written then."""
    path = root / PATH
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise UserError(f"cannot read {PATH}: {exc}") from None
    if not stat.S_ISREG(st.st_mode):
        what = "a link" if stat.S_ISLNK(st.st_mode) else "not a regular file"
        raise UserError(f"{PATH} is {what}: not read", hint=f"make {PATH} a plain file of NAME: text lines")
    if st.st_size > MAX_BYTES:
        raise UserError(f"{PATH} is over {MAX_BYTES // 1024} KB: not read")
    from agenthooks.config import yaml_module

    yaml = yaml_module()
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise UserError(f"{PATH} is not readable YAML: {first}",
                        hint="each line is NAME: text (quote a text that holds a colon)") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise UserError(f"{PATH} must be a mapping of NAME: text lines")
    for name, text in data.items():
        why = problem(lang, name, text)
        if why:
            raise UserError(f"{PATH}: {why}: nothing was written",
                            hint="agenthooks messages prints every text the hooks say, by name")
    return {str(k): str(v) for k, v in data.items() if v != messages.MESSAGES[lang][str(k)]}


def listing(root: Path | None, lang: str) -> str:
    """Every text of LANG a messages.yaml may change, as YAML, with ROOT's own words where
    its messages.yaml has them (marked)."""
    own = read(root, lang) if root is not None else {}
    import json

    lines = [f"# The texts the hooks say to the agent ({lang}). Keep in {PATH} only the ones you",
             "# change, then run agenthooks install: the hooks are rendered with them.",
             "# Keep each text's %s / %d / %% placeholders, in order; @BOARD@ names the board."]
    for name, default in editable(lang).items():
        text = own.get(name, default)
        mark = "  # yours" if name in own else ""
        lines.append(f"{name}: {json.dumps(text, ensure_ascii=False)}{mark}")
    return "\n".join(lines) + "\n"
