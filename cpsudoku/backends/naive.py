"""The naive backend: plain backtracking, exactly as the classic tutorials do it.

Take the first empty cell in row-major order, try the values 1..V in order,
keep a value if no cell of an all-different group containing the cell already
holds it (row, column, box, and any other group), and judge every other
constraint once all its cells are filled. No propagation, no heuristics: it is
the baseline that shows what propagation buys.
"""

from __future__ import annotations

import sys
import time
from typing import ClassVar

from ..engine.clock import OutOfTime
from ..grid.constraints import KINDS, AllDifferent
from ..model import Model
from ..result import Outcome
from .base import Backend, Request

CHECK_CLOCK_EVERY = 64  # nodes between deadline checks (a 25x25 node: ~0.1 ms)


class NaiveBackend(Backend):
    name: ClassVar[str] = "naive"
    description: ClassVar[str] = ("plain backtracking: first empty cell, values 1..N in order, "
                                  "check the groups before placing")
    native_kinds: ClassVar[frozenset[str]] = frozenset(KINDS)

    def search(self, model: Model, request: Request) -> Outcome:
        ncells = len(model.domains)
        nvalues = model.values  # V: more than N when the digits say so
        # A cell whose domain holds one value is a given; the others are blanks.
        grid = [next(iter(d)) if len(d) == 1 else 0 for d in model.domains]
        blanks = [c for c in range(ncells) if not grid[c]]
        allowed = [frozenset(d) for d in model.domains]
        peer_sets: list[set[int]] = [set() for _ in range(ncells)]
        others = []
        for con in model.constraints:
            if isinstance(con, AllDifferent):
                for c in con.cells:
                    peer_sets[c].update(con.cells)
            else:
                others.append(con)
        for c in range(ncells):
            peer_sets[c].discard(c)
        peers = [tuple(p) for p in peer_sets]
        # A non-all-different constraint is judged when its last blank cell is filled.
        order = {c: i for i, c in enumerate(blanks)}
        judged_at: dict[int, list] = {}
        for con in others:
            open_cells = [c for c in con.cells if c in order]
            if open_cells:
                judged_at.setdefault(max(open_cells, key=order.__getitem__), []).append(con)
            elif not con.check(grid):
                return Outcome([], exhausted=True, stats={"nodes": 0, "backtracks": 0})
        if any(grid[c] and grid[c] == grid[p] for c in range(ncells) for p in peers[c]):
            return Outcome([], exhausted=True, stats={"nodes": 0, "backtracks": 0})

        solutions: list[tuple[int, ...]] = []
        deadline = request.deadline
        nodes = backtracks = 0

        def fill(i: int) -> bool:
            """Fill blanks[i:]; True once enough solutions are found."""
            nonlocal nodes, backtracks
            if i == len(blanks):
                solutions.append(tuple(grid))
                return len(solutions) >= request.max_solutions
            cell = blanks[i]
            for value in range(1, nvalues + 1):
                if value not in allowed[cell]:
                    continue
                if any(grid[p] == value for p in peers[cell]):
                    continue
                nodes += 1
                if deadline is not None and nodes % CHECK_CLOCK_EVERY == 0 \
                        and time.monotonic() > deadline:
                    raise OutOfTime
                grid[cell] = value
                if all(con.check(grid) for con in judged_at.get(cell, ())):
                    if fill(i + 1):
                        return True
                grid[cell] = 0
            backtracks += 1
            return False

        if sys.getrecursionlimit() < ncells + 200:
            sys.setrecursionlimit(ncells + 200)
        exhausted, timed_out = True, False
        try:
            exhausted = not fill(0)
        except OutOfTime:
            exhausted, timed_out = False, True
        return Outcome(solutions, exhausted, timed_out, {"nodes": nodes, "backtracks": backtracks})
