"""The `cpsudoku` command line: a thin layer over the Python API.

Every error a user can cause is a CpsudokuError: it becomes one line on stderr
and its own exit code (see EXIT_CODES_HELP). Results are written as soon as
each puzzle is done, so an interrupted batch keeps what it finished.
"""

from __future__ import annotations

import os
import sys
from enum import Enum
from pathlib import Path
from typing import Iterator, List, Optional

import typer
from typer.core import TyperGroup

from .errors import CpsudokuError, ExitCode, UsageError

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


def _load(puzzles: List[str], size: Optional[int], box: Optional[str],
          rules: Optional[str]) -> list:
    """Every puzzle named on the command line, through the one shared parser."""
    from .sources import read_puzzles
    if size is not None and not 1 <= size <= 25:
        raise UsageError(f"--size {size} is outside 1..25")
    box_shape = None
    if box is not None:
        from .geometry import parse_box
        box_shape = parse_box(box)
    loaded = []
    for arg in puzzles:
        loaded.extend(read_puzzles(arg, size=size, box=box_shape))
    if not loaded:
        raise CpsudokuError("no puzzle found in " + ", ".join(puzzles))
    if rules:
        from .rules import by_names
        extra = by_names(rules)
        loaded = [p.with_rules(extra) for p in loaded]
    return loaded


def _options(workers: Optional[int], pairs: Optional[List[str]] = None) -> dict:
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


def _check_limits(max_solutions: int, time_limit: Optional[float]) -> None:
    if max_solutions < 1:
        raise UsageError(f"--max-solutions must be at least 1, not {max_solutions}")
    if time_limit is not None and not 0 < time_limit <= 7 * 24 * 3600:
        raise UsageError(f"--time-limit must be between 0 and one week of seconds, "
                            f"not {time_limit}")


class _Output:
    """stdout, or a file written line by line so an interrupted batch keeps its results."""

    def __init__(self, path: Optional[Path]):
        self.path = path
        self.stream = None

    def __enter__(self):
        if self.path is None:
            self.stream = sys.stdout
        else:
            try:
                self.stream = open(self.path, "w", encoding="utf-8")
            except OSError as exc:
                raise CpsudokuError(f"cannot write {self.path}: {exc.strerror}") from None
        return self

    def write(self, text: str) -> None:
        self.stream.write(text if text.endswith("\n") else text + "\n")
        self.stream.flush()

    def __exit__(self, *exc):
        if self.path is not None and self.stream is not None:
            self.stream.close()


def _solve_all(loaded, backend, **kw) -> Iterator:
    from .api import solve
    for puzzle in loaded:
        yield puzzle, solve(puzzle, backend, **kw)


@app.command()
def solve(
    puzzles: List[str] = PuzzlesArg,
    backend: str = BackendOpt,
    fmt: Format = typer.Option(Format.pretty, "--format", "-f", help="Output format."),
    max_solutions: int = typer.Option(1, "--max-solutions", "-n",
                                      help="Stop after this many solutions (2 checks uniqueness)."),
    time_limit: Optional[float] = TimeLimitOpt,
    trace: bool = typer.Option(False, "--trace", help="Print the solving process step by step "
                                                      "(native backend)."),
    stats: bool = typer.Option(False, "--stats", help="Print time and search statistics."),
    size: Optional[int] = SizeOpt,
    box: Optional[str] = BoxOpt,
    rules: Optional[str] = RulesOpt,
    presolve: bool = PresolveOpt,
    workers: Optional[int] = WorkersOpt,
    option: Optional[List[str]] = OptionOpt,
    output: Optional[Path] = typer.Option(None, "--output", "-o",
                                          help="Write results to this file as they finish."),
):
    """Solve puzzles and print their solutions."""
    from .render import render_result
    from .result import exit_code_for
    from .trace import render_trace

    _check_limits(max_solutions, time_limit)
    loaded = _load(puzzles, size, box, rules)
    statuses = []
    with _Output(output) as out:
        for index, (puzzle, result) in enumerate(
                _solve_all(loaded, backend, max_solutions=max_solutions, time_limit=time_limit,
                           trace=trace, presolve=presolve, **_options(workers, option))):
            statuses.append(result.status)
            if trace and result.trace is not None and fmt in (Format.pretty, Format.line):
                out.write(render_trace(result.trace, puzzle.size))
            if fmt in (Format.json, Format.jsonl) and trace and result.trace is not None:
                import json
                record = result.as_dict(index)
                record["trace"] = [e.describe(puzzle.size).strip() for e in result.trace]
                out.write(json.dumps(record, indent=2 if fmt is Format.json else None))
            else:
                out.write(render_result(result, fmt.value, index=index, stats=stats))
    raise typer.Exit(exit_code_for(statuses))


