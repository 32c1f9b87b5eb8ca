"""The typer application and what its commands share: options, loading, output.

Every error a user can cause is a CpsudokuError: it becomes one line on stderr
and its own exit code (see EXIT_CODES_HELP). Results are written as soon as
each puzzle is done, so an interrupted batch keeps what it finished.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from enum import Enum
from pathlib import Path

import typer
from typer.core import TyperGroup

from ..errors import CpsudokuError, UsageError

EXIT_CODES_HELP = (
    "Exit status: 0 every puzzle solved (count: every puzzle unique; check: no conflict); "
    "1 count found a puzzle with several solutions, or check found conflicts; "
    "2 bad command-line usage; 3 a puzzle has no solution; 4 time limit reached; "
    "5 bad input (malformed grid, wrong size, missing file, invalid variant element); "
    "6 unknown or unavailable backend, or an option it cannot honour; "
    "7 compare: backends disagree."
)

class _Commands(TyperGroup):
    """Turns any user error raised by a command into one stderr line and its exit code."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except CpsudokuError as exc:
            typer.echo(f"cpsudoku: error: {exc}", err=True)
            raise typer.Exit(exc.exit_code) from None


app = typer.Typer(
    cls=_Commands,
    name="cpsudoku",
    help="Constraint-programming Sudoku solver with interchangeable backends "
         "(native, naive, python-constraint, cpsat) and variant rules.",
    epilog=EXIT_CODES_HELP,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


class Format(str, Enum):
    pretty = "pretty"
    line = "line"
    json = "json"
    jsonl = "jsonl"
    csv = "csv"  # batch commands: a header, one row per puzzle


# Options shared by several commands.
PuzzlesArg = typer.Argument(..., metavar="PUZZLE...",
                            help="Files (one or many puzzles each), '-' for standard input, "
                                 "or a grid given inline.")
BackendOpt = typer.Option("native", "--backend", "-b",
                          help="native, naive, python-constraint or cpsat "
                               "(see `cpsudoku backends`).")
TimeLimitOpt = typer.Option(None, "--time-limit", "-t", metavar="SECONDS",
                            help="Give up on a puzzle after this many seconds (status timeout).")
SizeOpt = typer.Option(None, "--size", help="Grid size N (default: inferred from the cell count).")
BoxOpt = typer.Option(None, "--box", metavar="RxC", help="Box shape, e.g. 2x3 (default: inferred).")
RulesOpt = typer.Option(None, "--rules", metavar="RULE,...",
                        help="Variant rules to add, e.g. diagonal,anti-knight "
                             "(see `cpsudoku variants`).")
PresolveOpt = typer.Option(False, "--presolve/--no-presolve",
                           help="Run native propagation first and hand the reduced domains "
                                "to the backend.")
WorkersOpt = typer.Option(None, "--workers", min=1, max=64,
                          help="cpsat only: number of search workers (default 1; counting "
                               "always uses 1).")
OptionOpt = typer.Option(None, "--option", "-O", metavar="KEY=VALUE",
                         help="A backend-specific setting, e.g. -O hidden_singles=false "
                              "(python-constraint); repeatable.")


def load_puzzles(puzzles: list[str], size: int | None, box: str | None,
          rules: str | None) -> list:
    """Every puzzle named on the command line, through the one shared parser."""
    from ..sources import read_puzzles
    if size is not None and not 1 <= size <= 25:
        raise UsageError(f"--size {size} is outside 1..25")
    box_shape = None
    if box is not None:
        from ..geometry import parse_box
        box_shape = parse_box(box)
    loaded = []
    for arg in puzzles:
        loaded.extend(read_puzzles(arg, size=size, box=box_shape))
    if not loaded:
        raise CpsudokuError("no puzzle found in " + ", ".join(puzzles))
    if rules:
        from ..rules import by_names
        extra = by_names(rules)
        loaded = [p.with_rules(extra) for p in loaded]
    return loaded


def backend_options(workers: int | None, pairs: list[str] | None = None) -> dict:
    """Backend options from --workers and -O KEY=VALUE (numbers and booleans converted)."""
    options: dict = {}
    for pair in pairs or ():
        key, sep, raw = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--option {pair!r} is not of the form KEY=VALUE")
        value: object = raw.strip()
        if raw.strip().lower() in ("true", "false"):
            value = raw.strip().lower() == "true"
        else:
            for kind in (int, float):
                try:
                    value = kind(raw)
                    break
                except ValueError:
                    pass
        options[key.strip().replace("-", "_")] = value
    if workers is not None:
        options["workers"] = workers
    return options


def check_limits(max_solutions: int, time_limit: float | None) -> None:
    if max_solutions < 1:
        raise UsageError(f"--max-solutions must be at least 1, not {max_solutions}")
    if time_limit is not None and not 0 < time_limit <= 7 * 24 * 3600:
        raise UsageError(f"--time-limit must be between 0 and one week of seconds, "
                            f"not {time_limit}")


class Output:
    """stdout, or a file written line by line so an interrupted batch keeps its results."""

    def __init__(self, path: Path | None, append: bool = False):
        self.path, self.append = path, append  # append: resuming a batch into the file
        self.stream = None

    def __enter__(self):
        if self.path is None:
            self.stream = sys.stdout
        else:
            try:
                self.stream = open(self.path, "a" if self.append else "w", encoding="utf-8")
            except OSError as exc:
                raise CpsudokuError(f"cannot write {self.path}: {exc.strerror}") from None
        return self

    def write(self, text: str) -> None:
        self.stream.write(text if text.endswith("\n") else text + "\n")
        self.stream.flush()

    def __exit__(self, *exc):
        if self.path is not None and self.stream is not None:
            self.stream.close()


def solve_all(loaded, backend, **kw) -> Iterator:
    from ..api import solve
    for puzzle in loaded:
        yield puzzle, solve(puzzle, backend, **kw)
