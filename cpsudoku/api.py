"""The Python API: solve, count and check puzzles. The CLI is a thin layer over this.

    >>> from cpsudoku import parse, solve
    >>> result = solve(parse("8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."),
    ...                backend="native", max_solutions=2)
    >>> result.status.value
    'unique'
"""

from __future__ import annotations

import time

from . import backends
from .backends.base import Request
from .errors import ModelError, UsageError
from .model import build_model, find_conflicts, lower_for
from .parse import parse_one
from .puzzle import Puzzle
from .result import Result, finish, unsolvable_before_search


def _as_puzzle(puzzle) -> Puzzle:
    if isinstance(puzzle, Puzzle):
        return puzzle
    if isinstance(puzzle, str):
        return parse_one(puzzle)
    if isinstance(puzzle, (list, tuple)):
        flat = [v for row in puzzle for v in row] if puzzle and isinstance(puzzle[0], (list, tuple)) else list(puzzle)
        return Puzzle.from_values(flat)
    raise ModelError(f"cannot make a puzzle from {type(puzzle).__name__}")


def solve(puzzle, backend: str = "native", *, max_solutions: int = 1,
          time_limit: float | None = None, trace: bool = False, presolve: bool = False,
          **options) -> Result:
    """Solve one puzzle (a Puzzle, a grid string, or a list of rows).

    max_solutions: stop after this many; 2 answers "is it unique?".
    time_limit: seconds; the result says `timeout` when it runs out.
    presolve: run the native propagation first and hand the reduced domains on.
    options: backend-specific settings (e.g. `workers=4` for cpsat).
    """
    if max_solutions < 1:
        raise UsageError(f"max_solutions must be at least 1, not {max_solutions}")
    if time_limit is not None and not time_limit > 0:
        raise UsageError(f"time limit must be a positive number of seconds, not {time_limit}")
    started = time.monotonic()
    puzzle = _as_puzzle(puzzle)
    engine = backends.get(backend)
    request = Request(max_solutions, time_limit, trace, dict(options), started)
    engine.check_request(request)
    model = built = build_model(puzzle)
    # A found solution proves there is no conflict: a backend that fails fast on
    # conflicts is asked first (the check costs more than a classic solve).
    problems = [] if engine.finds_conflicts_fast else find_conflicts(model)
    if problems:
        return unsolvable_before_search(problems, backend=engine.name,
                                        elapsed=time.monotonic() - started, puzzle=puzzle)
    if presolve and engine.name != "native":
        from .backends.native import reduce_domains
        reduced = reduce_domains(model)
        if reduced is None:
            return unsolvable_before_search(["propagation empties a cell's candidates"],
                                            backend=engine.name,
                                            elapsed=time.monotonic() - started, puzzle=puzzle)
        model = model.with_domains(reduced)
    model = lower_for(model, engine.native_kinds, f"backend {engine.name!r}")
    outcome = engine.search(model, request)
    if engine.finds_conflicts_fast and not outcome.solutions:
        problems = find_conflicts(built)
        if problems:
            return unsolvable_before_search(problems, backend=engine.name,
                                            elapsed=time.monotonic() - started, puzzle=puzzle)
    return finish(outcome, backend=engine.name, max_solutions=max_solutions,
                  elapsed=time.monotonic() - started, puzzle=puzzle)


def count(puzzle, backend: str = "native", *, limit: int = 2,
          time_limit: float | None = None, **options) -> Result:
    """Count solutions up to `limit` (2 is enough to tell unique from multiple)."""
    return solve(puzzle, backend, max_solutions=limit, time_limit=time_limit, **options)