@app.command()
def count(
    puzzles: List[str] = PuzzlesArg,
    limit: int = typer.Option(2, "--limit", "-l", help="Count solutions up to this number."),
    backend: str = BackendOpt,
    fmt: Format = typer.Option(Format.line, "--format", "-f",
                               help="line: a verdict per puzzle; jsonl/json: the machine "
                                    "interface."),
    time_limit: Optional[float] = TimeLimitOpt,
    size: Optional[int] = SizeOpt,
    box: Optional[str] = BoxOpt,
    rules: Optional[str] = RulesOpt,
    presolve: bool = PresolveOpt,
    workers: Optional[int] = WorkersOpt,
    option: Optional[List[str]] = OptionOpt,
):
    """Count solutions up to --limit and say: unique, multiple or none."""
    import json

    from .result import Status

    if limit < 1:
        raise UsageError(f"--limit must be at least 1, not {limit}")
    _check_limits(limit, time_limit)
    loaded = _load(puzzles, size, box, rules)
    worst = ExitCode.OK
    for index, (puzzle, result) in enumerate(
            _solve_all(loaded, backend, max_solutions=limit, time_limit=time_limit,
                       presolve=presolve, **_options(workers, option))):
        found = len(result.solutions)
        verdict = {
            Status.UNIQUE: "unique",
            Status.MULTIPLE: f"multiple (at least {found})" if found >= limit
            else f"multiple ({found})",
            Status.SOLVED: "at least 1 (limit 1)" if limit == 1 else "at least 1 (time ran out)",
            Status.UNSOLVABLE: "none",
            Status.TIMEOUT: "unknown (time ran out)",
        }[result.status]
        if fmt in (Format.json, Format.jsonl):
            record = result.as_dict(index)
            record["count"] = found
            record["verdict"] = verdict
            typer.echo(json.dumps(record, indent=2 if fmt is Format.json else None))
        else:
            label = puzzle.source or f"#{index + 1}"
            extra = f"  ({result.reason})" if result.reason else ""
            typer.echo(f"{label}: {verdict}{extra}")
        code = {Status.MULTIPLE: ExitCode.NOT_UNIQUE, Status.UNSOLVABLE: ExitCode.UNSOLVABLE,
                Status.TIMEOUT: ExitCode.TIMEOUT}.get(result.status, ExitCode.OK)
        if (result.status is Status.SOLVED and limit > 1):
            code = ExitCode.TIMEOUT
        worst = max(worst, code, key=lambda c: (c != ExitCode.OK, c))
    raise typer.Exit(worst)


@app.command()
def check(
    puzzles: List[str] = PuzzlesArg,
    original: Optional[str] = typer.Option(None, "--puzzle", "-p", metavar="PUZZLE",
                                           help="The original puzzle: also check its givens "
                                                "are kept."),
    size: Optional[int] = SizeOpt,
    box: Optional[str] = BoxOpt,
    rules: Optional[str] = RulesOpt,
):
    """Validate filled or partial grids and list every conflict."""
    from .check import conflicts

    loaded = _load(puzzles, size, box, rules)
    base = _load([original], size, box, rules)[0] if original else None
    failed = False
    for index, grid in enumerate(loaded):
        label = grid.source or f"#{index + 1}"
        problems = [c.message for c in conflicts(grid)]
        if base is not None:
            if base.size != grid.size:
                raise CpsudokuError(f"{label}: a {grid.size}x{grid.size} grid cannot fill "
                                    f"a {base.size}x{base.size} puzzle")
            name = grid.geometry.cell_name
            problems += [f"{name(c)} was given as {g} but holds {v or 'nothing'}"
                         for c, (g, v) in enumerate(zip(base.givens, grid.givens))
                         if g and g != v]
        empty = sum(1 for v in grid.givens if not v)
        if problems:
            failed = True
            typer.echo(f"{label}: {len(problems)} conflict{'s' if len(problems) > 1 else ''}")
            for message in problems:
                typer.echo(f"  {message}")
        elif empty:
            typer.echo(f"{label}: no conflict so far ({empty} empty cells)")
        else:
            typer.echo(f"{label}: valid solution")
    raise typer.Exit(ExitCode.NOT_UNIQUE if failed else ExitCode.OK)


