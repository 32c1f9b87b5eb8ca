"""The "plus" rules: what the dynamic forcing chains "plus" (9.0) and the nested levels
ask of the grid an assumption leaves when its singles run out.

Locked candidates, hidden pairs, naked pairs, X-wings: the first that applies (SE
stops there). Each removal comes with its reasons, the candidates struck out since
the search's grid (`source`) that made the rule apply. The C propagation
(`_chaincore`) runs these same rules itself on classic grids; `compiled_first_rule`
asks it, for the tests to compare.

On any other layout the rules read its houses (every all-different group of N cells:
jigsaw regions, diagonals, windows...): locked candidates between any two houses that
share two or more cells, pairs in any house, X-wings over any houses. The C side
runs the first three over the layout's tables; its X-wings know rows and columns
only, so there the propagation asks the Python X-wings (`forcing.Chaining`).
"""

from __future__ import annotations

from array import array
from itertools import combinations

from .. import chaincore
from ..state import Layout, bit_values, popcount
from . import intersections

Lit = tuple[int, int]  # (cell, value)
Found = list[tuple[Lit, tuple[Lit, ...]]]  # (removed candidate, the off literals it needs)
KINDS = {"row": 0, "col": 1, "box": 2}  # the houses' kinds as the C side numbers them


@chaincore.per_layout
def classic(layout: Layout) -> bool:
    """SE's own grid: the rules as SE has them, and the C side's."""
    return layout.is_classic()


