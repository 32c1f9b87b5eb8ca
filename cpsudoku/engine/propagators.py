"""Propagators for the constraint kinds beyond all-different.

Each propagator narrows candidate masks in place and returns False when the
constraint cannot be satisfied. A cell's current domain is `cands[c]` while it
is open and `grid[c]` (its value's bit) once placed; `narrow` reports a domain
change through `changed(cell, new_mask)`, which the search owns.
"""

from __future__ import annotations

import itertools
from math import comb

from ..grid.constraints import AllDifferent, Allowed, AnyOf, InSet, Less, Regions, Regular, Sum
from .automaton import RegularPass
from .plan import Structure, keep
from .regions import RegionsPass

MAX_COMBINATIONS = 4000  # above this, a distinct-value sum falls back to bounds reasoning


def _range_mask(lo: int, hi: int) -> int:
    """Bits of the values lo..hi."""
    if hi < lo:
        return 0
    return ((1 << hi) - 1) & ~((1 << (lo - 1)) - 1) if lo >= 1 else (1 << hi) - 1


class Propagator:
    def __init__(self, con, structure: Structure):
        self.con = con
        self.cells = con.cells

    def propagate(self, cands, grid, changed) -> bool:  # pragma: no cover - abstract
        raise NotImplementedError


class SumBounds(Propagator):
    """sum(w_i * x_i) == total, by bounds: each term must fit what the others leave."""

    def __init__(self, con: Sum, structure):
        super().__init__(con, structure)
        self.weights = con.weights()
        self.total = con.total

    def propagate(self, cands, grid, changed):
        cells, weights, total = self.cells, self.weights, self.total
        while True:
            lows, highs = [], []
            for c, w in zip(cells, weights):
                d = cands[c] or grid[c]
                small, big = (d & -d).bit_length(), d.bit_length()
                lows.append(w * small if w > 0 else w * big)
                highs.append(w * big if w > 0 else w * small)
            low, high = sum(lows), sum(highs)
            if low > total or high < total:
                return False
            again = False
            for i, (c, w) in enumerate(zip(cells, weights)):
                if w == 0:
                    continue
                # w*x must lie in [total - (high - highs[i]), total - (low - lows[i])]
                a = total - (high - highs[i])
                b = total - (low - lows[i])
                if w > 0:
                    lo, hi = -(-a // w), b // w
                else:
                    lo, hi = -(-b // w), a // w
                d = cands[c] or grid[c]
                new = d & _range_mask(max(lo, 1), hi)
                if new != d:
                    if not new or not cands[c]:
                        return False
                    changed(c, new)
                    again = True
            if not again:
                return True


class DistinctSum(Propagator):
    """Sum of cells that must all differ (a killer cage): keep only the value
    sets that add up to the total and fit the current candidates."""

    def __init__(self, con: Sum, structure, combos):
        super().__init__(con, structure)
        self.combos = combos

    @staticmethod
    def combinations(con: Sum, structure: Structure):
        """The value sets of a distinct-value sum, or None when it does not apply."""
        cells, n = con.cells, structure.size
        if con.coeffs is not None and any(w != 1 for w in con.coeffs):
            return None
        if len(set(cells)) != len(cells) or len(cells) > n:
            return None
        if comb(n, len(cells)) > MAX_COMBINATIONS:
            return None
        peers = structure.peers
        if not all(b in peers[a] for a, b in itertools.combinations(cells, 2)):
            return None
        out = []
        for values in itertools.combinations(range(1, n + 1), len(cells)):
            if sum(values) == con.total:
                m = 0
                for v in values:
                    m |= 1 << (v - 1)
                out.append(m)
        return tuple(out)

    def propagate(self, cands, grid, changed):
        doms = [cands[c] or grid[c] for c in self.cells]
        union = 0
        for d in doms:
            union |= d
        support = 0
        for s in self.combos:
            if s & ~union:
                continue
            for d in doms:
                if not d & s:
                    break
            else:
                support |= s
        if not support:
            return False
        return all(keep(cands, grid, c, support, changed) for c in self.cells)


class LessChain(Propagator):
    """x0 < x1 < ...: bounds pass forward (raise lower bounds) and back (lower upper bounds)."""

    def propagate(self, cands, grid, changed):
        cells = self.cells
        low = 0  # every value must exceed the previous cell's smallest
        for c in cells:
            d = cands[c] or grid[c]
            new = d & ~((1 << low) - 1)
            if new != d:
                if not new or not cands[c]:
                    return False
                changed(c, new)
                d = new
            low = (d & -d).bit_length()
        high = None
        for c in reversed(cells):
            d = cands[c] or grid[c]
            if high is not None:
                new = d & ((1 << (high - 1)) - 1)
                if new != d:
                    if not new or not cands[c]:
                        return False
                    changed(c, new)
                    d = new
            high = d.bit_length()
        return True


class Table(Propagator):
    """Generalized arc consistency: a value stays only if some allowed tuple
    that fits every cell's candidates uses it."""

    def __init__(self, con: Allowed, structure):
        super().__init__(con, structure)
        self.rows = tuple(tuple(1 << (v - 1) for v in t) for t in con.tuples
                          if all(1 <= v <= structure.size for v in t))

    def propagate(self, cands, grid, changed):
        cells = self.cells
        doms = [cands[c] or grid[c] for c in cells]
        support = [0] * len(cells)
        found = False
        for row in self.rows:
            for b, d in zip(row, doms):
                if not b & d:
                    break
            else:
                found = True
                for i, b in enumerate(row):
                    support[i] |= b
        if not found:
            return False
        # keep() reads each cell afresh: a cell may be listed twice
        return all(keep(cands, grid, c, s, changed) for c, s in zip(cells, support))


class Distinct(Propagator):
    """All-different inside an alternative: a decided value leaves the other cells."""

    def propagate(self, cands, grid, changed):
        cells = self.cells
        again = True
        while again:
            again = False
            for a in cells:
                d = cands[a] or grid[a]
                if d & (d - 1):
                    continue
                for b in cells:
                    if b == a:
                        continue
                    e = cands[b] or grid[b]
                    if e & d:
                        if e == d or not cands[b]:
                            return False
                        changed(b, e & ~d)
                        again = True
        return True


class Within(Propagator):
    """A unary set inside an alternative (its givens)."""

    def __init__(self, con: InSet, structure):
        super().__init__(con, structure)
        self.mask = sum(1 << (v - 1) for v in con.values if 1 <= v <= structure.size)

    def propagate(self, cands, grid, changed):
        return all(keep(cands, grid, c, self.mask, changed) for c in self.cells)


class Disjunction(Propagator):
    """At least one alternative holds (constructive disjunction): each alternative's
    propagators run to a fixpoint on a copy of its cells' domains; an alternative that
    fails is out, and a cell keeps only the values some surviving alternative leaves
    it. Exact once every cell is decided, as each alternative's propagators are."""

    MEMO = 20_000  # domain tuples remembered: the search meets the same ones again

    def __init__(self, con: AnyOf, structure):
        super().__init__(con, structure)
        self.groups = [[_inner(c, structure) for c in group] for group in con.alternatives]
        self.memo: dict[tuple[int, ...], tuple[int, ...]] = {}

    def propagate(self, cands, grid, changed):
        cells = self.cells
        key = tuple(cands[c] or grid[c] for c in cells)
        union = self.memo.get(key)
        if union is None:
            union = self._union(key)
            if len(self.memo) < self.MEMO:
                self.memo[key] = union
        return all(keep(cands, grid, c, u, changed) for c, u in zip(cells, union))

    def _union(self, key: tuple[int, ...]) -> tuple[int, ...]:
        """Per cell, the values some alternative leaves it (0 everywhere: none holds)."""
        union = [0] * len(key)
        for group in self.groups:
            doms = dict(zip(self.cells, key))
            if _fixpoint(group, doms):
                for i, c in enumerate(self.cells):
                    union[i] |= doms[c]
        return tuple(union)


def _fixpoint(group, doms: dict[int, int]) -> bool:
    """Run an alternative's propagators over `doms` until nothing changes; False when
    one fails. Domains are read as open cells (`grid` all zero)."""
    copy = dict(doms)
    zero = _ZERO
    moved = [True]

    def changed(cell, mask):
        copy[cell] = mask
        moved[0] = True

    while moved[0]:
        moved[0] = False
        for prop in group:
            if not prop.propagate(copy, zero, changed):
                return False
    doms.update(copy)
    return True


class _Zero(dict):
    """`grid` for an alternative's copy: no cell placed."""

    def __missing__(self, cell):
        return 0


_ZERO = _Zero()


def _inner(con, structure: Structure):
    if isinstance(con, AllDifferent):
        return Distinct(con, structure)
    if isinstance(con, InSet):
        return Within(con, structure)
    return propagator_for(con, structure)


def propagator_for(con, structure: Structure) -> Propagator | RegularPass | RegionsPass:
    if isinstance(con, Sum):
        combos = DistinctSum.combinations(con, structure)
        if combos is not None:
            return DistinctSum(con, structure, combos)
        return SumBounds(con, structure)
    if isinstance(con, Less):
        return LessChain(con, structure)
    if isinstance(con, Allowed):
        return Table(con, structure)
    if isinstance(con, Regular):
        return RegularPass(con, structure)
    if isinstance(con, AnyOf):
        return Disjunction(con, structure)
    if isinstance(con, Regions):
        return RegionsPass(con, structure)
    raise TypeError(f"no native propagator for {con.kind} constraints")
