"""explain, hint, rate: human-style solving on the Sudoku Explainer scale."""

from __future__ import annotations

import json
from enum import Enum
from pathlib import Path

import typer

from ..errors import CpsudokuError, ExitCode, UsageError
from .app import (
    BoxOpt,
    Output,
    PuzzlesArg,
    RulesOpt,
    SizeOpt,
    app,
    box_shape,
    check_time_limit,
    load_puzzles,
)
from .batching import DaskOpt, JobsOpt, ProgressOpt, ResumeOpt, entries, run_batch


class StepFormat(str, Enum):
    pretty = "pretty"
    json = "json"
    jsonl = "jsonl"


class RateFormat(str, Enum):
    pretty = "pretty"
    json = "json"
    jsonl = "jsonl"
    csv = "csv"


AllowMultipleOpt = typer.Option(False, "--allow-multiple",
                                help="Go on with a puzzle that has several solutions, along "
                                     "one of them (marked so); by default such a puzzle is "
                                     "refused with the status multiple (exit 1), as Sudoku "
                                     "Explainer and HoDoKu refuse it.")


OutputOpt = typer.Option(None, "--output", "-o", help="Write to this file as puzzles finish.")
DeepOpt = typer.Option(False, "--deep",
                       help="On a variant puzzle, also try the nested forcing chains (9.0 "
                            "and up) where nothing easier applies: they may search for "
                            "minutes (classic puzzles always take them).")


def _grid_steps(spec: str | None) -> set[int] | str:
    """--grid-at: 'all', or step counts like '0,5,12': the grid after that many steps."""
    if spec is None:
        return set()
    if spec.strip().lower() == "all":
        return "all"
    try:
        return {int(x) for x in spec.split(",") if x.strip()}
    except ValueError:
        raise UsageError(f"--grid-at {spec!r} is not 'all' or step numbers like 0,5,12") from None


def _grid_wanted(show: set[int] | str, done: int, state) -> bool:
    """Whether --grid-at asks for the candidate grid after `done` steps (that is, before
    the next one: none once the grid is full)."""
    return (show == "all" or done in show) and not state.solved()


