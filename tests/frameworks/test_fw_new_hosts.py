"""Qwen Code, Factory Droid, Kilo and Pi: the files install writes for each (their shape,
the user's file given back byte for byte by uninstall), that the registered commands run the
hooks, and Droid's compaction check, which reads the transcript's compaction_state record."""
from __future__ import annotations

import json
import os
import re
import subprocess
import time
from pathlib import Path

import pytest

from support.helpers import (FIXTURES, SAMPLE_TATTOO, cli, fixture, git, install, log_lines,
                             make_repo, write_memory)
from agenthooks.frameworks import _jsonhooks, droid, kilo, opencode, pi, qwen_code
from agenthooks.render import OWNER_ID

RELOADED = "agenthooks detected a context compaction and reloaded memory"
REMIND = ".agent/memory/snapshot.md was last updated"


def commit(repo: Path) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "wip", "--allow-empty")


def handlers(event_map: dict) -> list[tuple[str, str | None, str]]:  # type: ignore[type-arg]
    """(event, matcher, hook) of each handler of ours, in order."""
    return [(event, g.get("matcher"), re.search(r"hooks/(\w+)\.sh", h["command"]).group(1))  # type: ignore[union-attr]
            for event, groups in event_map.items() for g in groups for h in g["hooks"]
            if _jsonhooks.is_ours(h.get("command"))]


def test_qwen_registers_session_start_and_edits_only(installed):  # type: ignore[no-untyped-def]
    repo = installed("qwen-code")
    data = json.loads((repo / qwen_code.PATH).read_text())
    assert list(data) == ["hooks"]
    assert handlers(data["hooks"]) == [("SessionStart", None, "pre_task"),
                                       ("PostToolUse", "write_file|edit|replace", "post_edit")]
    first = data["hooks"]["SessionStart"][0]["hooks"][0]
    assert first == {"type": "command", "timeout": 30,
                     "command": 'bash -p "${QWEN_PROJECT_DIR:-.}/.agent/hooks/pre_task.sh" qwen-code'}


def test_droid_hooks_json_is_the_event_map_itself(installed):  # type: ignore[no-untyped-def]
    """A top-level "hooks" key makes Droid ignore the whole file."""
    repo = installed("droid")
    data = json.loads((repo / droid.PATH).read_text())
    assert "hooks" not in data
    edits = "Create|Edit|MultiEdit|ApplyPatch"
    # on_compact before post_edit: Droid shows the model the first additionalContext only.
    assert handlers(data) == [("SessionStart", None, "pre_task"), ("SessionStart", None, "on_compact"),
                              ("UserPromptSubmit", None, "on_compact"),
                              ("PostToolUse", edits, "on_compact"), ("PostToolUse", edits, "post_edit"),
                              ("PreCompact", None, "on_compact")]
    assert all(h["command"].startswith('bash -p "${FACTORY_PROJECT_DIR:-.}/.agent/hooks/')
               and h["command"].endswith(" droid") and h["timeout"] == 30
               for groups in data.values() for g in groups for h in g["hooks"])


# ---- the user's file, given back byte for byte ----------------------------------------

QWEN_USER = """{
    // the team's model
    "model": {"name": "qwen3-coder"},
    "hooks": {
        "PostToolUse": [
            {
                "matcher": "run_shell_command",
                "hooks": [{"type": "command", "command": "./lint.sh"}]
            }
        ],
        "Stop": [{"hooks": [{"type": "command", "command": "say 'done, café'"}]}]
    },
    "ui": {"theme": "dark"}
}"""

DROID_USER = """{
    // the team's own
    "PostToolUse": [
        {
            "matcher": "Execute",
            "hooks": [{"type": "command", "command": "./lint.sh"}]
        }
    ],
    "Stop": [{"hooks": [{"type": "command", "command": "say 'done, café'"}]}]
}"""


def styled(text: str, style: str) -> str:
    if style == "tabs":
        return text.replace("    ", "\t") + "\n"
    if style == "crlf":
        return text.replace("\n", "\r\n") + "\r\n"
    return text


@pytest.mark.parametrize("style", ["spaces4-no-final-newline", "tabs", "crlf"])
@pytest.mark.parametrize("mod, user, ours", [(qwen_code, QWEN_USER, 2), (droid, DROID_USER, 6)],
                         ids=["qwen-code", "droid"])
