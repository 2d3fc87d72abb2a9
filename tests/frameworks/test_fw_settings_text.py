"""The user's settings files as text: install splices our entries in and uninstall takes
them out without reformatting anything else (indent, key order, final newline, line
endings, a byte-order mark, JSONC comments); bad files are refused in one line; a re-install
that changes nothing is never refused."""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from support.helpers import cli, git, install, make_repo
from support.upgrade import verdicts
from agenthooks.frameworks import _jsonhooks, claude_code, codex, cursor, gemini_cli, windsurf

MODS = {m.NAME: m for m in (claude_code, codex, gemini_cli, cursor, windsurf)}

# A hand-written file, 4-space indented, with inline arrays (which json.dumps never
# writes), non-ASCII text, the user's own hooks in an event we also use, and no final
# newline. {edit} is the event our post_edit entry goes to.
NESTED_USER = """{
    "model": "opus",
    "permissions": {
        "allow": ["Bash(ls:*)", "Read"],
        "deny": []
    },
    "hooks": {
        "EDIT": [
            {
                "matcher": "Bash",
                "hooks": [{"type": "command", "command": "./lint.sh"}]
            }
        ],
        "Stop": [
            {
                "hooks": [
                    {
                        "type": "command",
                        "command": "say 'done, café'"
                    }
                ]
            }
        ]
    },
    "theme": "dark"
}"""

CURSOR_USER = """{
    "version": 1,
    "hooks": {
        "postToolUse": [
            {"command": "./fmt.sh", "matcher": "Write"}
        ],
        "stop": [
            {
                "command": "say done"
            }
        ]
    },
    "x-team": {"owner": "café"}
}"""

WINDSURF_USER = """{
    "x-team": "platform",
    "hooks": {
        "post_write_code": [
            {"command": "./fmt.sh", "show_output": false}
        ],
        "pre_user_prompt": [
            {
                "command": "./audit.sh"
            }
        ]
    }
}"""

EDIT_EVENT = {"claude-code": "PostToolUse", "codex": "PostToolUse", "gemini-cli": "AfterTool"}


def user_file(name: str, style: str) -> str:
    if name in EDIT_EVENT:
        text = NESTED_USER.replace("EDIT", EDIT_EVENT[name])
    else:
        text = CURSOR_USER if name == "cursor" else WINDSURF_USER
    if style == "tabs":
        text = text.replace("    ", "\t") + "\n"
    elif style == "crlf":
        text = text.replace("\n", "\r\n") + "\r\n"
    return text


def commit(repo: Path) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "wip", "--allow-empty")


def uninstall(repo: Path) -> subprocess.CompletedProcess[str]:
    proc = cli("uninstall", str(repo))
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stdout + proc.stderr
    return proc


def commands(data: dict) -> list[str]:  # type: ignore[type-arg]
    out = []
    for entries in data.get("hooks", {}).values():
        for e in entries:
            for h in e.get("hooks", [e]):
                out.append(h.get("command"))
    return out


def assert_style(text: str, style: str) -> None:
    lines = text.split("\n")
    indents = [ln[:len(ln) - len(ln.lstrip(" \t"))] for ln in lines if ln.strip()]
    if style == "tabs":
        assert all(set(i) <= {"\t"} for i in indents), text
        assert text.endswith("}\n")
    elif style == "crlf":
        assert all(ln.endswith("\r") for ln in lines[:-1]) and text.endswith("}\r\n"), repr(text)
    else:
        assert all(set(i) <= {" "} and len(i) % 4 == 0 for i in indents), text
        assert text.endswith("}")


