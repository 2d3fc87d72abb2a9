"""`make bench` section 7: continuity. What does the agent still know after N compactions,
and at what cost in injected tokens? Each pinned agent CLI runs offline against the mock
(tests/e2e): the repo holds six seeded facts, and the first model request after each
compaction is searched for each of them:

- rule: a hard rule in tattoo.md;
- in progress: the board's In progress item;
- decision: a Key decisions line;
- dead end: a Tried and failed line;
- request: the user's latest request before the compaction (a marker in the prompt);
- file: the file the agent edited last before the compaction (a marker in its name).

The mock's summary names none of them, so what the request holds was kept by the host or
injected by the hooks. Injected tokens are those of agenthooks' memory blocks in that request
(agenthooks' own estimate, as `budget_tokens` counts). Runs only where `make e2e-deps`
installed the CLIs. The anchor: context-mode publishes 6 of 6 facts at about 1,273 tokens."""
from __future__ import annotations

import argparse
import dataclasses
import re
import subprocess
import sys
import tempfile
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from harness import ROOT, Table

sys.path.insert(0, str(ROOT / "tests" / "e2e"))
sys.path.insert(0, str(ROOT))
import clis as C  # noqa: E402
from mockapi import MockAPI, Reply, text, write  # noqa: E402

from agenthooks.memory.parse import text_tokens  # noqa: E402

BEGIN = "===== AGENT MEMORY BEGIN ====="
END = "===== AGENT MEMORY END ====="
FACTS = ("rule", "in progress", "decision", "dead end", "request", "file")
COMPACTIONS = 3


@dataclass
class Seeds:
    """Unique markers: one per fact, a new request and file for each turn."""
    tag: str = field(default_factory=lambda: uuid.uuid4().hex[:6])
    turn: int = 0

    def marker(self, what: str) -> str:
        return f"CONT-{what.upper().replace(' ', '')}-{self.tag}"

    def request(self) -> str:
        return f"{self.marker('request')}-{self.turn}"

    def file(self) -> str:
        return f"cont_{self.tag}_{self.turn}.py"

    def next_turn(self) -> tuple[str, str]:
        self.turn += 1
        return self.request(), self.file()


def seed_memory(repo: Path, s: Seeds) -> None:
    memory = repo / ".agent" / "memory"
    (memory / "tattoo.md").write_text(f"# Project hard rules\n- {s.marker('rule')}: never use tabs\n",
                                      encoding="utf-8")
    (memory / "snapshot.md").write_text(
        "# Current task snapshot\n\n## Goal\nmake user_service async\n\n## Done\n\n"
        f"## In progress\n- [ ] {s.marker('in progress')}: refactor get_user\n\n## Todo\n\n"
        f"## Key decisions\n- {s.marker('decision')}: raise UserNotFound, never return None\n\n"
        f"## Tried and failed\n- {s.marker('dead end')}: a global cache lock (deadlocks)\n",
        encoding="utf-8")


def install(sandbox: C.Sandbox, framework: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "agenthooks", "install", "--yes", "--board", "shared",
                           "--framework", framework, str(sandbox.repo)], cwd=sandbox.repo, capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)
    if proc.returncode != 0:
        raise RuntimeError(f"install failed:\n{proc.stdout}{proc.stderr}")


def blocks(req_text: str) -> list[str]:
    return re.findall(re.escape(BEGIN) + ".*?" + re.escape(END), req_text, re.S)


@dataclass
class Kept:
    facts: dict[str, bool]
    tokens: int

    @property
    def count(self) -> int:
        return sum(self.facts.values())


def judge(req_text: str, s: Seeds, request: str, file: str) -> Kept:
    """Which facts the request holds (request and file: the latest before the compaction)."""
    wanted = {"rule": s.marker("rule"), "in progress": s.marker("in progress"),
              "decision": s.marker("decision"), "dead end": s.marker("dead end"),
              "request": request, "file": file}
    injected = sum(text_tokens(b) for b in blocks(req_text))
    return Kept({k: v in req_text for k, v in wanted.items()}, injected)