def test_install_then_uninstall_gives_the_file_back_byte_for_byte(tmp_path, mod, user, ours, style):  # type: ignore[no-untyped-def]
    repo = make_repo(tmp_path)
    path = repo / mod.PATH
    path.parent.mkdir(parents=True)
    original = styled(user, style).encode("utf-8")
    path.write_bytes(original)
    commit(repo)
    install(repo, "--framework", mod.NAME)
    text = path.read_bytes().decode("utf-8")
    # Every line of the user's (comments too) is still there, as it was.
    assert all(line in text for line in styled(user, style).splitlines()
               if line.strip() not in ("}", "]", "},", "],")), text
    if style == "crlf":
        assert text.count("\n") == text.count("\r\n")
    data = _jsonhooks.load(repo, mod.PATH, None if mod is droid else "hooks")
    event_map = data if mod is droid else data["hooks"]  # type: ignore[index]
    assert len(handlers(event_map)) == ours
    assert event_map["PostToolUse"][0]["hooks"][0]["command"] == "./lint.sh"  # theirs first
    commit(repo)
    assert install(repo, "--framework", mod.NAME).returncode == 0
    assert path.read_bytes().decode("utf-8") == text  # a re-install changes nothing
    assert cli("uninstall", "--yes", str(repo)).returncode == 0
    assert path.read_bytes() == original


@pytest.mark.parametrize("mod", [qwen_code, droid])
def test_a_file_that_held_only_ours_goes(installed, mod):  # type: ignore[no-untyped-def]
    repo = installed(mod.NAME)
    assert mod.unregister(repo) == [(mod.PATH, None)]
    assert cli("uninstall", "--yes", str(repo)).returncode == 0
    assert not (repo / mod.PATH).exists()


def test_droid_refuses_a_broken_hooks_json_before_writing(tmp_path):  # type: ignore[no-untyped-def]
    repo = make_repo(tmp_path)
    (repo / ".factory").mkdir()
    (repo / droid.PATH).write_text('{"PostToolUse": [}')
    proc = install(repo, "--framework", "droid", check=False)
    assert proc.returncode == 1 and droid.PATH in proc.stderr and "Traceback" not in proc.stderr
    assert not (repo / ".agent").exists()


# ---- the plugin and the extension --------------------------------------------------------

def test_kilo_plugin_is_the_opencode_plugin_naming_kilo(installed):  # type: ignore[no-untyped-def]
    repo = installed("kilo")
    text = (repo / kilo.PATH).read_text()
    assert OWNER_ID in text and not (repo / ".opencode").exists()
    assert text == opencode.plugin_text().replace("plugin for OpenCode", "plugin for Kilo") \
        .replace("template=frameworks/opencode", "template=frameworks/kilo") \
        .replace("${script} opencode ${args}", "${script} kilo ${args}")
    assert kilo.unregister(repo) == [(kilo.PATH, None)]


def test_pi_extension_hooks_the_events_it_needs(installed):  # type: ignore[no-untyped-def]
    repo = installed("pi")
    text = (repo / pi.PATH).read_text()
    assert OWNER_ID in text
    for needle in ('pi.on("before_agent_start"', 'pi.on("session_compact"', 'pi.on("tool_result"',
                   'source: "compact"', '"--show"', "systemPrompt:", '"post_edit"',
                   'new Set(["edit", "write"])'):
        assert needle in text, needle
    assert pi.unregister(repo) == [(pi.PATH, None)]
    (repo / pi.PATH).write_text("// mine\n")
    assert pi.unregister(repo) == []  # a file of the user's at that path is theirs


# ---- the registered commands run the hooks ----------------------------------------------

def run(cmd: str, stdin: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-c", cmd], input=stdin, cwd=cwd, capture_output=True,
                          text=True, env={**os.environ, **env}, timeout=30)


def context(stdout: str, event: str) -> str:
    out = json.loads(stdout)["hookSpecificOutput"]
    assert out["hookEventName"] == event
    return str(out["additionalContext"])


def stale(repo: Path) -> None:
    past = time.time() - 3600
    os.utime(repo / ".agent/memory/snapshot.md", (past, past))


def test_qwen_commands_run_the_hooks(installed):  # type: ignore[no-untyped-def]
    repo = installed("qwen-code")
    write_memory(repo, tattoo=SAMPLE_TATTOO)
    stale(repo)
    hooks = json.loads((repo / qwen_code.PATH).read_text())["hooks"]
    start = hooks["SessionStart"][0]["hooks"][0]["command"]
    # Qwen Code runs it in the project folder with QWEN_PROJECT_DIR set; without it, from there.
    for env in ({"QWEN_PROJECT_DIR": str(repo)}, {}):
        proc = run(start, fixture("qwen/SessionStart-startup.json"), repo, env)
        assert proc.returncode == 0, proc.stderr
        assert "Indent with 4 spaces" in context(proc.stdout, "SessionStart")
    proc = run(start, fixture("qwen/SessionStart-compact.json"), repo, {"QWEN_PROJECT_DIR": str(repo)})
    assert "Context was compacted" in context(proc.stdout, "SessionStart")
    edit = hooks["PostToolUse"][0]["hooks"][0]["command"]
    proc = run(edit, fixture("qwen/PostToolUse-write_file.json"), repo, {"QWEN_PROJECT_DIR": str(repo)})
    assert proc.returncode == 0, proc.stderr
    assert REMIND in context(proc.stdout, "PostToolUse")


