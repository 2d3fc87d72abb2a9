"""agenthooks import: rules from the host's instruction files into tattoo.md; lint
compares tattoo.md with those files."""
from __future__ import annotations

from pathlib import Path

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from support.helpers import SAMPLE_TATTOO, cli, log_lines
from support.memory import tree

from agenthooks.memory import importer

CLAUDE = ("---\ndescription: front matter\n- not a rule\n---\n# Rules\n"
          "- Use pytest for tests\n* Never commit to main\n```\n- inside a fence\n```\n"
          "- a wrapped item\n  that runs on\n- Lead-in to a list:\n  - sub item\n"
          "1. Run make lint before pushing\n2) Indent with tabs\n"
          "- Every API returns {code, data, msg}\n"
          "- export AWS_KEY=AKIAABCDEFGHIJKLMNOP\n- " + "x" * 401 + "\n"
          "## Heading\nplain paragraph text\n")


def tattoo(repo: Path) -> bytes:
    return (repo / ".agent/memory/tattoo.md").read_bytes()


def test_find_rules_one_line_items_and_why_others_are_skipped(repo: Path) -> None:
    (repo / "CLAUDE.md").write_text(CLAUDE)
    found = importer.find_rules(repo)
    offered = [f.text for f in found if not f.skip]
    assert offered == ["Use pytest for tests", "Never commit to main",
                       "Run make lint before pushing"]
    skipped = {f.text[:20]: f.skip for f in found if f.skip}
    assert skipped["Indent with tabs"] == "contradicts tattoo.md"  # sample: 4 spaces, never tabs
    assert skipped["Every API returns {c"] == "already in tattoo.md"
    assert skipped["export AWS_KEY=AKIAA"] == "secret"
    assert skipped["x" * 20] == "too long"
    assert [f.line for f in found if not f.skip] == [6, 7, 15]


def test_every_source_file_kind_is_read(repo: Path) -> None:
    files = {"AGENTS.md": "- Rule from agents\n", "GEMINI.md": "- Rule from gemini\n",
             ".cursorrules": "- Rule from cursorrules\n", ".windsurfrules": "- Rule from windsurf\n",
             ".github/copilot-instructions.md": "- Rule from copilot\n",
             ".cursor/rules/style.mdc": "---\nglobs: '*.py'\n- skipped\n---\n- Rule from mdc\n",
             ".clinerules/a.md": "- Rule from cline folder\n",
             "README.md": "- Not an instruction file\n"}
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    got = {f.source: f.text for f in importer.find_rules(repo)}
    assert got == {"AGENTS.md": "Rule from agents", "GEMINI.md": "Rule from gemini",
                   ".cursorrules": "Rule from cursorrules", ".windsurfrules": "Rule from windsurf",
                   ".github/copilot-instructions.md": "Rule from copilot",
                   ".cursor/rules/style.mdc": "Rule from mdc",
                   ".clinerules/a.md": "Rule from cline folder"}
    (repo / ".clinerules/a.md").unlink()
    (repo / ".clinerules").rmdir()
    (repo / ".clinerules").write_text("- Rule from cline file\n")
    assert "Rule from cline file" in [f.text for f in importer.find_rules(repo)]


def test_same_rule_in_two_files_is_offered_once(repo: Path) -> None:
    (repo / "CLAUDE.md").write_text("- Use pytest for tests\n")
    (repo / "AGENTS.md").write_text("- use pytest for tests.\n")
    found = importer.find_rules(repo)
    assert [f.skip for f in found] == ["", "duplicate of an earlier item"]


def test_dry_run_lists_and_writes_nothing(repo: Path) -> None:
    (repo / "CLAUDE.md").write_text(CLAUDE)
    before = tree(repo)
    proc = cli("import", "--dry-run", str(repo))  # one argument, a directory: DIR
    assert proc.returncode == 0, proc.stderr
    assert "  Use pytest for tests  [CLAUDE.md:6]" in proc.stdout
    assert "(skipped: contradicts tattoo.md)" in proc.stdout
    assert "dry run: 3 rule(s) would be appended" in proc.stdout
    assert tree(repo) == before


