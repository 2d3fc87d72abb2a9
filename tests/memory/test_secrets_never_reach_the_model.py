"""Secrets never reach the model, in every shape a memory file is likely to hold them: AWS
secret access keys in their usual spellings, a private key's body (not only its BEGIN line),
tokens split by any of Unicode's default-ignorable characters, Stripe, JWT, Slack webhook,
a service account's private_key_id / private_key, npm and Hugging Face tokens, a password
after a fullwidth colon or in Chinese. One list (agenthooks/redact.py): the hooks redact
these lines with every awk (gawk, mawk, BusyBox, original-awk; GNU, BusyBox, macOS-like with
bash 3.2 and Git Bash userlands), lint reports the same lines, and rule, note and import
refuse them."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import unicodedata
from pathlib import Path

import pytest

from support.helpers import cli, install, make_repo, require, unavailable, write_memory
from support.userlands import USERLANDS, env_for

from agenthooks import redact

# name -> (a memory line holding it, the part that must never reach the model)
ONE_LINE = {
    "aws-secret-lower": ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                         "wJalrXUtnFEMI"),
    "aws-secret-env": ("- export AWS_SECRET_ACCESS_KEY=je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY",
                       "je7MtGbClwBF"),
    "aws-secret-json": ('- "SecretAccessKey": "Vd3kP9Zq+LmN/oR2sT4uW6xY8zA1bC3dEXAMPLE1",',
                        "Vd3kP9Zq"),
    "stripe-live": ("- charge with sk_live_4eC39HqLyjWDarjtT1zdp7dc", "4eC39HqLyjWD"),
    "stripe-restricted": ("- refunds: rk_live_51H8xYzAbCdEfGhIjKlMnOpQr", "51H8xYzAbCdE"),
    "jwt": ("- bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9Pl",
            "eyJzdWIiOiIxMjM0"),
    "slack-webhook": ("- alerts to https://hooks.slack.com/services/T0AAAAAAA/B0BBBBBBB/"
                      "cCcCcCcCcCcCcCcCcCcCcCcC", "T0AAAAAAA/B0BBBBBBB"),
    "gcp-key-id": ('  "private_key_id": "4f1c2b3a4d5e6f708192a3b4c5d6e7f8091a2b3c",', "4f1c2b3a4d5e6f70"),
    "gcp-key-json": ('  "private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEF'
                     'AASCBKcwggSjAgEAAoIBAQC7\\n-----END PRIVATE KEY-----\\n",', "MIIEvQIBADANBgkq"),
    "npm": ("- publish with npm_Zq8xR2vT4yW6aB8cD0eF2gH4iJ6kL8mN0pQ2", "Zq8xR2vT4yW6"),
    "huggingface": ("- hub token hf_QrStUvWxYzAbCdEfGhIjKlMnOpQrStUvWx", "QrStUvWxYzAb"),
    "password-fullwidth-colon": ("- db password\uff1acorrect-horse-battery", "correct-horse"),
    "password-chinese": ("- \u6570\u636e\u5e93\u5bc6\u7801\uff1ahunter2hunter2", "hunter2hunter2"),
    "passphrase-chinese": ("- \u53e3\u4ee4 = Tr0ub4dor&3xyz", "Tr0ub4dor"),
}
# Default-ignorable characters that a hand list missed, each splitting a token.
SPLITTERS = ("\u034f", "\ufe0f", "\U000e0020", "\u180e", "\u3164", "\u115f", "\uffa0", "\u061c",
             "\u17b4", "\U0001d173", "\U0001bca0", "\U000e0100", "\u2065", "\u206f", "\ufff0")
for _i, _c in enumerate(SPLITTERS):
    ONE_LINE[f"split-U+{ord(_c):04X}"] = (f"- gh ghp_{_c}{'k9L8m7N6p5'[_i % 10]}aB3cD4eF5gH6iJ7kL8mN9pQ0rS1tU2v",
                                          "aB3cD4eF5gH6")

KEY = ["-----BEGIN RSA PRIVATE KEY-----",
       "MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB",
       "aFDrBz9vFqU4yQIDAQABAoIBAQCkF2+0v4vX3k3r8M9ySgXcl7p1Qm5TfUoVwXyZ",
       "Qm5TfUoVwXyZaFDrBz9vFqU4yQIDAQABAoIBAQCkF2+0v4vX3k3r8M9ySgXcl7p1",
       "KeyTailPiece==",
       "-----END RSA PRIVATE KEY-----"]
PGP = ["-----BEGIN PGP PRIVATE KEY BLOCK-----", "Version: GnuPG v2", "",
       "lQOYBF0aBcDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz012345",
       "=PgPt", "-----END PGP PRIVATE KEY BLOCK-----"]
KEY_PARTS = ("MIIEowIBAAKCAQEA", "aFDrBz9vFqU4", "Qm5TfUoVwXyZ", "KeyTailPiece", "lQOYBF0aBcDEF", "PgPt")
# Lines that must stay: plain rules, near misses, and what follows a key or a mere mention.
KEEP = ("- Keep it simple", "- token budget: 500 per block", "- JWTs start with eyJ; never log them",
        "- Slack: post to the hooks.slack.com app, not a person", "- npm_ and hf_ prefixes mark tokens",
        "- After the key, this rule stays", "- Rule after a mention stays")


def tattoo_text() -> tuple[str, dict[int, str]]:
    """tattoo.md with every one-line shape, a PEM key, a PGP key and the lines to keep; and
    line -> what it holds, for the lines that must be redacted."""
    lines = ["# Project hard rules", KEEP[0], KEEP[1]]
    secret: dict[int, str] = {}
    for name, (text, _) in ONE_LINE.items():
        lines.append(text if text.startswith(("-", " ")) else f"- {text}")
        secret[len(lines)] = name
    for i, s in enumerate(KEY):
        lines.append(s)
        secret[len(lines)] = f"pem-{i}"
    lines += [KEEP[5], KEEP[2], KEEP[3]]
    for i, s in enumerate(PGP):
        lines.append(s)
        if s:
            secret[len(lines)] = f"pgp-{i}"
    lines += ["- Never commit files that start with -----BEGIN OPENSSH PRIVATE KEY-----", KEEP[6], KEEP[4]]
    secret[len(lines) - 2] = "mention"
    return "\n".join(lines) + "\n", secret


# A key in notes.md whose BEGIN line is older than the notes the block shows, and one in
# the snapshot's In progress section, indented as in a YAML block.
NOTES = "\n".join(["- first note", *KEY, "- latest note"]) + "\n"
SNAPSHOT = ("# Snapshot\n\n## Goal\nShip it\n\n## In progress\n- deploy key:\n"
            + "".join(f"    {s}\n" for s in KEY) + "- wire the CI\n\n## Key decisions\n- none\n")

REDACTED = re.compile(r"\[redacted by agenthooks: a line of (\S+?):(\d+) looks like a secret\]")

# (userland, the awk it runs): GNU twice, with gawk and with mawk.
AWKS = [("gnu", "gawk"), ("gnu", "mawk"), ("busybox", "busybox"), ("macos", "original-awk"),
        ("windows", "gawk")]


def userland_env(tmp_path: Path, userland: str, awk: str) -> dict[str, str]:
    env = {**os.environ, **env_for(userland, tmp_path)}
    if userland == "gnu":
        found = require(awk, f"apt-get install {awk}")
        bindir = tmp_path / f"{awk}-bin"
        bindir.mkdir(exist_ok=True)
        if not (bindir / "awk").exists():
            (bindir / "awk").symlink_to(found)
        env["PATH"] = f"{bindir}:{env['PATH']}"
    return env


def hook_show(repo: Path, env: dict[str, str]) -> str:
    proc = subprocess.run(["bash", ".agent/hooks/pre_task.sh", "--show"], cwd=repo, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    return proc.stdout


def lint_lines(repo: Path) -> dict[str, set[int]]:
    out = cli("lint", str(repo)).stdout
    found: dict[str, set[int]] = {}
    for path, line in re.findall(r"^(\S+?):(\d+): error: looks like a secret", out, re.M):
        found.setdefault(path, set()).add(int(line))
    return found


@pytest.mark.parametrize("userland,awk", AWKS)
def test_the_hooks_redact_every_shape_and_lint_names_the_same_lines(tmp_path: Path, userland: str,
                                                                     awk: str) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--platform", USERLANDS[userland][0], "--framework", "claude-code", "--budget", "20000")
    tattoo, secret = tattoo_text()
    write_memory(repo, tattoo=tattoo, snapshot=SNAPSHOT, notes=NOTES)
    block = hook_show(repo, userland_env(tmp_path, userland, awk))
    for name, (_, part) in ONE_LINE.items():
        assert part not in block, (name, block)
    for part in KEY_PARTS:
        assert part not in block, (part, block)
    for keep in (*KEEP, "- latest note", "- wire the CI"):
        assert keep in block, (keep, block)
    shown: dict[str, set[int]] = {}
    for path, line in REDACTED.findall(block):
        shown.setdefault(path, set()).add(int(line))
    assert shown[".agent/memory/tattoo.md"] == set(secret), \
        sorted(set(secret) ^ shown[".agent/memory/tattoo.md"])
    # The notes the block shows (the latest 5) are the key's tail: redacted, though its
    # BEGIN line is not among them.
    assert shown[".agent/memory/notes.md"] == {4, 5, 6, 7}
    assert shown[".agent/memory/snapshot.md"] == set(range(8, 14))
    # lint names exactly the lines the hooks redact (notes: all of the key).
    linted = lint_lines(repo)
    assert linted[".agent/memory/tattoo.md"] == shown[".agent/memory/tattoo.md"]
    assert linted[".agent/memory/snapshot.md"] == shown[".agent/memory/snapshot.md"]
    assert linted[".agent/memory/notes.md"] == set(range(2, 8))


def test_rule_note_and_import_refuse_every_shape(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    install(repo, "--framework", "claude-code")
    before = {n: (repo / ".agent/memory" / n).read_bytes() for n in ("tattoo.md", "notes.md")}
    shapes = [*ONE_LINE.items(), ("pem", (KEY[0], "")), ("pgp", (PGP[0], ""))]
    # rule and note share one check (import too, below): note takes every third shape.
    for i, (name, (text, _)) in enumerate(shapes):
        for kind in ("rule", "note") if i % 3 == 0 else ("rule",):
            proc = cli(kind, "--", text, str(repo))
            assert proc.returncode == 1 and "looks like a secret" in proc.stderr, (name, kind, proc.stderr)
    (repo / "CLAUDE.md").write_text("# Rules\n" + "".join(
        f"- {t.lstrip('- ').strip()}\n" for t, _ in ONE_LINE.values()) + "- Never use tabs\n")
    proc = cli("import", "--yes", str(repo))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("(skipped: a secret)") == len(ONE_LINE), proc.stdout
    after = {n: (repo / ".agent/memory" / n).read_bytes() for n in ("tattoo.md", "notes.md")}
    assert after["notes.md"] == before["notes.md"]
    assert after["tattoo.md"] == before["tattoo.md"] + b"- Never use tabs\n"


def test_default_ignorable_is_unicodes_own_set() -> None:
    # Checked against a reference, not a hand list: the `regex` package's Unicode data.
    try:
        import regex
    except ImportError:
        unavailable("the regex package is not installed: pip install regex (a test extra)")
    want = regex.compile(r"\p{Default_Ignorable_Code_Point}")
    mine = {c for a, b in redact.DEFAULT_IGNORABLE for c in range(a, b + 1)}
    theirs = {c for c in range(0x110000) if want.match(chr(c))}
    assert mine == theirs, sorted(hex(c) for c in mine ^ theirs)[:20]
    # And against Python's own Unicode data, as far as it goes: every format character
    # (Cf) but the visible ones the standard excludes, and every variation selector.
    visible_cf = {*range(0x600, 0x606), 0x6DD, 0x70F, 0x890, 0x891, 0x8E2, 0x110BD, 0x110CD,
                  *range(0xFFF9, 0xFFFC), *range(0x13430, 0x13456)}
    for c in range(0x110000):
        ch = chr(c)
        if unicodedata.category(ch) == "Cf" and c not in visible_cf:
            assert c in mine, hex(c)
        if unicodedata.name(ch, "").startswith(("VARIATION SELECTOR", "MONGOLIAN FREE VARIATION")):
            assert c in mine, hex(c)


def test_the_hooks_drop_exactly_the_invisible_set() -> None:
    # The awk side (bytes, octal escapes) read as a Python bytes regex: every character of
    # the set, and no other, matches whole.
    ere = "|".join(redact.awk_invisible())
    rx = re.compile(re.sub(r"\\([0-7]{3})", lambda m: "\\x%02x" % int(m.group(1), 8), ere).encode())
    for c in range(1, 0x110000):
        if 0xD800 <= c <= 0xDFFF:
            continue
        data = chr(c).encode("utf-8")
        hit = rx.fullmatch(data) is not None
        assert hit == bool(redact.INVISIBLE.match(chr(c))), hex(c)


def test_python_and_awk_keep_one_list() -> None:
    # Non-ASCII text stands outside brackets (a character and its bytes match alike there),
    # and the awk source holds no byte past ASCII nor a raw tab.
    for name, pattern in redact.SECRET_PATTERNS.items():
        for bracket in re.findall(r"\[[^\]]*\]", pattern):
            assert bracket.isascii(), (name, bracket)
    for name, lines in redact.awk_source():
        for line in lines:
            assert line.isascii() and "\t" not in line and len(line) <= 110, (name, line)


def test_a_key_body_is_redacted_line_by_line_in_python_as_in_the_hooks() -> None:
    raw = ["- rule", *KEY, "- after", "x: -----BEGIN EC PRIVATE KEY-----", "MHcCAQEEIO", "",
           "AwEHoUQDQgAE", "- stops here", "MHcCAQEEIO"]
    assert redact.key_lines(raw) == {2, 3, 4, 5, 6, 7, 9, 10, 12}
    assert sorted(redact.secret_lines(raw)) == [2, 3, 4, 5, 6, 7, 9, 10, 12]
