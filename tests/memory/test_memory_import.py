"""agenthooks import: the rules of the host's instruction files into tattoo.md (what reads
as a rule, and only that), remembered once decided, taken out again by --undo; lint
compares tattoo.md with those files."""
from __future__ import annotations

import os
from pathlib import Path

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from support.helpers import SAMPLE_TATTOO, cli, log_lines
from support.tree import tree

from agenthooks.memory import decided, importer, rulelike, sources

CLAUDE = ("---\ndescription: front matter\n- not a rule\n---\n# Rules\n"
          "- Use pytest for tests\n* Never commit to main\n```\n- inside a fence\n```\n"
          "- a wrapped item\n  that runs on\n- Lead-in to a list:\n  - sub item\n"
          "1. Run make lint before pushing\n2) Indent with tabs\n"
          "- Every API returns {code, data, msg}\n"
          "- export AWS_KEY=AKIAABCDEFGHIJKLMNOP\n- " + "x" * 401 + "\n"
          "## Heading\nplain paragraph text\n")


def tattoo(repo: Path) -> bytes:
    return (repo / ".agent/memory/tattoo.md").read_bytes()


def offered(repo: Path) -> list[str]:
    return [f.text for f in importer.find_rules(repo) if not f.skip]


def test_find_rules_offers_rules_and_says_why_the_rest_is_not(repo: Path) -> None:
    (repo / "CLAUDE.md").write_text(CLAUDE)
    found = importer.find_rules(repo)
    assert offered(repo) == ["Use pytest for tests", "Never commit to main",
                             "Run make lint before pushing"]
    skipped = {f.text[:20]: f.skip for f in found if f.skip}
    assert skipped["Indent with tabs"] == "contradicts .agent/memory/tattoo.md"  # 4 spaces, never tabs
    assert skipped["Every API returns {c"] == "already in .agent/memory/tattoo.md"
    assert skipped["export AWS_KEY=AKIAA"] == "a secret"
    assert skipped["x" * 20] == "a fragment"
    assert skipped["a wrapped item that "] == "a fragment"  # joined, then judged
    assert skipped["sub item"].startswith("part of the sentence on line")
    assert [f.line for f in found if not f.skip] == [6, 7, 15]
    assert "inside a fence" not in str(found) and "not a rule" not in str(found)


def test_what_reads_as_a_rule() -> None:
    rules = ("Never add yourself as a co-author", "Use pnpm, never npm or yarn.",
             "Every change must come with a test.", "Prefer small pull requests",
             "**Important**: never commit secrets", "No force pushes to main.",
             "Before opening a PR, run `make lint`.", "必须使用 pnpm", "不要提交生成的文件")
    not_rules = {"[Contributing guide](CONTRIBUTING.md)": "a link",
                 "https://example.org/handbook": "a link",
                 "a clear issue description, or": "a fragment",
                 "`pnpm test` runs every test": "a command tip",
                 "`packages/core`: the parser and the runtime": "a description",
                 "**docs/**: the documentation site": "a description",
                 "See [the guide](docs/guide.md) for details": "a pointer to elsewhere",
                 "Why do we pin versions?": "a question",
                 "This repository is a monorepo.": "a description, not a rule"}
    for text in rules:
        assert rulelike.judge(text).why == "", text
    for text, why in not_rules.items():
        assert rulelike.judge(text).why == why, text
    # Prose counts only when it binds: most of it explains.
    assert rulelike.judge("Never add yourself as a co-author.", prose=True) == rulelike.Verdict("", True)
    assert rulelike.judge("Run the tests first.", prose=True).why == "prose, not a rule"
    # Under a "Don'ts" heading an item means its opposite alone: not taken apart from it.
    assert rulelike.judge("Commit generated files", under_negative=True).why != ""
    assert rulelike.judge("Never commit secrets", under_negative=True).why == ""


def test_a_rule_written_as_prose_is_offered_ticked(repo: Path) -> None:
    (repo / "AGENTS.md").write_text("# Guide\n\nThanks for helping. Never add yourself as a "
                                    "co-author.\nTests live next to the code.\n")
    found = [f for f in importer.find_rules(repo) if not f.skip]
    assert [(f.text, f.line, f.ticked) for f in found] == [
        ("Never add yourself as a co-author.", 3, True)]


def test_the_items_of_a_lead_in_are_never_taken_apart(repo: Path) -> None:
    (repo / "AGENTS.md").write_text(
        "Before opening a PR, make sure it has one of:\n\n- a linked issue, or\n"
        "- a short description\n\nWhen unsure about:\n\n- the public API\n- releases\n\n"
        "Follow these:\n\n- Run make lint before pushing\n- Keep functions short\n")
    found = importer.find_rules(repo)
    assert offered(repo) == [
        "Before opening a PR, make sure it has one of: a linked issue; a short description",
        "Run make lint before pushing", "Keep functions short"]
    joined = next(f for f in found if f.text.startswith("Before"))
    assert joined.note == "a lead-in and its 2 items, as one rule"
    parts = {f.text: f.skip for f in found if f.skip}
    assert parts == {"the public API": "part of the sentence on line 6",
                     "releases": "part of the sentence on line 6"}


