"""Locked candidates: pointing (2.6) and claiming (2.8), and SE's direct forms (1.7, 1.9)
that are only counted when they leave a hidden single in a parallel house."""

from __future__ import annotations

from functools import cache

from ..state import Layout, State
from ..step import cells_text, make_step
from ..technique import technique


@cache
def crossings(layout: Layout) -> tuple[tuple[int, int, tuple[int, ...], tuple[int, ...],
                                             tuple[int, ...]], ...]:
    """(house a, house b, shared cells, rest of a, rest of b) for houses sharing two or
    more cells, boxes first so that pointing is tried before claiming, as SE does."""
    houses = layout.houses
    out = []
    for a, ha in enumerate(houses):
        sa = set(ha.cells)
        for b, hb in enumerate(houses):
            if a != b:
                shared = sa.intersection(hb.cells)
                if 1 < len(shared) < len(sa):
                    out.append((a, b, tuple(sorted(shared)),
                                tuple(c for c in ha.cells if c not in shared),
                                tuple(c for c in hb.cells if c not in shared)))
    out.sort(key=lambda t: houses[t[0]].kind != "box")
    return tuple(out)


def _locked(state: State):
    """(a, b, value, positions in a, removable cells of b) for each locked candidate:
    a value of house a whose places all lie where a crosses b, and that b has elsewhere."""
    cand = state.cand
    for a, b, shared, rest_a, rest_b in crossings(state.layout):
        inside = outside = elsewhere = 0
        for c in shared:
            inside |= cand[c]
        if not inside:
            continue
        for c in rest_a:
            outside |= cand[c]
        locked = inside & ~outside
        if not locked:
            continue
        for c in rest_b:
            elsewhere |= cand[c]
        locked &= elsewhere
        while locked:
            bit = locked & -locked
            locked ^= bit
            where = [c for c in shared if cand[c] & bit]
            if len(where) > 1:
                yield a, b, bit.bit_length(), where, [c for c in rest_b if cand[c] & bit]


def _name(state: State, a: int) -> str:
    return "Pointing" if state.layout.houses[a].kind == "box" else "Claiming"


@technique("Locked Candidates", 2.6, any_grid=True)
def locked_candidates(state: State):
    """A value confined to the crossing of two houses leaves the rest of the other house."""
    houses = state.layout.houses
    for a, b, value, where, removable in _locked(state):
        name = _name(state, a)
        yield make_step(name, 2.6 if name == "Pointing" else 2.8, state.size,
                        what=f"{value} in {houses[a].label} locked in {houses[b].label} "
                             f"({cells_text(where, state.size)})",
                        eliminations=[(c, value) for c in removable], cells=where,
                        groups=[houses[a].label, houses[b].label])


@technique("Direct Pointing", 1.7)
def direct_locked(state: State):
    """Pointing or claiming whose eliminations leave a hidden single in a house
    of the same kind as the locking house: the eliminations and the placement
    are applied together, as SE does."""
    houses, layout = state.layout.houses, state.layout
    cand = state.cand
    for a, b, value, where, removable in _locked(state):
        bit = 1 << (value - 1)
        gone = set(removable)
        for h in sorted({h for c in removable for h in layout.houses_of[c]}):
            if h == a or houses[h].kind != houses[a].kind:
                continue
            positions = [c for c in houses[h].cells if cand[c] & bit]
            left = [c for c in positions if c not in gone]
            if len(positions) > 1 and len(left) == 1:
                name = "Direct " + _name(state, a)
                yield make_step(name, 1.7 if name == "Direct Pointing" else 1.9, state.size,
                                what=f"{value} in {houses[a].label} locked in "
                                     f"{houses[b].label}, single in {houses[h].label}",
                                placements=[(left[0], value)], cells=where,
                                eliminations=[(c, value) for c in removable],
                                groups=[houses[a].label, houses[b].label, houses[h].label])
                break
