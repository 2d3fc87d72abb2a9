"""Several real compactions in one session, with the agent changing its memory in between.

Claude Code (both pinned versions) compacts five times (`/compact`), Codex three times
(automatic compaction within one `codex exec`), Gemini CLI twice (compression on `-r`).
Between compactions the agent (the mock's scripted tool calls) edits snapshot.md and
tattoo.md itself. After each compaction, from the requests the mock recorded:

- the first request after it holds a block with the current markers, after the summary,
  and no block holds an older marker;
- the number of blocks in that request is the same after every compaction (nothing
  accumulates);
- while memory is unchanged, the blocks are byte-identical;
- .agent/log/memory.log has exactly one "compaction detected" line per compaction.
"""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
import time
from pathlib import Path

import pytest

try:
    from . import clis as C
    from .mockapi import GEMINI_VERIFY_MARK, MockAPI, Reply, Request, edit, text, tool, write
    from .test_agenthooks_e2e import (COMPACTED, RELOADED, RULE, PROGRESS, Project,
                                      assert_offline, claude_clis, install, memory_blocks, ok)
except ImportError:  # tests/e2e is not a package
    import clis as C  # type: ignore[no-redef]
    from mockapi import (GEMINI_VERIFY_MARK, MockAPI, Reply, Request,  # type: ignore[no-redef]
                         edit, text, tool, write)
    from test_agenthooks_e2e import (COMPACTED, RELOADED, RULE,  # type: ignore[no-redef]
                                     PROGRESS, Project, assert_offline, claude_clis,
                                     install, memory_blocks, ok)

pytestmark = pytest.mark.e2e

DETECTED = "compaction detected"


def install_quiet(sandbox: C.Sandbox, framework: str) -> Project:
    """install(), with fresh_after_compactions 0: the fresh-session line names the count, the
    one thing meant to differ between compactions, and the blocks here are compared whole."""
    project = install(sandbox, framework)
    cfg = project.agent / "config.yaml"
    text_ = cfg.read_text(encoding="utf-8")
    assert re.search(r"(?m)^fresh_after_compactions: \d+$", text_), text_
    cfg.write_text(re.sub(r"(?m)^fresh_after_compactions: \d+$", "fresh_after_compactions: 0", text_),
                   encoding="utf-8")
    return project


@dataclasses.dataclass
class Memory:
    """The markers memory holds now, and every marker it held before."""
    project: Project
    rule: str = RULE
    progress: str = PROGRESS
    old: tuple[str, ...] = ()

    def markers(self) -> tuple[str, str]:
        return (self.rule, self.progress)

    def copy(self) -> Memory:
        return dataclasses.replace(self)

    def rule_edit(self, new: str, **kw: int) -> Reply:
        """The agent's edit of tattoo.md that replaces the current rule (applied by the CLI)."""
        reply = edit(".agent/memory/tattoo.md", self.rule, new, **kw)
        self.old, self.rule = self.old + (self.rule,), new
        return reply

    def progress_edit(self, new: str, **kw: int) -> Reply:
        reply = edit(".agent/memory/snapshot.md", self.progress, new, **kw)
        self.old, self.progress = self.old + (self.progress,), new
        return reply

    def on_disk(self) -> None:
        """The CLI really applied the agent's edits."""
        memory = self.project.agent / "memory"
        assert self.rule in (memory / "tattoo.md").read_text()
        assert self.progress in (memory / "snapshot.md").read_text()


def check_after_compaction(after: Request | None, summary: str, memory: Memory, what: str,
                           notice: str | None = None) -> list[str]:
    """The first main request after a compaction: a block with the current markers (and the
    notice) after the summary text; no block with an older marker. Returns its blocks."""
    assert after is not None, f"no request after {what}"
    wanted = memory.markers() + ((notice,) if notice else ())
    later = memory_blocks(after, after=summary)
    assert any(all(m in b for m in wanted) for b in later), (
        f"{what}: no block with {wanted} after the summary:\n{later}")
    blocks = memory_blocks(after)
    stale = [m for m in memory.old if any(m in b for b in blocks)]
    assert not stale, f"{what}: blocks still hold {stale}:\n{blocks}"
    return blocks


def detections(project: Project) -> list[str]:
    return [ln for ln in project.log() if DETECTED in ln]


def compressions(mock: MockAPI) -> list[Request]:
    """Gemini CLI's summary requests (each compression also sends a check of the summary)."""
    return [r for r in mock.summary_requests("gemini") if GEMINI_VERIFY_MARK not in r]


# --------------------------------------------------------------------------
# Claude Code: five /compact in one session