@app.command()
def explain(
    puzzles: list[str] = PuzzlesArg,
    fmt: StepFormat = typer.Option(StepFormat.pretty, "--format", "-f",
                                   help="pretty: one line per step; jsonl: one JSON object "
                                        "per step; json: one object per puzzle."),
    grid_at: str | None = typer.Option(None, "--grid-at", metavar="STEPS",
                                       help="pretty: show the candidate grid after this many "
                                            "steps (e.g. 0,10,25 or all)."),
    time_limit: float | None = typer.Option(None, "--time-limit", "-t", metavar="SECONDS",
                                            help="Stop explaining a puzzle after this long."),
    allow_multiple: bool = AllowMultipleOpt,
    deep: bool = DeepOpt,
    size: int | None = SizeOpt,
    box: str | None = BoxOpt,
    rules: str | None = RulesOpt,
    output: Path | None = OutputOpt,
):
    """Solve like a person: every step, easiest technique first, in HoDoKu's notation."""
    import time

    from ..batch.rating import logic_exit_code
    from ..formats.write import puzzle_fields
    from ..logic import NotUnique, Unsolvable
    from ..logic.api import STUCK, explanation
    from ..logic.chain import chain_lines
    from ..logic.show import candidate_grid
    from ..logic.solver import Solver
    from ..logic.step import Step
    from ..logic.words import plain

    check_time_limit(time_limit)
    show = _grid_steps(grid_at)
    codes: set[int] = set()
    with Output(output, inputs=puzzles) as out:
        for index, puzzle in enumerate(load_puzzles(puzzles, size, box, rules)):
            label = puzzle.source or f"#{index + 1}"
            try:
                solver = Solver(puzzle, allow_multiple=allow_multiple, deep=deep)
            except (Unsolvable, NotUnique) as exc:
                codes.add(exc.exit_code)
                status = "multiple" if isinstance(exc, NotUnique) else "unsolvable"
                out.write(str(exc) if fmt is StepFormat.pretty else json.dumps(
                    {"index": index, "source": label, **puzzle_fields(puzzle),
                     "status": status, "error": str(exc)}))
                continue
            state = solver.start()
            deadline = time.monotonic() + time_limit if time_limit else None
            if fmt is StepFormat.pretty:
                out.write(f"{label}: {puzzle.line()}")
            steps: list[Step] = []
            if fmt is StepFormat.pretty and _grid_wanted(show, 0, state):
                out.write(candidate_grid(state, puzzle.geometry.region_of))
            # the solver's run checks the deadline inside its long searches too, as for rate
            for step in solver.run(state, deadline=deadline):
                steps.append(step)
                if fmt is StepFormat.jsonl:
                    out.write(json.dumps({"index": index, "source": label, **step.as_dict()}))
                elif fmt is StepFormat.pretty:
                    out.write(f"{step.number:4d}. [{step.rating:.1f}] {step.text}")
                    for line in chain_lines(step.chain, " " * 10):  # each chain, indented
                        out.write(line)
                    out.write(f"{'':10}{plain(step)}")  # the play page's hint says the same
                    if _grid_wanted(show, len(steps), state):
                        out.write(candidate_grid(state, puzzle.geometry.region_of))
            done = explanation(solver, state, steps)
            left = _candidates_left(done.grid, done.candidates, puzzle.size)
            # what is left when no technique applies: the cells, with their pencil marks
            stuck = {"cells_left": len(left), "candidates": left} if done.stuck else {}
            if fmt is StepFormat.json:
                out.write(json.dumps({"index": index, "source": label,
                                      **puzzle_fields(puzzle), "status": done.status,
                                      "solved": done.solved, **stuck,
                                      "steps": done.as_dicts()},
                                     indent=2))
            elif fmt is StepFormat.jsonl and done.stuck:
                # the steps are records of their own: one more says where they stopped
                out.write(json.dumps({"index": index, "source": label, "status": done.status,
                                      "solved": False, "steps": len(steps), **stuck}))
            elif fmt is StepFormat.pretty:
                er = max((s.rating for s in steps), default=0.0)
                if done.stuck:
                    out.write(f"stopped: {STUCK} ({len(left)} cells left) after "
                              f"{len(steps)} steps; hardest step {er:.1f}")
                    if not _grid_wanted(show, len(steps), state):  # else shown just above
                        out.write(candidate_grid(state, puzzle.geometry.region_of))
                else:
                    status = "solved" if done.solved else "stopped (time limit)"
                    out.write(f"{status} in {len(steps)} steps; hardest step {er:.1f}")
            if not done.solved:
                codes.add(ExitCode.NO_LOGIC if done.stuck else ExitCode.TIMEOUT)
    raise typer.Exit(logic_exit_code(codes))


def _candidates_left(values: list[int], candidates: list[int], size: int) -> dict:
    """Each empty cell by name, with the values its pencil marks still hold."""
    from ..logic.state import bit_values
    from ..logic.step import cell_name
    return {cell_name(cell, size): list(bit_values(mask))
            for cell, (value, mask) in enumerate(zip(values, candidates)) if not value}


