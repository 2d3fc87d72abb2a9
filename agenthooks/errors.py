"""Errors the CLI turns into one line on stderr and an exit code, never a traceback."""
from __future__ import annotations


class UserError(Exception):
    """Bad input or an unsafe state: the user can fix it. Exit 1 unless said otherwise."""

    code = 1

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.hint = hint


class MissingAnswer(UserError):
    """An answer is needed, there is no terminal to ask on, and --yes was not given."""

    code = 2
