"""Singles: full house (1.0), hidden single in a box (1.2) or a line (1.5), naked single (2.3)."""

from __future__ import annotations

from ..state import State
from ..step import Step, cell_name
from ..technique import technique


def _single(name: str, rating: float, state: State, cell: int, value: int, where: str) -> Step:
    return Step(name, rating, [(cell, value)], [], [cell], [where] if where else [],
                f"{name}: {cell_name(cell, state.size)}={value}" + (f" ({where})" if where else ""),
                state.size)


@technique("Full House", 1.0, any_grid=True)
def full_house(state: State):
    """The last empty cell of a house takes the one value missing there."""
    values, cand, houses = state.values, state.cand, state.layout.houses
    for h, count in enumerate(state.empty):
        if count == 1:
            house = houses[h]
            cell = next(c for c in house.cells if not values[c])
            m = cand[cell]
            if m and not m & (m - 1):
                yield _single("Full House", 1.0, state, cell, m.bit_length(), house.label)


def _hidden_singles(state: State, kinds: tuple[str, ...], rating: float):
    cand = state.cand
    for house in state.layout.houses:
        if house.kind not in kinds:
            continue
        seen = once = 0  # values seen at least once / exactly once in the house
        for c in house.cells:
            m = cand[c]
            once = (once & ~m) | (m & ~seen)
            seen |= m
        while once:
            bit = once & -once
            once ^= bit
            cell = next(c for c in house.cells if cand[c] & bit)
            yield _single("Hidden Single", rating, state, cell, bit.bit_length(), house.label)


@technique("Hidden Single (box)", 1.2, any_grid=True)
def hidden_single_box(state: State):
    """A value with one place left in a box (or jigsaw region)."""
    return _hidden_singles(state, ("box",), 1.2)


@technique("Hidden Single", 1.5, any_grid=True)
def hidden_single_line(state: State):
    """A value with one place left in a row, column or extra house."""
    return _hidden_singles(state, ("row", "col", "extra"), 1.5)


@technique("Naked Single", 2.3, any_grid=True)
def naked_single(state: State):
    """A cell with one candidate left."""
    for cell, m in enumerate(state.cand):
        if m and not m & (m - 1):
            yield _single("Naked Single", 2.3, state, cell, m.bit_length(), "")