def run_claude(clis: C.CLIs, version: str, work: Path) -> list[Kept]:
    """/compact COMPACTIONS times in one session, a turn with an edit between them."""
    sandbox = C.make_sandbox(work)
    install(sandbox, "claude-code")
    s = Seeds()
    seed_memory(sandbox.repo, s)
    pinned = dataclasses.replace(clis, claude=clis.pinned["claude"][version])
    with MockAPI(workdir=sandbox.repo) as mock:
        def claude(prompt: str, replies: list[Reply], sid: str | None = None) -> str:
            mock.script("claude", replies)
            proc = C.run_claude(sandbox.repo, sandbox.home, mock, C.claude_prompt(prompt, resume=sid),
                                clis=pinned)
            if proc.returncode != 0 or mock.refused:
                raise RuntimeError(C.describe(proc, mock))
            return C.session_id(proc)

        request, file = s.next_turn()
        sid = claude(f"{request}: make get_user async", [write(file, "x = 1\n"), text("Done.")])
        # /compact needs two turns; the latest request before it still carries the marker.
        claude(f"{request}: and the tests?", [text("Later.")], sid)
        out = []
        for k in range(1, COMPACTIONS + 1):
            mock.summary_text = f"MOCK-SUMMARY-{k}: earlier, the agent worked on a service."
            claude("/compact", [], sid)
            nxt, nfile = s.next_turn()
            claude(f"{nxt}: go on", [write(nfile, f"x = {k}\n"), text("Went on.")], sid)
            after = mock.first_main_after_summary("claude")
            out.append(judge(after.json_text if after else "", s, request, file))
            request, file = nxt, nfile
    return out


def run_codex(clis: C.CLIs, work: Path) -> list[Kept]:
    """COMPACTIONS automatic compactions in one `codex exec`, an edit before each."""
    sandbox = C.make_sandbox(work)
    install(sandbox, "codex")
    s = Seeds()
    seed_memory(sandbox.repo, s)
    big = 900_000  # a usage over the limit: Codex compacts after the tool runs
    request, _ = s.next_turn()
    files = [f"cont_{s.tag}_{k}.py" for k in range(1, COMPACTIONS + 1)]
    with MockAPI(workdir=sandbox.repo) as mock:
        mock.script("codex", [*(write(f, "x = 1\n", input_tokens=big) for f in files), text("Done.")])
        proc = C.run_codex(sandbox.repo, sandbox.home, mock, [f"{request}: make get_user async"],
                           clis=clis, auto_compact_token_limit=5000, timeout=240)
        if proc.returncode != 0 or mock.refused:
            raise RuntimeError(C.describe(proc, mock))
        out = []
        for k, summary in enumerate(mock.summary_requests("codex")[:COMPACTIONS]):
            after = mock.main_after(summary)
            out.append(judge(after[0].json_text if after else "", s, request, files[k]))
    return out


def row(t: Table, sec: str, name: str, kept: list[Kept]) -> None:
    for k, got in enumerate(kept, 1):
        missing = [f for f, ok in got.facts.items() if not ok]
        t.add(sec, f"{name}, compaction {k}", f"{got.count}/{len(FACTS)} facts, {got.tokens} tokens injected",
              f"missing: {', '.join(missing) or 'none'}", None, facts=got.facts, tokens=got.tokens)
    total = sum(g.count for g in kept)
    t.add(sec, f"{name}, {len(kept)} compactions", f"{total}/{len(FACTS) * len(kept)} facts kept",
          "6/6 a compaction", total == len(FACTS) * len(kept))


def bench_continuity(t: Table, args: argparse.Namespace, details: dict) -> None:
    sec = "7. continuity: facts in the first request after each compaction (real CLIs, mock model)"
    try:
        clis = C.ensure_clis()
    except C.CLIUnavailable as exc:
        t.notes.append(f"section 7 skipped: {exc}; {C.install_hint()}")
        return
    results: dict[str, list[dict[str, object]]] = {}
    with tempfile.TemporaryDirectory(prefix="agenthooks-continuity-") as tmp:
        runs = [(f"claude-code {v}", lambda w, v=v: run_claude(clis, v, w))
                for v in sorted(clis.pinned.get("claude", {}))]
        runs.append((f"codex {clis.versions.get('codex', '')}".strip(), lambda w: run_codex(clis, w)))
        for i, (name, run) in enumerate(runs):
            try:
                kept = run(Path(tmp) / str(i))
            except Exception as exc:  # noqa: BLE001 - one CLI's failure is a row, not the end
                t.add(sec, name, f"did not run: {str(exc).splitlines()[0][:80]}", "", False)
                continue
            row(t, sec, name, kept)
            results[name] = [{"facts": g.facts, "tokens": g.tokens} for g in kept]
    details["continuity"] = results


if __name__ == "__main__":
    table = Table()
    bench_continuity(table, argparse.Namespace(), {})
    print(table.render())
