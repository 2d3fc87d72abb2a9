"""LF checkouts of every file we install, with core.autocrlf=true (Git for Windows' default):
.agent/.gitattributes inside .agent/, our marked block of the top .gitattributes outside it."""
from __future__ import annotations

import json
from pathlib import Path

from support.helpers import cli, git, install, make_repo, write_memory
from agenthooks import gitattributes
from agenthooks.files import PlannedFile

ALL = ("claude-code", "codex", "gemini-cli", "cursor", "copilot-cli", "cline", "windsurf",
       "opencode", "aider", "generic")
OUTSIDE = [".clinerules/hooks/PostToolUse", ".clinerules/hooks/PreToolUse", ".github/hooks/agenthooks.json",
           ".opencode/plugins/agenthooks.ts", ".windsurf/rules/agent-memory.md"]


def commit(repo: Path, message: str = "wip") -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message, "--allow-empty")


def fws(*names: str) -> list[str]:
    return [a for n in names for a in ("--framework", n)]


def test_an_autocrlf_clone_checks_out_every_installed_file_with_lf(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    (repo / "plain.txt").write_text("one\ntwo\n")  # no attribute: the control
    install(repo, "--platform", "linux", "--platform", "windows", *fws(*ALL))
    write_memory(repo, tattoo="# Hard rules\n- Indent with 4 spaces\n")
    commit(repo, "install")
    files = json.loads((repo / ".agent/.agenthooks.json").read_text())["files"]
    # Files wholly ours, config.yaml and memory: LF. The settings files we share with the user
    # (kind registration) keep the user's own attributes: JSON and YAML read a CR as whitespace.
    installed = sorted(rel for rel, rec in files.items() if rec.get("kind") != "registration")
    installed += [".agent/memory/tattoo.md", ".agent/memory/snapshot.md", ".agent/memory/notes.md"]
    assert set(OUTSIDE) <= set(installed) and ".agent/hooks/pre_task.sh" in installed
    assert ".agent/config.yaml" in installed
    clone = tmp_path / "clone"
    git(tmp_path, "-c", "core.autocrlf=true", "clone", "-q", str(repo), str(clone))
    git(clone, "config", "core.autocrlf", "true")
    assert (clone / "plain.txt").read_bytes() == b"one\r\ntwo\r\n"  # autocrlf is in force here
    crlf = [rel for rel in installed if (clone / rel).is_file() and b"\r" in (clone / rel).read_bytes()]
    assert crlf == [], crlf
    assert all((clone / rel).is_file() for rel in installed if (repo / rel).is_file())
    import yaml
    for rel, rec in files.items():
        if rec.get("kind") == "registration" and rel.endswith(".json"):
            assert json.loads((clone / rel).read_bytes()) == json.loads((repo / rel).read_bytes()), rel
        elif rec.get("kind") == "registration" and rel.endswith(".yml"):
            assert yaml.safe_load((clone / rel).read_bytes()) == yaml.safe_load((repo / rel).read_bytes())
    # A hook in a folder below hooks/ (a lib/ folder) is covered too.
    assert git(clone, "check-attr", "eol", ".agent/hooks/lib/x.sh").stdout.strip().endswith("eol: lf")


def test_the_agent_gitattributes_names_every_file_a_shell_or_host_reads() -> None:
    from agenthooks import render

    answers = {"platforms": ["linux"], "frameworks": ["claude-code"], "lang": "en", "budget_tokens": 500}
    (pf,) = [pf for pf in render.plan(answers) if pf.path == ".agent/.gitattributes"]
    lines = pf.text.splitlines()
    for line in ("hooks/** text eol=lf", "config.yaml text eol=lf", "memory/** text eol=lf",
                 "memory/notes.md merge=union"):
        assert line in lines
    assert render.TEMPLATE_REVS["agent/gitattributes"] == 2


def test_top_block_is_added_refreshed_and_taken_out_leaving_the_users_lines(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    mine = "* text=auto\n*.png binary\n"
    (repo / ".gitattributes").write_text(mine)
    commit(repo)
    install(repo, *fws("claude-code", "cline"))
    text = (repo / ".gitattributes").read_text()
    assert text.startswith(mine)
    assert text[len(mine):] == gitattributes.block([".clinerules/hooks/PostToolUse", ".clinerules/hooks/PreToolUse"])
    commit(repo)
    install(repo, *fws("claude-code", "cline", "opencode"))  # a new owned file: refreshed in place
    text = (repo / ".gitattributes").read_text()
    assert text.startswith(mine) and text.count(gitattributes.BEGIN) == 1
    assert "/.opencode/plugins/agenthooks.ts text eol=lf" in text
    commit(repo)
    again = install(repo, *fws("claude-code", "cline", "opencode"))
    assert (repo / ".gitattributes").read_text() == text
    assert [ln.split() for ln in again.stdout.splitlines() if ln.endswith(" .gitattributes")] == \
        [["identical", ".gitattributes"]]
    # The user adds a line after our block: it stays where it is.
    (repo / ".gitattributes").write_text(text + "*.bin binary\n")
    commit(repo)
    install(repo, *fws("claude-code"))  # no file of ours outside .agent/: the block goes
    assert (repo / ".gitattributes").read_text() == mine + "*.bin binary\n"
    commit(repo)
    install(repo, *fws("claude-code", "cline"))
    proc = cli("uninstall", str(repo))
    assert proc.returncode == 0, proc.stderr
    assert (repo / ".gitattributes").read_text() == mine + "*.bin binary\n"


def test_a_top_gitattributes_we_created_goes_at_uninstall(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo, *fws("opencode"))
    assert (repo / ".gitattributes").read_text() == gitattributes.block([".opencode/plugins/agenthooks.ts"])
    proc = cli("uninstall", str(repo))
    assert proc.returncode == 0, proc.stderr
    assert not (repo / ".gitattributes").exists()
    install(repo, *fws("claude-code"))  # nothing of ours outside .agent/: no file at all
    assert not (repo / ".gitattributes").exists()


def test_merge_keeps_crlf_and_a_missing_final_newline() -> None:
    crlf = "* text=auto\r\n"
    out = gitattributes.merged(crlf, ["a"])
    assert out == crlf + f"{gitattributes.BEGIN}\r\n/a text eol=lf\r\n{gitattributes.END}\r\n"
    assert gitattributes.stripped(out) == crlf
    assert gitattributes.merged("x", ["a"]).startswith("x\n" + gitattributes.BEGIN)
    middle = "a\n" + gitattributes.block(["old"]) + "b\n"
    assert gitattributes.merged(middle, ["new"]) == "a\n" + gitattributes.block(["new"]) + "b\n"
    assert gitattributes.stripped(gitattributes.block(["x"])) is None
    owned = [PlannedFile(".agent/hooks/pre_task.sh", "", 0o755, "owned"),
             PlannedFile(".claude/settings.json", "", 0o644, "registration"),
             PlannedFile("z/w", "", 0o644, "owned"), PlannedFile("a/b", "", 0o644, "owned")]
    assert gitattributes.outside(owned) == ["a/b", "z/w"]
