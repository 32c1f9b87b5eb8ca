"""Random solution grids: the tutorials' method for classic grids (random digits in
the diagonal boxes, which never conflict, then a fill) and a randomized native
search for any layout (jigsaw regions, global rules)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from .oracle import Oracle

# A randomized search that has not filled the grid in this long is restarted (with
# twice the time each round): an unlucky early choice can hide a large fruitless
# subtree, and a fresh random start is usually faster than leaving it.
FIRST_RESTART_S = 0.25


def random_pick(rng: random.Random, size: int) -> Callable[[int, int], int]:
    """pick(cell, mask) -> one of the mask's bits, uniformly at random from `rng`."""
    bits = [1 << i for i in range(size)]

    def pick(cell: int, mask: int) -> int:
        options = [b for b in bits if mask & b]
        return options[0] if len(options) == 1 else options[rng.randrange(len(options))]
    return pick


def diagonal_boxes(oracle: Oracle, rng: random.Random) -> list[int]:
    """Givens with each box on the main box diagonal holding a random permutation
    (they share no row or column, so any permutations fit), for plain boxed grids."""
    geometry = oracle.layout.geometry
    n, givens = geometry.size, [0] * geometry.ncells
    if geometry.box is None or oracle.layout.rules:
        return givens
    rows, cols = geometry.box
    for i in range(min(n // rows, n // cols)):
        values = list(range(1, n + 1))
        rng.shuffle(values)
        cells = [(i * rows + r) * n + i * cols + c for r in range(rows) for c in range(cols)]
        for cell, value in zip(cells, values):
            givens[cell] = value
    return givens


def solution_grid(oracle: Oracle, rng: random.Random,
                  deadline: float | None = None) -> tuple[int, ...]:
    """A random solution of the oracle's layout; raises ValueError if it has none,
    TimeoutError past the deadline."""
    patience = FIRST_RESTART_S
    while True:
        givens = diagonal_boxes(oracle, rng)
        attempt = time.monotonic() + patience
        patience *= 2
        try:
            found = oracle.search(oracle.masks(givens), 1,
                                  attempt if deadline is None else min(attempt, deadline),
                                  pick=random_pick(rng, oracle.size))
        except TimeoutError:
            if deadline is not None and time.monotonic() >= deadline:
                raise
            continue
        if not found:
            if any(givens):
                continue  # cannot happen on plain grids; retry rather than trust that
            raise ValueError("the rules admit no solution grid")
        return found[0]