def test_claude_five_compactions(claude_clis: C.CLIs, sandbox: C.Sandbox,
                                 mock_api: MockAPI) -> None:
    project = install_quiet(sandbox, "claude-code")
    memory = Memory(project)

    def claude(prompt: str, sid: str | None = None) -> subprocess.CompletedProcess[str]:
        proc = C.run_claude(sandbox.repo, sandbox.home, mock_api,
                            C.claude_prompt(prompt, resume=sid), clis=claude_clis)
        ok(proc, mock_api)
        return proc

    def read(name: str) -> Reply:
        # Claude Code edits only a file it has read in this session.
        return tool("Read", {"file_path": str(project.agent / "memory" / name)})

    mock_api.script("claude", [write("app.py", "x = 1\n"), text("Wrote app.py."),
                               text("Second answer.")])
    sid = C.session_id(claude("write app.py"))
    claude("second question", sid)  # /compact needs two turns
    # What the agent does in the turn after compaction k: memory changes after the 1st,
    # 2nd and 4th; after the 3rd it stays as it is (so compaction 4's blocks are 3's).
    turns = {
        1: lambda: [read("tattoo.md"), memory.rule_edit("E2E-RULE-r2: never use tabs"),
                    read("snapshot.md"), memory.progress_edit("E2E-PROGRESS-p2: cache get_user")],
        2: lambda: [read("snapshot.md"), memory.progress_edit("E2E-PROGRESS-p3: time out get_user")],
        3: lambda: [write("app.py", "x = 3\n")],
        4: lambda: [read("tattoo.md"), memory.rule_edit("E2E-RULE-r5: every API returns code")],
        5: lambda: [],
    }
    counts, blocks = [], {}
    for k in range(1, 6):
        mock_api.summary_text = f"MOCK-SUMMARY-{k}: the earlier conversation wrote app.py."
        claude("/compact", sid)
        assert len(mock_api.summary_requests("claude")) == k
        assert len(detections(project)) == k, project.log()
        # The next prompt: its first request is the first one after compaction k.
        expected = memory.copy()
        mock_api.script("claude", [*turns[k](), text(f"Turn {k} done.")])
        claude(f"turn {k}", sid)
        blocks[k] = check_after_compaction(mock_api.first_main_after_summary("claude"),
                                           mock_api.summary_text, expected, f"/compact #{k}",
                                           COMPACTED)
        counts.append(len(blocks[k]))
        memory.on_disk()
        # One detection per compaction, by SessionStart(compact); the prompt after it adds none.
        assert len(detections(project)) == k, project.log()
    assert all(ln.count("SessionStart source=compact") == 1 for ln in detections(project))
    assert len(set(counts)) == 1 and counts[0] <= 2, counts  # no accumulation
    # The working set names the user's latest request, the prompt before each /compact.
    for k in range(2, 6):
        assert any(f"The user's latest request: turn {k - 1}\n" in b for b in blocks[k]), blocks[k]
    # Memory unchanged: the same bytes, the request aside (the CLI may order the two blocks
    # either way).
    kept = {k: sorted(re.sub(r"The user's latest request: turn \d+\n", "", b) for b in blocks[k])
            for k in blocks}
    assert kept[4] == kept[3]
    assert all(kept[k] != kept[k + 1] for k in (1, 2, 4))
    assert_offline(mock_api)


# --------------------------------------------------------------------------
# Codex: three automatic compactions in one run


def test_codex_three_auto_compactions(clis: C.CLIs, sandbox: C.Sandbox,
                                      mock_api: MockAPI) -> None:
    project = install_quiet(sandbox, "codex")
    memory = Memory(project)
    big = 900_000  # a reported usage over the limit: Codex compacts after the tool runs
    expected = [memory.copy()]
    script = [write("app.py", "x = 1\n", input_tokens=big)]
    # After compaction 1 the agent edits the snapshot, after 2 only app.py (memory unchanged).
    script.append(memory.progress_edit("E2E-PROGRESS-p2: cache get_user", input_tokens=big))
    expected.append(memory.copy())
    script.append(edit("app.py", "x = 1", "x = 2", input_tokens=big))
    expected.append(memory.copy())
    mock_api.script("codex", [*script, text("Edited.")])
    proc = C.run_codex(sandbox.repo, sandbox.home, mock_api, ["write app.py"], clis=clis,
                       auto_compact_token_limit=5000, timeout=180)
    ok(proc, mock_api)

    summaries = mock_api.summary_requests("codex")
    assert len(summaries) == 3, [(r.index, r.kind) for r in mock_api.requests]
    blocks = []
    for k, summary in enumerate(summaries):
        blocks.append(check_after_compaction(mock_api.main_after(summary)[0],
                                             mock_api.summary_text, expected[k],
                                             f"auto-compaction #{k + 1}", COMPACTED))
    assert len({len(b) for b in blocks}) == 1, [len(b) for b in blocks]
    assert blocks[2] == blocks[1] and blocks[1] != blocks[0]
    memory.on_disk()
    assert (sandbox.repo / "app.py").read_text() == "x = 2\n"
    lines = detections(project)
    assert len(lines) == 3 and all("SessionStart source=compact" in ln for ln in lines), project.log()
    assert_offline(mock_api)


# --------------------------------------------------------------------------
# Gemini CLI: two compressions, resumed prompts in between


