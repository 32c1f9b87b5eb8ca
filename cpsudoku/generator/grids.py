"""Random solution grids: the tutorials' method for classic grids (random digits in
the diagonal boxes, which never conflict, then a fill) and a randomized native
search for any layout (jigsaw regions, global rules)."""

from __future__ import annotations

import random
from collections.abc import Callable

from .oracle import Oracle

# A randomized search that has not filled the grid after this many branchings per
# cell is restarted (with twice the budget each round): an unlucky early choice can
# hide a large fruitless subtree, and a fresh random start is usually faster than
# leaving it. Counted in branchings, not seconds, so that a seed gives the same
# grid on a fast machine and a slow one.
FIRST_RESTART_BRANCHES_PER_CELL = 20


class _Restart(Exception):
    """Raised from inside the search when its branching budget is spent."""


def random_pick(rng: random.Random, size: int,
                budget: int | None = None) -> Callable[[int, int], int]:
    """pick(cell, mask) -> one of the mask's bits, uniformly at random from `rng`;
    raises _Restart on the branching after `budget` of them."""
    bits = [1 << i for i in range(size)]
    left = budget

    def pick(cell: int, mask: int) -> int:
        nonlocal left
        if left is not None:
            left -= 1
            if left < 0:
                raise _Restart
        options = [b for b in bits if mask & b]
        return options[0] if len(options) == 1 else options[rng.randrange(len(options))]
    return pick


def diagonal_boxes(oracle: Oracle, rng: random.Random) -> list[int]:
    """Givens with each box on the main box diagonal holding a random permutation
    (they share no row or column, so any permutations fit), for plain boxed grids."""
    geometry = oracle.layout.geometry
    n, givens = geometry.size, [0] * geometry.ncells
    if geometry.box is None or oracle.layout.rules or geometry.grids:
        return givens
    rows, cols = geometry.box
    for i in range(min(n // rows, n // cols)):
        values = list(range(1, n + 1))
        rng.shuffle(values)
        cells = [(i * rows + r) * n + i * cols + c for r in range(rows) for c in range(cols)]
        for cell, value in zip(cells, values):
            givens[cell] = value
    return givens


def solution_grid(oracle: Oracle, rng: random.Random, deadline: float | None = None,
                  max_restarts: int | None = None) -> tuple[int, ...]:
    """A random solution of the oracle's layout; raises ValueError if it has none (or
    none was found within `max_restarts` restarts), TimeoutError past the deadline."""
    budget = FIRST_RESTART_BRANCHES_PER_CELL * oracle.size ** 2
    restarts = 0
    while True:
        givens = diagonal_boxes(oracle, rng)
        try:
            found = oracle.search(oracle.masks(givens), 1, deadline,
                                  pick=random_pick(rng, oracle.size, budget))
        except _Restart:
            restarts += 1
            if max_restarts is not None and restarts > max_restarts:
                raise ValueError("no solution grid found within the restart budget") from None
            budget *= 2
            continue
        if not found:
            if any(givens):
                continue  # cannot happen on plain grids; retry rather than trust that
            raise ValueError("the rules admit no solution grid")
        return found[0]
