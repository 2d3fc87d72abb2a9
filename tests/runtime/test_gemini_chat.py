"""on_compact against a chat file Gemini CLI 0.61.0 really wrote, replayed prompt by prompt.

The file was recorded by the real CLI against tests/e2e's mock: one `gemini -p` turn,
then five `gemini -r SESSION` turns, the 2nd and the 5th compressing the history. A
resume rewrites the whole history (a `$set` record) with new timestamps on every
message, the compressed history included: only the messages' ids stay the same. So a
compression is detected once, on the prompt after it, and never again on a resume.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from support.helpers import FIXTURES, install, log_lines, make_repo, run_hook

CHAT = FIXTURES / "gemini" / "chats" / "resume-compress-resume.jsonl"
# The file's size when each turn's BeforeAgent hook ran, as recorded (the file only grows).
AT_PROMPT = [1524, 8493, 14631, 20470, 30510, 35226]
DETECTED = "compaction detected (a compaction record in the transcript)"


@pytest.fixture
def replay(tmp_path: Path):  # type: ignore[no-untyped-def]
    """replay(i): on_compact on prompt i's BeforeAgent, with the chat file as it was then;
    returns whether memory was reloaded."""
    repo = make_repo(tmp_path)
    install(repo, "--platform", "linux", "--framework", "gemini-cli")
    chat = tmp_path / "home" / ".gemini" / "tmp" / "repo" / "chats" / "session-86af1f37.jsonl"
    chat.parent.mkdir(parents=True)
    recorded = CHAT.read_bytes()
    assert len(recorded) == AT_PROMPT[-1]

    def run(i: int) -> bool:
        chat.write_bytes(recorded[:AT_PROMPT[i]])
        stdin = json.dumps({"session_id": "86af1f37", "hook_event_name": "BeforeAgent",
                            "transcript_path": str(chat), "cwd": str(repo),
                            "prompt": f"prompt {i + 1}"})
        proc = run_hook(repo, "on_compact", stdin, "gemini-cli")
        assert proc.returncode == 0 and proc.stderr == "", proc.stderr
        if not proc.stdout:
            return False
        context = json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]
        assert "AGENT MEMORY BEGIN" in context
        return True

    run.repo = repo  # type: ignore[attr-defined]
    return run


def test_each_compression_is_detected_once_across_resumes(replay) -> None:  # type: ignore[no-untyped-def]
    reloads = [replay(i) for i in range(6)]
    # Prompt 3 sees the 2nd turn's compression, prompt 6 the 5th's; prompt 4 is a resume
    # with no compression (its rewrite gave the compressed history new timestamps).
    assert reloads == [False, False, True, False, False, True]
    assert sum(DETECTED in ln for ln in log_lines(replay.repo)) == 2, log_lines(replay.repo)


def test_the_same_transcript_twice_is_one_detection(replay) -> None:  # type: ignore[no-untyped-def]
    assert [replay(i) for i in (0, 1, 2, 2, 3, 3)] == [False, False, True, False, False, False]
    assert sum(DETECTED in ln for ln in log_lines(replay.repo)) == 1, log_lines(replay.repo)


def test_the_recording_rewrites_the_compressed_history_with_new_timestamps() -> None:
    """What the two tests above rest on: prompt 4's resume rewrote the summary message with
    a new timestamp and the same id."""
    seen: dict[str, set[str]] = {}
    for line in CHAT.read_bytes()[:AT_PROMPT[3]].decode().split("\n"):
        for msg in json.loads(line or "{}").get("$set", {}).get("messages", []):
            if "<state_snapshot>" in json.dumps(msg):
                seen.setdefault(msg["id"], set()).add(msg["timestamp"])
    assert len(seen) == 1 and len(next(iter(seen.values()))) >= 2, seen
