"""What the tests share: repos, the CLI, hooks, userlands, and per-area helpers."""