@chaincore.per_layout
def crossings(layout: Layout) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For every box and row or column that meet, both ways round: (their common
    cells, the base house's other cells, the cover house's other cells). Off a
    classic grid, every two houses sharing two or more cells (boxes as the base
    first, as the locked candidates technique takes them)."""
    if not classic(layout):
        return tuple((shared, rest_a, rest_b) for _a, _b, shared, rest_a, rest_b
                     in intersections.crossings(layout))
    boxes = [h for h, house in enumerate(layout.houses) if house.kind == "box"]
    lines = [h for h, house in enumerate(layout.houses) if house.kind in ("row", "col")]
    out = []
    for b in boxes:
        for ln in lines:
            common = set(layout.houses[b].cells) & set(layout.houses[ln].cells)
            if common:
                for base, cover in ((b, ln), (ln, b)):
                    out.append((tuple(sorted(common)),
                                tuple(c for c in layout.houses[base].cells if c not in common),
                                tuple(c for c in layout.houses[cover].cells if c not in common)))
    return tuple(out)


def _gone(source: list[int], cand: list[int], cell: int, value: int) -> bool:
    bit = 1 << (value - 1)
    return bool(source[cell] & bit and not cand[cell] & bit)


def locked_candidates(layout: Layout, source: list[int], cand: list[int]) -> Found:
    """Pointing and claiming; the reasons are the value's struck-out places in the
    house that points (or claims) outside the crossing."""
    out: Found = []
    for common, base_out, cover_out in crossings(layout):
        inside = 0
        for c in common:
            inside |= cand[c]
        outside = 0
        for c in base_out:
            outside |= cand[c]
        locked = inside & ~outside  # values whose places in the base house are all shared
        if not locked:
            continue
        gone = 0
        for c in base_out:
            gone |= source[c] & ~cand[c]
        covered = 0
        for c in cover_out:
            covered |= cand[c]
        for v in bit_values(locked & gone & covered):
            bit = 1 << (v - 1)
            why = tuple((c, v) for c in base_out if _gone(source, cand, c, v))
            out.extend(((c, v), why) for c in cover_out if cand[c] & bit)
    return out


def hidden_pairs(layout: Layout, source: list[int], cand: list[int]) -> Found:
    out: Found = []
    for house in layout.houses:
        places = {v: tuple(c for c in house.cells if cand[c] >> (v - 1) & 1)
                  for v in range(1, layout.size + 1)}
        for a, b in combinations(range(1, layout.size + 1), 2):
            cells = places[a]
            if len(cells) != 2 or places[b] != cells:
                continue
            keep = (1 << (a - 1)) | (1 << (b - 1))
            removed = [(c, u) for c in cells for u in bit_values(cand[c] & ~keep)]
            why = tuple((c, u) for c in house.cells if c not in cells for u in (a, b)
                        if source[c] >> (u - 1) & 1)
            if removed and why:
                out.extend((lit, why) for lit in removed)
    return out


def naked_pairs(layout: Layout, source: list[int], cand: list[int]) -> Found:
    out: Found = []
    for house in layout.houses:
        pairs = [c for c in house.cells if popcount(cand[c]) == 2]
        for p, q in combinations(pairs, 2):
            mask = cand[p]
            if cand[q] != mask:
                continue
            removed = [(c, u) for c in house.cells if c not in (p, q)
                       for u in bit_values(cand[c] & mask)]
            why = tuple((c, u) for c in (p, q) for u in bit_values(source[c] & ~mask))
            if removed and why:
                out.extend((lit, why) for lit in removed)
    return out


def x_wings(layout: Layout, source: list[int], cand: list[int]) -> Found:
    if not classic(layout):
        return _any_x_wings(layout, source, cand)
    out: Found = []
    n = layout.size
    for kind in ("row", "col"):
        lines = [h for h in layout.houses if h.kind == kind]
        for v in range(1, n + 1):
            bit = 1 << (v - 1)
            two = [(h, [c for c in h.cells if cand[c] & bit]) for h in lines]
            two = [(h, cells) for h, cells in two if len(cells) == 2]
            for (h1, c1), (h2, c2) in combinations(two, 2):
                cross = [c % n if kind == "row" else c // n for c in c1]
                if cross != [c % n if kind == "row" else c // n for c in c2]:
                    continue
                corners = set(c1) | set(c2)
                removed = [(c, v) for c in range(n * n) if c not in corners and cand[c] & bit
                           and (c % n if kind == "row" else c // n) in cross]
                why = tuple((c, v) for h in (h1, h2) for c in h.cells
                            if _gone(source, cand, c, v))
                if removed and why:
                    out.extend((lit, why) for lit in removed)
    return out


@chaincore.per_layout
def _shared_houses(layout: Layout) -> dict[tuple[int, int], tuple[int, ...]]:
    """The houses two cells share, for every two cells that share one."""
    out: dict[tuple[int, int], list[int]] = {}
    for h, house in enumerate(layout.houses):
        for p in house.cells:
            for q in house.cells:
                if p != q:
                    out.setdefault((p, q), []).append(h)
    return {pair: tuple(hs) for pair, hs in out.items()}


def _any_x_wings(layout: Layout, source: list[int], cand: list[int]) -> Found:
    """X-wings over any houses: two base houses where the value has two places each,
    the four places distinct, paired off by two cover houses (one place of each base
    house in each). One base house's value is at one of its places, so the other
    base house's is at the place paired with its other one: each cover house holds the
    value at one of its two corners, and nowhere else."""
    out: Found = []
    houses, n = layout.houses, layout.size
    shared = _shared_houses(layout)
    two: list[list[tuple[int, list[int]]]] = [[] for _ in range(n + 1)]
    for h, house in enumerate(houses):  # per value, the houses where it has two places
        places: dict[int, list[int]] = {}
        for c in house.cells:
            for v in bit_values(cand[c]):
                places.setdefault(v, []).append(c)
        for v, cells in places.items():
            if len(cells) == 2:
                two[v].append((h, cells))
    for v in range(1, n + 1):
        bit = 1 << (v - 1)
        for (h1, (a1, a2)), (h2, (b1, b2)) in combinations(two[v], 2):
            if len({a1, a2, b1, b2}) < 4:
                continue
            corners = (a1, a2, b1, b2)
            for pairs in (((a1, b1), (a2, b2)), ((a1, b2), (a2, b1))):
                covers = [shared.get(pair, ()) for pair in pairs]
                if not covers[0] or not covers[1]:
                    continue
                removed = dict.fromkeys(c for hs in covers for h in hs
                                        for c in houses[h].cells
                                        if c not in corners and cand[c] & bit)
                why = tuple((c, v) for h in (h1, h2) for c in houses[h].cells
                            if _gone(source, cand, c, v))
                if removed and why:
                    out.extend(((c, v), why) for c in removed)
    return out


RULES = (locked_candidates, hidden_pairs, naked_pairs, x_wings)


def first_rule(layout: Layout, source: list[int], cand: list[int]) -> Found:
    """What the first rule that applies removes (SE stops at the first rule with a
    result, even when everything it removes is already known)."""
    for rule in RULES:
        found = rule(layout, source, cand)
        if found:
            return found
    return []


@chaincore.per_layout
def core_tables(layout: Layout) -> tuple[bytes, ...]:
    """The houses' kinds and the crossings' rows (`crossings`), for the C side. Off a
    classic grid no house is a row or a column to it: its X-wings (over rows and
    columns) find nothing, and the propagation asks the Python ones (`x_wings`), which
    read every house, after its locked candidates and pairs (already over every
    crossing and house)."""
    classic_kinds = KINDS if classic(layout) else {}
    kinds = array("i", [classic_kinds.get(h.kind, 3) for h in layout.houses]).tobytes()
    return (kinds, *chaincore.flat(row for crossing in crossings(layout) for row in crossing))


def compiled_first_rule(layout: Layout, source: list[int], cand: list[int]) -> Found | None:
    """`first_rule` as the C propagation finds it, or None without the C side (or off a
    classic grid, where the propagation asks the Python rules)."""
    if not chaincore.available() or layout.size > 16 or not classic(layout):
        return None
    houses = chaincore.flat(list(h.cells) for h in layout.houses)[1]
    return chaincore.plus_rules(layout.size, source, cand,
                                (houses, *core_tables(layout)))
