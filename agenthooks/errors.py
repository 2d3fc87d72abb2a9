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


def unknown(kind: str, value: object, choices: "tuple[str, ...] | list[str]") -> UserError:
    """One wording for every command: `unknown framework 'claud': did you mean claude-code?`."""
    import difflib

    close = difflib.get_close_matches(str(value), list(choices), n=1, cutoff=0.6)
    guess = f"; did you mean {close[0]}?" if close else ""
    return UserError(f"unknown {kind} {value!r}{guess}", hint="choose from: " + ", ".join(choices))
