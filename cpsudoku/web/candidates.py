"""Pencil marks for the auto-candidates toggle: for each empty cell, the values no
all-different group of the puzzle already holds and every one-cell restriction allows
(the simple candidates a player writes, not the solver's propagation)."""

from __future__ import annotations

from collections.abc import Sequence

from ..grid.constraints import AllDifferent, InSet
from ..grid.puzzle import Puzzle


def candidates(puzzle: Puzzle, values: Sequence[int]) -> list[list[int]]:
    n = puzzle.size
    allowed = [set(range(1, n + 1)) if not v else set() for v in values]
    for con in puzzle.constraints():
        if isinstance(con, AllDifferent):
            used = {values[c] for c in con.cells if values[c]}
            for c in con.cells:
                allowed[c] -= used
        elif isinstance(con, InSet):
            for c in con.cells:
                allowed[c] &= set(con.values)
    return [sorted(a) for a in allowed]
