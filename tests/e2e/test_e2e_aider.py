"""agenthooks in the real Aider (`aider --message`, Chat Completions, offline).

Aider has no hooks: `read: [.agent/injected_context.txt]` in .aider.conf.yml adds the
memory block read-only to every request, and `bash .agent/hooks/pre_task.sh aider`
refreshes that file before a session. Without hooks there is no post-edit reminder (see
agenthooks/frameworks/aider.py). History summarisation, forced with
--restore-chat-history and a tiny --max-chat-history-tokens, sends a summary request and
then the prompt's request, whose history opens with the summary; the read-only file is
sent beside it, so the memory survives."""

from __future__ import annotations

import subprocess

import pytest

try:
    from . import clis as C
    from . import hosts as H
    from .mockapi import MockAPI, text
except ImportError:  # tests/e2e is not a package
    import clis as C  # type: ignore[no-redef]
    import hosts as H  # type: ignore[no-redef]
    from mockapi import MockAPI, text  # type: ignore[no-redef]

pytestmark = pytest.mark.e2e

# litellm fetches its model price map whatever it is told; refused, the run goes on.
ALLOWED = ("raw.githubusercontent.com:443",)
SUMMARY_OPENS = "I spoke to you previously about a number of things."


def refresh(project: H.Project) -> None:
    """What a user runs before an Aider session: it exits 0, says nothing on stderr, and
    writes the block the read-only file gives Aider."""
    proc = subprocess.run(["bash", ".agent/hooks/pre_task.sh", "aider"], cwd=project.repo,
                          capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    assert project.rule in (project.agent / "injected_context.txt").read_text()


def aider(sandbox: C.Sandbox, mock: MockAPI, clis: C.CLIs, prompt: str,
          *extra: str) -> subprocess.CompletedProcess[str]:
    proc = C.run_aider(sandbox.repo, sandbox.home, mock, prompt, *extra, clis=clis)
    H.ok(proc, mock)
    assert "Added .agent/injected_context.txt to the chat (read-only)" in proc.stdout, proc.stdout
    return proc


def test_aider_memory_and_summarisation(clis: C.CLIs, sandbox: C.Sandbox,
                                        mock_api: MockAPI) -> None:
    project = H.install(sandbox, "aider", ".aider.conf.yml")
    refresh(project)
    body = "def get_user(uid):\n    return int(uid)\n"
    # A long first answer (a whole-file edit and some prose) so that the restored history
    # is over the limit next time.
    mock_api.script("chat", [text(f"app.py\n```python\n{body}```\n" + "Explained. " * 150)])
    aider(sandbox, mock_api, clis, "refactor get_user")
    H.assert_memory(mock_api.main_requests("chat")[0], project.rule, "first request")  # (a)
    assert (sandbox.repo / "app.py").read_text() == body

    # (c) a new rule, refreshed, then a run that summarises the restored history first.
    new_rule = project.new_rule()
    refresh(project)
    mock_api.script("chat", [text("Next step.")])
    aider(sandbox, mock_api, clis, "what next?", "--restore-chat-history",
          "--max-chat-history-tokens", "64")
    assert len(mock_api.summary_requests("chat")) == 1
    after = mock_api.first_main_after_summary("chat")
    assert after is not None and mock_api.summary_text in after
    H.assert_memory(after, new_rule, "first request after the summarisation")
    # Aider puts the read-only files before the chat history, which opens with the summary.
    H.assert_after(after, H.BEGIN, SUMMARY_OPENS, "first request after the summarisation")
    H.assert_after(after, SUMMARY_OPENS, mock_api.summary_text, "the summary")
    H.assert_offline(mock_api, ALLOWED)  # (d)
    H.assert_hooks_exited_0(project)  # (e)
