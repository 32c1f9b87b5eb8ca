"""The Python API: solve, count and check puzzles. The CLI is a thin layer over this.

    >>> from cpsudoku import parse, solve
    >>> inkala = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
    >>> result = solve(parse(inkala), backend="native", max_solutions=2)
    >>> result.status.value
    'unique'
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from . import backends, validate
from .backends.base import Backend, Request
from .errors import ArgumentError, BackendError, TimeLimitError
from .formats.read import parse_one
from .grid import check, deadline
from .grid.puzzle import Puzzle
from .model import Model, build_model, find_conflicts, lower_for
from .result import Result, Status, finish, timed_out_before_search, unsolvable_before_search


def as_puzzle(value: Any, name: str = "puzzle") -> Puzzle:
    """A Puzzle from a Puzzle, a grid string, or a grid as (rows of) numbers."""
    if isinstance(value, Puzzle):
        return value
    if isinstance(value, str):
        return parse_one(value)
    if isinstance(value, (list, tuple)):
        return Puzzle.from_values(validate.grid(value, name))
    raise ArgumentError(f"{name} must be a Puzzle, a grid string or a list of rows, not "
                        f"{type(value).__name__}")


def solve(puzzle, backend: str = "native", *, max_solutions: int = 1,
          time_limit: float | None = None, trace: bool = False, presolve: bool = False,
          **options) -> Result:
    """Solve one puzzle (a Puzzle, a grid string, or a list of rows).

    max_solutions: stop after this many; 2 answers "is it unique?".
    time_limit: seconds; the result says `timeout` when it runs out.
    presolve: run the native propagation first and hand the reduced domains on.
    options: backend-specific settings (e.g. `workers=4` for cpsat).
    """
    max_solutions = validate.whole(max_solutions, "max_solutions", least=1)
    time_limit = validate.seconds(time_limit)
    trace, presolve = validate.flag(trace, "trace"), validate.flag(presolve, "presolve")
    engine = backends.get(validate.text(backend, "backend"))
    # The limit covers the puzzle's whole work; inside one a batch task opened before
    # reading the puzzle, the search's deadline counts from there.
    with deadline.limit(time_limit, "reading the puzzle") as limit:
        started = deadline.started() or time.monotonic()
        request = Request(max_solutions, time_limit, trace, dict(options), started)
        engine.check_request(request)
        try:
            puzzle = as_puzzle(puzzle)
            with deadline.stage("building the model"):
                model = build_model(puzzle)
            return _search(model, engine, request, presolve)
        except TimeLimitError as exc:
            if limit is None or limit.hit is None or not isinstance(puzzle, Puzzle):
                raise  # not this limit's, or no puzzle to report on: the caller's error
            return timed_out_before_search(str(exc), backend=engine.name,
                                           elapsed=time.monotonic() - started, puzzle=puzzle)


def _solve_built(model: Model, max_solutions: int = 1,
                 time_limit: float | None = None) -> Result:
    """`solve(model.puzzle, max_solutions=max_solutions, time_limit=time_limit)` for a
    caller inside the package that has built the puzzle's model already (the logical
    solver): not built again."""
    return _search(model, backends.get("native"), Request(max_solutions, time_limit),
                   presolve=False)


def _search(built: Model, engine: Backend, request: Request, presolve: bool) -> Result:
    """The search of `solve` on the puzzle's model as built, its arguments checked."""
    started, max_solutions, puzzle = request.started, request.max_solutions, built.puzzle
    model = built
    if model.aux_domains and not engine.auxiliary:
        able = backends.with_auxiliary()
        raise BackendError(f"{puzzle.variables.describe()} cannot be expressed for backend "
                           f"{engine.name!r}, which searches digits only: use "
                           f"{', '.join(able[:-1])} or {able[-1]}")
    # A found solution proves there is no conflict: a backend that fails fast on
    # conflicts is asked first (the check costs more than a classic solve).
    with deadline.stage("checking the givens"):
        problems = [] if engine.finds_conflicts_fast else find_conflicts(model)
    if problems:
        return unsolvable_before_search(problems, backend=engine.name,
                                        elapsed=time.monotonic() - started, puzzle=puzzle)
    if presolve and engine.name != "native" and not model.aux_domains:
        from .backends.native import reduce_domains
        reduced = reduce_domains(model)
        if reduced is None:
            return unsolvable_before_search(["propagation empties a cell's candidates"],
                                            backend=engine.name,
                                            elapsed=time.monotonic() - started, puzzle=puzzle)
        model = model.with_domains(reduced)
    with deadline.stage(f"lowering the model for backend {engine.name!r}"):
        model = lower_for(model, engine.native_kinds, f"backend {engine.name!r}",
                          engine.whole_when_too_big)
    setup_s = time.monotonic() - started
    with deadline.stage(f"preparing the search of backend {engine.name!r}"):
        outcome = engine.search(model, request)
    if engine.finds_conflicts_fast and not outcome.solutions:
        problems = find_conflicts(built)
        if problems:
            return unsolvable_before_search(problems, backend=engine.name,
                                            elapsed=time.monotonic() - started, puzzle=puzzle)
    return finish(outcome, backend=engine.name, max_solutions=max_solutions,
                  elapsed=time.monotonic() - started, puzzle=puzzle, setup_s=setup_s)


