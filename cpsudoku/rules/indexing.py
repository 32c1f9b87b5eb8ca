"""Indexing: a cell's digit says where in its row, column or box another digit stands.

- column indexer at (r, c) holding v: the cell (r, v) holds c;
- row indexer at (r, c) holding v: the cell (v, c) holds r;
- box indexer at position p of its box (reading order, 1-based) holding v: position
  v of the same box holds p.

The global rule `159` makes columns 1, 5 and 9 column indexers (on other odd sizes:
the first, middle and last columns).

Places count from 1 and are read as digits, as ISS reads them: an indexer holds a
digit from 1 to the line's length (a 0, or a digit beyond the line, indexes nothing),
and an indexer whose own place is no digit (the last column of a 0-indexed grid)
can never hold.

Lowering: for each indexer cell and each other place v of its line, a two-cell
table "the indexer is not v, or place v holds the indexer's own position". The
converse needs no table: the line's digits differ, so place v holding the position
leaves the indexer no other value.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import ClassVar

from ..errors import ModelError, NeverHolds
from ..grid.constraints import Allowed, Constraint, InSet
from ..grid.geometry import Geometry
from . import cells as C
from .alphabet import refuse_unless, shown
from .element import ElementRule
from .globalrules import GlobalRule

KINDS = ("column", "row", "box")


def _tiling_box(geometry: Geometry) -> bool:
    """Whether the grid has rectangular boxes that tile it."""
    if geometry.box is None:
        return False
    h, w = geometry.box
    return geometry.size % h == 0 and geometry.width % w == 0


@dataclass(frozen=True)
class Indexers:
    """Cells that index along their `kind` of line (column, row or box)."""

    kind: str
    cells: tuple[C.CellRef, ...]


def _places(kind: str, cell: int, geometry: Geometry) -> tuple[int, list[int]]:
    """The indexer's own position (1-based) on the line it indexes, and that line's cells
    in position order."""
    n = geometry.width  # cells per row
    row, col = divmod(cell, n)
    if kind == "column":
        return col + 1, list(geometry.rows[row])
    if kind == "row":
        return row + 1, list(geometry.cols[col])
    assert geometry.box is not None  # checked before
    h, w = geometry.box
    top, left = row - row % h, col - col % w
    line = [(top + i) * n + left + j for i in range(h) for j in range(w)]
    return line.index(cell) + 1, line


@cache  # one set of tables per alphabet and place, shared by every indexer: built once
def _tables(digits: range, places: int, own: int) -> dict[int, tuple[tuple[int, int], ...]]:
    """Per place v that a digit can name: the (indexer, cell at v) digit pairs allowed."""
    return {v: tuple((a, b) for a in digits for b in digits if a != v or b == own)
            for v in range(1, places + 1) if v != own and v in digits}


def check_indexer(kind: str, cell: int, geometry: Geometry, label: str) -> None:
    """Refuse an indexer whose own place is no digit: no cell could hold it."""
    own, _ = _places(kind, cell, geometry)
    if own not in geometry.digits:
        raise NeverHolds(f"{label}: its place {own} is not one of the digits "
                         f"{shown(geometry.digits)}, so no cell can index it")


def indexing_constraints(kind: str, cell: int, geometry: Geometry,
                         label: str) -> Iterable[Constraint]:
    own, line = _places(kind, cell, geometry)
    digits = geometry.digits
    places = frozenset(d for d in digits if 1 <= d <= len(line))
    if len(places) < len(digits):  # a digit naming no place of the line
        yield InSet((cell,), values=places, label=label)
    for v, table in _tables(digits, len(line), own).items():
        yield Allowed((cell, line[v - 1]), table, label=label)


class Indexing(ElementRule):
    any_shape: ClassVar[bool] = True  # its cells are named: any R x C grid
    name: ClassVar[str] = "indexing"
    reads_houses: ClassVar[bool] = True  # an indexer counts on its row holding each digit
    noun: ClassVar[str] = "indexer"
    key: ClassVar[str] = "indexing"
    meaning: ClassVar[str] = ("column indexer at (r, c) holding v: (r, v) holds c; row "
                              "indexer: (v, c) holds r; box indexer at position p: position "
                              "v of its box holds p")

    def __init__(self, groups: Iterable):
        super().__init__(tuple(g if isinstance(g, Indexers) else Indexers(g[0], C.refs(g[1]))
                               for g in groups))

    def describe(self) -> str:
        count = sum(len(g.cells) for g in self.elements)
        return f"indexing ({count} cells): {self.meaning}"

    def data(self) -> dict:
        return {self.key: [{"kind": g.kind, "cells": C.names(g.cells)}
                           for g in self.elements]}

    def label(self, i, group):
        return f"{group.kind} indexers {i}"

    def check_element(self, i, group, geometry):
        what = self.label(i, group)
        if group.kind not in KINDS:
            raise ModelError(f"indexers {i}: kind must be one of {', '.join(KINDS)}, "
                             f"not {group.kind!r}")
        if not group.cells:
            raise ModelError(f"{what}: no cells listed")
        if group.kind == "box" and not _tiling_box(geometry):
            shape = "irregular regions" if geometry.box is None else "boxes that do not tile"
            raise ModelError(f"{what}: box indexing needs rectangular boxes, not {shape}")
        cells = C.resolve(group.cells, geometry, what)
        for cell in cells:
            check_indexer(group.kind, cell, geometry,
                          f"{group.kind} indexer {geometry.cell_name(cell)}")
        return cells

    def element_constraints(self, i, group, cells, geometry):
        for cell in cells:
            label = f"{group.kind} indexer {geometry.cell_name(cell)}"
            yield from indexing_constraints(group.kind, cell, geometry, label)


class Indexing159(GlobalRule):
    """The global rule `159`: columns 1, 5 and 9 are column indexers."""

    name: ClassVar[str] = "159"
    reads_houses: ClassVar[bool] = True  # an indexer counts on its row holding each digit
    aliases: ClassVar[tuple[str, ...]] = ("one-five-nine",)
    description: ClassVar[str] = (
        "columns 1, 5 and 9 index their rows: the digit in rXc1 is the column of row X "
        "holding 1, rXc5 that of 5, rXc9 that of 9 (other odd sizes: the first, middle and "
        "last columns)")

    @staticmethod
    def columns(size: int) -> tuple[int, ...]:
        return (1, (size + 1) // 2, size)

    def validate(self, geometry: Geometry) -> None:
        n = geometry.size
        if n % 2 == 0:
            raise ModelError(f"rule 159 needs an odd size, with a middle column, not {n}x{n}")
        # the last column's number must be a digit for its indexers to name it
        refuse_unless(geometry.first == 1, "159", f"digits from 1 (a digit {n} for column "
                      f"{n})", geometry)

    def build(self, geometry):
        self.validate(geometry)
        n = geometry.size
        for col in self.columns(n):
            for row in range(n):
                cell = row * n + col - 1
                yield from indexing_constraints("column", cell, geometry,
                                                f"159 indexer {geometry.cell_name(cell)}")
