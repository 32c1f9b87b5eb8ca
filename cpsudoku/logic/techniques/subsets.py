"""Naked and hidden subsets: pairs (3.0 / 3.4), triples (3.6 / 4.0), quads (5.0 / 5.4),
and SE's direct hidden pair (2.0) and triple (2.5) that leave a hidden single."""

from __future__ import annotations

from itertools import combinations

from ..state import State, bit_values, popcount
from ..step import cells_text, make_step
from ..technique import technique

NAKED = {2: ("Naked Pair", 3.0), 3: ("Naked Triple", 3.6), 4: ("Naked Quadruple", 5.0)}
HIDDEN = {2: ("Hidden Pair", 3.4), 3: ("Hidden Triple", 4.0), 4: ("Hidden Quadruple", 5.4)}


def naked_sets(state: State, k: int):
    name, rating = NAKED[k]
    cand = state.cand
    for house in state.layout.houses:
        empty = [c for c in house.cells if cand[c]]
        if len(empty) <= k:
            continue
        small = [c for c in empty if popcount(cand[c]) <= k]
        for combo in combinations(small, k):
            union = 0
            for c in combo:
                union |= cand[c]
            if popcount(union) != k:
                continue
            elims = [(c, v) for c in empty if c not in combo for v in bit_values(cand[c] & union)]
            if elims:
                values = ",".join(map(str, bit_values(union)))
                yield make_step(name, rating, state.size,
                                what=f"{values} in {cells_text(combo, state.size)}",
                                eliminations=elims, cells=combo, groups=[house.label])


def _hidden_sets(state: State, k: int):
    """(house, values mask, cells) for every hidden set of k values in a house."""
    cand = state.cand
    for house in state.layout.houses:
        empty = [c for c in house.cells if cand[c]]
        if len(empty) <= k:
            continue
        # at_least[i]: values with more than i places; a hidden set's values have 2..k
        at_least = [0] * (k + 2)
        for c in empty:
            m = cand[c]
            for i in range(k + 1, 0, -1):
                at_least[i] |= at_least[i - 1] & m
            at_least[0] |= m
        few = at_least[1] & ~at_least[k]
        if popcount(few) < k:
            continue
        where = {v: [c for c in empty if cand[c] >> (v - 1) & 1] for v in bit_values(few)}
        for values in combinations(sorted(where), k):
            cells = sorted({c for v in values for c in where[v]})
            if len(cells) == k:
                yield house, sum(1 << (v - 1) for v in values), cells, empty


def hidden_sets(state: State, k: int):
    name, rating = HIDDEN[k]
    cand = state.cand
    for house, mask, cells, empty in _hidden_sets(state, k):
        if len(empty) <= 2 * k:  # SE: the complementary naked set is the smaller one then
            continue
        elims = [(c, v) for c in cells for v in bit_values(cand[c] & ~mask)]
        if elims:
            yield make_step(name, rating, state.size,
                            what=f"{','.join(map(str, bit_values(mask)))} in "
                                 f"{cells_text(cells, state.size)}",
                            eliminations=elims, cells=cells, groups=[house.label])


def direct_hidden_sets(state: State, k: int, rating: float):
    cand = state.cand
    name = "Direct Hidden " + ("Pair" if k == 2 else "Triple")
    for house, mask, cells, empty in _hidden_sets(state, k):
        if not any(cand[c] & ~mask for c in cells):
            continue
        inside = set(cells)
        for v in range(1, state.size + 1):
            bit = 1 << (v - 1)
            if mask & bit:
                continue
            pos = [c for c in empty if cand[c] & bit]
            left = [c for c in pos if c not in inside]
            if len(pos) > 1 and len(left) == 1:
                yield make_step(name, rating, state.size,
                                what=f"{','.join(map(str, bit_values(mask)))} in "
                                     f"{cells_text(cells, state.size)}, single in {house.label}",
                                placements=[(left[0], v)], cells=cells, groups=[house.label],
                                eliminations=[(c, w) for c in cells
                                              for w in bit_values(cand[c] & ~mask)])
                break


@technique("Direct Hidden Pair", 2.0)
def direct_hidden_pair(state: State):
    return direct_hidden_sets(state, 2, 2.0)


@technique("Direct Hidden Triple", 2.5)
def direct_hidden_triple(state: State):
    return direct_hidden_sets(state, 3, 2.5)


@technique("Naked Pair", 3.0, any_grid=True)
def naked_pair(state: State):
    return naked_sets(state, 2)


@technique("Hidden Pair", 3.4, any_grid=True)
def hidden_pair(state: State):
    return hidden_sets(state, 2)


@technique("Naked Triple", 3.6, any_grid=True)
def naked_triple(state: State):
    return naked_sets(state, 3)


@technique("Hidden Triple", 4.0, any_grid=True)
def hidden_triple(state: State):
    return hidden_sets(state, 3)


@technique("Naked Quadruple", 5.0, any_grid=True)
def naked_quad(state: State):
    return naked_sets(state, 4)


@technique("Hidden Quadruple", 5.4, any_grid=True)
def hidden_quad(state: State):
    return hidden_sets(state, 4)
