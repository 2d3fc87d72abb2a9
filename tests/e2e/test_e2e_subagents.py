"""A subagent's memory in the real Claude Code, Codex and Copilot CLI, offline against the mock.

The main loop is scripted to start one subagent, synchronously, with a task only it is given
(TASK): Claude Code 2.1.328's `Agent` tool (`run_in_background: false`), Codex's
`collaboration.spawn_agent` with `--enable multi_agent_v2` (`fork_turns: "none"`, then
`wait_agent`), Copilot CLI's `task` tool (`mode: "sync"`). The subagent's requests go to the
same mock: they are the ones whose user messages (Codex: the agent_message the parent sent)
hold TASK, and the mock answers them from a script of their own (MockAPI.script_for).

What is shown, for each host:
- the subagent's first request holds the subagent block (SubagentStart / subagentStart ->
  pre_task.sh): the rules and the board's In progress items, never the notes, Goal or Key
  decisions; exactly what `pre_task.sh --show --event=SubagentStart` prints, and within
  subagent_budget_tokens (the memory here is larger than the budget, so the block is cut);
- a subagent of a type subagent_skip lists (Claude Code `Explore`, Copilot CLI `explore`;
  Codex, whose type is always `default`: `subagent_skip: "default"`) gets nothing;
- the main context's requests carry the session's block, whole (the notes too), before and
  after the subagent, and never the subagent's block, not even in the subagent's result.
"""

from __future__ import annotations

import dataclasses
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import pytest

try:
    from . import clis as C
    from . import hosts as H
    from .mockapi import MockAPI, Request, text, tool, user_texts
except ImportError:  # tests/e2e is not a package
    import clis as C  # type: ignore[no-redef]
    import hosts as H  # type: ignore[no-redef]
    from mockapi import MockAPI, Request, text, tool, user_texts  # type: ignore[no-redef]

pytestmark = pytest.mark.e2e

# The Claude Code whose Agent tool and SubagentStart payload these runs were written against.
CLAUDE_PIN = "2.1.328"
TASK = "E2E-SUBTASK-4e7: list the functions of app.py"
PROMPT = "delegate the listing of app.py to a subagent"
NOTE = "E2E-NOTE-a19: the cache layer waits for the async refactor"
GOAL = "E2E-GOAL: make user_service async"
DECISION = "raise UserNotFound, never return None"
SUB_INTRO = "Project memory for this subagent (.agent/memory/)"
MAIN_INTRO = "Project memory (.agent/memory/, loaded by agenthooks)"
CUT = re.compile(r"\[\.\.\. (\d+) rules left out for the budget: read \.agent/memory/tattoo\.md\]")
SUB_BUDGET = 300  # subagent_budget_tokens' default
# More rules than SUB_BUDGET holds (about 800 tokens): the subagent's block must be cut to fit.
FILLERS = [f"E2E-FILLER-{n:02d}: keep every function under forty lines and name each constant"
           " for what it means" for n in range(30)]


@dataclass(frozen=True)
class Host:
    framework: str
    dialect: str
    registration: str  # the file the install registers the hooks in
    ordinary: str  # an agent type that gets the block
    skipped: str  # an agent type subagent_skip lists
    spawn: Callable[[str], list[Any]]  # the main loop's script: start a subagent of a type
    run: Callable[..., subprocess.CompletedProcess[str]]


def _claude_spawn(agent_type: str) -> list[Any]:
    return [tool("Agent", {"subagent_type": agent_type, "description": "list app.py",
                           "prompt": TASK, "run_in_background": False}),
            text("Main loop done.")]


def _codex_spawn(agent_type: str) -> list[Any]:
    # multi_agent_v2's spawn_agent names no type (Codex reports `default`); fork_turns "none":
    # a forked child ("all", the default) inherits the parent's history, its block included.
    assert agent_type == "default"
    return [tool("spawn_agent", {"task_name": "lister", "message": TASK, "fork_turns": "none"},
                 namespace="collaboration"),
            tool("wait_agent", {"timeout_ms": 60_000}, namespace="collaboration"),
            text("Main loop done.")]


def _copilot_spawn(agent_type: str) -> list[Any]:
    return [tool("task", {"name": "lister", "description": "list app.py", "prompt": TASK,
                          "agent_type": agent_type, "mode": "sync"}),
            text("Main loop done.")]


