"""solve, count, check: the commands that read grids and answer for each."""

from __future__ import annotations

from pathlib import Path

import typer

from ..errors import CpsudokuError, ExitCode, UsageError
from .app import (
    BackendOpt,
    BoxOpt,
    Format,
    OptionOpt,
    Output,
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
    solve_all,
)


@app.command()
def solve(
    puzzles: list[str] = PuzzlesArg,
    backend: str = BackendOpt,
    fmt: Format = typer.Option(Format.pretty, "--format", "-f", help="Output format."),
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
):
    """Solve puzzles and print their solutions."""
    from ..render import render_result
    from ..result import exit_code_for
    from ..trace import render_trace

    check_limits(max_solutions, time_limit)
    loaded = load_puzzles(puzzles, size, box, rules)
    statuses = []
    with Output(output) as out:
        for index, (puzzle, result) in enumerate(
                solve_all(loaded, backend, max_solutions=max_solutions, time_limit=time_limit,
                           trace=trace, presolve=presolve, **backend_options(workers, option))):
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
    puzzles: list[str] = PuzzlesArg,
    limit: int = typer.Option(2, "--limit", "-l", help="Count solutions up to this number."),
    backend: str = BackendOpt,
    fmt: Format = typer.Option(Format.line, "--format", "-f",
                               help="line: a verdict per puzzle; jsonl/json: the machine "
                                    "interface."),
    time_limit: float | None = TimeLimitOpt,
    size: int | None = SizeOpt,
    box: str | None = BoxOpt,
    rules: str | None = RulesOpt,
    presolve: bool = PresolveOpt,
    workers: int | None = WorkersOpt,
    option: list[str] | None = OptionOpt,
):
    """Count solutions up to --limit and say: unique, multiple or none."""
    import json

    from ..result import Status

    if limit < 1:
        raise UsageError(f"--limit must be at least 1, not {limit}")
    check_limits(limit, time_limit)
    loaded = load_puzzles(puzzles, size, box, rules)
    worst = ExitCode.OK
    for index, (puzzle, result) in enumerate(
            solve_all(loaded, backend, max_solutions=limit, time_limit=time_limit,
                       presolve=presolve, **backend_options(workers, option))):
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