@app.command()
def hint(
    puzzle: str = typer.Argument(..., metavar="PUZZLE",
                                 help="The puzzle: a file or a grid given inline."),
    state: str | None = typer.Option(None, "--state", metavar="GRID",
                                     help="The player's current grid (a file, '-' or "
                                          "inline): values as for a puzzle, or pencil "
                                          "marks as explain --grid-at prints them, one "
                                          "token of candidates per cell."),
    fmt: StepFormat = typer.Option(StepFormat.pretty, "--format", "-f", help="Output format."),
    time_limit: float | None = typer.Option(None, "--time-limit", "-t", metavar="SECONDS",
                                            help="Give up when no step is found within this "
                                                 "many seconds (exit 4)."),
    allow_multiple: bool = AllowMultipleOpt,
    deep: bool = DeepOpt,
    size: int | None = SizeOpt,
    box: str | None = BoxOpt,
    rules: str | None = RulesOpt,
):
    """The next step only, from the puzzle or from a player's grid; wrong entries are named."""
    from ..formats.write import puzzle_fields
    from ..logic import NotUnique, RatingTimeout, Unsolvable
    from ..logic import hint as next_hint
    from ..logic.api import HINT_STUCK
    from ..logic.chain import chain_lines

    check_time_limit(time_limit)

    loaded = load_puzzles([puzzle], size, box, rules)
    if len(loaded) != 1:
        raise UsageError(f"hint takes one puzzle; {puzzle} holds {len(loaded)}")
    grid = None if state is None else _state_text(state)
    try:
        result = next_hint(loaded[0], grid, allow_multiple=allow_multiple,
                           time_limit=time_limit, deep=deep)
    except (Unsolvable, NotUnique, RatingTimeout) as exc:
        status = ("multiple" if isinstance(exc, NotUnique) else
                  "timeout" if isinstance(exc, RatingTimeout) else "unsolvable")
        typer.echo(str(exc) if fmt is StepFormat.pretty else json.dumps(
            {"status": status, **puzzle_fields(loaded[0]), "error": str(exc)},
            indent=2 if fmt is StepFormat.json else None))
        raise typer.Exit(exc.exit_code) from None
    if fmt is StepFormat.pretty:
        for cell in result.wrong:
            typer.echo(f"wrong: {cell} does not hold the solution's value")
        typer.echo(result.step.text if result.step else
                   HINT_STUCK if result.stuck else "the grid is already solved")
        for line in chain_lines(result.step.chain if result.step else [], "    "):
            typer.echo(line)
    else:
        status = ("wrong" if result.wrong else "step" if result.step else
                  "stuck" if result.stuck else "solved")
        message = {"message": HINT_STUCK} if result.stuck else {}
        record = {"index": 0, "source": loaded[0].source or puzzle,
                  **puzzle_fields(loaded[0]), "status": status, **result.as_dict(), **message}
        typer.echo(json.dumps(record, indent=2 if fmt is StepFormat.json else None))
    # wrong entries come first: they are the player's to put right before anything else
    raise typer.Exit(ExitCode.NOT_UNIQUE if result.wrong else
                     ExitCode.NO_LOGIC if result.stuck else ExitCode.OK)


def _state_text(arg: str) -> str:
    """--state: the text of an existing file, standard input for '-', else the text itself."""
    if arg == "-":
        import sys
        return sys.stdin.read()
    path = Path(arg)
    try:
        is_file = path.is_file()
    except OSError:  # a grid typed inline can be too long for a file name
        is_file = False
    if not is_file:
        return arg
    try:
        # utf-8-sig: an editor's byte-order mark would otherwise stick to the first cell
        return path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise CpsudokuError(f"cannot read --state {arg}: {exc}") from None


@app.command()
def rate(
    puzzles: list[str] = PuzzlesArg,
    fmt: RateFormat = typer.Option(RateFormat.pretty, "--format", "-f",
                                   help="pretty, json, jsonl (one object per puzzle) or csv."),
    time_limit: float | None = typer.Option(None, "--time-limit", "-t", metavar="SECONDS",
                                            help="Give up on a puzzle after this many seconds "
                                                 "(status timeout, exit 4)."),
    allow_multiple: bool = AllowMultipleOpt,
    deep: bool = DeepOpt,
    size: int | None = SizeOpt,
    box: str | None = BoxOpt,
    rules: str | None = RulesOpt,
    output: Path | None = OutputOpt,
    jobs: int = JobsOpt,
    resume: bool = ResumeOpt,
    progress: bool | None = ProgressOpt,
    dask: str | None = DaskOpt,
):
    """Rate puzzles on the Sudoku Explainer scale: ER, EP, ED, level, techniques used."""
    from ..batch.rating import RateTask

    task = RateTask(fmt=fmt.value, size=size, box=box_shape(size, box), rules=rules,
                    time_limit=check_time_limit(time_limit), allow_multiple=allow_multiple,
                    deep=deep)
    raise typer.Exit(run_batch(entries(puzzles, task.size, task.box), task, inputs=puzzles,
                               output=output, resume=resume, jobs=jobs, dask=dask,
                               progress=progress))
