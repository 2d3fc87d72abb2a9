"""Secrets never reach the model: the hooks redact them, the log counts them, and lint
reports the same lines from the same list of patterns."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from support.helpers import cli, log_lines, run_hook, write_memory

from agenthooks import redact

SECRETS = {
    "aws": "AKIAIOSFODNN7EXAMPLE",
    "github": "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
    "private-key": "-----BEGIN RSA PRIVATE KEY-----",
    "url": "postgres://admin:s3cretpass@db.internal:5432/app",
    "assigned": "password = hunter22xyz",
}


def _seed(repo: Path, home: Path) -> dict[str, list[int]]:
    """One secret of each kind in every memory file (user tattoo included)."""
    vals = list(SECRETS.values())
    write_memory(repo,
                 tattoo="# Rules\n- Keep it simple\n" + "".join(f"- deploy with {v}\n" for v in vals),
                 snapshot="# Snapshot\n## Goal\nShip\n## Done\n## In progress\n"
                          + "".join(f"- try {v}\n" for v in vals) + "## Todo\n## Key decisions\n"
                          + "".join(f"- keep {v}\n" for v in vals),
                 notes="".join(f"- note {v}\n" for v in vals))
    user = home / ".agent/memory"
    user.mkdir(parents=True)
    (user / "tattoo.md").write_text("# Mine\n- Be terse\n" + "".join(f"- {v}\n" for v in vals))
    return {".agent/memory/tattoo.md": [3, 4, 5, 6, 7],
            ".agent/memory/snapshot.md": [6, 7, 8, 9, 10, 13, 14, 15, 16, 17],
            ".agent/memory/notes.md": [1, 2, 3, 4, 5],
            "~/.agent/memory/tattoo.md": [3, 4, 5, 6, 7]}


def test_patterns_cover_the_kinds() -> None:
    for name, value in SECRETS.items():
        assert redact.find_secrets(value), name
    assert not redact.find_secrets("- Indent with 4 spaces, never tabs")
    assert not redact.find_secrets("see https://example.com/docs and token budget: 500")


def test_no_secret_reaches_the_model(repo: Path, isolated_home: Path) -> None:
    expected = _seed(repo, isolated_home)
    cfg = repo / ".agent/config.yaml"
    cfg.write_text(cfg.read_text().replace("budget_tokens: 500", "budget_tokens: 5000")
                   .replace("notes_count: 5", "notes_count: 10"))
    outputs = [run_hook(repo, "pre_task").stdout,
               run_hook(repo, "pre_task", "", "--show").stdout,
               run_hook(repo, "on_compact", {"hook_event_name": "UserPromptSubmit",
                                             "prompt": "This session is being continued from a "
                                                       "previous conversation"}).stdout,
               (repo / ".agent/injected_context.txt").read_text(),
               cli("show", str(repo)).stdout,
               cli("show", str(repo), "--json").stdout]
    for out in outputs:
        assert "Keep it simple" in out
        for value in SECRETS.values():
            assert value not in out
        for fragment in ("AKIA", "ghp_", "PRIVATE KEY", "s3cretpass", "hunter22"):
            assert fragment not in out
    block = outputs[0]
    assert "Be terse" in block  # the user tattoo is loaded, minus its secrets
    where = re.findall(r"\[redacted by agenthooks: a line of (\S+) looks like a secret\]", block)
    hooked: dict[str, list[int]] = {}
    for w in where:
        path, _, line = w.partition(":")
        hooked.setdefault(path, []).append(int(line) if line else 0)
    assert hooked[".agent/memory/tattoo.md"] == expected[".agent/memory/tattoo.md"]
    assert hooked[".agent/memory/snapshot.md"] == expected[".agent/memory/snapshot.md"]
    assert hooked[".agent/memory/notes.md"] == expected[".agent/memory/notes.md"]
    assert len(hooked["~/.agent/memory/tattoo.md"]) == 5
    # The log says how many lines were redacted.
    loaded = [s for s in log_lines(repo) if "pre_task" in s and ": memory loaded" in s][-1]
    assert "redacted 25 secret-looking lines" in loaded, loaded
    # Lint reports the same lines: one list of patterns.
    lint = cli("lint", str(repo))
    assert lint.returncode == 1
    linted: dict[str, list[int]] = {}
    for s in lint.stdout.splitlines():
        m = re.match(r"^(\S+):(\d+): (error|warning): looks like a secret", s)
        if m:
            linted.setdefault(m.group(1), []).append(int(m.group(2)))
    assert linted == expected


@pytest.mark.parametrize("name", sorted(SECRETS))
def test_each_kind_in_each_file(repo: Path, name: str) -> None:
    value = SECRETS[name]
    for f in ("tattoo", "snapshot", "notes"):
        write_memory(repo, tattoo="# Rules\n- ok\n", notes="- ok note\n",
                     snapshot="## Goal\n## Done\n## In progress\n- ok\n## Todo\n## Key decisions\n")
        text = (repo / f".agent/memory/{f}.md").read_text()
        if f == "snapshot":
            text = text.replace("- ok\n", f"- ok\n- {value}\n")
        else:
            text += f"- {value}\n"
        (repo / f".agent/memory/{f}.md").write_text(text)
        out = run_hook(repo, "pre_task").stdout
        assert value not in out, (name, f)
        assert f"a line of .agent/memory/{f}.md:" in out
        assert "redacted 1 secret-looking lines" in log_lines(repo)[-1]
        assert f".agent/memory/{f}.md:" in cli("lint", str(repo)).stdout
