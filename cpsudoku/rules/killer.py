"""Killer cages and little killers: sums over groups of cells."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from ..errors import ModelError, NeverHolds
from ..grid.constraints import AllDifferent, Sum
from . import cells as C
from .alphabet import digit_range, shown
from .element import ElementRule


def sum_range(k: int, digits: int | range, distinct: bool) -> tuple[int, int]:
    """Smallest and largest total of k digits (all different, or repeats allowed);
    `digits` a range, or n for 1..n."""
    digits = digit_range(digits)
    if distinct:
        return sum(digits[:k]), sum(digits[len(digits) - k:])
    return k * digits[0], k * digits[-1]


MAX_WEIGHT = 100  # as ISS bounds a sum's coefficients


@dataclass(frozen=True)
class Cage:
    """Cells summing to `total` (None: no total shown); digits differ unless repeats
    allowed. `weights` (one whole number a cell) makes the sum weighted: a cell counted
    twice, or subtracted."""

    cells: tuple[C.CellRef, ...]
    total: int | None = None
    distinct: bool = True
    weights: tuple[int, ...] | None = None

    @classmethod
    def of(cls, total: int | None, cells, distinct: bool = True, weights=None) -> Cage:
        return cls(C.refs(cells), None if total is None else int(total), bool(distinct),
                   None if weights is None else tuple(int(w) for w in weights))


class Killer(ElementRule):
    """Killer cages: each cage's digits sum to its total and (by default) never repeat."""
    any_shape: ClassVar[bool] = True  # its cells are named: any R x C grid

    name: ClassVar[str] = "killer"
    noun: ClassVar[str] = "cage"

    def __init__(self, cages: Iterable[Cage]):
        super().__init__(tuple(cages))

    def describe(self) -> str:
        return f"killer cages ({len(self.elements)}): digits in a cage sum to its total"

    def data(self):
        cages = []
        for cage in self.elements:
            entry = {} if cage.total is None else {"sum": cage.total}
            entry["cells"] = C.names(cage.cells)
            if not cage.distinct:
                entry["repeats"] = True
            if cage.weights is not None:
                entry["weights"] = list(cage.weights)
            cages.append(entry)
        return {"cages": cages}

    def label(self, i: int, cage: Cage) -> str:
        shown = f" (sum {cage.total})" if cage.total is not None else ""
        first = f" at {C.name(cage.cells[0])}" if cage.cells else ""
        return f"cage {i}{shown}{first}"

    def check_element(self, i, cage, geometry):
        what = self.label(i, cage)
        if not cage.cells:
            raise ModelError(f"{what} has no cells")
        cells = C.resolve(cage.cells, geometry, what)
        digits, k = geometry.digits, len(cells)
        if cage.distinct and k > len(digits):
            raise ModelError(f"{what}: {k} cells cannot hold different digits "
                             f"{shown(digits)}")
        if cage.weights is not None:
            self._check_weights(what, cage, k)
        elif cage.total is not None:
            lo, hi = sum_range(k, digits, cage.distinct)
            if not lo <= cage.total <= hi:
                kind = "different digits" if cage.distinct else "digits"
                raise NeverHolds(f"{what}: {k} {kind} from {shown(digits)} sum to "
                                 f"{lo}..{hi}, not {cage.total}")
        return cells

    @staticmethod
    def _check_weights(what: str, cage: Cage, k: int) -> None:
        assert cage.weights is not None
        if cage.total is None:
            raise ModelError(f"{what}: weights need a sum")
        if len(cage.weights) != k:
            raise ModelError(f"{what}: {len(cage.weights)} weights for {k} cells")
        bad = next((w for w in cage.weights if not 0 < abs(w) <= MAX_WEIGHT), None)
        if bad is not None:
            raise ModelError(f"{what}: a weight is a whole number from -{MAX_WEIGHT} to "
                             f"{MAX_WEIGHT} other than 0, not {bad}")

    def outlines(self, geometry):
        """(cells, clue) per cage, for drawing the cage layout under a solution."""
        for i, cage in enumerate(self.elements, 1):
            cells = C.resolve(cage.cells, geometry, self.label(i, cage))
            yield cells, "" if cage.total is None else str(cage.total)

    def element_constraints(self, i, cage, cells, geometry):
        label = self.label(i, cage)
        if cage.total is not None:
            yield Sum(cells, total=cage.total, coeffs=cage.weights, label=label)
        if cage.distinct and len(cells) > 1:
            yield AllDifferent(cells, label=label)


