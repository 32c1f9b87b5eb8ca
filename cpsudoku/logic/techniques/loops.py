"""Unique loops: the deadly pattern of a unique rectangle over 6, 8, 10 ... cells (4.6-5.0).

A loop of cells that all hold the same two candidates, each house it passes through
holding exactly two of its cells at alternating positions, could swap the two values
and leave a second solution; so the cells holding more must keep an extra value
(types 1-4, as for rectangles). Sound only for unique puzzles; classic grids only,
since the loop walks rows, columns and boxes.
"""

from __future__ import annotations

from ..state import State, popcount
from ..technique import technique
from .uniqueness import easiest_type_first, pattern_steps

MAX_EXTRA_CELLS = 2  # cells with more than the pair, unless they all add the same one value


def loop_rating(length: int) -> float:
    """SE: 4.5, +0.1 for 6 cells, +0.2 for 8, +0.5 for 10 or more."""
    return 4.5 + (0.3 if length >= 10 else 0) + (0.2 if length >= 8 else 0.1)


def _valid(state: State, loop: list[int]) -> bool:
    """Every house the loop visits holds exactly two of its cells, one at an even and
    one at an odd position: then swapping the pair along the loop keeps every house."""
    even: set[int] = set()
    odd: set[int] = set()
    for i, c in enumerate(loop):
        side = odd if i % 2 else even
        for h in state.layout.houses_of[c]:
            if h in side:
                return False
            side.add(h)
    return even == odd


def find_loops(state: State):
    """(cells in loop order, pair mask) for every candidate loop of 6 or more cells."""
    seen: set[tuple[frozenset[int], int]] = set()
    for start, m in enumerate(state.cand):
        if popcount(m) == 2:
            for loop in _LoopSearch(state, start).loops():
                key = (frozenset(loop), m)
                if key not in seen:
                    seen.add(key)
                    if _valid(state, loop):
                        yield loop, m


class _LoopSearch:
    """Depth-first walk from one bivalue cell through cells holding its pair, changing
    the kind of house at every step and never putting three loop cells in a house."""

    def __init__(self, state: State, start: int):
        self.state, self.start = state, start
        self.pair = state.cand[start]
        self.path = [start]
        self.count = [0] * len(state.layout.houses)  # loop cells per house
        for h in state.layout.houses_of[start]:
            self.count[h] = 1

    def loops(self):
        yield from self._extend(self.start, None, MAX_EXTRA_CELLS, 0)

    def _extend(self, cell: int, last_kind: str | None, allowed: int, extra_vals: int):
        state, start, pair, path, count = self.state, self.start, self.pair, self.path, self.count
        cand, houses, houses_of = state.cand, state.layout.houses, state.layout.houses_of
        for h in houses_of[cell]:
            house = houses[h]
            if house.kind == last_kind:
                continue
            if count[h] == 2 and cell != start and start in house.cells:
                if len(path) >= 6 and len(path) % 2 == 0:  # the loop closes
                    yield list(path)
                continue
            if count[h] != 1:
                continue
            for nxt in house.cells:
                nm = cand[nxt]
                if nm & pair != pair or nxt in path:
                    continue
                if nm == pair and nxt < start:  # that bivalue cell starts this loop itself
                    continue
                more = extra_vals | (nm & ~pair)
                left = allowed - (nm != pair)
                # more than two cells with extras only when all add the same one value
                if nm != pair and left < 0 and popcount(more) != 1:
                    continue
                if any(count[g] >= 2 for g in houses_of[nxt]):
                    continue
                path.append(nxt)
                for g in houses_of[nxt]:
                    count[g] += 1
                yield from self._extend(nxt, house.kind, left, more)
                for g in houses_of[nxt]:
                    count[g] -= 1
                path.pop()


@technique("Unique Loop", 4.6, needs_unique=True, classic_only=True)
def unique_loop(state: State):
    """Types 1-4 on loops of six or more cells, easiest first."""
    steps = []
    for loop, pair in find_loops(state):
        steps.extend(pattern_steps(state, loop, pair, "Unique Loop", loop_rating(len(loop))))
    steps.sort(key=easiest_type_first)
    yield from steps
