"""Distinct counts: a control cell's digit is how many different digits a group of cells
holds, with the meaning the Interactive Sudoku Solver gives its CountDistinct.

Distinct region counts count the group's cells by region instead: the digit is how many
different regions of a chaos construction (found while solving, see `chaos.py`) the
cells lie in, as ISS counts its region cells `CC<k>`.

Lowering: one `Regular` per group, read over the counted cells and then the control
cell. The state is the set of values read; the control's digit must be that set's
size. The sets never hold more values than cells, so a group of m cells over V digits
has the subsets of the digits of size m or less, and an end (512 states for 8 cells on
9x9); a group that would need more than MAX_STATES is refused by name (only on grids
larger than 16x16). The control cell may be one of the counted cells.

A count is the control's digit itself (as ISS reads it): on a 0-indexed grid the
control is never 0. Region counts read region labels 1..N, not digits, beside the
control's digit.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from math import comb
from typing import ClassVar

from ..errors import ModelError
from ..grid.automaton import Automaton
from ..grid.constraints import Regular
from ..grid.geometry import Geometry
from ..grid.variables import Layout, Variables
from . import cells as C
from .chaos import LABELS, labels, own_layout
from .element import ElementRule

MAX_STATES = 200_000  # an automaton larger than this is refused (a group too wide)


@dataclass(frozen=True)
class DistinctCount:
    """A control cell and the cells whose different digits (or regions) it counts."""

    cell: C.Ref
    cells: tuple[C.CellRef, ...]


def states_needed(count: int, length: int) -> int:
    """How many states `distinct_values` has over `count` symbols."""
    return sum(comb(count, j) for j in range(min(length, count) + 1)) + 1


@cache
def distinct_values(symbols: range, length: int, counts: range | None = None) -> Automaton:
    """`length` values, then the control's: accepted when the control is the number of
    different values among the others. A state is the set of values read (a bitmask);
    from any of them the control may be read, ending the word when it is the set's
    size. The word's length is fixed by its cells, so the state need not count the
    values read: an end read too early has no way on (about a fifth of the states of
    counting them, built with no search: 27 ms to 3 ms for eight cells on 9x9).
    `symbols` are what the counted cells hold (digits, or region labels), `counts` the
    control's digits (`symbols` unless given)."""
    counts = symbols if counts is None else counts
    masks = sorted((m for m in range(1 << len(symbols)) if m.bit_count() <= length),
                   key=int.bit_count)
    number = {m: i for i, m in enumerate(masks)}  # the empty set first: the start
    done = len(masks)
    transitions = []
    for m, i in number.items():
        count = m.bit_count()
        for bit, v in enumerate(symbols):
            grown = number.get(m | 1 << bit)
            if grown is not None:
                transitions.append((i, v, grown))
        if count and count in counts:
            transitions.append((i, count, done))
    return Automaton(0, frozenset({done}), tuple(transitions))


class DistinctCounts(ElementRule):
    name: ClassVar[str] = "distinct-counts"
    noun: ClassVar[str] = "distinct count"
    key: ClassVar[str] = "distinct_counts"
    meaning: ClassVar[str] = ("the digit in the control cell is how many different digits "
                              "the listed cells hold")

    def __init__(self, elements: Iterable[DistinctCount]):
        super().__init__(tuple(elements))

    def describe(self) -> str:
        return f"{self.key.replace('_', ' ')} ({len(self.elements)}): {self.meaning}"

    def data(self) -> dict:
        return {self.key: [{"cell": C.name(e.cell), "cells": C.names(e.cells)}
                           for e in self.elements]}

    def label(self, i, element):
        return f"{self.noun} {i} at {C.name(element.cell)}"

    def check_element(self, i, element, geometry):
        """The counted cells, then the control cell."""
        what = self.label(i, element)
        if not element.cells:
            raise ModelError(f"{what} lists no cells to count")
        control = C.resolve([element.cell], geometry, what)
        counted = C.resolve(element.cells, geometry, what)
        need = states_needed(len(self.symbols(geometry)), len(counted))
        if need > MAX_STATES:
            raise ModelError(f"{what}: {len(counted)} cells on {geometry.size}x{geometry.size} "
                             f"need an automaton of {need} states (at most {MAX_STATES})")
        return counted + control

    def symbols(self, geometry: Geometry) -> range:
        """What the counted cells hold: digits."""
        return geometry.digits

    def element_constraints(self, i, element, cells, geometry):
        yield Regular(cells, automaton=distinct_values(self.symbols(geometry), len(cells) - 1,
                                                       geometry.digits),
                      label=self.label(i, element))


class DistinctRegionCounts(DistinctCounts):
    """The chaos construction's clue: the cells' region labels are counted."""

    name: ClassVar[str] = "distinct-region-counts"
    noun: ClassVar[str] = "distinct region count"
    key: ClassVar[str] = "distinct_region_counts"
    meaning: ClassVar[str] = ("the digit in the control cell is how many different regions "
                              "the listed cells lie in (chaos rule)")

    def variables(self, geometry: Geometry) -> tuple[Variables, ...]:
        return (labels(geometry),)

    def symbols(self, geometry: Geometry) -> range:
        """What the counted cells hold: region labels 1..N."""
        return range(1, geometry.size + 1)

    def constraints(self, geometry: Geometry, layout: Layout | None = None) -> tuple:
        first_label = (layout or own_layout(self, geometry)).start(LABELS)
        out = []
        for i, element in enumerate(self.elements, 1):
            cells = self.check_element(i, element, geometry)
            counted = tuple(first_label + c for c in cells[:-1])  # the cells' labels
            out.extend(self.element_constraints(i, element, counted + cells[-1:], geometry))
        return tuple(out)


DISTINCT_RULES: tuple[type[DistinctCounts], ...] = (DistinctCounts, DistinctRegionCounts)

__all__ = ["DISTINCT_RULES", "MAX_STATES", "DistinctCount", "DistinctCounts",
           "DistinctRegionCounts", "distinct_values"]
