"""What each API call does, as plain functions of the request body: parse with the shared
parser, then the Python API (solve, check, logic, generator). They run in worker
processes or threads, so each takes and returns plain data."""

from __future__ import annotations

import time
from importlib import import_module
from typing import Any

from ..errors import UsageError
from ..grid.puzzle import Puzzle
from .drawing import describe
from .schemas import CheckIn, GenerateIn, GridIn, HintIn, PuzzleIn, RateIn, SolveIn


class Unavailable(Exception):
    """A feature whose package is not installed: 501 with one line."""


def optional(module: str):
    """cpsudoku.logic or cpsudoku.generator, or Unavailable naming it."""
    try:
        return import_module(f"cpsudoku.{module}")
    except ModuleNotFoundError as exc:
        missing = exc.name or ""
        if missing == f"cpsudoku.{module}" or missing.startswith(f"cpsudoku.{module}."):
            raise Unavailable(f"cpsudoku.{module} is not installed in this build") from None
        raise


def load(body: PuzzleIn) -> Puzzle:
    """The one puzzle in a request, through the shared parser (and --rules' rule lookup)."""
    from ..formats.read import parse_one
    puzzle = parse_one(body.puzzle, size=body.size, box=body.box, source="puzzle")
    g = puzzle.geometry
    if g.grids:  # the page draws one grid
        raise UsageError(f"puzzle: the play page does not draw multi-grid boards yet "
                         f"({g.board_name})")
    if not g.square:  # the page draws N x N grids
        raise UsageError(f"puzzle: the play page draws square grids, not {g.shape}")
    if g.extra:  # the page draws the grid's cells only
        raise UsageError(f"puzzle: the play page draws the grid's cells only, not cells "
                         f"outside it ({g.extra[0]} ...)")
    if not g.standard:  # the page's keys, grids and drawings speak the digits 1..N
        raise UsageError(f"puzzle: the play page takes the digits 1..{g.size}, not "
                         f"{g.first}..{g.digits[-1]}")
    if body.rules:
        from ..rules import by_names
        puzzle = puzzle.with_rules(by_names(body.rules))
    return puzzle


def values_of(body: GridIn, puzzle: Puzzle) -> tuple[int, ...]:
    """The player's grid: N*N values in 0..N that keep every given."""
    if body.grid is None:
        return puzzle.givens
    n = puzzle.size
    grid = tuple(body.grid)
    if len(grid) != n * n:
        raise UsageError(f"grid has {len(grid)} values, expected {n * n} for a {n}x{n} puzzle")
    name = puzzle.geometry.cell_name
    for cell, (given, value) in enumerate(zip(puzzle.givens, grid)):
        if not 0 <= value <= n:
            raise UsageError(f"grid value {value} at {name(cell)} is outside 0..{n}")
        if given and value != given:
            raise UsageError(f"grid changes the given {given} at {name(cell)}")
    return grid


def ready(_body=None, _limit=None) -> None:
    """Nothing: a worker runs it once so that its imports are done before any request."""
    from .. import api  # noqa: F401
    for module in ("logic", "generator"):
        try:
            optional(module)
        except Unavailable:
            pass


# Each job takes the body and the seconds left of the request's time limit (None where
# the work is bounded by the body's size and runs in the server's threads).

def size(body: PuzzleIn, _limit=None) -> int:
    return load(body).size


def parse(body: PuzzleIn, _limit=None) -> dict:
    return describe(load(body))


def solve(body: SolveIn, limit: float | None = None) -> dict:
    from ..api import solve
    seconds = body.time_limit if limit is None else min(body.time_limit, limit)
    return solve(load(body), body.backend, max_solutions=body.max_solutions,
                 time_limit=seconds, presolve=body.presolve).as_dict()


def timeout(body: SolveIn, spent: float | None = None) -> dict:
    """The answer of a solve whose time ran out before its worker answered (queued
    behind other requests, or killed past the limit): a `timeout` result like the one a
    backend gives, through the same `Result.as_dict`."""
    from .. import backends
    from ..result import Outcome, finish
    backends.get(body.backend)  # an unknown backend is still a 400
    return finish(Outcome([], exhausted=False, timed_out=True), backend=body.backend,
                  max_solutions=body.max_solutions, elapsed=spent or body.time_limit,
                  puzzle=load(body)).as_dict()


