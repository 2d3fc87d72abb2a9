"""The text splices behind every JSON settings merge, on shapes the CLI tests do not
reach: a merge twice is a merge once, and taking ours out gives back the file we found."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from agenthooks.errors import UserError
from agenthooks.frameworks import _jsonhooks, _jsontext, claude_code, cursor, windsurf

CASES = {
    "one line": '{"model": "opus"}',
    "one line with hooks": '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}}\n',
    "comments only in hooks": '{\n  "a": 1,\n  "hooks": {\n    // none yet\n  }\n}\n',
    "trailing commas": '{\n  "a": [1, 2,],\n  "hooks": {\n    "Stop": [],\n  },\n}\n',
    "blank lines": '{\n\n  "a": 1,\n\n  "b": 2\n\n}',
    "comments between members": '{\n  "a": 1, // one\n  /* b */ "b": 2\n}\n',
    "crlf and bom": '\ufeff{\r\n\t"a": "é",\r\n\t"hooks": {\r\n\t\t"Stop": []\r\n\t}\r\n}\r\n',
}
MODS = [(claude_code, "nested", None), (cursor, "flat", cursor.TOP), (windsurf, "flat", None)]


@pytest.mark.parametrize("mod, shape, top", MODS, ids=[m.NAME for m, _, _ in MODS])
@pytest.mark.parametrize("case", sorted(CASES))
def test_merge_is_idempotent_and_unregister_is_its_inverse(tmp_path: Path, case, mod, shape, top):  # type: ignore[no-untyped-def]
    text = CASES[case]
    merged = _jsonhooks.merge_text("f.json", text, mod.entries(), shape, top=top)
    assert merged != text
    assert _jsonhooks.merge_text("f.json", merged, mod.entries(), shape, top=top) == merged
    (tmp_path / "f.json").write_bytes(merged.encode("utf-8"))
    assert _jsonhooks.unregister(tmp_path, "f.json", shape, top=top) == [("f.json", text)]


def test_stale_entries_are_replaced_in_place(tmp_path: Path) -> None:
    user = {"type": "command", "command": "./mine.sh"}
    ours = claude_code.entries()["UserPromptSubmit"][0]
    old = json.loads(json.dumps(ours))
    old["hooks"][0]["timeout"] = 5
    text = json.dumps({"hooks": {"UserPromptSubmit": [{"hooks": [user]}, old, {"hooks": [user]}]}},
                      indent=4)
    merged = _jsonhooks.merge_text("f", text, claude_code.entries(), "nested")
    # The user's groups and their layout untouched, ours refreshed where it was.
    fresh = text.replace('"timeout": 5', '"timeout": 30')
    assert fresh.endswith("\n    }\n}") and merged.startswith(fresh[:-len("\n    }\n}")] + ",\n")
    ups = json.loads(merged)["hooks"]["UserPromptSubmit"]
    assert ups[0] == {"hooks": [user]} and ups[1] == ours and ups[2] == {"hooks": [user]}


def test_a_handler_of_the_user_in_our_group_stays() -> None:
    ours = claude_code.entries()["PreCompact"][0]
    shared = {"hooks": [*ours["hooks"], {"type": "command", "command": "./mine.sh"}]}
    text = json.dumps({"hooks": {"PreCompact": [shared]}}, indent=2) + "\n"
    merged = json.loads(_jsonhooks.merge_text("f", text, claude_code.entries(), "nested"))
    assert merged["hooks"]["PreCompact"] == [ours, {"hooks": [{"type": "command", "command": "./mine.sh"}]}]


@pytest.mark.parametrize("text, what", [
    ('{"a": 1,, "b": 2}', "expected a key in double quotes (line 1, column 9)"),
    ('{"a": "unclosed}', "a string is not closed"),
    ("[1, 2]", None),
    ('{"hooks": {"Stop": [], "Stop": []}}', 'the key "Stop" twice in "hooks"'),
])
def test_refusals_name_the_cause(text: str, what: str | None) -> None:
    if what is not None and "line" in what:
        with pytest.raises(_jsontext.SyntaxProblem, match=what.replace("(", r"\(").replace(")", r"\)")):
            _jsontext.parse(text)
    with pytest.raises(UserError) as exc:
        _jsonhooks.merge_text("f.json", text, claude_code.entries(), "nested")
    assert "f.json" in str(exc.value) and (what is None or what.split(" (")[0] in str(exc.value))



@pytest.mark.parametrize("text, where", [
    ('{"hooks": {}, "hooks": {}}', "(line 1, columns 2 and 15)"),
    ('{\n "hooks": {},\n "hooks": {}}', "(lines 2 and 3)"),
])
def test_a_duplicate_key_says_where_both_are(text: str, where: str) -> None:
    with pytest.raises(UserError) as exc:
        _jsonhooks.merge_text("f.json", text, claude_code.entries(), "nested")
    assert f'f.json has the key "hooks" twice {where}: only the last one' in str(exc.value)