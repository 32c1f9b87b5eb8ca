"""Set theory on killer cages: what the houses' known totals say about the cages.

Innies and outies: a house holds 1..N once, so it adds up to N(N+1)/2, and a union of
k houses without common cells (a band or stack of adjacent rows or columns) to k times
that. The cells of the union left out by the cages inside it (innies) then have a known
sum, and so do the cells sticking out of the cages that cover it (outies); the sum,
with no repeat in a house among those cells, is read like a cage's (bounds and
combinations). Cage pointing: a digit every remaining combination of a cage holds
must go in one of the cage's cells; when all of them lie in one house, no other cell
of that house holds it, as a pointing pair reads a box.
"""

from __future__ import annotations

from functools import cache

from ...grid.constraints import AllDifferent, Constraint, Sum
from ..state import Layout, State
from ..step import cell_name, make_step
from ..technique import technique
from .rules import (
    digit,
    groups_of,
    join,
    names,
    own,
    remembered,
    removals,
    removals_text,
    supported,
)
from .rulesums import combinations_of, plain_sum

INNIES_OUTIES = 2.8  # one house, one cell: arithmetic beside a claiming
EXTRA_HOUSE = 0.2  # each house beyond one in the union: a wider sum to add up
EXTRA_CELL = 0.2  # each cell beyond one: a combination to read instead of a value
CAGE_POINTING = 2.7  # between SE's pointing (2.6) and claiming (2.8)
MOST_CELLS = 4  # past it the sum says too little to be worth a step
WAYS_LISTED = 6


def innies_rating(houses: int, cells: int) -> float:
    return round(INNIES_OUTIES + EXTRA_HOUSE * (houses - 1) + EXTRA_CELL * (cells - 1), 1)