def test_a_long_binding_item_is_offered_shortened_to_whole_sentences(repo: Path) -> None:
    first = "Keep public APIs backwards compatible within a major version."
    second = " Deprecate the old call first and keep it working for a minor release." * 3
    third = " Removing it needs a major release and a migration note." + " Really." * 40
    (repo / "AGENTS.md").write_text(f"- {first}{second}\n  {third}\n")
    [f] = [f for f in importer.find_rules(repo) if not f.skip]
    assert f.text.startswith(first) and len(f.text) <= 400 and f.text.endswith(".")
    assert f.note.startswith("shortened: its first") and not f.ticked  # looked at, not ticked
    assert "lint will warn" not in f.note


def test_claude_md_linked_to_agents_md_is_read_once_and_no_link_leaves_the_repo(
        repo: Path, tmp_path: Path) -> None:
    (repo / "AGENTS.md").write_text("- Never push to main\n")
    (repo / "CLAUDE.md").symlink_to("AGENTS.md")
    found = importer.find_rules(repo)
    assert [(f.source, f.text, f.skip) for f in found] == [("AGENTS.md", "Never push to main", "")]
    outside = tmp_path / "elsewhere.md"
    outside.write_text("- Never trust this file\n")
    (repo / "GEMINI.md").symlink_to(outside)
    assert "Never trust this file" not in str(importer.find_rules(repo))


def test_nested_files_are_found_with_their_package_and_go_to_its_scope(repo: Path) -> None:
    (repo / "AGENTS.md").write_text("- Never push to main\n")
    for pkg in ("packages/api", "packages/web"):
        (repo / pkg).mkdir(parents=True)
        (repo / pkg / "AGENTS.md").write_text(f"- Never log request bodies in {pkg}\n")
        (repo / pkg / "CLAUDE.md").symlink_to("AGENTS.md")
    (repo / "node_modules/x").mkdir(parents=True)
    (repo / "node_modules/x/AGENTS.md").write_text("- Never vendor this\n")
    (repo / ".gitignore").write_text("node_modules/\n")
    found = [f for f in importer.find_rules(repo) if not f.skip]
    assert [(f.source, f.scope) for f in found] == [
        ("AGENTS.md", ""), ("packages/api/AGENTS.md", "packages/api"),
        ("packages/web/AGENTS.md", "packages/web")]
    proc = cli("import", "--yes", str(repo))
    assert proc.returncode == 0, proc.stderr
    assert "[x] Never log request bodies in packages/api  [packages/api/AGENTS.md:1]" in proc.stdout
    scoped = repo / ".agent/memory/scopes/packages/api/tattoo.md"
    assert scoped.read_text() == ("# Hard rules for packages/api/\n"
                                  "- Never log request bodies in packages/api\n")
    assert b"request bodies" not in tattoo(repo)
    assert cli("lint", str(repo)).returncode == 0


def test_ticked_are_the_binding_rules_up_to_the_rule_limit(repo: Path) -> None:
    (repo / ".agent/config.yaml").write_text((repo / ".agent/config.yaml").read_text()
                                             + "lint_max_rules: 4\n")
    (repo / "AGENTS.md").write_text("".join(f"- Never do thing {i}\n" for i in range(5))
                                    + "- Prefer small commits\n")
    found = [f for f in importer.find_rules(repo) if not f.skip]
    # The sample tattoo holds 2 rules: 2 more fit under 4; "Prefer" binds less.
    assert [f.ticked for f in found] == [True, True, False, False, False, False]
    assert importer.tick_rule(repo) == ("ticked: the rules that say must/never/always/don't, "
                                        "up to 4 in each tattoo.md")


def test_pages_fit_the_screen_and_keep_to_one_target() -> None:
    found = [importer.Found("AGENTS.md", i, f"Never do thing {i}") for i in range(30)]
    found += [importer.Found("p/AGENTS.md", 1, "Never do it here", scope="p")]
    book = importer.pages(found, rows=14, cols=80)
    assert [len(p) for p in book] == [8, 8, 8, 6, 1]
    assert all(len({f.target for f in p}) == 1 for p in book)
    long = [importer.Found("AGENTS.md", i, "word " * 60) for i in range(6)]
    assert [len(p) for p in importer.pages(long, rows=14, cols=80)] == [2, 2, 2]