def test_no_tty_without_yes_exits_2_and_writes_nothing(repo: Path) -> None:
    (repo / "CLAUDE.md").write_text(CLAUDE)
    before = tree(repo)
    proc = cli("import", str(repo))
    assert proc.returncode == 2
    assert "no terminal" in proc.stderr and "--yes" in proc.stderr
    assert tree(repo) == before


def test_yes_appends_bytes_and_never_edits_the_source(repo: Path) -> None:
    src = repo / "CLAUDE.md"
    src.write_text(CLAUDE)
    src_before = src.read_bytes()
    before = tattoo(repo)
    proc = cli("import", "--yes", str(repo))
    assert proc.returncode == 0, proc.stderr
    assert tattoo(repo) == before + (b"- Use pytest for tests\n- Never commit to main\n"
                                     b"- Run make lint before pushing\n")
    assert src.read_bytes() == src_before
    assert "import: appended 3 rule(s) to tattoo.md from CLAUDE.md" in log_lines(repo)[-1]
    again = cli("import", "--yes", str(repo))  # nothing new the second time
    assert again.returncode == 0 and "none new" in again.stdout
    assert tattoo(repo).count(b"Use pytest") == 1


def test_append_keeps_crlf_bom_and_a_missing_final_newline(repo: Path) -> None:
    tat = repo / ".agent/memory/tattoo.md"
    tat.write_bytes(b"\xef\xbb\xbf# Rules\r\n- Keep it\r\n- No newline at end")
    (repo / "AGENTS.md").write_text("- Use pytest for tests\n")
    assert cli("import", "AGENTS.md", str(repo), "--yes").returncode == 0
    assert tat.read_bytes() == (b"\xef\xbb\xbf# Rules\r\n- Keep it\r\n- No newline at end\r\n"
                                b"- Use pytest for tests\r\n")


def test_file_argument_limits_the_sources(repo: Path) -> None:
    (repo / "CLAUDE.md").write_text("- From claude\n")
    (repo / "AGENTS.md").write_text("- From agents\n")
    proc = cli("import", "AGENTS.md", str(repo), "--dry-run")
    assert proc.returncode == 0, proc.stderr
    assert "From agents" in proc.stdout and "From claude" not in proc.stdout
    missing = cli("import", "NOPE.md", str(repo))
    assert missing.returncode == 1 and "NOPE.md: no such file" in missing.stderr


def test_help_says_yes_imports_everything() -> None:
    proc = cli("import", "--help")
    assert "import every rule found (non-interactive)" in " ".join(proc.stdout.split())


def test_checkbox_starts_all_ticked_and_unticks(repo: Path) -> None:
    (repo / "CLAUDE.md").write_text("- Use pytest for tests\n- Never commit to main\n")
    offer = [f for f in importer.find_rules(repo) if not f.skip]
    with create_pipe_input() as inp:
        inp.send_text("\r")  # enter at once: everything ticked
        assert importer.ask_checkbox(offer, input=inp, output=DummyOutput()) == offer
    with create_pipe_input() as inp:
        inp.send_text(" \r")  # untick the first
        assert importer.ask_checkbox(offer, input=inp, output=DummyOutput()) == offer[1:]


def test_picker_choice_is_what_is_appended(repo: Path) -> None:
    (repo / "CLAUDE.md").write_text("- Use pytest for tests\n- Never commit to main\n")
    before = tattoo(repo)
    rc = importer.run(None, repo, yes=False, dry_run=False, echo=lambda s: None, tty=True,
                      picker=lambda offer: offer[1:])
    assert rc == 0
    assert tattoo(repo) == before + b"- Never commit to main\n"


def test_lint_warns_on_duplicate_and_contradiction_with_sources(repo: Path) -> None:
    (repo / "CLAUDE.md").write_text("# Rules\n- every API returns code, data, msg\n"
                                    "- Indent with tabs\n")
    proc = cli("lint", str(repo))
    assert (".agent/memory/tattoo.md:3: warning: same rule as CLAUDE.md:2, which its host "
            "loads itself") in proc.stdout
    assert ".agent/memory/tattoo.md:2: warning: contradicts CLAUDE.md:3" in proc.stdout
    assert proc.returncode == 0  # warnings only
    (repo / "CLAUDE.md").unlink()
    assert "CLAUDE.md" not in cli("lint", str(repo)).stdout
    assert (repo / ".agent/memory/tattoo.md").read_text() == SAMPLE_TATTOO
