"""A Model compiled into the flat tables the search loops read.

Every all-different group gives its cells their peers; a group of exactly N
cells, N the number of values (the grid's side unless the digits say otherwise),
is a *unit* (row, column, box, jigsaw region, full diagonal), where each
value must appear once, so hidden singles apply. Two units that share two or
more cells form an *intersection*, where locked candidates apply.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TypeVar

from ..grid import deadline
from ..grid.constraints import AllDifferent, Sum
from ..model import Model, by_identity

T = TypeVar("T")


def mask_of(values) -> int:
    m = 0
    for v in values:
        m |= 1 << (v - 1)
    return m


def values_of(mask: int) -> tuple[int, ...]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length())
        mask ^= low
    return tuple(out)


def keep(cands, grid, c: int, mask: int, changed) -> bool:
    """Narrow cell c to the values in `mask`; False when none is left or a placed
    cell would have to change."""
    d = cands[c] or grid[c]
    new = d & mask
    if new != d:
        if not new or not cands[c]:
            return False
        changed(c, new)
    return True


@dataclass(eq=False)
class Structure:
    """What a model's constraints imply, independent of its givens (cached:
    every classic 9x9 puzzle shares one)."""

    size: int  # the values a cell may take (N unless the digits say otherwise)
    nvars: int  # the N*N cells, then the auxiliary variables (grid.variables)
    full: int  # all `size` values
    peers: tuple[tuple[int, ...], ...]  # per cell: every cell sharing an all-different group
    units: tuple[tuple[int, ...], ...]
    unit_labels: tuple[str, ...]
    cell_units: tuple[tuple[int, ...], ...]  # per cell: indices of its units
    others: tuple  # constraints other than all-different (sum, less, allowed)
    intersections: tuple  # (shared, rest of unit a, rest of unit b) cell tuples
    compiled: dict = field(default_factory=dict)  # generated search functions, by name
    width: int = 0  # cells per row, for cell names: `size` unless the grid says otherwise
    first: int = 1  # the digit of value 1, for messages

    def once(self, key, build: Callable[[], T]) -> T:
        """compiled[key], made by build() the first time (kept only if build returns)."""
        compiled = self.compiled
        if key not in compiled:
            compiled[key] = build()
        return compiled[key]


@dataclass(eq=False)
class Plan:
    structure: Structure
    domains: list[int]  # initial candidate masks

    def __getattr__(self, name):
        return getattr(self.structure, name)


_MASKS: dict[frozenset, int] = {}


def domain_masks(domains) -> list[int]:
    """Masks of domains; models share their domain objects, so a cache pays."""
    if len(_MASKS) > 4096:
        _MASKS.clear()
    masks = _MASKS
    try:
        return [masks[d] for d in domains]  # the common case
    except KeyError:
        for d in domains:
            if d not in masks:
                masks[d] = mask_of(d)
        return [masks[d] for d in domains]


def compile_model(model: Model) -> Plan:
    domains = model.all_domains
    geometry = model.puzzle.geometry
    return Plan(_structure(model.constraints, geometry.values, len(domains), geometry.width,
                           geometry.first), domain_masks(domains))


@by_identity
def _structure(constraints, n: int, nvars: int, width: int, first: int) -> Structure:
    # A tuple of constraints belongs to one geometry and one set of auxiliary
    # variables, so the tuple alone is the key.
    return structure_of(n, constraints, nvars, width, first)


@lru_cache(maxsize=32)
def structure_of(n: int, constraints, nvars: int | None = None,
                 width: int | None = None, first: int = 1) -> Structure:
    """What the constraints imply over n values (a unit: n cells holding them all)."""
    ncells = nvars or n * n  # auxiliary variables have no peers and no units
    distinct = tuple(con for con in constraints if isinstance(con, AllDifferent))
    others = [con for con in constraints if not isinstance(con, AllDifferent)]
    peers, units, labels, cell_units, intersections = _houses(n, distinct, ncells)
    others.extend(implied_sums(n, units, labels, others))
    return Structure(
        size=n,
        nvars=ncells,
        full=(1 << n) - 1,
        peers=peers,
        units=units,
        unit_labels=labels,
        cell_units=cell_units,
        others=tuple(others),
        intersections=intersections,
        width=width or n,
        first=first,
    )


@lru_cache(maxsize=32)
def _houses(n: int, distinct: tuple[AllDifferent, ...], ncells: int) -> tuple:
    """What the all-different constraints make: peers, units (with their labels and
    each cell's) and the intersections of units. Puzzles of one geometry and rule set
    share them while their other constraints differ, so they are found once."""
    peer_sets: list[set[int]] = [set() for _ in range(ncells)]
    units, labels = [], []
    seen_units = set()
    for con in distinct:
        cells = con.cells
        for c in cells:
            peer_sets[c].update(cells)
        key = frozenset(cells)
        if len(key) == n and key not in seen_units:
            seen_units.add(key)
            units.append(tuple(cells))
            labels.append(con.describe())
    for c in range(ncells):
        peer_sets[c].discard(c)
    cell_units: list[list[int]] = [[] for _ in range(ncells)]
    for u, cells in enumerate(units):
        for c in cells:
            cell_units[c].append(u)
    return (tuple(tuple(sorted(p)) for p in peer_sets), tuple(units), tuple(labels),
            tuple(tuple(u) for u in cell_units), intersections_of(units))


# Locked candidates only speed the search up (the units' all-different rules hold
# without them), and every propagation visits each intersection: past this many, those
# of the later units are left out. The grid's own rows, columns and boxes come first.
MAX_INTERSECTIONS = 4096


def intersections_of(units: list[tuple[int, ...]]) -> tuple:
    """(shared cells, rest of unit a, rest of unit b) for units a < b sharing two or
    more cells, ordered by a then b. Each unit is taken against the units before it,
    so that past MAX_INTERSECTIONS those of the later units are the ones left out.
    Units are met through the pairs of cells they hold, so two units that share at most
    one cell are never compared: the work grows with the intersections found, not with
    the square of the units (a puzzle may add thousands of regions)."""
    by_pair: dict[tuple[int, int], list[int]] = {}
    unit_sets = [frozenset(u) for u in units]
    found: list[tuple[int, int, frozenset[int]]] = []
    for b, members in enumerate(unit_sets):
        deadline.check()
        ordered = sorted(members)
        pairs = [(x, y) for i, x in enumerate(ordered) for y in ordered[i + 1:]]
        for a in sorted({a for pair in pairs for a in by_pair.get(pair, ())}):
            found.append((a, b, unit_sets[a] & unit_sets[b]))
            if len(found) == MAX_INTERSECTIONS:
                break
        else:
            for pair in pairs:
                by_pair.setdefault(pair, []).append(b)
            continue
        break
    found.sort(key=lambda f: (f[0], f[1]))
    return tuple((tuple(sorted(shared)), tuple(c for c in units[a] if c not in shared),
                  tuple(c for c in units[b] if c not in shared)) for a, b, shared in found)


MAX_IMPLIED_CELLS = 6  # longer implied sums prune little and cost a propagator each


def implied_sums(n: int, units, labels, constraints) -> list[Sum]:
    """The "45 rule" of killer solvers, for any size: a union of units holds each
    value once per unit, so its total is known; subtracting the sums lying wholly
    inside it leaves a sum over the remaining cells (innies), and the sums that
    stick out of it give a sum over the cells outside (outies). These implied
    constraints are redundant, but they let bounds reasoning see across cages."""
    plain = [(frozenset(con.cells), con.total) for con in constraints
             if isinstance(con, Sum) and (con.coeffs is None or all(w == 1 for w in con.coeffs))
             and len(set(con.cells)) == len(con.cells)]
    sums = []
    covered: set[int] = set()
    for members, total in plain:  # disjoint ones only, so that no cell counts twice
        if not members & covered:
            covered |= members
            sums.append((members, total))
    if not sums:
        return []
    unit_total = n * (n + 1) // 2
    rows = [u for u in units if u == tuple(range(u[0], u[0] + n)) and u[0] % n == 0]
    cols = [u for u in units if u == tuple(range(u[0], n * n, n)) and u[0] < n]
    rows.sort()
    cols.sort()
    # sets of cells as integers (bit c: cell c), quicker than sets here
    regions = [(_bits(u), 1, label) for u, label in zip(units, labels)]
    for lines, what in ((rows, "rows"), (cols, "columns")):
        if len(lines) == n:
            line_bits = [_bits(line) for line in lines]
            for start in range(0, n - 1):
                band = line_bits[start]
                for k in range(2, n - start + (start > 0)):
                    band |= line_bits[start + k - 1]
                    regions.append((band, k, f"{what} {start + 1}-{start + k}"))
    out: list[Sum] = []
    seen: set[tuple] = set()  # (cells, total), or (cells and weights, total)
    masks = [(_bits(cells), t) for cells, t in sums]
    for r, k, what in regions:
        inside = held = touched = 0  # the sums' cells wholly inside, their totals, the others'
        touching_total = 0
        for m, t in masks:
            if m & r == m:
                inside |= m
                held += t
            elif m & r:
                touched |= m
                touching_total += t
        rest = r & ~inside
        total = k * unit_total - held
        found = [(rest, total, "innies")]
        if rest and rest & touched == rest:
            found.append((touched & ~r, touching_total - total, "outies"))
        for cells, t, kind in found:
            key: tuple = (cells, t)
            if 1 <= cells.bit_count() <= MAX_IMPLIED_CELLS and key not in seen:
                seen.add(key)
                out.append(Sum(_cells(cells), total=t, label=f"{kind} of {what}"))
    for con in crossing_sums(n, units, labels, plain):
        key = (_bits(con.cells), con.total)
        if key not in seen:
            seen.add(key)
            out.append(con)
    named = dict(zip(units, labels))
    boxes = [u for u in units if named[u].startswith(("box ", "region "))]
    tiled = len(boxes) == n and len(frozenset().union(*boxes)) == n * n  # the grid's regions
    sweeps = [rows, rows[::-1], cols, cols[::-1]] + ([boxes] if tiled else [])
    for houses in sweeps:
        if len(houses) != n:
            continue
        for con in leftover_sums(n, houses, [named[h] for h in houses], sums, covered):
            key = (frozenset(zip(con.cells, con.weights())), con.total)
            if key not in seen:
                seen.add(key)
                out.append(con)
    return out


def _bits(cells) -> int:
    m = 0
    for c in cells:
        m |= 1 << c
    return m


def _cells(bits: int) -> tuple[int, ...]:
    """The cells of a set as an integer, in order."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return tuple(out)


def leftover_sums(n: int, houses, names, sums, covered: set[int]) -> list[Sum]:
    """The 45 rule across cages that stick out: houses are taken one by one into a
    growing block, and with them each cage lying more than half inside it. The
    cages' cells outside the block (the outies B) and the block's cells in none of
    those cages (the innies A) then differ by a known amount: sum(B) - sum(A) = the
    cages' totals less the block's. Kept when one side has at most two cells and both
    at most N together (a short difference narrows; a long one costs a propagator
    for little), and at most MAX_IMPLIED_CELLS when every cell of it is in a cage
    already. Measured on ISS's "Killing with flowers" (a killer of cages across
    boxes; nodes to two solutions): 58,409 with innies and outies alone."""
    unit_total = n * (n + 1) // 2
    block: set[int] = set()
    taken: set[int] = set()
    left = list(sums)
    total = 0
    out = []
    for k, house in enumerate(houses[:-1], 1):
        block.update(house)
        for piece in list(left):
            cells, t = piece
            if 2 * len(cells & block) > len(cells):
                left.remove(piece)
                taken |= cells
                total += t
        if k == 1:  # one house: the innies and outies above have it
            continue
        inn, outs = sorted(block - taken), sorted(taken - block)
        if not inn and not outs or len(inn) + len(outs) > n or min(len(inn), len(outs)) > 2:
            continue
        if (len(inn) + len(outs) > MAX_IMPLIED_CELLS
                and covered.issuperset(inn) and covered.issuperset(outs)):
            continue
        delta = total - k * unit_total
        out.append(Sum(tuple(outs + inn), total=delta,
                       coeffs=(1,) * len(outs) + (-1,) * len(inn) if inn else None,
                       label=f"leftovers of the block {names[0]} to {names[k - 1]}"))
    return out


def crossing_sums(n: int, units, labels, sums) -> list[Sum]:
    """The 45 rule on the sums (plain ones, of distinct cells) that cross a unit,
    those of them that share no cell: when they, with other units that
    fill only the gaps they leave in it, cover the unit, the cells they hold outside
    it add up to their totals less the unit's; units lying wholly among those cells
    come off too. Kept, whatever its length, when its total is near the least or
    the most its cells can make (as ISS's sum intersections: the range of totals
    more than four times the distance to the nearer end). On ISS's "Hailstone -
    little killer" (little killers crossing boxes 1 and 3, the gaps filled by the
    diagonals) it took the search from 199,051 nodes and 5.3 s to 7,690 and 0.2 s."""
    unit_total = n * (n + 1) // 2
    unit_sets = [frozenset(u) for u in units]
    by_size = sorted(unit_sets, key=len)
    out = []
    for unit, label in zip(unit_sets, labels):
        crossing = _disjoint([(cells, t) for cells, t in sums if cells & unit])
        if not crossing:
            continue
        taken = frozenset().union(*(cells for cells, _ in crossing))
        total = sum(t for _, t in crossing)
        gaps = unit - taken
        for other in unit_sets:
            if not gaps:
                break
            inside = other & unit
            if (other is unit or other & taken or len(inside) < 2
                    or not inside <= gaps):
                continue
            taken |= other
            total += unit_total
            gaps -= other
        if gaps:
            continue
        cells = set(taken - unit)
        total -= unit_total
        for other in by_size:
            if len(other) > len(cells):
                break
            if other <= cells:
                cells -= other
                total -= unit_total
        if not cells:
            continue
        least, most = _total_range(n, unit_sets, cells)
        slack = min(total - least, most - total)
        if most - least > 4 * slack:
            out.append(Sum(tuple(sorted(cells)), total=total,
                           label=f"sums crossing {label}"))
    return out


def _disjoint(sums):
    """Sums none of which shares a cell with another: those that overlap the fewest
    others first (they leave the most choice), each unless it meets one taken."""
    ranked = sorted(sums, key=lambda a: sum(bool(a[0] & b[0]) for b in sums if b is not a))
    taken: set[int] = set()
    out = []
    for cells, total in ranked:
        if not cells & taken:
            taken |= cells
            out.append((cells, total))
    return out


def _total_range(n: int, unit_sets, cells: set[int]) -> tuple[int, int]:
    """The least and most total of the cells, grouped greedily into runs that share
    a unit (whose values differ)."""
    least = most = 0
    left = set(cells)
    while left:
        group: set[int] = max((left & u for u in unit_sets), key=len, default=set())
        if len(group) < 2:
            group = {next(iter(left))}
        k = len(group)
        least += k * (k + 1) // 2
        most += k * (2 * n - k + 1) // 2
        left -= group
    return least, most
