"""Uniqueness: unique rectangles types 1-4 (4.5; type 3 with a naked set 4.6-4.8, with a
hidden set 4.5-4.7) and BUG+1 (5.6).

Sound only when the puzzle has one solution, which the solver checks first:
a pattern that would let two solutions swap values cannot be the final state.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

from ..state import Layout, State, bit_values, popcount
from ..step import cells_text, make_step
from ..technique import technique


@cache
def _frames(layout: Layout) -> tuple[tuple[int, int, int, int], ...]:
    """Every four cells over two rows, two columns and exactly two regions."""
    n = layout.size
    region = {c: h for h, house in enumerate(layout.houses) if house.kind == "box"
              for c in house.cells}
    out = []
    for r1, r2 in combinations(range(n), 2):
        for c1, c2 in combinations(range(n), 2):
            corners = (r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2)
            if len({region[c] for c in corners}) == 2:
                out.append(corners)
    return tuple(out)


def _rectangles(state: State):
    """(corners, pair mask) for rectangles over two rows, two columns and two regions
    whose four unsolved corners all hold the same two candidates (and maybe more)."""
    cand = state.cand
    for corners in _frames(state.layout):
        a, b, c, d = (cand[x] for x in corners)
        common = a & b & c & d
        if not common or not (a and b and c and d):
            continue
        for x, y in combinations(bit_values(common), 2):
            pair = (1 << (x - 1)) | (1 << (y - 1))
            if (a == pair) + (b == pair) + (c == pair) + (d == pair) >= 2:
                yield corners, pair


def _shared_houses(state: State, cells) -> list[int]:
    sets = [set(state.layout.houses_of[c]) for c in cells]
    return sorted(set.intersection(*sets))


@technique("Unique Rectangle", 4.5, needs_unique=True, classic_only=True)
def unique_rectangle(state: State):
    """Two candidates that could swap in four cells over two regions: some corner
    must hold something else. Easiest (type 1, 2, 4) first."""
    return iter(sorted(_unique_rectangles(state), key=easiest_type_first))


def easiest_type_first(step) -> tuple[float, str]:
    """SE's order of deadly-pattern steps: by rating, then by type ("... Type N")."""
    return step.rating, step.technique[-1]


def _unique_rectangles(state: State):
    for corners, pair in _rectangles(state):
        yield from pattern_steps(state, corners, pair, "Unique Rectangle", 4.5)


def pattern_steps(state: State, cells, pair: int, family: str, base: float):
    """Types 1-4 of a deadly pattern: `cells` (a rectangle or a longer loop) could all
    swap the two values of `pair`, so the cells holding more than the pair must keep one
    of their extra values. Used for unique rectangles and unique loops alike."""
    cand, houses, n = state.cand, state.layout.houses, state.size
    extra = [c for c in cells if cand[c] != pair]
    values = "/".join(map(str, bit_values(pair)))
    what = f"{values} in {cells_text(cells, n)}"
    if len(extra) == 1:  # type 1
        c = extra[0]
        yield make_step(f"{family} Type 1", base, n, what=what,
                        eliminations=[(c, v) for v in bit_values(pair)], cells=cells)
        return
    extras = 0
    for c in extra:
        extras |= cand[c] & ~pair
    if len(extra) >= 2 and popcount(extras) == 1:  # type 2: the one extra value is true
        common = set(state.layout.peers[extra[0]])
        for c in extra[1:]:
            common &= state.layout.peers[c]
        elims = [(c, extras.bit_length()) for c in sorted(common) if cand[c] & extras]
        if elims:
            yield make_step(f"{family} Type 2", base, n, what=what,
                            eliminations=elims, cells=cells)
    if len(extra) != 2:
        return
    u, w = extra
    for h in _shared_houses(state, extra):  # type 4: a pair value locked in u, w
        house_cells = houses[h].cells
        for keep in bit_values(pair):
            kb = 1 << (keep - 1)
            if all(c in (u, w) for c in house_cells if cand[c] & kb):
                drop = (pair & ~kb).bit_length()
                yield make_step(f"{family} Type 4", base, n,
                                what=f"{what}, {keep} locked in {houses[h].label}",
                                eliminations=[(u, drop), (w, drop)], cells=cells,
                                groups=[houses[h].label])
    if popcount(extras) < 2:
        return
    for h in _shared_houses(state, extra):  # type 3: extras form a naked set
        others = [c for c in houses[h].cells if cand[c] and c not in (u, w)]
        for k in range(1, 4):
            if 2 * (k + 1) > len(others) + 2:  # SE: the hidden form is the smaller then
                break
            for combo in combinations(others, k):
                union = extras
                for c in combo:
                    union |= cand[c]
                if popcount(union) != k + 1:
                    continue
                elims = [(c, v) for c in others if c not in combo
                         for v in bit_values(cand[c] & union)]
                if elims:
                    yield make_step(f"{family} Type 3", base + 0.1 * k, n,
                                    what=f"{what}, naked set "
                                         f"{','.join(map(str, bit_values(union)))} in "
                                         f"{cells_text(combo, n)}",
                                    eliminations=elims, cells=list(cells) + list(combo),
                                    groups=[houses[h].label])
    for h in _shared_houses(state, extra):
        yield from _type_3_hidden(state, h, u, w, pair, extras, cells, family, base, what)


