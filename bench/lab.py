"""The fixtures of `make bench`: an installed repo with a generated corpus, payloads,
baseline repos, and the setup steps the timed runs take."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import corpus
from harness import AGENTHOOKS, BASELINES, BASH, FIXTURES, FRAMEWORK, ROOT, SID, Variant, spawn

from agenthooks import config

# ---------------------------------------------------------------------------------------------
# Fixtures: an installed repo with a generated corpus, payloads, and baseline repos.


# Claude Code's key order (2.1.328: the session's fields, then the event's); the fixtures are
# stored with their keys sorted.
HOST_ORDER = ("session_id", "transcript_path", "cwd", "scratchpad_dir", "prompt_id", "permission_mode",
              "agent_id", "agent_type", "effort", "hook_event_name", "prompt", "tool_name", "tool_input",
              "tool_response", "tool_use_id", "duration_ms", "source", "model", "workspace", "version")


class Lab:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.home = tmp / "home"
        self.home.mkdir()
        self.env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(self.home),
                    "LANG": "C.UTF-8"}
        self.template = tmp / "installed"
        git_init(self.template)
        proc = subprocess.run([str(AGENTHOOKS), "install", "--yes", "-f", FRAMEWORK, "-p", "linux",
                               str(self.template)], capture_output=True, text=True)
        if proc.returncode != 0:
            raise SystemExit(f"bench: agenthooks install failed:\n{proc.stdout}{proc.stderr}")
        budget = config.read(self.template / ".agent/config.yaml")["budget_tokens"]
        self.budget = budget if isinstance(budget, int) else config.DEFAULTS["budget_tokens"]
        self.transcript = tmp / "transcript.jsonl"
        text, self.ctx_len = corpus.transcript(SID, str(self.template))
        self.transcript.write_text(text, encoding="utf-8")

    def repo(self, name: str, scale: int = 1) -> Path:
        repo = self.tmp / name
        shutil.copytree(self.template, repo, symlinks=True)
        write_corpus(repo, scale)
        return repo

    def baseline_repo(self, name: str, scale: int = 1) -> Path:
        repo = self.tmp / name
        (repo / ".agent" / "hooks").mkdir(parents=True)
        (repo / ".agent" / "log").mkdir()
        for f in BASELINES.glob("*.sh"):
            shutil.copy(f, repo / ".agent" / "hooks" / f.name)
        write_corpus(repo, scale)
        return repo

    def payload(self, repo: Path, fixture: str, sid: str = SID, **extra: str) -> str:
        obj = json.loads((FIXTURES / fixture).read_text(encoding="utf-8"))
        obj["cwd"] = str(repo)
        obj["session_id"] = sid
        obj["transcript_path"] = str(self.transcript)
        if "tool_input" in obj:
            obj["tool_input"]["file_path"] = str(repo / "src" / "service.py")
        if isinstance(obj.get("tool_response"), dict) and "filePath" in obj["tool_response"]:
            obj["tool_response"]["filePath"] = str(repo / "src" / "service.py")
        obj.update(extra)
        obj = {**{k: obj[k] for k in HOST_ORDER if k in obj}, **obj}
        path = self.tmp / "payloads" / f"{repo.name}-{sid}-{fixture}"
        path.parent.mkdir(exist_ok=True)
        # Hosts send one line of compact JSON.
        path.write_text(json.dumps(obj, separators=(",", ":")), encoding="utf-8")
        return str(path)

    def hook(self, repo: Path, hook: str, payload: str, setup=None, env=None) -> Variant:  # type: ignore[no-untyped-def]
        return Variant([BASH, str(repo / ".agent/hooks" / f"{hook}.sh"), FRAMEWORK], payload,
                       str(repo), {**self.env, **(env or {})}, setup)

    def baseline(self, repo: Path, hook: str, payload: str, setup=None, env=None) -> Variant:  # type: ignore[no-untyped-def]
        return Variant([BASH, f".agent/hooks/{hook}.sh"], payload, str(repo),
                       {**self.env, **(env or {})}, setup)


def git_init(path: Path) -> None:
    path.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True)


def write_corpus(repo: Path, scale: int) -> None:
    mem = repo / ".agent" / "memory"
    mem.mkdir(parents=True, exist_ok=True)
    for name, text in corpus.corpus(scale).items():
        (mem / f"{name}.md").write_text(text, encoding="utf-8")


def state_setter(repo: Path, line: str):  # type: ignore[no-untyped-def]
    """A setup step that puts the session's on_compact state back to one known line."""
    path = repo / ".agent" / "log" / "state" / f"{SID}.state"

    def setup() -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(line + "\n")
    return setup


def file_setter(path: Path, text: str):  # type: ignore[no-untyped-def]
    def setup() -> None:
        path.write_text(text)
    return setup


def block_of(stdout: str) -> str:
    """The memory block a hook printed: the additionalContext of its JSON, or the plain text."""
    try:
        return json.loads(stdout)["hookSpecificOutput"]["additionalContext"]
    except (ValueError, KeyError, TypeError):
        return stdout


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def capture(v: Variant) -> str:
    out = Path(v.cwd) / ".bench-out"
    if v.setup:
        v.setup()
    _, _, rc = spawn(v.argv, v.stdin, v.cwd, v.env, stdout=str(out))
    os.chdir(ROOT)
    text = out.read_text(encoding="utf-8", errors="replace")
    out.unlink()
    if rc != 0:
        raise SystemExit(f"bench: {' '.join(v.argv)} exited {rc}")
    return text
