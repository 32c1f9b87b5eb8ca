"""BUG types 2-4 (5.7-6.2): a bivalue universal grave with more than one cell left over.

If every unsolved cell held two candidates and every value two places in each of its
houses, the puzzle would have two solutions. When that is true but for a few "BUG
cells", each with extra "BUG values", one of those cells must take its BUG value.
Type 2: all share one BUG value (it is true in one of them); type 3: the BUG cells
share a house and their BUG values form a naked set with other cells there; type 4:
two BUG cells in a house hold a value locked there, so neither keeps its other value.
BUG+1 (one cell left over) is in `uniqueness`. Sound only for unique puzzles.
"""

from __future__ import annotations

from itertools import combinations

from ..state import State, bit_values, popcount
from ..step import cells_text, make_step
from ..technique import technique


def bug_cells(state: State) -> dict[int, int] | None:
    """BUG cell -> its BUG values (a mask), or None when the grid is no BUG plus extras."""
    cand, n = state.cand, state.size
    extra: dict[int, int] = {}
    for house in state.layout.houses:
        for v in range(1, n + 1):
            pos = state.positions(house, v)
            if len(pos) in (0, 2):
                continue
            wide = [c for c in pos if popcount(cand[c]) >= 3]
            if not wide:
                return None  # an odd count no extra value explains
            if len(wide) == 1:  # with more, another house decides which cell it is
                extra[wide[0]] = extra.get(wide[0], 0) | 1 << (v - 1)
    if not extra:
        return None
    # without the BUG values every cell is bivalue and every value twice in each house
    left = cand[:]
    for c, m in extra.items():
        left[c] &= ~m
    if any(m and popcount(m) != 2 for m in left):
        return None
    for house in state.layout.houses:
        for v in range(1, n + 1):
            bit = 1 << (v - 1)
            if sum(1 for c in house.cells if left[c] & bit) not in (0, 2):
                return None
    return extra


def _houses_holding(state: State, cells) -> list[int]:
    common = set(state.layout.houses_of[cells[0]])
    for c in cells[1:]:
        common &= set(state.layout.houses_of[c])
    return sorted(common)


@technique("BUG Type 2-4", 5.7, needs_unique=True, classic_only=True)
def bug_types(state: State):
    """One finder for types 2, 3 and 4, in SE's order (its first hint is the one taken)."""
    extra = bug_cells(state)
    if extra is None or len(extra) < 2:
        return
    cand, n, layout = state.cand, state.size, state.layout
    cells = sorted(extra)
    all_values = 0
    for m in extra.values():
        all_values |= m
    what = f"{cells_text(cells, n)} on {','.join(map(str, bit_values(all_values)))}"
    if popcount(all_values) == 1:  # type 2
        common = set(layout.peers[cells[0]])
        for c in cells[1:]:
            common &= layout.peers[c]
        elims = [(c, all_values.bit_length()) for c in sorted(common) if cand[c] & all_values]
        if elims:
            yield make_step("BUG Type 2", 5.7, n, what=what, eliminations=elims, cells=cells)
    if len(cells) == 2:  # type 4
        yield from _type4(state, extra, cells, all_values, what)
    if popcount(all_values) >= 2:
        yield from _type3(state, cells, all_values, what)


def _type4(state: State, extra, cells, all_values: int, what: str):
    cand, houses = state.cand, state.layout.houses
    u, w = cells
    common = cand[u] & cand[w] & ~all_values
    if popcount(common) != 1:
        return
    value = common.bit_length()
    for h in _houses_holding(state, cells):
        # the value's only places in the house are the two BUG cells: one holds it, and
        # the other then holds its BUG value, so neither keeps a third candidate
        if state.positions(houses[h], value) != sorted(cells):
            continue
        elims = [(c, v) for c in cells for v in bit_values(cand[c] & ~extra[c] & ~common)]
        if elims:
            yield make_step("BUG Type 4", 5.7, state.size,
                            what=f"{what}, {value} locked in {houses[h].label}",
                            eliminations=elims, cells=cells, groups=[houses[h].label])


def _type3(state: State, cells, all_values: int, what: str):
    cand, houses, n = state.cand, state.layout.houses, state.size
    for h in _houses_holding(state, cells):
        others = [c for c in houses[h].cells if cand[c] and c not in cells]
        for k in range(1, min(5, len(others)) + 1):  # SE: naked sets of 2 to 6 values
            for combo in combinations(others, k):
                union = 0
                for c in combo:
                    union |= cand[c]
                if popcount(union) != k + 1 or all_values & ~union:
                    continue
                elims = [(c, v) for c in others if c not in combo
                         for v in bit_values(cand[c] & union)]
                if elims:
                    yield make_step("BUG Type 3", 5.7 + 0.1 * k, n,
                                    what=f"{what}, naked set "
                                         f"{','.join(map(str, bit_values(union)))} with "
                                         f"{cells_text(combo, n)}",
                                    eliminations=elims, cells=cells + list(combo),
                                    groups=[houses[h].label])