def _run_claude(sandbox: C.Sandbox, mock: MockAPI, clis: C.CLIs) -> subprocess.CompletedProcess[str]:
    claude = clis.pinned["claude"].get(CLAUDE_PIN)
    if claude is None:
        pytest.fail(f"Claude Code {CLAUDE_PIN} is not pinned in tests/e2e/pins.txt", pytrace=False)
    return C.run_claude(sandbox.repo, sandbox.home, mock, C.claude_prompt(PROMPT),
                        clis=dataclasses.replace(clis, claude=claude), timeout=180)


def _run_codex(sandbox: C.Sandbox, mock: MockAPI, clis: C.CLIs) -> subprocess.CompletedProcess[str]:
    return C.run_codex(sandbox.repo, sandbox.home, mock, ["--enable", "multi_agent_v2", PROMPT],
                       clis=clis, timeout=180)


def _run_copilot(sandbox: C.Sandbox, mock: MockAPI, clis: C.CLIs) -> subprocess.CompletedProcess[str]:
    return C.run_copilot(sandbox.repo, sandbox.home, mock, PROMPT, clis=clis, timeout=180)


HOSTS = {
    "claude-code": Host("claude-code", "claude", ".claude/settings.json", "general-purpose",
                        "Explore", _claude_spawn, _run_claude),
    "codex": Host("codex", "codex", ".codex/hooks.json", "default", "default", _codex_spawn,
                  _run_codex),
    "copilot-cli": Host("copilot-cli", "codex", ".github/hooks/agenthooks.json", "general-purpose",
                        "explore", _copilot_spawn, _run_copilot),
}


@dataclass
class Run:
    host: Host
    project: H.Project
    mock: MockAPI
    proc: subprocess.CompletedProcess[str]
    agent_type: str

    @property
    def subagent(self) -> list[Request]:
        """The subagent's requests: the ones its task was given in."""
        return [r for r in self.mock.main_requests(self.host.dialect)
                if TASK in "\n".join(user_texts(r.body))]

    @property
    def main_context(self) -> list[Request]:
        ours = {r.index for r in self.subagent}
        return [r for r in self.mock.main_requests(self.host.dialect) if r.index not in ours]

    def where(self) -> str:
        return C.describe(self.proc, self.mock) + "\n--- log\n" + "\n".join(self.project.log())


def run_subagent(root: Path, clis: C.CLIs, host: Host, *, skipped: bool) -> Run:
    """Install the host's hooks, write memory larger than the subagent's budget, and run one
    prompt whose main loop starts a subagent (of a skipped type when skipped)."""
    sandbox = C.make_sandbox(root)
    mock = MockAPI(workdir=sandbox.repo).start()
    try:
        project = H.install(sandbox, host.framework, host.registration)
        rules = "".join(f"- {r}\n" for r in (project.rule, *FILLERS))
        (project.agent / "memory" / "tattoo.md").write_text(f"# Project hard rules\n{rules}",
                                                            encoding="utf-8")
        (project.agent / "memory" / "notes.md").write_text(f"# Notes\n- {NOTE}\n", encoding="utf-8")
        # The session's block holds everything (the notes too); the subagent's has its default budget.
        project.set_config(budget_tokens=4000)
        if skipped and host.framework == "codex":
            project.set_config(subagent_skip='"default"')  # type: ignore[arg-type]
        agent_type = host.skipped if skipped else host.ordinary
        mock.script(host.dialect, host.spawn(agent_type))
        mock.script_for(host.dialect, TASK, [text("Subagent done: app.py has get_user.")])
        proc = host.run(sandbox, mock, clis)
    finally:
        mock.stop()
    run = Run(host, project, mock, proc, agent_type)
    H.ok(proc, mock)
    assert run.subagent, f"the subagent made no request:\n{run.where()}"
    assert mock.pending(host.dialect) == [], f"the main loop's script was not used up:\n{run.where()}"
    return run


_RUNS: dict[tuple[str, bool], Run] = {}


@pytest.fixture(scope="module")
def runs(clis: C.CLIs, tmp_path_factory: pytest.TempPathFactory) -> Callable[[str, bool], Run]:
    """One CLI run per host and kind of subagent, shared by the tests that look at it."""
    def get(name: str, skipped: bool) -> Run:
        key = (name, skipped)
        if key not in _RUNS:
            root = tmp_path_factory.mktemp(f"sub-{name}-{'skipped' if skipped else 'ordinary'}")
            _RUNS[key] = run_subagent(root, clis, HOSTS[name], skipped=skipped)
        return _RUNS[key]
    return get


def blocks(req: Request) -> list[str]:
    return H.blocks_in(req.body)


