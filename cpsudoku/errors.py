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
    OUTPUT = 8  # the output cannot be written (disk full, permission denied)
    # the logical solver found no technique for the rest: explain and hint stop there,
    # rate puts the puzzle beyond the scale
    NO_LOGIC = 9
    INTERNAL = 70  # a bug, or a batch item whose worker process died
    INTERRUPTED = 130  # Ctrl-C (128 + SIGINT, as shells report it)
    CLOSED_PIPE = 141  # the reader of the output went away (128 + SIGPIPE)
    TERMINATED = 143  # SIGTERM (128 + SIGTERM)


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


class OutputError(CpsudokuError):
    """The output file or stream cannot be written; the message names it and the cause."""

    exit_code = ExitCode.OUTPUT


class TimeLimitError(CpsudokuError):
    """The time limit (`-t`) ran out before the search, while reading or building a
    puzzle; `stage` names what was in progress. A puzzle's record then says timeout."""

    exit_code = ExitCode.TIMEOUT

    def __init__(self, message: str, stage: str = ""):
        super().__init__(message)
        self.stage = stage


class BackendError(CpsudokuError):
    """Unknown or unavailable backend, or an option the backend cannot honour."""

    exit_code = ExitCode.BACKEND