DIRECTIONS = {"DR": (1, 1), "DL": (1, -1), "UR": (-1, 1), "UL": (-1, -1)}


@dataclass(frozen=True)
class Clue:
    """A little-killer clue: the sum along a diagonal, digits may repeat.

    Either the clue's position outside the grid and its direction (DR, DL, UR,
    UL: down-right ...), or the diagonal's cells explicitly.
    """

    total: int
    at: C.Ref | None = None
    direction: str | None = None
    cells: tuple[C.CellRef, ...] = ()

    @classmethod
    def of(cls, total: int, at=None, direction: str | None = None, cells=()) -> Clue:
        return cls(int(total), None if at is None else C.place(at, "little killer clue"),
                   None if direction is None else str(direction).upper(), C.refs(cells))

    def diagonal(self, size: int) -> tuple[C.CellRef, ...]:
        if self.cells or self.at is None:
            return self.cells
        assert self.direction is not None  # validate() requires a known direction
        dr, dc = DIRECTIONS[self.direction]
        r, c = self.at[0] + dr, self.at[1] + dc
        out = []
        while 1 <= r <= size and 1 <= c <= size:
            out.append((r, c))
            r, c = r + dr, c + dc
        return tuple(out)


class LittleKiller(ElementRule):
    """Little killer clues: digits along a diagonal (repeats allowed) sum to the clue."""

    name: ClassVar[str] = "little-killer"
    noun: ClassVar[str] = "little killer"

    def __init__(self, clues: Iterable[Clue]):
        super().__init__(tuple(clues))

    def describe(self) -> str:
        return (f"little killer clues ({len(self.elements)}): the digits along each "
                f"marked diagonal sum to the clue")

    def data(self):
        return {"little_killers": [
            {"sum": c.total, "cells": C.names(c.cells)} if c.cells or c.at is None
            else {"sum": c.total, "clue": C.name(c.at), "direction": c.direction}
            for c in self.elements]}

    def label(self, i: int, clue: Clue) -> str:
        where = clue.at or (clue.cells[0] if clue.cells else None)
        return f"little killer {i} (sum {clue.total})" + (f" at {C.name(where)}" if where else "")

    def check_element(self, i, clue, geometry):
        what = self.label(i, clue)
        n = geometry.size
        if not clue.cells:
            if clue.at is None or clue.direction not in DIRECTIONS:
                raise ModelError(f"{what}: give its cells, or its position and a direction "
                                 f"({', '.join(DIRECTIONS)})")
            if 1 <= clue.at[0] <= n and 1 <= clue.at[1] <= n:
                raise ModelError(f"{what}: the clue must sit outside the grid")
        diagonal = clue.diagonal(n)
        if not diagonal:
            raise ModelError(f"{what}: its diagonal misses the {n}x{n} grid")
        cells = C.resolve(diagonal, geometry, what)
        steps = {(b[0] - a[0], b[1] - a[1]) for a, b in zip(diagonal, diagonal[1:])}
        if len(steps) > 1 or (steps and steps.pop() not in DIRECTIONS.values()):
            raise ModelError(f"{what}: its cells do not follow one diagonal")
        lo, hi = sum_range(len(cells), geometry.digits, distinct=False)
        if not lo <= clue.total <= hi:
            raise ModelError(f"{what}: {len(cells)} digits from {shown(geometry.digits)} sum "
                             f"to {lo}..{hi}, not {clue.total}")
        return cells

    def element_constraints(self, i, clue, cells, geometry):
        yield Sum(cells, total=clue.total, label=self.label(i, clue))
