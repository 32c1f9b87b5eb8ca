"""solve, count, check: the commands that read grids and answer for each."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import typer

from ..batch import SolveTask
from ..errors import CpsudokuError, ExitCode, UsageError
from .app import (
    BackendOpt,
    BoxOpt,
    Format,
    OptionOpt,
    PresolveOpt,
    PuzzlesArg,
    RulesOpt,
    SizeOpt,
    TimeLimitOpt,
    WorkersOpt,
    app,
    backend_options,
    check_limits,
    load_puzzles,
)
from .batching import DaskOpt, JobsOpt, ProgressOpt, ResumeOpt, run_batch


@app.command()
def solve(
    puzzles: list[str] = PuzzlesArg,
    backend: str = BackendOpt,
    fmt: Format = typer.Option(Format.pretty, "--format", "-f",
                               help="Output format (csv: a header, one row per puzzle)."),
    max_solutions: int = typer.Option(1, "--max-solutions", "-n",
                                      help="Stop after this many solutions (2 checks uniqueness)."),
    time_limit: float | None = TimeLimitOpt,
    trace: bool = typer.Option(False, "--trace", help="Print the solving process step by step "
                                                      "(native backend)."),
    stats: bool = typer.Option(False, "--stats", help="Print time and search statistics."),
    size: int | None = SizeOpt,
    box: str | None = BoxOpt,
    rules: str | None = RulesOpt,
    presolve: bool = PresolveOpt,
    workers: int | None = WorkersOpt,
    option: list[str] | None = OptionOpt,
    output: Path | None = typer.Option(None, "--output", "-o",
                                          help="Write results to this file as they finish."),
    jobs: int = JobsOpt,
    resume: bool = ResumeOpt,
    progress: bool = ProgressOpt,
    dask: str | None = DaskOpt,
):
    """Solve puzzles and print their solutions."""
    check_limits(max_solutions, time_limit)
    task = SolveTask(fmt=fmt.value, size=size, box=_box(size, box), rules=rules,
                     command="solve", backend=backend, max_solutions=max_solutions,
                     time_limit=time_limit, presolve=presolve,
                     options=backend_options(workers, option), trace=trace, stats=stats)
    raise typer.Exit(run_batch(_entries(puzzles, task), task, inputs=puzzles, output=output,
                               resume=resume, jobs=jobs, dask=dask, progress=progress))


@app.command()
def count(
    puzzles: list[str] = PuzzlesArg,
    limit: int = typer.Option(2, "--limit", "-l", help="Count solutions up to this number."),
    backend: str = BackendOpt,
    fmt: Format = typer.Option(Format.line, "--format", "-f",
                               help="line: a verdict per puzzle; jsonl/json: the machine "
                                    "interface; csv: a header, one row per puzzle."),
    time_limit: float | None = TimeLimitOpt,
    size: int | None = SizeOpt,
    box: str | None = BoxOpt,
    rules: str | None = RulesOpt,
    presolve: bool = PresolveOpt,
    workers: int | None = WorkersOpt,
    option: list[str] | None = OptionOpt,
    output: Path | None = typer.Option(None, "--output", "-o",
                                          help="Write verdicts to this file as they finish."),
    jobs: int = JobsOpt,
    resume: bool = ResumeOpt,
    progress: bool = ProgressOpt,
    dask: str | None = DaskOpt,
):
    """Count solutions up to --limit and say: unique, multiple or none."""
    if limit < 1:
        raise UsageError(f"--limit must be at least 1, not {limit}")
    check_limits(limit, time_limit)
    task = SolveTask(fmt=fmt.value, size=size, box=_box(size, box), rules=rules,
                     command="count", backend=backend, max_solutions=limit,
                     time_limit=time_limit, presolve=presolve,
                     options=backend_options(workers, option))
    raise typer.Exit(run_batch(_entries(puzzles, task), task, inputs=puzzles, output=output,
                               resume=resume, jobs=jobs, dask=dask, progress=progress))


def _box(size: int | None, box: str | None) -> tuple[int, int] | None:
    if size is not None and not 1 <= size <= 25:
        raise UsageError(f"--size {size} is outside 1..25")
    if box is None:
        return None
    from ..geometry import parse_box
    return parse_box(box)


def _entries(puzzles: list[str], task: SolveTask) -> Iterator:
    """The input, read lazily: one entry per puzzle, parsed in the worker."""
    from ..sources import check_arg, iter_entries
    for arg in puzzles:
        check_arg(arg)
    return itertools.chain.from_iterable(
        iter_entries(arg, size=task.size, box=task.box) for arg in puzzles)


@app.command()
def check(
    puzzles: list[str] = PuzzlesArg,
    original: str | None = typer.Option(None, "--puzzle", "-p", metavar="PUZZLE",
                                           help="The original puzzle: also check its givens "
                                                "are kept."),
    size: int | None = SizeOpt,
    box: str | None = BoxOpt,
    rules: str | None = RulesOpt,
):
    """Validate filled or partial grids and list every conflict."""
    from ..check import conflicts

    loaded = load_puzzles(puzzles, size, box, rules)
    base = load_puzzles([original], size, box, rules)[0] if original else None
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