@app.command("backends")
def list_backends():
    """List the backends: name, available, version, description."""
    from rich.console import Console
    from rich.table import Table

    from . import backends as registry

    table = Table("backend", "available", "version", "description")
    for name in registry.names():
        backend = registry.load(name)
        available = backend.is_available()
        table.add_row(name, "yes" if available else "no", backend.version(),
                      backend.description)
    Console().print(table)


@app.command()
def variants():
    """List the variant rules (for --rules or a puzzle file's `rules`) and the per-puzzle
    elements a puzzle file can hold, with a one-line description each."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from .rules import describe_all, describe_elements

    rules = Table("rule", "description", title="rules (--rules NAME,... or rules = [...])")
    for name, text in describe_all():
        rules.add_row(escape(name), escape(text))
    elements = Table("key", "description", title="per-puzzle elements (puzzle files)")
    for key, text in describe_elements():
        elements.add_row(escape(key), escape(text))
    console = Console()
    console.print(rules)
    console.print(elements)


@app.command()
def compare(
    puzzles: List[str] = PuzzlesArg,
    backends: str = typer.Option("all", "--backends", metavar="NAME,...|all",
                                 help="Backends to run, comma-separated, or all."),
    time_limit: Optional[float] = typer.Option(10.0, "--time-limit", "-t", metavar="SECONDS",
                                               help="Per puzzle and backend."),
    max_solutions: int = typer.Option(2, "--max-solutions", "-n",
                                      help="Solutions to look for (2 checks uniqueness)."),
    presolve: bool = PresolveOpt,
    size: Optional[int] = SizeOpt,
    box: Optional[str] = BoxOpt,
    rules: Optional[str] = RulesOpt,
    csv_path: Optional[Path] = typer.Option(None, "--csv", help="Write per-puzzle rows here."),
    json_path: Optional[Path] = typer.Option(None, "--json", help="Write per-puzzle rows here."),
    plot_path: Optional[Path] = typer.Option(None, "--plot", metavar="FILE.png",
                                             help="Draw the time distribution per backend "
                                                  "(needs matplotlib)."),
):
    """Run every puzzle on every selected backend; report times and any disagreement."""
    from rich.console import Console
    from rich.progress import Progress

    from . import backends as registry
    from . import compare as comparing

    _check_limits(max_solutions, time_limit)
    chosen = registry.parse_list(backends)
    for name in chosen:
        registry.get(name)  # unavailable backends fail here, before any work
    loaded = _load(puzzles, size, box, rules)
    console = Console(stderr=True)
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("solving", total=len(loaded) * len(chosen))
        report = comparing.run_compare(loaded, chosen, time_limit=time_limit,
                                       max_solutions=max_solutions, presolve=presolve,
                                       progress=lambda n=1: progress.advance(task, n))
    # Written before anything can fail below, so the rows are never lost.
    if csv_path:
        comparing.write_csv(report, csv_path)
    if json_path:
        comparing.write_json(report, json_path)
    # Rich assumes 80 columns when writing to a file or pipe; a report kept for later
    # should not lose its widest numbers to that.
    out = Console()
    if not out.is_terminal:
        out = Console(width=120)
    comparing.print_report(report, out)
    if plot_path:
        comparing.plot(report, plot_path)
    if report.interrupted:
        typer.echo(f"cpsudoku: interrupted after {report.puzzles} puzzle(s); the report "
                   f"covers those", err=True)
        raise typer.Exit(130)
    raise typer.Exit(ExitCode.DISAGREEMENT if report.disagreements else ExitCode.OK)


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
             add_help_option=False)
def bench(ctx: typer.Context):
    """Benchmark a backend over the public data sets, checking every answer; prints a
    table per set (`cpsudoku bench --help` for the options)."""
    from .bench import main as bench_main
    code = bench_main(list(ctx.args), prog="cpsudoku bench")
    raise typer.Exit(code or 0)


def main() -> None:
    """Entry point. User errors are handled in `_Commands`; anything else is a bug, and
    still reaches the user as one line (the traceback only with CPSUDOKU_DEBUG=1)."""
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("cpsudoku: interrupted", err=True)
        sys.exit(130)
    except Exception as exc:
        if os.environ.get("CPSUDOKU_DEBUG"):
            raise
        typer.echo(f"cpsudoku: internal error: {type(exc).__name__}: {exc} "
                   f"(set CPSUDOKU_DEBUG=1 for details)", err=True)
        sys.exit(70)
