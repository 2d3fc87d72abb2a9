"""A repository shaped like a busy open-source one met in its first hour: a long AGENTS.md
(lead-ins, bare links, command tips, package blurbs, a rule written as prose, binding items
too long for one line), CLAUDE.md a link to AGENTS.md, nested AGENTS.md / CLAUDE.md in its
packages, its own .claude/settings.json, and a .gitignore that ignores `.codex/*`."""
from __future__ import annotations

import json
from pathlib import Path

from support.helpers import git, make_repo

LONG_RULE = (
    "Keep public APIs backwards compatible within a major version: when an API must change, "
    "deprecate the old one first and keep it working for at least one minor release. "
    "Mention the deprecation in the changelog and point to the replacement in the "
    "deprecation message, so that users can migrate without reading the source. Removing it "
    "needs a major release and a migration note in docs/migrations.md that names every "
    "affected package and gives a before and after example for each call that changes.")
AGENTS = f"""# AGENTS.md

This file gives guidance to coding agents working in this repository. Read it before you
start. Never add yourself as a co-author of a commit.

## Project layout

- [Architecture overview](docs/architecture.md)
- [Contributing guide](CONTRIBUTING.md)
- https://example.org/handbook
- `packages/core`: the parser and the runtime
- `packages/cli` - the command-line front end
- **docs/**: the documentation site

## Commands

- `pnpm install` to set up
- `pnpm test` runs every test
- `pnpm lint --fix` fixes formatting

```sh
pnpm build
```

## Rules

- Use pnpm, never npm or yarn.
- Every change must come with a test.
- Do not edit generated files under `packages/core/gen/`; run `pnpm gen` instead.
- {LONG_RULE}
- Always run `pnpm typecheck` before pushing: CI runs it too, and a red CI blocks the
  merge queue for everyone else who is waiting on it.
- Prefer small pull requests that change one thing.

Before opening a pull request, make sure it has one of:

- a linked issue, or
- a short description of the problem it solves

When you are unsure about:

- the public API
- the release process

ask in the discussion forum first.

## Testing

Tests live next to the code. You must not mock the database in integration tests.
Snapshot tests are updated with `pnpm test -u`.
"""
# What a reader calls the rules of AGENTS.md (as plain text), and pieces that are not.
RULES = ("Never add yourself as a co-author of a commit.", "Use pnpm, never npm or yarn.",
         "Every change must come with a test.",
         "Do not edit generated files under `packages/core/gen/`; run `pnpm gen` instead.",
         "Always run `pnpm typecheck` before pushing: CI runs it too, and a red CI blocks the "
         "merge queue for everyone else who is waiting on it.",
         "Prefer small pull requests that change one thing.",
         "You must not mock the database in integration tests.")
NOT_RULES = ("Architecture overview", "Contributing guide", "https://example.org/handbook",
             "`packages/core`: the parser and the runtime", "`pnpm install` to set up",
             "`pnpm test` runs every test", "docs/: the documentation site",
             "a linked issue, or", "a short description of the problem it solves",
             "the public API", "the release process", "pnpm build",
             "Tests live next to the code.")
CORE = "# packages/core\n\n- Never import from `packages/cli` in the core.\n- See ../../README.md\n"
CLI = "# packages/cli\n\n- Keep startup fast: never import heavy modules at module level.\n"
SETTINGS = {"permissions": {"allow": ["Bash(pnpm test)"]}}


def first_hour_repo(parent: Path) -> Path:
    repo = make_repo(parent)
    (repo / "AGENTS.md").write_text(AGENTS, encoding="utf-8")
    (repo / "CLAUDE.md").symlink_to("AGENTS.md")
    for pkg, text in (("packages/core", CORE), ("packages/cli", CLI)):
        (repo / pkg).mkdir(parents=True)
        (repo / pkg / "AGENTS.md").write_text(text, encoding="utf-8")
        (repo / pkg / "CLAUDE.md").symlink_to("AGENTS.md")
    (repo / "packages/core/gen").mkdir()
    (repo / "packages/core/gen/parser.ts").write_text("// generated\n")
    (repo / ".claude").mkdir()
    (repo / ".claude/settings.json").write_text(json.dumps(SETTINGS, indent=2) + "\n")
    (repo / ".codex").mkdir()
    (repo / ".gitignore").write_text("node_modules/\n.codex/*\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "the project")
    return repo
