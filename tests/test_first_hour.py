"""The first hour on a real repository, on a real terminal: a busy project's AGENTS.md
(lead-ins, links, command tips, package blurbs, a rule written as prose), CLAUDE.md a link
to it, nested AGENTS.md in its packages, its own .claude/settings.json, and a .gitignore
that ignores `.codex/*`. Enter through the interactive install (y at the write question)
ends healthy and clean; the rules a reader calls rules are offered and nothing else; the
ignored registration is named with its fix; the next install offers nothing declined."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

from support.firsthour import NOT_RULES, RULES, first_hour_repo
from support.helpers import cli, git
from support.terminal import ENTER, Term

QUESTIONS = ("Which systems", "Which agent frameworks", "Language", "Injection budget",
             "progress board live", "status line")


def answer_with_enter(term: Term) -> None:
    for question in QUESTIONS:
        term.expect(question)
        term.send(ENTER)


def test_enter_through_the_first_install_on_a_busy_repository(
        tmp_path: Path, isolated_home: Path) -> None:
    repo = first_hour_repo(tmp_path)
    term = Term(repo, isolated_home, rows=40, cols=140)
    answer_with_enter(term)
    term.expect(r"Write these files\?")
    term.send("y" + ENTER)
    term.expect(r"9 rule\(s\) found in AGENTS\.md \(6 ticked\)")  # counted before the list
    term.expect(r"ticked: the rules that say must/never/always/don't, up to 20")
    term.expect(r"Bring these rules from AGENTS\.md into \.agent/memory/tattoo\.md\?")
    term.settle()
    screen = term.text()
    for rule in RULES:  # each on the screen at once: the page fits it
        assert rule[:60] in screen, (rule, screen)
    assert "[AGENTS.md:3]" in screen  # the prose rule, with where it was found
    pages = 0
    while True:
        term.send(ENTER)
        pages += 1
        term.settle()
        if "Bring these rules" not in term.text().splitlines()[-1] and \
                not re.search(r"\(\d+-\d+ of \d+\)\s*$", term.text()):
            break
    out, rc = term.finish()
    assert rc == 0, out
    assert pages == 1
    for piece in NOT_RULES:  # never offered: links, fragments, tips, blurbs, lead-in items
        assert not re.search(rf"[●○] {re.escape(piece)}  \[", out), piece
    # A lead-in and its items come as one rule, never apart.
    assert re.search(r"○ Before opening a pull request, make sure it has one of: a linked issue; "
                     r"a short description of the problem it solves  \[AGENTS\.md:35\]", out)
    tattoo = (repo / ".agent/memory/tattoo.md").read_text(encoding="utf-8")
    ticked = [r for r in RULES if not r.startswith("Prefer")]
    assert [ln[2:] for ln in tattoo.splitlines() if ln.startswith("- ")] == ticked
    assert "note: 2 rule(s) in 2 nested instruction file(s) (packages/cli/AGENTS.md, " \
           "packages/core/AGENTS.md): agenthooks import offers them for their packages" in out
    # The registration .gitignore hides is named, with the line that commits it anyway.
    assert ("warning: .codex/hooks.json is ignored by .gitignore:2:.codex/*: git add skips it, "
            "so teammates would not get it") in out
    line = next(ln for ln in out.splitlines() if ln.startswith("next: commit them: "))
    assert line.strip() == "next: commit them: git add .agent .claude && git add -f .codex/hooks.json"
    proc = subprocess.run(["bash", "-c", line.strip().removeprefix("next: commit them: ")],
                          cwd=repo, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert ".codex/hooks.json" in git(repo, "ls-files").stdout.split()
    doctor = cli("doctor", str(repo))
    assert doctor.returncode == 0 and doctor.stdout.endswith("healthy\n"), doctor.stdout
    assert "warn" not in doctor.stdout, doctor.stdout
    lint = cli("lint", str(repo))
    assert lint.stdout == "agenthooks lint: memory is clean\n", lint.stdout
    # The routine upgrade: Enter through it again. Nothing to write, nothing declined offered.
    again = Term(repo, isolated_home, rows=40, cols=140)
    for question in (q for q in QUESTIONS if q != "progress board live"):  # it keeps its board
        again.expect(question)
        again.send(ENTER)
    out2, rc2 = again.finish()
    assert rc2 == 0, out2
    assert "Write these files?" not in out2 and "Bring these rules" not in out2
    assert "up to date: nothing changed" in out2
    assert (repo / ".agent/memory/tattoo.md").read_text(encoding="utf-8") == tattoo
