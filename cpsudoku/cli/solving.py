"""solve, count, check: the commands that read grids and answer for each."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass, fields
from enum import Enum
from pathlib import Path
from typing import Any, NoReturn, get_type_hints

import typer

from ..batch import SolveTask
from ..errors import CpsudokuError, ExitCode
from .app import (
    BackendOpt,
    BoxOpt,
    Format,
    OptionOpt,
    Output,
    OutputOpt,
    PresolveOpt,
    PuzzlesArg,
    RulesOpt,
    SizeOpt,
    TimeLimitOpt,
    WorkersOpt,
    app,
    backend_name,
    backend_options,
    box_shape,
    check_limits,
    load_puzzles,
)
from .batching import DaskOpt, JobsOpt, ProgressOpt, ResumeOpt, entries, run_batch


@dataclass(frozen=True)
class RunOptions:
    """The options solve and count share, declared once: `with_run_options` adds them
    to each command's own (the defaults are typer's declarations)."""

    size: int | None = SizeOpt
    box: str | None = BoxOpt
    rules: str | None = RulesOpt
    presolve: bool = PresolveOpt
    workers: int | None = WorkersOpt
    option: list[str] | None = OptionOpt
    output: Path | None = OutputOpt
    jobs: int = JobsOpt
    resume: bool = ResumeOpt
    progress: bool = ProgressOpt
    dask: str | None = DaskOpt


def with_run_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """`command(..., *, run: RunOptions)` as typer sees it: its own parameters, then
    RunOptions' fields as options (in --help too); they reach it as `run`."""
    own = inspect.signature(command)
    hints = get_type_hints(command)
    shared = get_type_hints(RunOptions)
    params = [p.replace(annotation=hints[p.name]) for p in own.parameters.values()
              if p.name != "run"]
    params += [inspect.Parameter(f.name, inspect.Parameter.KEYWORD_ONLY, default=f.default,
                                 annotation=shared[f.name]) for f in fields(RunOptions)]

    @functools.wraps(command)
    def with_run(**given):
        run = RunOptions(**{f.name: given.pop(f.name) for f in fields(RunOptions)})
        return command(**given, run=run)

    with_run.__signature__ = own.replace(parameters=params)  # type: ignore[attr-defined]
    with_run.__annotations__ = {p.name: p.annotation for p in params}
    return with_run


def run_solving(command: str, puzzles: list[str], run: RunOptions, *, fmt: Format,
                backend: str, max_solutions: int, time_limit: float | None,
                **extra) -> NoReturn:
    """solve's and count's batch: a SolveTask over the puzzles, then their exit status."""
    task = SolveTask(fmt=fmt.value, size=run.size, box=box_shape(run.size, run.box),
                     rules=run.rules, command=command, backend=backend_name(backend),
                     max_solutions=max_solutions, time_limit=time_limit,
                     presolve=run.presolve, options=backend_options(run.workers, run.option),
                     **extra)
    from ..batch.lane import LaneTask, applies, lane_items
    items: Any = entries(puzzles, task.size, task.box)  # checks every argument, reads none
    if applies(task):
        task = LaneTask.of(task)
        items = lane_items(puzzles, lambda arg: entries([arg], task.size, task.box),
                           task.size)
    raise typer.Exit(run_batch(items, task, inputs=puzzles,
                               output=run.output, resume=run.resume, jobs=run.jobs,
                               dask=run.dask, progress=run.progress))


@app.command()
@with_run_options
def solve(
    puzzles: list[str] = PuzzlesArg,
    backend: str = BackendOpt,
    fmt: Format = typer.Option(Format.pretty, "--format", "-f",
                               help="Output format; json is one object for one puzzle, an "
                                    "array for several; csv: a header, one row per puzzle."),
    max_solutions: int = typer.Option(1, "--max-solutions", "-n",
                                      help="Stop after this many solutions (2 checks uniqueness)."),
    time_limit: float | None = TimeLimitOpt,
    trace: bool = typer.Option(False, "--trace", help="Print the solving process step by step "
                                                      "(native backend)."),
    stats: bool = typer.Option(False, "--stats", help="Print time and search statistics."),
    *,
    run: RunOptions,
):
    """Solve puzzles and print their solutions."""
    check_limits(max_solutions, time_limit)
    run_solving("solve", puzzles, run, fmt=fmt, backend=backend, max_solutions=max_solutions,
                time_limit=time_limit, trace=trace, stats=stats)