def test_pages_are_asked_in_turn_and_unticked_ones_are_declined(repo: Path) -> None:
    (repo / "AGENTS.md").write_text("".join(f"- Never do thing {i}\n" for i in range(12)))
    offer = [f for f in importer.find_rules(repo) if not f.skip]
    os.environ["LINES"], os.environ["COLUMNS"] = "12", "80"
    try:
        with create_pipe_input() as inp:
            inp.send_text(" \r")  # page 1: untick the first, enter
            inp.send_text("\r")  # page 2: as ticked
            inp.send_text("\r")
            picked = importer.ask_pages(offer, input=inp, output=DummyOutput())
    finally:
        del os.environ["LINES"], os.environ["COLUMNS"]
    assert picked is not None and offer[0] not in picked and len(picked) == 11


def test_declined_rules_are_remembered_and_not_offered_again(repo: Path) -> None:
    (repo / "AGENTS.md").write_text("- Never push to main\n- Never skip review\n")
    rc = importer.run(None, repo, yes=False, dry_run=False, echo=lambda s: None, tty=True,
                      picker=lambda offer: offer[1:])
    assert rc == 0
    record = (repo / decided.PATH).read_text()
    assert "declined\tAGENTS.md:1\tNever push to main\n" in record
    assert "imported\tAGENTS.md:2\tNever skip review\n" in record
    assert offered(repo) == []  # nothing new: the next install asks nothing
    skipped = {f.text: f.skip for f in importer.find_rules(repo)}
    assert skipped["Never push to main"] == "declined before (.agent/imports.txt)"
    (repo / "AGENTS.md").write_text("- Never push to main\n- Never skip review\n- Never rebase shared branches\n")
    assert offered(repo) == ["Never rebase shared branches"]  # only what is new


def test_imported_rules_are_no_duplicates_for_lint_and_undo_takes_them_out(repo: Path) -> None:
    (repo / "CLAUDE.md").write_text("- Never commit to main\n- Run make lint before pushing\n")
    before = tattoo(repo)
    assert cli("import", "--yes", "--all", str(repo)).returncode == 0
    assert b"- Never commit to main\n" in tattoo(repo)
    lint = cli("lint", str(repo))
    assert "same rule as CLAUDE.md" not in lint.stdout, lint.stdout
    undo = cli("import", "--undo", str(repo))
    assert undo.returncode == 0, undo.stderr
    assert "removed from .agent/memory/tattoo.md: - Never commit to main" in undo.stdout
    assert tattoo(repo) == before
    assert not (repo / decided.PATH).exists()
    assert offered(repo) == ["Never commit to main", "Run make lint before pushing"]


def test_rule_remove_takes_an_imported_rule_out_and_declines_it(repo: Path) -> None:
    (repo / "CLAUDE.md").write_text("- Never commit to main\n")
    before = tattoo(repo)
    assert cli("import", "--yes", str(repo)).returncode == 0
    proc = cli("rule", "--remove", "never commit to main.", str(repo))
    assert proc.returncode == 0, proc.stderr
    assert "recorded as declined" in proc.stdout
    assert tattoo(repo) == before and offered(repo) == []
    missing = cli("rule", "--remove", "Nothing like this", str(repo))
    assert missing.returncode == 1 and "nothing was removed" in missing.stderr


def test_every_source_file_kind_is_read(repo: Path) -> None:
    files = {"AGENTS.md": "- Rule from agents\n", "GEMINI.md": "- Rule from gemini\n",
             ".cursorrules": "- Rule from cursorrules\n", ".windsurfrules": "- Rule from windsurf\n",
             ".github/copilot-instructions.md": "- Rule from copilot\n",
             ".cursor/rules/style.mdc": "---\nglobs: '*.py'\n- skipped\n---\n- Rule from mdc\n",
             ".clinerules/a.md": "- Rule from cline folder\n",
             "README.md": "- Not an instruction file\n"}
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text.replace("Rule from", "Never break the rule from"))
    got = {f.source: f.text for f in importer.find_rules(repo)}
    assert got == {"AGENTS.md": "Never break the rule from agents",
                   "GEMINI.md": "Never break the rule from gemini",
                   ".cursorrules": "Never break the rule from cursorrules",
                   ".windsurfrules": "Never break the rule from windsurf",
                   ".github/copilot-instructions.md": "Never break the rule from copilot",
                   ".cursor/rules/style.mdc": "Never break the rule from mdc",
                   ".clinerules/a.md": "Never break the rule from cline folder"}
    (repo / ".clinerules/a.md").unlink()
    (repo / ".clinerules").rmdir()
    (repo / ".clinerules").write_text("- Never break the rule from cline file\n")
    assert "Never break the rule from cline file" in [f.text for f in importer.find_rules(repo)]


def test_same_rule_in_two_files_is_offered_once(repo: Path) -> None:
    (repo / "CLAUDE.md").write_text("- Use pytest for tests\n")
    (repo / "AGENTS.md").write_text("- use pytest for tests.\n")
    found = importer.find_rules(repo)
    assert [f.skip for f in found] == ["", "the same as an earlier item"]


