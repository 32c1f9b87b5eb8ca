"""Sets of different consecutive digits (renban lines): a line of k cells holds one
run of k consecutive digits; the runs that still fit the candidates bound every
cell ("a run of 4 different consecutive digits holding 5: 2..5 to 5..8")."""

from __future__ import annotations

from ..state import State, bit_values
from ..technique import technique
from .rules import cells_of, digit, digits_text, groups_of, join, own, removals_text, rule_step

CONSECUTIVE_SET = 2.2  # the runs listed like a cage's combinations


def _fits(cells: list[int], doms: dict[int, int], values: list[int]) -> bool:
    """The values, one each, fill the cells over their candidates (a matching)."""
    match: dict[int, int] = {}  # value -> cell

    def place(c: int, seen: set[int]) -> bool:
        for v in values:
            if doms[c] >> (v - 1) & 1 and v not in seen:
                seen.add(v)
                if v not in match or place(match[v], seen):
                    match[v] = c
                    return True
        return False

    return all(place(c, set()) for c in cells)


@technique("Consecutive Set", CONSECUTIVE_SET)
def consecutive_set(state: State):
    """A digit in no run of consecutive digits that fits the line's candidates."""
    n = state.size
    for label, cons in groups_of(state, "set"):
        cells = cells_of(own(cons))
        k = len(cells)
        doms = {c: state.cand[c] or 1 << (state.values[c] - 1) for c in cells}
        runs = [list(range(s, s + k)) for s in range(1, n - k + 2)]
        fits = [run for run in runs if _fits(cells, doms, run)]
        keep = {c: 0 for c in cells}
        for run in fits:
            for c in cells:
                for v in bit_values(doms[c]):
                    if v in run and _fits(cells, {**doms, c: 1 << (v - 1)}, run):
                        keep[c] |= 1 << (v - 1)
        elims = [(c, v) for c in cells for v in bit_values(state.cand[c] & ~keep[c])]
        if not elims or not fits:
            continue
        placed = sorted({state.values[c] for c in cells if state.values[c]})
        holding = f" holding {digits_text(placed)}" if placed else ""
        shown = [f"{digit(r[0])}..{digit(r[-1])}" for r in fits]
        if len(fits) == 1:
            listed = f"only {shown[0]} fits"
        elif all(b[0] == a[0] + 1 for a, b in zip(fits, fits[1:])):
            listed = f"{shown[0]} to {shown[-1]} fit"
        else:
            listed = f"{join(shown, 'or')} fit"
        yield rule_step("Consecutive Set", CONSECUTIVE_SET, state, label, elims, cells,
                        f"{label}: a run of {k} different consecutive digits{holding}: "
                        f"{listed} the candidates, which rules out "
                        f"{removals_text(elims, n)}")
