"""Hostile hosts and inputs, run on every userland (GNU, BusyBox, macOS-like).

Each test states what must hold. Cases the hooks do not handle yet are marked
xfail(strict=True) by name: the mark comes off with the fix, and a case that starts
passing without it fails loudly, so the list stays true."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from support.helpers import SAMPLE_SNAPSHOT, SAMPLE_TATTOO, install, make_repo, payload, summary_instructions, \
    write_memory
from support.userlands import USERLANDS, env_for

BEGIN = "===== AGENT MEMORY BEGIN ====="
PROMPT = {"session_id": "h1", "hook_event_name": "UserPromptSubmit", "prompt": "go on"}
START = {"session_id": "h1", "hook_event_name": "SessionStart", "source": "startup"}
BASH = "/bin/bash"

# case -> the userlands where the hooks do not handle it yet
OPEN: dict[str, tuple[str, ...]] = {
}


def cases(item: str) -> list[object]:
    return [pytest.param(u, marks=pytest.mark.xfail(strict=True, reason=f"not handled yet: {item}"))
            if u in OPEN.get(item, ()) else u for u in sorted(USERLANDS)]


def repo_for(tmp_path: Path, userland: str) -> tuple[Path, dict[str, str]]:
    platform, _ = USERLANDS[userland]
    repo = make_repo(tmp_path)
    install(repo, "--platform", platform, "--framework", "claude-code")
    write_memory(repo, tattoo=SAMPLE_TATTOO, snapshot=SAMPLE_SNAPSHOT)
    env = {**os.environ, **env_for(userland, tmp_path)}
    return repo, env


def run(repo: Path, hook: str, env: dict[str, str], stdin: object = START, *args: str,
        cwd: Path | None = None, timeout: float = 20, **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([BASH, f".agent/hooks/{hook}.sh", "claude-code", *args],
                          input=payload(stdin), cwd=cwd or repo, env=env, capture_output=True,
                          text=True, timeout=timeout, **kw)  # type: ignore[call-overload]


def context(out: str) -> str:
    """The one JSON object on stdout, and the memory inside it."""
    obj = json.loads(out)
    return str(obj["hookSpecificOutput"]["additionalContext"])


@pytest.mark.parametrize("userland", cases("2-busybox-password"))
def test_assigned_passwords_are_redacted(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    write_memory(repo, notes="# n\n- db password = letmein2024\n- api_key:\tt0ps3cr3tvalue\n"
                 "- the test plan is ready\n")
    shown = run(repo, "pre_task", env, "", "--show")
    assert "letmein2024" not in shown.stdout and "t0ps3cr3tvalue" not in shown.stdout
    assert shown.stdout.count("redacted by agenthooks") == 2
    assert "the test plan is ready" in shown.stdout  # a 't' is no blank: plain text stays


@pytest.mark.parametrize("userland", cases("3-control-char-secret"))
def test_a_secret_split_by_a_control_character_is_redacted(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    write_memory(repo, notes="# n\n- key AKIA\x01IOSFODNN7EXAMPLE\n- gh ghp_\u200b" + "a1B2c3D4e5" * 3 + "\n")
    shown = run(repo, "pre_task", env, "", "--show")
    assert "IOSFODNN7EXAMPLE" not in shown.stdout and "a1B2c3D4e5" not in shown.stdout
    assert context(shown.stdout).count("redacted by agenthooks") == 2


def test_lint_finds_a_secret_split_by_a_control_character(tmp_path: Path) -> None:
    from support.helpers import cli

    repo, _ = repo_for(tmp_path, "gnu")
    write_memory(repo, notes="# n\n- key AKIA\x01IOSFODNN7EXAMPLE\n- gh ghp_\u200b" + "a1B2c3D4e5" * 3 + "\n")
    out = cli("lint", str(repo)).stdout
    assert ".agent/memory/notes.md:2: error: looks like a secret (aws-access-key)" in out, out
    assert ".agent/memory/notes.md:3: error: looks like a secret (github-token)" in out, out


@pytest.mark.parametrize("userland", cases("4-cdpath"))
def test_cdpath_changes_nothing(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    other, _ = repo_for(tmp_path / "other", userland)
    for cdpath in (".", str(other)):
        out = run(repo, "pre_task", {**env, "CDPATH": cdpath})
        assert out.returncode == 0
        assert "Indent with 4 spaces" in context(out.stdout)  # parses: nothing before the JSON
    assert not (other / ".agent/injected_context.txt").exists()


# --- 5: the environment cannot inject output (through the registered command) ---
PRECOMPACT = {"session_id": "h1", "hook_event_name": "PreCompact", "trigger": "auto"}
EDIT = {"session_id": "h1", "hook_event_name": "PostToolUse", "tool_name": "Edit",
        "tool_input": {"file_path": ".agent/memory/snapshot.md"}}
# (event in .claude/settings.json, payload); PreCompact then a prompt: the reload prints
HOST_RUNS = (("SessionStart", START), ("PreCompact", PRECOMPACT), ("UserPromptSubmit", PROMPT),
             ("PostToolUse", EDIT))


def registered(repo: Path, event: str) -> str:
    """The command install wrote for the event, as Claude Code reads it."""
    settings = json.loads((repo / ".claude/settings.json").read_text())
    (group,) = settings["hooks"][event]
    return str(group["hooks"][0]["command"])


def host_runs(repo: Path, env: dict[str, str]) -> list[subprocess.CompletedProcess[str]]:
    """Each registered command through sh -c, as the host runs it, in session order."""
    sh = shutil.which("sh", path=env["PATH"]) or "/bin/sh"
    full = {**env, "CLAUDE_PROJECT_DIR": str(repo)}
    return [subprocess.run([sh, "-c", registered(repo, event)], input=payload(stdin), cwd=repo,
                           env=full, capture_output=True, text=True, timeout=20)
            for event, stdin in HOST_RUNS]


def assert_clean(runs: list[subprocess.CompletedProcess[str]], forged: str = "FORGED") -> None:
    """stdout is nothing or one JSON object (PreCompact: the summary's plain instructions),
    stderr is empty, every run exits 0; the start and the prompt after PreCompact carry the
    memory."""
    for out in runs:
        assert out.returncode == 0 and out.stderr == "" and forged not in out.stdout, out
    start, precompact, reload, edit = runs
    for out in (start, reload, edit):
        assert out.stdout == "" or isinstance(json.loads(out.stdout), dict), out.stdout
    # PreCompact: the plain instructions Claude Code hands its summarizer.
    assert summary_instructions(precompact.stdout), precompact.stdout
    assert "Indent with 4 spaces" in context(start.stdout)
    assert "Indent with 4 spaces" in context(reload.stdout)


@pytest.mark.parametrize("userland", cases("5-bash-env"))
def test_a_printing_bash_env_adds_nothing_to_stdout(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    rc = tmp_path / "rc.sh"
    rc.write_text(f"echo FORGED; echo FORGED >&2; : > {tmp_path}/sourced\n")
    assert_clean(host_runs(repo, {**env, "BASH_ENV": str(rc), "ENV": str(rc)}))
    assert not (tmp_path / "sourced").exists()


FUNCS = ("cd", "printf", "command", "[", "builtin", "read", "source", "exec", "bash", "awk", "mv")


@pytest.mark.parametrize("userland", cases("5-exported-function"))
def test_exported_functions_cannot_inject_output(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    forged = {f"BASH_FUNC_{name}%%": "() { echo FORGED; echo FORGED >&2; }" for name in FUNCS}
    assert_clean(host_runs(repo, {**env, **forged}))


@pytest.mark.parametrize("userland", cases("5-xtrace"))
def test_xtrace_from_the_environment_stays_quiet(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    traced = {"SHELLOPTS": "xtrace:verbose", "BASHOPTS": "nullglob:failglob",
              "PS4": "$(echo FORGED >&2)+ ", "GLOBIGNORE": "*"}
    assert_clean(host_runs(repo, {**env, **traced}))


def test_the_registered_commands_are_what_the_host_runs(tmp_path: Path) -> None:
    """The commands host_runs reads start the three hooks, so the cases above test them."""
    repo, _ = repo_for(tmp_path, "gnu")
    hooks = [registered(repo, event).split("/.agent/hooks/")[1].split(".sh")[0] for event, _ in HOST_RUNS]
    assert hooks == ["pre_task", "on_compact", "on_compact", "post_edit"]


@pytest.mark.parametrize("userland", cases("6-open-stdin"))
def test_a_host_that_never_closes_stdin_does_not_hang_the_hook(tmp_path: Path,
                                                               userland: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    for hook in ("pre_task", "on_compact", "post_edit"):
        proc = subprocess.Popen([BASH, f".agent/hooks/{hook}.sh", "claude-code"], cwd=repo,
                                env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        try:
            proc.wait(timeout=10)  # stdin stays open: the read must be bounded
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            pytest.fail(f"{hook} waited for stdin to close")
        finally:
            assert proc.stdin is not None
            proc.stdin.close()
        assert proc.returncode == 0


@pytest.mark.parametrize("userland", cases("8-closed-stdout"))
def test_a_closed_stdout_still_publishes_and_exits_0(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    (repo / ".agent/memory/tattoo.md").write_text("# Rules\n- NEW-RULE-MARKER\n")
    shell = f"{BASH} .agent/hooks/pre_task.sh claude-code </dev/null | true; echo rc=${{PIPESTATUS[0]}}"
    out = subprocess.run([BASH, "-c", shell], cwd=repo, env=env, capture_output=True, text=True,
                         timeout=20)
    assert "rc=0" in out.stdout and out.stderr == ""
    assert "NEW-RULE-MARKER" in (repo / ".agent/injected_context.txt").read_text()


@pytest.mark.parametrize("userland", cases("15-nested-source"))
def test_a_nested_source_compact_is_not_a_compaction(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    # The nested field comes first in the text, as Claude Code's tool payloads can have it.
    start = {"tool_input": {"source": "compact"}, **START}
    out = run(repo, "pre_task", env, start)
    assert "Context was compacted" not in context(out.stdout)


# One sample per pattern of agenthooks/redact.py, each matching that pattern alone, and a
# near miss (one character short, or the harmless neighbour) that no pattern matches.
SECRET_SAMPLES: dict[str, tuple[str, str]] = {
    "aws-access-key": ("ASIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMP"),
    "github-token": ("ghp_" + "a1B2c3D4e5" * 3, "ghp_" + "a1B2c3D4e5" * 2 + "a1B2c3D4e"),
    "slack-token": ("xoxb-12345-67890", "xoxb-1234567"),
    "openai-anthropic-key": ("sk-" + "Ab3_dE6-gH9" * 2, "sk-" + "Ab3_dE6-gH9" + "Ab3_dE6"),
    "google-api-key": ("AIza" + "Sy0123456789" * 3, "AIza" + "Sy0123456789" * 2 + "Sy012"),
    "private-key": ("-----BEGIN OPENSSH PRIVATE KEY-----", "-----BEGIN PUBLIC KEY-----"),
    "password-in-url": ("redis://deploy:hunter2@cache.local/0", "redis://cache.local/0 @deploy"),
    "assigned-secret": ("Secret:\t'QwErTy123456'", "secret: short"),
    "aws-secret-key": ("AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG", "AWS_SECRET_ACCESS_KEY=wJalrXUt"),
    "slack-webhook": ("https://hooks.slack.com/services/T0AAAAAAA/B0BB", "https://hooks.slack.com/services/T0AAA"),
    "stripe-key": ("sk_live_4eC39HqLyjWDarjtT1zd", "sk_test_4eC39HqLyjWDarjtT1zd"),
    "npm-token": ("npm_" + "Zq8xR2vT4y" * 3, "npm_" + "Zq8xR2vT4y" * 2),
    "huggingface-token": ("hf_" + "QrStUvWxYz" * 3, "hf_" + "QrStUvWxYz" * 2),
    "jwt": ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2ln", "eyJhbGciOiJIUzI1NiJ9.payload"),
    "service-account-key": ('"private_key_id": "4f1c2b3a4d5e6f70"', '"private_key_id": "4f1c"'),
}


def test_every_secret_pattern_has_a_sample() -> None:
    from agenthooks import redact

    assert sorted(SECRET_SAMPLES) == sorted(redact.SECRET_PATTERNS)
    for name, (hit, miss) in SECRET_SAMPLES.items():
        assert redact.find_secrets(f"- x {hit} y") == [name], name
        assert redact.find_secrets(f"- x {miss} y") == [], name


@pytest.mark.parametrize("userland", cases("20-every-pattern"))
def test_every_secret_pattern_is_redacted_by_the_hooks_and_linted(tmp_path: Path,
                                                                   userland: str) -> None:
    from support.helpers import cli

    repo, env = repo_for(tmp_path, userland)
    names = sorted(SECRET_SAMPLES)
    notes = "# n\n" + "".join(f"- {n} {SECRET_SAMPLES[n][0]} end\n- near {SECRET_SAMPLES[n][1]} end\n"
                              for n in names)
    cfg = repo / ".agent/config.yaml"
    cfg.write_text(cfg.read_text().replace("budget_tokens: 500", "budget_tokens: 5000")
                   .replace("notes_count: 5", f"notes_count: {2 * len(names)}"))
    write_memory(repo, notes=notes)
    shown = context(run(repo, "pre_task", env, "", "--show").stdout)
    for i, n in enumerate(names):
        hit, miss = SECRET_SAMPLES[n]
        assert hit not in shown and f"- {n} " not in shown, n
        assert f"[redacted by agenthooks: a line of .agent/memory/notes.md:{2 * i + 2} " in shown, n
        assert f"- near {miss} end" in shown, n  # the near miss is shown as it is
    lint = cli("lint", str(repo), env={"PATH": os.environ["PATH"]})
    assert lint.returncode == 1
    for i, n in enumerate(names):
        line = f".agent/memory/notes.md:{2 * i + 2}: error: looks like a secret ({n})"
        assert line in lint.stdout, (n, lint.stdout)
        assert f".agent/memory/notes.md:{2 * i + 3}:" not in lint.stdout, n


# --- comments never swallow memory --------------------------------------------

@pytest.mark.parametrize("userland", cases("10-arrow-in-a-note"))
def test_a_note_holding_an_arrow_hides_nothing(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    write_memory(repo, notes="# n\n<!-- the template's comment -->\n- note one\n- note two\n"
                             "- map a --> b in the router\n- note four\n")
    block = context(run(repo, "pre_task", env, "", "--show").stdout)
    assert "latest 4 of 4" in block, block
    for note in ("- note one", "- note two", "- map a --> b in the router", "- note four"):
        assert note in block, note


@pytest.mark.parametrize("userland", cases("10-unclosed-comment"))
def test_an_unclosed_comment_hides_only_its_paragraph(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    write_memory(repo, tattoo="# Project hard rules\n<!-- Only rules whose violation means a\n"
                              "     rollback (the closing arrow was deleted)\n\n"
                              "- Indent with 4 spaces\n- Every API returns {code, data, msg}\n",
                 snapshot="## Goal\n<!-- the goal\n\n- ship it\n## In progress\n- the parser\n")
    block = context(run(repo, "pre_task", env, "", "--show").stdout)
    assert "no project rules yet" not in block, block
    assert "- Indent with 4 spaces" in block and "- Every API returns" in block, block
    assert "- ship it" in block and "- the parser" in block, block
    assert "rollback (the closing arrow" in block  # a tattoo's unclosed comment hides no line after it


@pytest.mark.parametrize("userland", cases("3-unclosed-comment-tight"))
def test_an_unclosed_comment_in_tattoo_hides_no_rule(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    write_memory(repo, tattoo="# Project hard rules\n<!-- closed\n- inside a closed comment\n-->\n"
                              "- Rule one\n<!-- the arrow was deleted\n- Rule two\n- Rule three\n")
    block = context(run(repo, "pre_task", env, "", "--show").stdout)
    for rule in ("- Rule one", "- Rule two", "- Rule three"):
        assert rule in block, block
    assert "inside a closed comment" not in block, block


def test_lint_flags_comments_that_hide_memory(tmp_path: Path) -> None:
    from support.helpers import cli

    repo, _ = repo_for(tmp_path, "gnu")
    write_memory(repo, tattoo="# Project hard rules\n<!-- unclosed\n- hidden rule\n\n- Rule\n"
                              "<!-- closed --> - after the arrow\n")
    out = cli("lint", str(repo)).stdout
    assert (".agent/memory/tattoo.md:2: error: '<!--' is not closed by '-->' before the next blank "
            "line: lines 2-3 are loaded as rules") in out, out
    assert ".agent/memory/tattoo.md:6: warning: text after '-->'" in out, out
    write_memory(repo, tattoo=SAMPLE_TATTOO, notes="- a --> b\n")
    assert "'-->'" not in cli("lint", str(repo)).stdout  # an arrow in a note is text


# --- config.yaml is read as YAML reads it -------------------------------------

CONFIGS: dict[str, str] = {
    "space-before-colon": "budget_tokens : 777\nnotes_count  :   3\n",
    "bom": "\ufeffbudget_tokens: 778\n",
    "hash-in-quotes": 'summary_markers: "Summary #1|Recap # 2" # the markers\n'
                      "budget_tokens: 779 # a comment\n",
    "hash-in-single-quotes": "summary_markers: 'It''s #3|x' # c\n",
    "hash-after-a-number": "notes_count: 7   # seven\n",
    "enabled-False": "enabled: False\n", "enabled-No": "enabled: No\n",
    "enabled-Off": "enabled: Off\n", "enabled-OFF": "enabled: OFF\n",
    "enabled-yes": "enabled: yes\nbudget_tokens: 780\n",
}


def yaml_says(text: str) -> dict[str, object]:
    import yaml

    from agenthooks import config

    data = yaml.safe_load(text.lstrip("\ufeff"))
    return {k: data[k] for k in (*config.DEFAULTS, *config.BOOL_DEFAULTS) if k in data}


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_the_python_reader_reads_what_yaml_means(tmp_path: Path, name: str) -> None:
    from agenthooks.config import read

    path = tmp_path / "config.yaml"
    path.write_text(CONFIGS[name], encoding="utf-8")
    want = yaml_says(CONFIGS[name])
    assert want, name
    got = read(path)
    assert {k: got[k] for k in want} == want


@pytest.mark.parametrize("userland", cases("13-config-misreads"))
def test_the_hooks_read_what_yaml_means(tmp_path: Path, userland: str) -> None:
    from agenthooks import config

    repo, env = repo_for(tmp_path, userland)
    cfg, values = repo / ".agent/config.yaml", repo / ".agent/log/state/config.values"
    ints = [t.key for t in config.TUNABLES if t.bounds]
    wrong = []
    for name, text in sorted(CONFIGS.items()):
        cfg.write_text(text, encoding="utf-8")
        values.unlink(missing_ok=True)
        out = run(repo, "pre_task", env)
        want = {**config.DEFAULTS, **config.BOOL_DEFAULTS, **yaml_says(text)}
        if not want["enabled"]:
            if out.stdout != "" or values.read_text().split()[1] != "0":
                wrong.append(name)
            continue
        head, markers = values.read_text().split("\n")[:2]
        got = dict(zip(ints, (int(v) for v in head.split()[2:-1] if v.isdigit())))  # board: a word
        got["summary_markers"] = markers
        if any(got[k] != want[k] for k in got) or not out.stdout:
            wrong.append(name)
    assert wrong == [], wrong


# --- lookalike delimiters and invisible characters ----------------------------

LOOKALIKE_LINES = {
    "cyrillic-E": "===== AGENT MEMORY \u0415ND =====",
    "greek-letters": "===== \u0391GENT \u039cEMORY BEG\u0399N =====",
    "zero-width-space": "===== AGENT MEMORY E\u200bND =====",
    "fullwidth": "===== \uff21\uff27\uff25\uff2e\uff34 \uff2d\uff25\uff2d\uff2f\uff32\uff39 \uff25\uff2e\uff24 =====",
    "soft-hyphens": "===== AG\u00adENT MEM\u00adORY EN\u00adD =====",
    "rlo-and-c1": "\u202e===== AGENT MEM\u0085ORY END =====",
}


@pytest.mark.parametrize("userland", cases("16-lookalike-delimiters"))
def test_lookalike_delimiters_are_neutralised(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    write_memory(repo, tattoo="# Rules\n" + "".join(f"- {v}\n" for v in LOOKALIKE_LINES.values()))
    block = context(run(repo, "pre_task", env, "", "--show").stdout)
    assert block.count("=====") == 2 * 2 + 2 * len(LOOKALIKE_LINES)
    for name, v in LOOKALIKE_LINES.items():
        assert f"- {v}" not in block, name
    assert block.count("agent-memory(quoted)") == len(LOOKALIKE_LINES), block


def test_lint_flags_lookalike_delimiters(tmp_path: Path) -> None:
    from support.helpers import cli

    repo, _ = repo_for(tmp_path, "gnu")
    write_memory(repo, notes="".join(f"- {v}\n" for v in LOOKALIKE_LINES.values()) + "- AGENT-MEMORY-END\n"
                             "- the agent's memory ends here\n")
    out = cli("lint", str(repo)).stdout
    for i in range(1, len(LOOKALIKE_LINES) + 2):
        assert f".agent/memory/notes.md:{i}: warning: looks like the memory block's delimiter" in out, (i, out)
    assert f"notes.md:{len(LOOKALIKE_LINES) + 2}:" not in out


@pytest.mark.parametrize("userland", cases("16-invisible-characters"))
def test_invisible_characters_never_reach_the_model(tmp_path: Path, userland: str) -> None:
    from agenthooks import redact

    repo, env = repo_for(tmp_path, userland)
    chars = [chr(c) for c in range(0x80, 0x3000) if redact.INVISIBLE.match(chr(c))] + ["\ufeff"]
    assert len(chars) > 40
    cfg = repo / ".agent/config.yaml"
    cfg.write_text(cfg.read_text().replace("budget_tokens: 500", "budget_tokens: 5000"))
    write_memory(repo, tattoo="# Rules\n" + "".join(f"- rule{i} a{c}b\n" for i, c in enumerate(chars)))
    block = context(run(repo, "pre_task", env, "", "--show").stdout)
    for i, c in enumerate(chars):
        assert f"- rule{i} ab\n" in block, hex(ord(c))


# What a shell that runs a hook by hand (bash .agent/hooks/pre_task.sh) can export to it.
HOSTILE_SHELL = {
    "BASH_FUNC_printf%%": "() { builtin printf NOISE; builtin printf \"$@\"; }",
    "BASH_FUNC_echo%%": "() { builtin printf NOISE; }",
    "BASH_FUNC_cat%%": "() { builtin printf NOISE; }",
    "BASH_FUNC_builtin%%": "() { command builtin printf NOISE; }",
    "BASH_FUNC_unset%%": "() { :; }",
    "BASH_FUNC_set%%": "() { :; }",
    "BASH_FUNC_read%%": "() { :; }",
    "BASH_FUNC_compgen%%": "() { :; }",
    "BASH_FUNC_[%%": "() { return 0; }",
    "SHELLOPTS": "xtrace:noclobber",
    "PS4": "$(echo X >&2)+ ",
}


@pytest.mark.parametrize("userland", cases("1-direct-invocation"))
@pytest.mark.parametrize("hook", ["pre_task", "post_edit", "on_compact"])
def test_direct_invocation_drops_exported_functions_and_options(
        tmp_path: Path, userland: str, hook: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    stdin = {**START, "hook_event_name": {"pre_task": "SessionStart", "post_edit": "PostToolUse",
                                          "on_compact": "PreCompact"}[hook],
             "tool_input": {"file_path": "src/a.py"}}
    clean = run(repo, hook, env, stdin)
    (repo / ".agent" / "log").exists() and shutil.rmtree(repo / ".agent" / "log")
    got = run(repo, hook, {**env, **HOSTILE_SHELL}, stdin)
    assert got.returncode == 0
    assert "NOISE" not in got.stdout
    assert got.stdout == clean.stdout
    if hook == "pre_task":
        assert BEGIN in context(got.stdout)
    # The lines before the options are off are traced; nothing after them.
    assert len(got.stderr.splitlines()) <= 8, got.stderr[:2000]