@pytest.mark.parametrize("style", ["spaces4-no-final-newline", "tabs", "crlf"])
@pytest.mark.parametrize("name", sorted(MODS))
def test_install_then_uninstall_gives_the_file_back_byte_for_byte(tmp_path, name, style):  # type: ignore[no-untyped-def]
    mod = MODS[name]
    repo = make_repo(tmp_path)
    path = repo / mod.PATH
    path.parent.mkdir(parents=True)
    original = user_file(name, style).encode("utf-8")
    path.write_bytes(original)
    commit(repo)
    install(repo, "--framework", name)
    text = path.read_bytes().decode("utf-8")
    assert_style(text, style)
    data = json.loads(text)
    before = json.loads(original)
    # The user's keys keep their values and their order; ours are added.
    assert [k for k in data if k in before] == list(before)
    assert {k: v for k, v in data.items() if k != "hooks"} == \
        {k: v for k, v in before.items() if k != "hooks"}
    ours = [c for c in commands(data) if _jsonhooks.is_ours(c)]
    assert len(ours) == (1 if name == "windsurf" else 6 if name in ("claude-code", "codex") else 4)
    assert [c for c in commands(data) if not _jsonhooks.is_ours(c)] == commands(before)
    # Every line of the user's file is still there, as it was.
    assert all(line in text for line in user_file(name, style).splitlines()
               if line.strip() not in ("}", "]", "},", "],")), text
    # Re-running install changes nothing.
    commit(repo)
    again = install(repo, "--framework", name)
    assert verdicts(again.stdout)[mod.PATH][0] == "identical"
    uninstall(repo)
    assert path.read_bytes() == original


def test_a_fresh_file_is_still_written_two_space(tmp_path):  # type: ignore[no-untyped-def]
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code")
    text = (repo / claude_code.PATH).read_text()
    assert text.startswith('{\n  "hooks": {\n    "SessionStart": [\n') and text.endswith("}\n")
    uninstall(repo)
    assert not (repo / ".claude").exists()


JSONC = """{
  // the model we use
  "model.name": "gemini-2.5-pro", /* pinned */
  "hooks": {
    "AfterTool": [
      {"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "./log.sh"}],},
    ],
  },
  "url": "http://example.invalid/*not a comment*/", // trailing commas are fine
}
"""