def chat_file_of_this_minute(home: Path, sid: str) -> Path:
    """Name the session's chat file after the current minute (UTC), as a resume within the
    minute the session started finds it. Measured in Gemini CLI 0.61.0: a resume first
    starts a chat file named after the current minute; when that is the session's file,
    it appends a fresh header to it and then rewrites the whole history with new
    timestamps (a later minute gets a file of its own and the timestamps stay)."""
    if time.gmtime().tm_sec >= 40:  # leave the CLI time to start within this minute
        time.sleep(61 - time.gmtime().tm_sec)
    # The session's file, not one a resume in another minute started with a header only.
    found = max((home / ".gemini" / "tmp").rglob(f"chats/session-*-{sid[:8]}.jsonl"),
                key=lambda f: f.stat().st_size)
    name = time.strftime("session-%Y-%m-%dT%H-%M-", time.gmtime()) + f"{sid[:8]}.jsonl"
    return found.rename(found.with_name(name))


def summary_timestamps(chat: Path) -> dict[str, set[str]]:
    """id -> the timestamps the chat file gave the message holding a compressed history,
    in the order the ids first appear."""
    seen: dict[str, set[str]] = {}
    for line in chat.read_text(encoding="utf-8").split("\n"):
        for msg in json.loads(line or "{}").get("$set", {}).get("messages", []):
            if "<state_snapshot>" in json.dumps(msg):
                seen.setdefault(msg["id"], set()).add(msg["timestamp"])
    return seen


def test_gemini_two_compressions_across_resumes(clis: C.CLIs, sandbox: C.Sandbox,
                                                mock_api: MockAPI) -> None:
    """Each resumed turn fires SessionStart(resume) (memory, not a detection); on_compact
    detects a compression on the prompt after it, from the chat file, and a resume that
    compresses nothing detects nothing, although it rewrote the history's timestamps."""
    project = install_quiet(sandbox, "gemini-cli")
    memory = Memory(project)
    C.setup_gemini_home(sandbox.home)

    def gemini(prompt: str, sid: str | None, replies: list[Reply],
               compress: bool = False) -> subprocess.CompletedProcess[str]:
        # One turn never compresses; a resumed one does under a tiny threshold.
        C.setup_gemini_home(sandbox.home, compression_threshold=0.0001 if compress else None)
        if sid:
            chat[0] = chat_file_of_this_minute(sandbox.home, sid)
        mock_api.script("gemini", replies)
        before = len(mock_api.main_requests("gemini"))
        proc = C.run_gemini(sandbox.repo, sandbox.home, mock_api,
                            C.gemini_prompt(prompt, resume=sid), clis=clis)
        ok(proc, mock_api)
        firsts[prompt] = mock_api.main_requests("gemini")[before]
        return proc

    chat = [Path()]
    firsts: dict[str, Request] = {}  # prompt -> the first request of its turn
    sid = C.session_id(gemini("write app.py", None, [write("app.py", "x = 1\n"), text("Wrote it.")]))
    blocks = {}
    for k, edits in ((1, lambda: [memory.rule_edit("E2E-RULE-r2: never use tabs"),
                                  memory.progress_edit("E2E-PROGRESS-p2: cache get_user")]),
                     (2, lambda: [])):
        mock_api.summary_text = f"MOCK-SUMMARY-{k}: the earlier conversation wrote app.py."
        gemini(f"compress {k}", sid, [text(f"Compressed {k}.")], compress=True)
        assert len(compressions(mock_api)) == k
        # The compressing turn: its prompt (with SessionStart's memory) outlives the history.
        blocks[k] = check_after_compaction(mock_api.first_main_after_summary("gemini"),
                                           mock_api.summary_text, memory, f"compression #{k}")
        assert len(detections(project)) == k - 1, project.log()
        # The prompt after it: on_compact sees the compression in the chat file.
        gemini(f"after {k}", sid, [*edits(), text(f"After {k}.")])
        reloaded = [b for b in memory_blocks(firsts[f"after {k}"]) if RELOADED in b]
        assert len(reloaded) == 1, memory_blocks(first)
        lines = detections(project)
        assert len(lines) == k and "a compaction record in the transcript" in lines[-1], project.log()
        # A resume with no compression: the rewritten history is not a new compaction.
        stamps = summary_timestamps(chat[0])
        gemini(f"resume {k}", sid, [text(f"Resumed {k}.")])
        assert len(compressions(mock_api)) == k
        rewritten = summary_timestamps(chat[0])
        assert rewritten.keys() == stamps.keys() and len(stamps) == k, (stamps, rewritten)
        latest = list(stamps)[-1]  # the id of the compressed history now in use
        assert rewritten[latest] > stamps[latest], ("the resume kept the timestamps", rewritten)
        assert len(detections(project)) == k, project.log()
    memory.on_disk()
    assert len(blocks[1]) == len(blocks[2]), (blocks[1], blocks[2])
    # Memory unchanged since "after 1": each later turn's SessionStart block (the latest
    # block without on_compact's notice) is the same bytes.
    same = {[b for b in memory_blocks(firsts[p]) if RELOADED not in b][-1]
            for p in ("resume 1", "compress 2", "after 2", "resume 2")}
    assert len(same) == 1 and memory.progress in same.pop()
    assert_offline(mock_api)
