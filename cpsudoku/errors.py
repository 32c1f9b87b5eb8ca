"""Errors a user can cause, each with its own exit code.

The CLI turns any `CpsudokuError` into one line on stderr and `exit_code`;
anything else reaching the top level is a bug.
"""

from __future__ import annotations


class ExitCode:
    """Process exit statuses, documented in `cpsudoku --help` and the README."""

    OK = 0
    NOT_UNIQUE = 1  # `count`: a puzzle has several solutions; `check`: conflicts found
    USAGE = 2  # bad command-line option (typer/click's own code)
    UNSOLVABLE = 3
    TIMEOUT = 4
    BAD_INPUT = 5  # malformed grid, wrong size, missing file, invalid variant element
    BACKEND = 6  # unknown or unavailable backend, or a request it cannot honour
    DISAGREEMENT = 7  # `compare`: backends gave different answers


class CpsudokuError(Exception):
    exit_code = ExitCode.BAD_INPUT


class UsageError(CpsudokuError):
    """An option value that makes no sense (a negative time limit, zero solutions)."""

    exit_code = ExitCode.USAGE


class ArgumentError(UsageError, TypeError, ValueError):
    """A Python API argument of the wrong type or value; the message names the argument.
    Also a TypeError and a ValueError, so callers catching those still catch it."""


class ParseError(CpsudokuError):
    """Input text that is not a grid. Names the source, line and column."""

    def __init__(self, message: str, source: str = "<input>", line: int | None = None,
                 column: int | None = None):
        self.message, self.source, self.line, self.column = message, source, line, column
        where = source
        if line is not None:
            where += f":{line}"
            if column is not None:
                where += f":{column}"
        super().__init__(f"{where}: {message}")


class ModelError(CpsudokuError):
    """A puzzle that parses but cannot be a puzzle: bad geometry or variant element."""


class NeverHolds(ModelError):
    """An element no digits can satisfy (a cage's sum out of reach): the puzzle has no
    solution; inside an either/or, that alternative is simply false."""


class BackendError(CpsudokuError):
    """Unknown or unavailable backend, or an option the backend cannot honour."""

    exit_code = ExitCode.BACKEND