def jsonc_loads(text: str) -> dict:  # type: ignore[type-arg]
    """What Gemini CLI does (strip-json-comments, then a lenient parse), for the test."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
        elif text.startswith("/*", i):
            i = text.index("*/", i) + 2
        else:
            out.append(c)
            i += 1
    return json.loads(re.sub(r",(\s*[}\]])", r"\1", "".join(out)))


def test_jsonc_settings_are_merged_keeping_comments(tmp_path):  # type: ignore[no-untyped-def]
    repo = make_repo(tmp_path)
    path = repo / gemini_cli.PATH
    path.parent.mkdir()
    path.write_text(JSONC)
    commit(repo)
    proc = install(repo, "--framework", "gemini-cli")
    assert "Traceback" not in proc.stderr
    text = path.read_text()
    for keep in ("// the model we use", "/* pinned */", "// trailing commas are fine",
                 '"http://example.invalid/*not a comment*/"'):
        assert keep in text
    data = jsonc_loads(text)
    assert data["model.name"] == "gemini-2.5-pro"
    assert commands(data)[0] == "./log.sh"
    assert sorted(commands(data)[1:]) == sorted(gemini_cli.command(h) for h in
                                                ("post_edit", "pre_task", "on_compact", "on_compact"))
    commit(repo)
    assert verdicts(install(repo, "--framework", "gemini-cli").stdout)[gemini_cli.PATH][0] == "identical"
    uninstall(repo)
    assert path.read_text() == JSONC


@pytest.mark.parametrize("name", ["claude-code", "cursor"])
def test_a_byte_order_mark_is_kept(tmp_path, name):  # type: ignore[no-untyped-def]
    mod = MODS[name]
    repo = make_repo(tmp_path)
    path = repo / mod.PATH
    path.parent.mkdir()
    original = b"\xef\xbb\xbf" + user_file(name, "tabs").encode("utf-8")
    path.write_bytes(original)
    commit(repo)
    install(repo, "--framework", name)
    raw = path.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf{") and raw.count(b"\xef\xbb\xbf") == 1
    assert len([c for c in commands(json.loads(raw[3:])) if _jsonhooks.is_ours(c)]) == (6 if name == "claude-code" else 4)
    uninstall(repo)
    assert path.read_bytes() == original


@pytest.mark.parametrize("name", ["claude-code", "cursor"])
def test_a_duplicate_hooks_key_is_refused_naming_it(tmp_path, name):  # type: ignore[no-untyped-def]
    mod = MODS[name]
    repo = make_repo(tmp_path)
    path = repo / mod.PATH
    path.parent.mkdir()
    bad = ('{\n  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./a.sh"}]}]},\n'
           '  "model": "opus",\n  "hooks": {}\n}\n')
    path.write_text(bad)
    proc = install(repo, "--framework", name, check=False)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert lines[0].startswith("agenthooks: ") and len(lines) <= 2, proc.stderr
    assert len(lines) == 1 or lines[1].startswith("hint: ")
    assert '"hooks"' in lines[0] and mod.PATH in lines[0] and "lines 2 and 4" in lines[0]
    assert "Traceback" not in proc.stderr
    assert not (repo / ".agent").exists() and path.read_text() == bad


@pytest.mark.parametrize("bad, why", [
    ('{\n  "a": 1\n  "b": 2\n}\n', "line 3, column 3"),
    ('{\n  "a": tru\n}\n', "line 2, column 8"),
    ('{\n  /* never closed\n}\n', "line 2, column 3"),
    ('{"a": 1} {"b": 2}', "line 1, column 10"),
])
def test_broken_settings_are_refused_in_one_line(tmp_path, bad, why):  # type: ignore[no-untyped-def]
    repo = make_repo(tmp_path)
    path = repo / gemini_cli.PATH
    path.parent.mkdir()
    path.write_text(bad)
    proc = install(repo, "--framework", "gemini-cli", check=False)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 2 and lines[0].startswith("agenthooks: ") and lines[1].startswith("hint: ")
    assert gemini_cli.PATH in lines[0] and why in lines[0], lines[0]
    assert not (repo / ".agent").exists() and path.read_text() == bad


# ---- a re-install is never refused for a merge that keeps the user's edits -------------

def test_reinstall_with_an_unrelated_uncommitted_edit_is_not_refused(tmp_path):  # type: ignore[no-untyped-def]
    repo = make_repo(tmp_path)
    path = repo / claude_code.PATH
    path.parent.mkdir()
    path.write_text(user_file("claude-code", "spaces4-no-final-newline"))
    commit(repo)
    install(repo, "--framework", "claude-code")
    commit(repo)
    # An unrelated edit, not committed: a no-op install must go through untouched.
    edited = path.read_text().replace('"theme": "dark"', '"theme": "light",\n    "x": [1, 2]')
    path.write_text(edited)
    proc = cli("install", "--yes", str(repo), "--framework", "claude-code")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert verdicts(proc.stdout)[claude_code.PATH][0] == "identical"
    assert path.read_text() == edited
    # Our entries are stale (an older release's command), the user's edit is still
    # uncommitted: the structural merge refreshes ours and keeps the edit.
    stale = edited.replace("${CLAUDE_PROJECT_DIR:-.}/.agent/hooks/pre_task.sh", "./.agent/hooks/pre_task.sh")
    assert stale != edited
    path.write_text(stale)
    proc = cli("install", "--yes", str(repo), "--framework", "claude-code")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert verdicts(proc.stdout)[claude_code.PATH][0] == "update"
    assert path.read_text() == edited


def test_doctor_finds_our_entries_in_a_crlf_file(tmp_path):  # type: ignore[no-untyped-def]
    repo = make_repo(tmp_path)
    path = repo / claude_code.PATH
    path.parent.mkdir()
    path.write_bytes(user_file("claude-code", "crlf").encode("utf-8"))
    install(repo, "--framework", "claude-code")
    proc = cli("doctor", str(repo), "--json")
    checks = {c["name"]: c for c in json.loads(proc.stdout)["checks"]}
    assert checks["framework claude-code"]["status"] == "ok", checks["framework claude-code"]
