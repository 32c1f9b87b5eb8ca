"""Propagators for the constraint kinds beyond all-different.

Each propagator narrows candidate masks in place and returns False when the
constraint cannot be satisfied. A cell's current domain is `cands[c]` while it
is open and `grid[c]` (its value's bit) once placed; `narrow` reports a domain
change through `changed(cell, new_mask)`, which the search owns.
"""

from __future__ import annotations

import itertools
from math import comb

from ..grid.constraints import Allowed, Less, Regular, Sum
from .automaton import RegularPass
from .plan import Structure

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
        for c, d in zip(self.cells, doms):
            new = d & support
            if new != d:
                if not new or not cands[c]:
                    return False
                changed(c, new)
        return True


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
        for c, s in zip(cells, support):
            d = cands[c] or grid[c]  # read afresh: a cell may be listed twice
            new = d & s
            if new != d:
                if not new or not cands[c]:
                    return False
                changed(c, new)
        return True


def propagator_for(con, structure: Structure) -> Propagator | RegularPass:
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
    raise TypeError(f"no native propagator for {con.kind} constraints")