def test_dry_run_lists_and_writes_nothing(repo: Path) -> None:
    (repo / "CLAUDE.md").write_text(CLAUDE)
    before = tree(repo, mtime=True)
    proc = cli("import", "--dry-run", str(repo))  # one argument, a directory: DIR
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[0].startswith("3 rule(s) found in CLAUDE.md (1 ticked)")
    assert "  [ ] Use pytest for tests  [CLAUDE.md:6]" in proc.stdout
    assert "  [x] Never commit to main  [CLAUDE.md:7]" in proc.stdout
    assert "(skipped: contradicts .agent/memory/tattoo.md)" in proc.stdout
    assert "dry run: 1 rule(s) would be appended with --yes" in proc.stdout
    assert tree(repo, mtime=True) == before


def test_no_tty_without_yes_exits_2_and_writes_nothing(repo: Path) -> None:
    (repo / "CLAUDE.md").write_text(CLAUDE)
    before = tree(repo, mtime=True)
    proc = cli("import", str(repo))
    assert proc.returncode == 2
    assert "no terminal" in proc.stderr and "--yes" in proc.stderr
    assert tree(repo, mtime=True) == before


def test_yes_appends_the_ticked_bytes_and_never_edits_the_source(repo: Path) -> None:
    src = repo / "CLAUDE.md"
    src.write_text(CLAUDE)
    src_before = src.read_bytes()
    before = tattoo(repo)
    proc = cli("import", "--yes", str(repo))
    assert proc.returncode == 0, proc.stderr
    assert tattoo(repo) == before + b"- Never commit to main\n"
    all_ = cli("import", "--yes", "--all", str(repo))
    assert all_.returncode == 0, all_.stderr
    assert tattoo(repo) == before + (b"- Never commit to main\n- Use pytest for tests\n"
                                     b"- Run make lint before pushing\n")
    assert src.read_bytes() == src_before
    assert "import: appended 2 rule(s) to tattoo.md from CLAUDE.md" in log_lines(repo)[-1]
    again = cli("import", "--yes", str(repo))  # nothing new the second time
    assert again.returncode == 0 and "no new rules found" in again.stdout
    assert tattoo(repo).count(b"Use pytest") == 1


def test_append_keeps_crlf_bom_and_a_missing_final_newline(repo: Path) -> None:
    tat = repo / ".agent/memory/tattoo.md"
    tat.write_bytes(b"\xef\xbb\xbf# Rules\r\n- Keep it\r\n- No newline at end")
    (repo / "AGENTS.md").write_text("- Never skip the tests\n")
    assert cli("import", "AGENTS.md", str(repo), "--yes").returncode == 0
    assert tat.read_bytes() == (b"\xef\xbb\xbf# Rules\r\n- Keep it\r\n- No newline at end\r\n"
                                b"- Never skip the tests\r\n")


def test_file_argument_limits_the_sources(repo: Path) -> None:
    (repo / "CLAUDE.md").write_text("- Never do it from claude\n")
    (repo / "AGENTS.md").write_text("- Never do it from agents\n")
    proc = cli("import", "AGENTS.md", str(repo), "--dry-run")
    assert proc.returncode == 0, proc.stderr
    assert "from agents" in proc.stdout and "from claude" not in proc.stdout
    missing = cli("import", "NOPE.md", str(repo))
    assert missing.returncode == 1 and "NOPE.md: no such file" in missing.stderr


def test_help_says_what_yes_and_all_import() -> None:
    proc = cli("import", "--help")
    said = " ".join(proc.stdout.split())
    assert "No prompt: import the ticked rules" in said and "every rule offered" in said


def test_checkbox_starts_ticked_as_found_and_unticks(repo: Path) -> None:
    (repo / "CLAUDE.md").write_text("- Never use tabs for alignment\n- Never commit to main\n"
                                    "- Prefer pytest\n")
    offer = [f for f in importer.find_rules(repo) if not f.skip]
    assert [f.ticked for f in offer] == [True, True, False]
    with create_pipe_input() as inp:
        inp.send_text("\r")  # enter at once: the ticked ones
        assert importer.ask_checkbox(offer, input=inp, output=DummyOutput()) == offer[:2]
    with create_pipe_input() as inp:
        inp.send_text(" \r")  # untick the first
        assert importer.ask_checkbox(offer, input=inp, output=DummyOutput()) == offer[1:2]


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


def test_sources_reads_nothing_it_would_write(repo: Path) -> None:
    (repo / "AGENTS.md").write_text("- Never push\n")
    before = tree(repo, mtime=True)
    sources.all_items(repo, with_nested=True)
    importer.find_rules(repo)
    assert tree(repo, mtime=True) == before