BULK = 512  # puzzles a call of the classic lane
_BULK_STATUS = {"s": Status.SOLVED, "u": Status.UNIQUE, "m": Status.MULTIPLE}


def solve_many(puzzles: Iterable, *, max_solutions: int = 1) -> Iterator[Result]:
    """Solve many puzzles with the native backend: one Result per puzzle, in order, as
    they are solved (the input is read lazily).

    Classic 9x9 grids given as lines of 81 symbols (`.` or `0` for blanks) take the
    classic lane: hundreds of puzzles per call of the C kernel, a few microseconds of
    Python per puzzle; their Results carry no `puzzle` (`puzzle` is None), to keep it
    that way. Anything else (a Puzzle, a bigger grid, a variant, a puzzle without a
    solution) is solved as `solve` solves it, and a bad grid raises as there.

        >>> inkala = ("8..........36......7..9.2...5...7.......457....."
        ...           "1...3...1....68..85...1..9....4..")
        >>> [r.status.value for r in solve_many([inkala, inkala], max_solutions=2)]
        ['unique', 'unique']
    """
    max_solutions = validate.whole(max_solutions, "max_solutions", least=1)
    from .backends import classic_lane
    lane = classic_lane.available()
    waiting: list[str] = []
    for puzzle in puzzles:
        if lane and isinstance(puzzle, str) and puzzle.isascii() and \
                len(text := puzzle.strip()) == 81 and "\n" not in text and text[0] != "#":
            waiting.append(text)
            if len(waiting) == BULK:
                yield from _solve_lines(waiting, max_solutions)
                waiting = []
            continue
        yield from _solve_lines(waiting, max_solutions)
        waiting = []
        yield solve(puzzle, max_solutions=max_solutions)
    yield from _solve_lines(waiting, max_solutions)


def _solve_lines(lines: list[str], max_solutions: int) -> Iterator[Result]:
    from .backends.classic_lane import solve_text
    data = ("\n".join(lines) + "\n").encode("ascii")
    pos, line = 0, 1
    while pos < len(data):
        step = solve_text(data, pos, line, 0, fmt="grids", count=False,
                          max_solutions=max_solutions, source="")
        for record in step.text.splitlines():
            status, nodes, guesses, backtracks, props, us, *grids = record.split(" ")
            seconds = int(us) / 1e6
            stats: dict[str, Any] = {
                "nodes": int(nodes), "guesses": int(guesses), "backtracks": int(backtracks),
                "propagations": int(props), "kernel": "c", "timed_out": False,
                "setup_s": 0.0, "search_s": seconds}
            yield Result(_BULK_STATUS[status], [tuple(map(int, grid)) for grid in grids],
                         "native", seconds, stats)
        pos, line = step.pos, step.line
        if step.refused:  # the shared parser's and the model's to answer
            yield solve(lines[line - 1], max_solutions=max_solutions)
            pos, line = data.index(b"\n", pos) + 1, line + 1


def count(puzzle, backend: str = "native", *, limit: int = 2,
          time_limit: float | None = None, **options) -> Result:
    """Count solutions up to `limit` (2 is enough to tell unique from multiple)."""
    limit = validate.whole(limit, "limit", least=1)
    return solve(puzzle, backend, max_solutions=limit, time_limit=time_limit, **options)


def conflicts(puzzle, values: Sequence[int] | None = None) -> list[check.Conflict]:
    """Every broken rule among the filled cells of `values` (default: the givens) of a
    puzzle (a Puzzle, a grid string, or a list of rows)."""
    return check.conflicts(as_puzzle(puzzle), values)


def is_solution(puzzle, values: Sequence[int]) -> bool:
    """A complete grid that keeps the puzzle's givens and breaks no rule."""
    return check.is_solution(as_puzzle(puzzle), values)