def _type_3_hidden(state: State, h: int, u: int, w: int, pair: int, extras: int, cells,
                   family: str, base: float, what: str):
    """Type 3 with a hidden set: u or w holds an extra value, so together they give the
    pair's values one place in the house (u stands for both). When the pair's values
    and d - 2 values outside the pattern have exactly d places, those places hold
    nothing else (SE rates it base + 0.1 per place beyond the first two)."""
    cand, n = state.cand, state.size
    empty = [c for c in state.layout.houses[h].cells if cand[c]]
    places = {v: {c for c in empty if c != w and cand[c] >> (v - 1) & 1}
              for v in range(1, n + 1)}
    rest = [v for v in range(1, n + 1) if not (pair | extras) >> (v - 1) & 1]
    for degree in range(popcount(extras), (len(empty) + 1) // 2):  # SE: 2 * degree < empty
        for chosen in combinations(rest, degree - 2):
            values = [*chosen, *bit_values(pair)]
            if not all(places[v] for v in values):
                continue
            where = set().union(*(places[v] for v in values))
            if len(where) != degree:
                continue
            mask = sum(1 << (v - 1) for v in values)
            hidden = sorted(where - {u})
            elims = [(c, v) for c in hidden for v in bit_values(cand[c] & ~mask)]
            if elims:
                yield make_step(f"{family} Type 3", base + 0.1 * (degree - 2), n,
                                what=f"{what}, hidden set "
                                     f"{','.join(map(str, sorted(values)))} in "
                                     f"{cells_text(sorted(where | {w}), n)}",
                                eliminations=elims, cells=list(cells) + hidden,
                                groups=[state.layout.houses[h].label])


@technique("BUG+1", 5.6, needs_unique=True, classic_only=True)
def bug_plus_one(state: State):
    """Every unsolved cell bivalue but one: the value that would otherwise appear
    three times in its houses must go there."""
    cand = state.cand
    odd = [c for c, m in enumerate(cand) if m and popcount(m) != 2]
    if len(odd) != 1 or popcount(cand[odd[0]]) != 3:
        return
    cell = odd[0]
    houses = state.layout.houses
    for v in bit_values(cand[cell]):
        bit = 1 << (v - 1)
        if all(sum(1 for c in houses[h].cells if cand[c] & bit) == 3
               for h in state.layout.houses_of[cell]):
            yield make_step("BUG+1", 5.6, state.size, what=f"{cells_text([cell], state.size)}",
                            placements=[(cell, v)], cells=[cell])
            return
