"""Secrets, every pattern: one sample and one near miss per pattern of agenthooks/redact.py;
the hooks redact the sample and show the near miss on every userland's awk, lint reports
the sample, also when a control or invisible character splits it."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from support.claude_runs import ALL, context, repo_for, run
from support.helpers import write_memory


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


@pytest.mark.parametrize("userland", ALL)
def test_assigned_passwords_are_redacted(tmp_path: Path, userland: str) -> None:
    repo, env = repo_for(tmp_path, userland)
    write_memory(repo, notes="# n\n- db password = letmein2024\n- api_key:\tt0ps3cr3tvalue\n"
                 "- the test plan is ready\n")
    shown = run(repo, "pre_task", env, "", "--show")
    assert "letmein2024" not in shown.stdout and "t0ps3cr3tvalue" not in shown.stdout
    assert shown.stdout.count("redacted by agenthooks") == 2
    assert "the test plan is ready" in shown.stdout  # a 't' is no blank: plain text stays


@pytest.mark.parametrize("userland", ALL)
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


def test_every_secret_pattern_has_a_sample() -> None:
    from agenthooks import redact

    assert sorted(SECRET_SAMPLES) == sorted(redact.SECRET_PATTERNS)
    for name, (hit, miss) in SECRET_SAMPLES.items():
        assert redact.find_secrets(f"- x {hit} y") == [name], name
        assert redact.find_secrets(f"- x {miss} y") == [], name


@pytest.mark.parametrize("userland", ALL)
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