@cache
def unions(layout: Layout) -> tuple[tuple[str, int, frozenset[int]], ...]:
    """(label, number of houses, cells): every house, then the bands and stacks of 2 to
    N/2 adjacent rows or columns (a wider one is the rest of the grid's narrower one)."""
    n = layout.size
    out = [(h.label, 1, frozenset(h.cells)) for h in layout.houses]
    seen = {cells for _, _, cells in out}
    sets = {frozenset(h.cells) for h in layout.houses}
    lines = {"rows": [frozenset(range(r * n, r * n + n)) for r in range(n)],
             "columns": [frozenset(range(c, n * n, n)) for c in range(n)]}
    for word, houses in lines.items():
        if not all(h in sets for h in houses):
            continue
        for k in range(2, n // 2 + 1):
            for first in range(n - k + 1):
                cells = frozenset().union(*houses[first:first + k])
                if cells not in seen:
                    seen.add(cells)
                    out.append((f"{word} {first + 1}-{first + k}", k, cells))
    return tuple(out)


@cache
def cages(layout: Layout) -> tuple[tuple[frozenset[int], int, str], ...]:
    """(cells, total, label) of every killer cage with a plain total over distinct cells."""
    return tuple((frozenset(con.cells), con.total, con.describe()) for con in layout.rules
                 if isinstance(con, Sum) and plain_sum(con)
                 and len(set(con.cells)) == len(con.cells)
                 and con.describe().startswith("cage"))


def _disjoint(chosen) -> bool:
    return sum(len(cs) for cs, _, _ in chosen) == len(frozenset().union(*(cs for cs, _, _ in
                                                                          chosen)))


@cache
def _shapes(layout: Layout):
    """Per union that has some: (label, houses, cells, innies, outies). Innies: the cells
    of the union outside the cages inside it, and those cages' total; outies: the cells
    sticking out of the cages touching the union, the union's cells in none of them,
    and those cages' total. Cages that overlap each other give neither."""
    all_cages = cages(layout)
    out = []
    for label, k, cells in unions(layout):
        inside = [cage for cage in all_cages if cage[0] <= cells]
        innies = None
        if inside and _disjoint(inside):
            rest = cells.difference(*(cs for cs, _, _ in inside))
            if rest:
                innies = (tuple(sorted(rest)), sum(t for _, t, _ in inside))
        touching = [cage for cage in all_cages if cage[0] & cells]
        outies = None
        if touching and _disjoint(touching):
            covered = frozenset().union(*(cs for cs, _, _ in touching))
            if covered - cells:
                outies = (tuple(sorted(covered - cells)), tuple(sorted(cells - covered)),
                          sum(t for _, t, _ in touching))
        if innies or outies:
            out.append((label, k, cells, innies, outies))
    return tuple(out)


def distinct(layout: Layout, cells) -> list[Constraint]:
    """The no-repeats among the cells: each house's and each cage's that holds two."""
    chosen = set(cells)
    found: list[frozenset[int]] = []
    groups = [h.cells for h in layout.houses] + [g.cells for g in layout.small_groups]
    for group in groups:
        common = frozenset(c for c in group if c in chosen)
        if len(common) > 1 and not any(common <= f for f in found):
            found.append(common)
    return [AllDifferent(tuple(sorted(f))) for f in found]


# (layout's id, cells, total, candidates) -> (layout, what it found): the layout kept
# beside it so that an id reused by another layout is never taken for this one
_READ: dict = {}


def read_sum(state: State, cells: tuple[int, ...], total: int):
    """What `cells` adding up to `total`, with no repeat in a house, leaves each cell,
    and the ways (sorted digits) it is made; None when it cannot be made or is too wide."""
    key = (id(state.layout), cells, total, tuple(state.cand[c] for c in cells))
    known = _READ.get(key)
    if known is not None and known[0] is state.layout:
        return known[1]
    if len(_READ) > 50_000:
        _READ.clear()
    con = Sum(cells, total=total)
    ways: set[tuple[int, ...]] = set()
    support = supported(state, [con, *distinct(state.layout, cells)], list(cells),
                        (con, ways))
    found = (support, sorted(ways)) if support is not None and ways else None
    _READ[key] = (state.layout, found)
    return found


def ways_text(ways) -> str:
    listed = ["+".join(digit(v) for v in way) for way in ways]
    if len(listed) == 1:
        return f"only {listed[0]}"
    return join(listed, "or") if len(listed) <= WAYS_LISTED else f"{len(listed)} ways"


def _placed(state: State, cells) -> tuple[list[int], list[int]]:
    """The cells split into empty ones and placed ones."""
    empty = [c for c in cells if state.cand[c]]
    return empty, [c for c in cells if not state.cand[c]]


def _known(state: State, placed: list[int], what: str) -> str:
    if not placed:
        return ""
    held = sum(state.values[c] for c in placed)
    verb = "holds" if len(placed) == 1 else "hold"
    return f"{what}the placed {names(placed, state.size)} {verb} {held}"


def _step(name: str, state: State, label: str, k: int, cells: list[int], total: int,
          head: str):
    found = read_sum(state, tuple(cells), total)
    if found is None:
        return None
    support, ways = found
    elims = removals(state, cells, support)
    if not elims:
        return None
    n = state.size
    equation = " + ".join(cell_name(c, n) for c in cells)
    equation += (", sticking out, = " if name == "Outies" else " = ") + str(total)
    if len(cells) > 1:
        equation += f": {ways_text(ways)}"
    what = "innies" if name == "Innies" else "outies"
    return make_step(name, innies_rating(k, len(cells)), n,
                     what=f"{label}: {what} sum to {total}", eliminations=elims, cells=cells,
                     groups=[label],
                     reason=f"{head[0].upper()}{head[1:]}, so {equation}: that rules out "
                            f"{removals_text(elims, n)}.")


@technique("Innies and Outies", INNIES_OUTIES)
def innies_outies(state: State):
    """The 45 rule over a house, band or stack: the cells its cages leave out (innies),
    or the cells that stick out of cages covering it (outies), have a known sum.
    Easiest first: fewer houses and fewer cells."""
    shapes = _shapes(state.layout)
    if not shapes:
        return
    n = state.size
    full = n * (n + 1) // 2
    steps = []
    for label, k, _cells, innies, outies in shapes:
        them = "it" if k == 1 else "them"
        hold = "holds" if k == 1 else "hold"
        if innies:
            rest, inside = innies
            empty, placed = _placed(state, rest)
            if 0 < len(empty) <= MOST_CELLS:
                total = k * full - inside - sum(state.values[c] for c in placed)
                head = (f"{label} {hold} {k * full}; the cages inside {them} hold {inside}"
                        + _known(state, placed, " and "))
                step = _step("Innies", state, label, k, empty, total, head)
                if step is not None:
                    steps.append(step)
        if outies:
            out, uncovered, touching = outies
            empty, placed = _placed(state, out)
            if 0 < len(empty) <= MOST_CELLS and not any(state.cand[c] for c in uncovered):
                left = sum(state.values[c] for c in uncovered)
                total = (touching - (k * full - left)
                         - sum(state.values[c] for c in placed))
                head = (f"the cages covering {label} hold {touching}; {label} {hold} "
                        f"{k * full}"
                        + (f", {left} of it in the placed {names(uncovered, n)} outside "
                           f"those cages" if uncovered else "")
                        + _known(state, placed, ", and sticking out "))
                step = _step("Outies", state, label, k, empty, total, head)
                if step is not None:
                    steps.append(step)
    steps.sort(key=lambda st: st.rating)
    yield from steps


@technique("Cage Pointing", CAGE_POINTING)
def cage_pointing(state: State):
    """A digit in every remaining combination of a sum is in one of its cells: when the
    cells that can hold it share a house, the rest of that house loses it."""
    n = state.size
    layout = state.layout
    for label, cons in groups_of(state, "sum"):
        sums = [con for con in own(cons) if isinstance(con, Sum)]
        if len(sums) != 1 or not plain_sum(sums[0]):
            continue
        support, ways = remembered("sums", state, cons, combinations_of)
        if support is None or not ways:
            continue
        con = sums[0]
        held = {state.values[c] for c in con.cells}
        for v in sorted(set.intersection(*map(set, ways)) - held):
            bit = 1 << (v - 1)
            where = [c for c in con.cells if state.cand[c] & bit]
            if not where:
                continue
            houses = [layout.houses[h] for h in layout.houses_of[where[0]]
                      if all(h in layout.houses_of[c] for c in where)]
            elims = sorted({(c, v) for h in houses for c in h.cells
                            if c not in where and state.cand[c] & bit})
            if not elims:
                continue
            said = join([h.label for h in houses])
            either = join([h.label for h in houses], "or")
            reason = (f"{label} must hold {digit(v)} ({ways_text(ways)}); its {digit(v)} "
                      f"is in {said}, so no other cell of {either} holds {digit(v)}")
            yield make_step("Cage Pointing", CAGE_POINTING, n,
                            what=f"{label} holds {digit(v)} in {said}", eliminations=elims,
                            cells=where, groups=[label] + [h.label for h in houses],
                            reason=reason[0].upper() + reason[1:] + ".")

