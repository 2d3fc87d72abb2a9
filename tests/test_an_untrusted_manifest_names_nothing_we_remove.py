"""An untrusted manifest: only records of files agenthooks writes count; a crafted manifest
never makes install or uninstall remove or rewrite a file they do not write."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from support.helpers import cli, install, make_repo
from support.links_out import fake_home
from support.tree import tree


# --- a crafted manifest ---------------------------------------------------------------------

def test_a_crafted_manifest_never_removes_or_rewrites_what_we_do_not_write(tmp_path: Path) -> None:
    home = fake_home(tmp_path)
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code")
    victims = {
        "../fakehome/.bashrc": home / ".bashrc",                          # outside, relative
        str(home / ".aider.conf.yml"): home / ".aider.conf.yml",         # outside, absolute
        ".agent/hooks/../../../fakehome/.ssh/id_ed25519": home / ".ssh/id_ed25519",  # not normalised
        "README.md": repo / "README.md",                                 # inside, not ours
        ".agent/memory/notes.md": repo / ".agent/memory/notes.md",       # memory
    }
    (repo / "README.md").write_text("# my project\n")
    (repo / ".agent/memory/notes.md").write_text("- a note of mine\n")
    mpath = repo / ".agent/.agenthooks.json"
    data = json.loads(mpath.read_text())
    for i, (key, path) in enumerate(victims.items()):
        data["files"][key] = {"template": "hooks/pre_task.sh", "rev": 1, "mode": "644",
                              "kind": ("owned", "config")[i % 2],
                              "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}
    data["files"][".claude/settings.json"]["legacy"] = "../../fakehome/.bashrc"
    mpath.write_text(json.dumps(data))
    before = {k: p.read_bytes() for k, p in victims.items()}
    home_before = tree(home)
    up = cli("install", "--yes", str(repo))
    assert up.returncode == 0, up.stdout + up.stderr
    assert "not a file agenthooks writes: ignored" in up.stderr, up.stderr
    assert {k: p.read_bytes() for k, p in victims.items()} == before
    data = json.loads(mpath.read_text())
    data["files"].update({k: {"template": "x", "rev": 1, "kind": "owned", "mode": "644",
                              "sha256": hashlib.sha256(p.read_bytes()).hexdigest()}
                          for k, p in victims.items()})
    mpath.write_text(json.dumps(data))
    down = cli("uninstall", "--yes", str(repo))
    assert down.returncode == 0, down.stdout + down.stderr
    assert "not a file agenthooks writes: ignored" in down.stderr, down.stderr
    assert {k: p.read_bytes() for k, p in victims.items()} == before
    assert tree(home) == home_before
