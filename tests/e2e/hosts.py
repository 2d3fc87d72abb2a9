"""What the per-CLI end-to-end modules (test_e2e_copilot/_opencode/_cline/_aider) share:
the project installed into the sandbox repo, its memory with a unique marker, and the
assertions on what reached the model, on the network and on the hooks' exit codes."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

try:
    from . import clis as C
    from .mockapi import MockAPI, Request, _texts
except ImportError:  # tests/e2e is not a package
    import clis as C  # type: ignore[no-redef]
    from mockapi import MockAPI, Request, _texts  # type: ignore[no-redef]

BEGIN = "===== AGENT MEMORY BEGIN ====="
END = "===== AGENT MEMORY END ====="
REMIND = ".agent/memory/snapshot.md was last updated"
# on_compact's notice when it reloads memory by itself.
RELOADED = "agenthooks detected a context compaction and reloaded memory"
PROGRESS = "E2E-PROGRESS-c41: refactor get_user"
SNAPSHOT = ("# Current task snapshot\n\n## Goal\nE2E-GOAL: make user_service async\n\n## Done\n"
            f"\n## In progress\n- [ ] {PROGRESS}\n\n## Todo\n- cache layer\n\n## Key decisions\n"
            "- raise UserNotFound, never return None\n")


@dataclass
class Project:
    repo: Path
    framework: str
    rule: str = ""

    @property
    def agent(self) -> Path:
        return self.repo / ".agent"

    @property
    def snapshot(self) -> Path:
        return self.agent / "memory" / "snapshot.md"

    def new_rule(self) -> str:
        """Write tattoo.md with a fresh unique rule and return it: a request holding it
        got memory read after this call, not a copy left over from before."""
        self.rule = f"E2E-RULE-{uuid.uuid4().hex[:10]}: never use tabs"
        (self.agent / "memory" / "tattoo.md").write_text(
            f"# Project hard rules\n- {self.rule}\n", encoding="utf-8")
        return self.rule

    def log(self) -> list[str]:
        path = self.agent / "log" / "memory.log"
        return path.read_text(encoding="utf-8").splitlines() if path.exists() else []

    def log_matching(self, hook: str, needle: str) -> list[str]:
        # "[TIME] HOOK FRAMEWORK SESSION: MESSAGE"
        return [ln for ln in self.log() if re.search(rf"\] {hook} {self.framework} \S+: ", ln)
                and needle in ln]

    def make_stale(self, minutes: int = 30) -> None:
        """Age the snapshot past stale_minutes (default 10) so post_edit reminds."""
        past = time.time() - minutes * 60
        os.utime(self.snapshot, (past, past))

    def set_config(self, **values: int) -> None:
        path = self.agent / "config.yaml"
        doc = path.read_text(encoding="utf-8")
        for key, val in values.items():
            doc, n = re.subn(rf"(?m)^{key}:.*$", f"{key}: {val}", doc)
            assert n == 1, f"{key} not found in .agent/config.yaml:\n{doc}"
        path.write_text(doc, encoding="utf-8")


def install(sandbox: C.Sandbox, framework: str, *registered: str) -> Project:
    """`agenthooks install --yes --framework X`, then known memory. registered: files the
    install must have written for the framework."""
    # One board, memory/snapshot.md: these runs prove what each host delivers; the boards per
    # branch have tests of their own (tests/runtime/test_boards.py, tests/test_boards_git.py).
    proc = subprocess.run([sys.executable, "-m", "agenthooks", "install", "--yes", "--board", "shared",
                           "--framework", framework, str(sandbox.repo)],
                          cwd=sandbox.repo, capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, f"install failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
    for rel in registered:
        assert (sandbox.repo / rel).is_file(), f"install wrote no {rel}:\n{proc.stdout}"
    project = Project(sandbox.repo, framework)
    project.new_rule()
    project.snapshot.write_text(SNAPSHOT, encoding="utf-8")
    return project


def ok(proc: subprocess.CompletedProcess[str], mock: MockAPI) -> None:
    assert proc.returncode == 0, C.describe(proc, mock)
    assert mock.errors == [], C.describe(proc, mock)


def assert_memory(req: Request | None, rule: str, what: str) -> None:
    assert req is not None, f"no {what}"
    missing = [s for s in (BEGIN, rule, PROGRESS) if s not in req]
    assert not missing, f"{what} lacks {missing}:\n{req.json_text[:6000]}"


def assert_after(req: Request, first: str, then: str, what: str) -> None:
    """In req, `then` occurs after `first` (e.g. the memory after the compaction summary)."""
    text = req.json_text
    i, j = text.find(first), text.rfind(then)
    assert i >= 0, f"{what}: {first!r} missing:\n{text[-6000:]}"
    assert j > i, f"{what}: {then!r} not after {first!r} ({j} <= {i}):\n{text[-6000:]}"


def assert_reminded_once(project: Project, mock: MockAPI, dialect: str) -> None:
    """(b): the reminder is in the request after the first edit's result, and once only,
    even though later requests replay the history (up to a compaction, which drops it)."""
    first = mock.request_after_tool(dialect, 0)
    assert first is not None and REMIND in first, (
        first.json_text[-6000:] if first else [(r.index, r.kind) for r in mock.requests])
    summaries = mock.summary_requests(dialect)
    last = [r for r in mock.main_requests(dialect)
            if not summaries or r.index < summaries[0].index][-1]
    assert last.index > first.index, "no request after the second edit"
    assert last.json_text.count(REMIND) == 1, last.json_text[-6000:]
    assert len(project.log_matching("post_edit", "reminded the agent")) == 1, project.log()


def assert_offline(mock: MockAPI, allowed: tuple[str, ...] = ()) -> None:
    """(d): nothing but the CONNECTs the CLI makes whatever it is told (allowed:
    host:port) tried to leave loopback; those were refused."""
    unexpected = [r for r in mock.refused if r not in allowed]
    assert unexpected == [], f"requests tried to leave loopback: {mock.refused}"
    assert mock.errors == [], mock.errors


def blocks_in(value: object) -> list[str]:
    """The memory blocks in the texts of a JSON value, in order."""
    return re.findall(re.escape(BEGIN) + ".*?" + re.escape(END), "\n".join(_texts(value)), re.S)


def system_blocks(req: Request) -> list[str]:
    """The memory blocks in a Chat Completions request's system messages."""
    return blocks_in([m for m in req.body["messages"] if m.get("role") == "system"])


def compactions_detected(project: Project) -> list[str]:
    return [ln for ln in project.log() if "compaction detected" in ln]


def assert_hooks_exited_0(project: Project) -> None:
    """(e), the product's side: no hook hit an internal error."""
    bad = [ln for ln in project.log() if "internal error" in ln]
    assert bad == [], bad
