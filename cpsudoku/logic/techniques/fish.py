"""Basic fish over rows and columns: X-wing (3.2), swordfish (3.8), jellyfish (5.2)."""

from __future__ import annotations

from itertools import combinations

from ..state import State
from ..step import make_step
from ..technique import technique

FISH = {2: ("X-Wing", 3.2), 3: ("Swordfish", 3.8), 4: ("Jellyfish", 5.2)}


def fish(state: State, k: int):
    name, rating = FISH[k]
    n, cand = state.size, state.cand
    houses = state.layout.houses
    rows = [h for h in houses if h.kind == "row"]
    cols = [h for h in houses if h.kind == "col"]
    for base, cover, bk, ck in ((rows, cols, "r", "c"), (cols, rows, "c", "r")):
        for value in range(1, n + 1):
            bit = 1 << (value - 1)
            lines = []
            for i, house in enumerate(base):
                spots = [j for j, c in enumerate(house.cells) if cand[c] & bit]
                if 1 < len(spots) <= k:
                    lines.append((i, spots))
            for combo in combinations(lines, k):
                covers = sorted({j for _, spots in combo for j in spots})
                if len(covers) != k:
                    continue
                used = {i for i, _ in combo}
                elims = [(c, value) for j in covers for i, c in enumerate(cover[j].cells)
                         if i not in used and cand[c] & bit]
                if elims:
                    cells = [base[i].cells[j] for i, spots in combo for j in spots]
                    what = (f"{value} in {','.join(f'{bk}{i + 1}' for i, _ in combo)} / "
                            f"{','.join(f'{ck}{j + 1}' for j in covers)}")
                    yield make_step(name, rating, n, what=what, eliminations=elims,
                                    cells=cells, groups=[base[i].label for i, _ in combo])


@technique("X-Wing", 3.2)
def x_wing(state: State):
    return fish(state, 2)


@technique("Swordfish", 3.8)
def swordfish(state: State):
    return fish(state, 3)


@technique("Jellyfish", 5.2)
def jellyfish(state: State):
    return fish(state, 4)