def check(body: CheckIn, limit: float | None = None) -> dict:
    """Conflicts among the entries (the independent checker), completion, the simple
    candidates on request, and with `solution` the entries that differ from the solution."""
    from ..grid.check import conflicts, is_solution
    puzzle = load(body)
    grid = values_of(body, puzzle)
    name = puzzle.geometry.cell_name
    complete = all(grid)
    out: dict[str, Any] = {
        "conflicts": [{"cells": [name(c) for c in con.cells], "message": con.message}
                      for con in conflicts(puzzle, grid)],
        "complete": complete,
        "solved": complete and is_solution(puzzle, grid),
    }
    if body.candidates:
        from .candidates import candidates
        out["candidates"] = candidates(puzzle, grid)
    if body.solution:
        out.update(wrong_entries(puzzle, grid, limit or body.time_limit))
    return out


def wrong_entries(puzzle: Puzzle, grid: tuple[int, ...], seconds: float) -> dict:
    """The entries that differ from the solution, with the status of the search that
    judged them; no `wrong` when it did not end in time.

    Proving a 25x25's solution unique can take minutes, while the same puzzle with the
    player's entries as givens solves in milliseconds: when the entries still lead to a
    solution, none is wrong (for a puzzle with one solution, it is that one), and the
    puzzle's own solution is searched for only when they do not."""
    from ..api import solve
    if grid == puzzle.givens:
        return {"wrong": []}  # nothing entered, nothing to judge
    name = puzzle.geometry.cell_name
    deadline = time.monotonic() + seconds
    entered = solve(Puzzle(puzzle.geometry, grid, puzzle.rules), time_limit=seconds)
    if entered.status.solved:
        return {"status": entered.status.value, "wrong": []}
    if entered.status.value != "unsolvable":
        return {"status": entered.status.value}
    result = solve(puzzle, max_solutions=2, time_limit=max(deadline - time.monotonic(), 0.01))
    if result.solution is None or result.status.value != "unique":
        return {"status": result.status.value}
    return {"status": "unique", "wrong": [name(c) for c, (v, s) in
                                          enumerate(zip(grid, result.solution)) if v and v != s]}


def hint(body: HintIn, limit: float | None = None) -> dict:
    logic = optional("logic")
    puzzle = load(body)
    state = values_of(body, puzzle) if body.grid is not None else None
    found = logic.hint(puzzle, state=state, time_limit=limit or body.time_limit)
    from ..logic.api import HINT_STUCK
    from ..logic.words import describe
    # stuck: no technique applies, and the page says so (it never reveals a value)
    return {"step": found.step.as_dict() if found.step is not None else None,
            "words": describe(found.step) if found.step is not None else None,
            "wrong": list(found.wrong),
            "status": "stuck" if found.stuck else "step" if found.step else "solved",
            **({"message": HINT_STUCK} if found.stuck else {})}


def rate(body: RateIn, limit: float | None = None) -> dict:
    return optional("logic").rate(load(body), time_limit=limit or body.time_limit).as_dict()


def generate(body: GenerateIn, limit: float | None = None) -> dict:
    """Generate with the generator's own options; the page receives it as /api/parse does."""
    generator = optional("generator")
    from ..rules import by_names
    variant = body.variant.strip().lower()
    kinds = {"killer": {"killer": True}, "jigsaw": {"jigsaw": True}, "classic": {}}
    rules = () if variant in kinds else tuple(by_names(variant))
    made = generator.generate(size=body.size, box=body.box, symmetry=body.symmetry,
                              difficulty=body.difficulty, rules=rules, seed=body.seed,
                              time_limit=limit or body.time_limit, **kinds.get(variant, {}))
    out = describe(made.puzzle)
    out["seed"] = made.seed
    rating = made.rating
    out["rating"] = rating.as_dict() if hasattr(rating, "as_dict") else rating
    return out