@app.command()
@with_run_options
def count(
    puzzles: list[str] = PuzzlesArg,
    limit: int = typer.Option(2, "--max-solutions", "-n", "--limit", "-l",
                              help="Count solutions up to this number (-n as in solve "
                                   "and compare)."),
    backend: str = BackendOpt,
    fmt: Format = typer.Option(Format.line, "--format", "-f",
                               help="line: a verdict per puzzle; jsonl/json: the machine "
                                    "interface; pretty/numbers: the solutions as well; "
                                    "csv: a header, one row per puzzle."),
    time_limit: float | None = TimeLimitOpt,
    *,
    run: RunOptions,
):
    """Count solutions up to -n (default 2) and say: unique, multiple or none."""
    check_limits(limit, time_limit)
    run_solving("count", puzzles, run, fmt=fmt, backend=backend, max_solutions=limit,
                time_limit=time_limit)


class CheckFormat(str, Enum):
    text = "text"
    json = "json"
    jsonl = "jsonl"


@app.command()
def check(
    puzzles: list[str] = PuzzlesArg,
    original: str | None = typer.Option(None, "--puzzle", "-p", metavar="PUZZLE",
                                           help="The original puzzle: check the grids by its "
                                                "regions and rules, and that its givens are "
                                                "kept."),
    fmt: CheckFormat = typer.Option(CheckFormat.text, "--format", "-f",
                                    help="text: a verdict and the conflicts per grid; "
                                         "jsonl/json: one object per grid (index, source, "
                                         "puzzle, valid, complete, empty, conflicts)."),
    size: int | None = SizeOpt,
    box: str | None = BoxOpt,
    rules: str | None = RulesOpt,
    output: Path | None = OutputOpt,
):
    """Validate filled or partial grids and list every conflict."""
    import json

    from ..formats.records import filled_grids
    from ..formats.write import JsonStream, puzzle_fields
    from ..grid.check import conflicts

    loaded = load_puzzles(puzzles, size, box, rules)
    base = load_puzzles([original], size, box, rules)[0] if original else None
    failed = False
    with Output(output, inputs=puzzles + ([original] if original else [])) as out:
        stream = JsonStream(out.raw) if fmt is CheckFormat.json else None
        # A solve or count record is checked as its solutions, each against its puzzle.
        for index, grid in enumerate(g for p in loaded for g in filled_grids(p)):
            label = grid.source or f"#{index + 1}"
            origin = grid.meta.get("puzzle")
            against = base if base is not None else origin
            if against is not None and against.geometry.ncells != grid.geometry.ncells:
                raise CpsudokuError(f"{label}: a {grid.geometry.shape} grid cannot fill "
                                    f"a {against.geometry.shape} puzzle")
            if base is not None and base.geometry.first != grid.geometry.first:
                raise CpsudokuError(f"{label}: the puzzle's digits start at "
                                    f"{base.geometry.first}, the grid's at "
                                    f"{grid.geometry.first} (a plain grid reads 0 as a "
                                    f"blank): check a json, jsonl or csv record instead")
            # --puzzle: the grid is judged by that puzzle's regions and rules, which a
            # plain grid (a solve's line or pretty output) does not carry itself
            problems = [c.message for c in (conflicts(base, grid.givens) if base is not None
                                            else conflicts(grid))]
            if against is not None:
                name = grid.geometry.cell_name
                problems += [f"{name(c)} was given as {g} but holds {v or 'nothing'}"
                             for c, (g, v) in enumerate(zip(against.givens, grid.givens))
                             if g and g != v]
            present = grid.geometry.present  # a board's cells outside its grids hold nothing
            empty = sum(1 for v, inside in zip(grid.givens, present) if inside and not v)
            failed = failed or bool(problems)
            if fmt is CheckFormat.text:
                out.write(_check_text(label, problems, empty))
                continue
            record = {"index": index, "source": label, **puzzle_fields(origin or grid)}
            if origin is not None:
                record["checked"] = grid.line()
            status = "conflicts" if problems else "incomplete" if empty else "valid"
            record.update(status=status, valid=not problems,
                          complete=not problems and not empty, empty=empty, conflicts=problems)
            if stream is not None:
                stream.add(json.dumps(record, indent=2))
            else:
                out.write(json.dumps(record))
        if stream is not None:
            stream.close()
    raise typer.Exit(ExitCode.NOT_UNIQUE if failed else ExitCode.OK)


def _check_text(label: str, problems: list[str], empty: int) -> str:
    if problems:
        head = f"{label}: {len(problems)} conflict{'s' if len(problems) > 1 else ''}"
        return "\n".join([head] + [f"  {message}" for message in problems])
    if empty:
        return f"{label}: no conflict so far ({empty} empty cells)"
    return f"{label}: valid solution"