class DroidSession:
    """Droid's hooks for one session, run as Droid runs them, over a transcript the test grows."""

    def __init__(self, repo: Path, tmp: Path) -> None:
        self.repo = repo
        self.transcript = tmp / "sessions" / "s.jsonl"
        self.transcript.parent.mkdir(parents=True)
        # The real transcript of a run, up to (not including) its compaction_state record.
        lines = (FIXTURES / "transcripts" / "droid-compact.jsonl").read_text().splitlines(keepends=True)
        self.record = next(ln for ln in lines if '"type":"compaction_state"' in ln)
        self.transcript.write_text("".join(lines[:lines.index(self.record)]))
        self.hooks = json.loads((repo / droid.PATH).read_text())
        self.n = 0

    def compact(self) -> None:
        """Droid compacts: one more record, its own time, then more messages after it."""
        self.n += 1
        record = self.record.replace("2026-12-05T03:29:31.196Z", f"2026-12-05T04:00:0{self.n}.000Z")
        with self.transcript.open("a") as fh:
            fh.write(record + '{"type":"message","id":"m%d","message":{"role":"user"}}\n' % self.n)

    def run(self, event: str, index: int = 0, **extra: str) -> str:
        payload = json.loads(fixture("droid/PostToolUse-Create.json" if event == "PostToolUse"
                                     else "droid/SessionStart-startup.json"))
        payload.update(hook_event_name=event, transcript_path=str(self.transcript), **extra)
        cmd = self.hooks[event][index]["hooks"][0]["command"]
        proc = run(cmd, json.dumps(payload), self.repo, {"FACTORY_PROJECT_DIR": str(self.repo)})
        assert proc.returncode == 0 and proc.stderr == "", proc.stderr
        return proc.stdout


def test_droid_on_compact_reloads_once_per_compaction_record(installed, tmp_path):  # type: ignore[no-untyped-def]
    repo = installed("droid")
    write_memory(repo, tattoo=SAMPLE_TATTOO)
    s = DroidSession(repo, tmp_path)
    assert "Indent with 4 spaces" in context(s.run("SessionStart"), "SessionStart")
    assert s.run("SessionStart", 1) == ""  # on_compact notes where the session stands
    assert s.run("PostToolUse") == ""
    s.compact()
    out = s.run("PostToolUse")
    assert RELOADED in context(out, "PostToolUse") and "Indent with 4 spaces" in out
    assert s.run("PostToolUse") == "" and s.run("UserPromptSubmit") == ""  # once
    s.compact()
    assert RELOADED in context(s.run("UserPromptSubmit"), "UserPromptSubmit")  # or the next prompt
    assert s.run("PostToolUse") == ""
    found = [ln for ln in log_lines(repo) if "compaction detected" in ln]
    assert len(found) == 2 and all("a compaction record in Droid's transcript" in ln for ln in found)


def test_droid_a_resumed_sessions_old_compaction_is_no_news(installed, tmp_path):  # type: ignore[no-untyped-def]
    repo = installed("droid")
    s = DroidSession(repo, tmp_path)
    s.compact()  # compacted in an earlier run
    assert s.run("SessionStart", 1, source="resume") == ""
    assert s.run("PostToolUse") == ""
    # A compaction that SessionStart(compact) reloaded (after PreCompact) is not reloaded
    # again, whichever of that event's two hooks Droid runs first.
    assert s.run("PreCompact", trigger="manual") == ""
    s.compact()
    assert s.run("SessionStart", 1, source="compact") == ""
    assert "Context was compacted" in context(s.run("SessionStart", source="compact"), "SessionStart")
    assert s.run("PostToolUse") == "" and s.run("UserPromptSubmit") == ""
    s.compact()
    assert "Context was compacted" in context(s.run("SessionStart", source="compact"), "SessionStart")
    assert s.run("SessionStart", 1, source="compact") == ""
    assert s.run("PostToolUse") == ""
    assert [ln for ln in log_lines(repo) if "compaction detected" in ln] == [
        ln for ln in log_lines(repo) if "SessionStart source=compact" in ln]


@pytest.mark.parametrize("name", ["qwen-code", "droid", "kilo", "pi"])
def test_doctor_finds_each_registration_whole(installed, name):  # type: ignore[no-untyped-def]
    """Doctor reads every hook a registration names (a comment of ours naming none)."""
    out = cli("doctor", str(installed(name))).stdout
    line = next(ln for ln in out.splitlines() if f"framework {name}:" in ln)
    assert line.split()[0] == "ok" and "registered in" in line, out