def subagent_block(run: Run) -> str:
    """The one memory block in the subagent's first request: the subagent's."""
    first = run.subagent[0]
    found = blocks(first)
    assert len(found) == 1 and SUB_INTRO in found[0], f"{found}\n{first.json_text[:8000]}"
    return found[0]


def shown_subagent_block(project: H.Project) -> str:
    """What pre_task.sh says a subagent gets now (the generic form: the bare block)."""
    proc = subprocess.run(["bash", ".agent/hooks/pre_task.sh", "--show", "--event=SubagentStart"],
                          cwd=project.repo, input="{}", capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


host_names = pytest.mark.parametrize("name", list(HOSTS))


@host_names
def test_a_subagent_gets_the_rules_and_in_progress_in_its_first_request(
        runs: Callable[[str, bool], Run], name: str) -> None:
    run = runs(name, False)
    block = subagent_block(run)
    for needle in (run.project.rule, H.PROGRESS):
        assert needle in block, (needle, block)
    # The block that reached it is the one the hooks build for a subagent, whole.
    assert block == shown_subagent_block(run.project), block
    told = run.project.log_matching("pre_task", f"subagent {run.agent_type} started; told ")
    assert len(told) == 1, run.where()
    H.assert_hooks_exited_0(run.project)
    H.assert_offline(run.mock)


@host_names
def test_a_subagent_never_gets_the_notes_the_goal_or_the_key_decisions(
        runs: Callable[[str, bool], Run], name: str) -> None:
    run = runs(name, False)
    for req in run.subagent:
        for needle in (NOTE, "Scratch notes", GOAL, DECISION, MAIN_INTRO):
            assert needle not in req, (needle, req.json_text[:8000])


@host_names
def test_a_subagents_block_is_within_subagent_budget_tokens(
        runs: Callable[[str, bool], Run], name: str) -> None:
    run = runs(name, False)
    block = subagent_block(run)
    # A token is at least 4 ASCII characters: at most 4 * budget characters, markers included.
    assert len(block) <= 4 * SUB_BUDGET, (len(block), block)
    # The memory is larger than the budget: the block was cut, from the bottom of the rules,
    # and says so; the first rule and In progress stayed.
    cut = CUT.search(block)
    assert cut and 0 < int(cut.group(1)) < len(FILLERS), block
    assert FILLERS[-1] not in block, block
    told = run.project.log_matching("pre_task", f"subagent {run.agent_type} started; told ")
    tokens = re.search(r"told \d+ of (\d+) rules, 1 of 1 In progress items \((\d+) tokens\)", told[0])
    assert tokens and int(tokens.group(1)) == 1 + len(FILLERS), told
    assert int(tokens.group(2)) <= SUB_BUDGET, told


@host_names
def test_a_subagent_of_a_skipped_type_gets_nothing(runs: Callable[[str, bool], Run],
                                                    name: str) -> None:
    run = runs(name, True)
    for req in run.subagent:
        assert H.BEGIN not in req and SUB_INTRO not in req and run.project.rule not in req, \
            req.json_text[:8000]
    assert run.project.log_matching(
        "pre_task", f"subagent {run.agent_type} started; no memory (its type is in subagent_skip)"), \
        run.where()
    assert not run.project.log_matching("pre_task", "started; told "), run.where()
    H.assert_hooks_exited_0(run.project)
    H.assert_offline(run.mock)


@host_names
@pytest.mark.parametrize("skipped", [False, True], ids=["ordinary", "skipped"])
def test_the_main_context_keeps_its_block_and_never_sees_the_subagents(
        runs: Callable[[str, bool], Run], name: str, skipped: bool) -> None:
    run = runs(name, skipped)
    main = run.main_context
    # The main loop asked before the subagent started and again after it returned.
    assert len(main) >= 2 and main[0].index < run.subagent[0].index < main[-1].index, run.where()
    session = blocks(main[0])
    assert len(session) == 1 and MAIN_INTRO in session[0], main[0].json_text[:8000]
    for needle in (run.project.rule, FILLERS[-1], GOAL, H.PROGRESS, DECISION, NOTE):
        assert needle in session[0], (needle, session[0])
    for req in main:
        # The session's one block, as it was; the subagent's nowhere, its result included.
        assert blocks(req) == session, req.json_text[-8000:]
        assert SUB_INTRO not in req, req.json_text[-8000:]
    # The subagent's answer reached the main loop: its result is in the last request.
    assert "Subagent done: app.py has get_user." in main[-1], main[-1].json_text[-8000:]
    # Its start left the session's block alone: built once, at the session's start.
    assert len(run.project.log_matching("pre_task", "memory loaded:")) == 1, run.where()
