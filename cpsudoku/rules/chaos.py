"""Chaos construction: the regions are part of the solution.

The global rule `chaos` gives every cell a region label (an auxiliary variable,
see `grid.variables`) and one `Regions` constraint: N orthogonally connected
regions of N cells, each holding different digits (every digit once when there are
N; as ISS, regions keep N cells when the grid holds more digits). Two clue kinds speak of those
regions, each one `RegionRuns` constraint over its control digit and the labels
it speaks of (`_runs`): a regular constraint whose automaton every backend reads,
and which the native engine propagates per possible region of the start (a digit
no label of it allows goes), with no helper variable:

- chaos arrows (`chaos_arrows`): the control cell's digit is the length of the run
  of cells that share the start cell's region along each arm from it (the start
  counted once over all arms); no arms: the four directions from the control cell;
- chaos counts (`chaos_counts`): the control cell's digit counts the listed cells
  in the first listed cell's region (first included); no cells: the 3x3 block
  around the control cell, the control first.

`offset = 1` leaves the start (the first cell) out of the number.

- same regions (`same_regions`): each group of listed cells lies in one region (ISS's
  same-value sets over region cells): its first cell's label equals each other's, a
  two-cell table over the labels.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar, NamedTuple

from ..errors import ModelError
from ..grid.constraints import Allowed, Constraint, RegionRuns, Regions
from ..grid.geometry import Geometry
from ..grid.variables import Layout, Variables, grid_layout
from . import cells as cellrefs
from .element import ElementRule

LABELS = "chaos regions"


class ChaosClue(NamedTuple):
    """One clue: its control cell, offset, and cells (an arrow's: its arms)."""

    cell: cellrefs.Ref
    offset: int = 0
    cells: tuple = ()  # counts: cell refs; arrows: arms, each a tuple of cell refs


def labels(geometry: Geometry) -> Variables:
    n = geometry.size
    return Variables(LABELS, geometry.ncells, frozenset(range(1, n + 1)),
                     "the chaos construction's region labels")


def own_layout(rule, geometry: Geometry) -> Layout:
    """The layout of the rule's variables alone (a puzzle lays out every rule's)."""
    return grid_layout(geometry, rule.variables(geometry))


class Chaos:
    """The global rule: regions found while solving."""

    name: ClassVar[str] = "chaos"
    reads_houses: ClassVar[bool] = True  # its regions join the rows and columns as houses
    aliases: ClassVar[tuple[str, ...]] = ("chaos-construction", "chaosconstruction")

    def __repr__(self):
        return "Chaos()"

    def describe(self) -> str:
        return ("chaos construction: the solution also splits the grid into N orthogonally "
                "connected regions of N cells, each holding different digits (every backend "
                "but naive and dlx)")

    def validate(self, geometry: Geometry) -> None:
        if geometry.size < 2:
            raise ModelError("chaos: a 1x1 grid has no regions to find")

    def variables(self, geometry: Geometry) -> tuple[Variables, ...]:
        return (labels(geometry),)

    def constraints(self, geometry: Geometry,
                    layout: Layout | None = None) -> tuple[Regions, ...]:
        layout = layout or own_layout(self, geometry)
        grid = tuple(range(geometry.ncells))
        return (Regions(grid + tuple(layout.indices(LABELS)), width=geometry.size,
                        label="chaos regions"),)


def _near(start: int, arms: list[tuple[int, ...]], width: int) -> frozenset[int]:
    """The arms whose first cells are the start's orthogonal neighbours, when every
    neighbour is one: a region of two or more cells is connected, so the start
    shares its region with one of them (ISS's "enclosed first cell"); else none."""
    r, c = divmod(start, width)
    around = {start + d for d, ok in ((-width, r > 0), (width, r < width - 1),
                                      (-1, c > 0), (1, c < width - 1)) if ok}
    firsts = {arm[0]: a for a, arm in enumerate(arms)}
    if not around or not around <= firsts.keys():
        return frozenset()
    return frozenset(firsts[cell] for cell in around)


class _ChaosClues(ElementRule):
    """Clues over the chaos labels: a control cell, a list of cells, an offset."""

    key: ClassVar[str]
    meaning: ClassVar[str]

    def clue(self, i: int, element, cells, geometry: Geometry,
             first_label: int) -> Iterable[Constraint]:
        """One clue: an automaton read along its control digit and the labels."""
        raise NotImplementedError

    def variables(self, geometry: Geometry) -> tuple[Variables, ...]:
        return (labels(geometry),)

    def validate(self, geometry: Geometry) -> None:
        for i, element in enumerate(self.expanded(geometry), 1):
            self.check_element(i, element, geometry)

    def expanded(self, geometry: Geometry) -> list:
        return [self.expand(e, geometry) for e in self.elements]

    def expand(self, element, geometry: Geometry):
        return element

    def constraints(self, geometry: Geometry,
                    layout: Layout | None = None) -> tuple:
        layout = layout or own_layout(self, geometry)
        out: list = []
        first_label = layout.start(LABELS)
        for i, element in enumerate(self.expanded(geometry), 1):
            cells = self.check_element(i, element, geometry)
            out.extend(self.clue(i, element, cells, geometry, first_label))
        return tuple(out)

    def _offset(self, i: int, element) -> int:
        offset = element.offset
        if offset not in (0, 1):
            raise ModelError(f"{self.label(i, element)}: offset must be 0 or 1, not {offset!r}")
        return offset

    def label(self, i: int, element) -> str:
        return f"{self.noun} {i} at {cellrefs.name(element.cell)}"


class ChaosArrows(_ChaosClues):
    name: ClassVar[str] = "chaos-arrows"
    noun: ClassVar[str] = "chaos arrow"
    key: ClassVar[str] = "chaos_arrows"
    meaning: ClassVar[str] = ("the digit is the length of the run of cells in the start "
                              "cell's region along the arms (chaos rule)")

    def describe(self) -> str:
        return f"chaos arrows ({len(self.elements)})"

    def data(self) -> dict:
        return {self.key: [{"cell": cellrefs.name(e.cell), "offset": e.offset,
                            **({"arms": [cellrefs.names(arm) for arm in e.cells]}
                               if e.cells else {})} for e in self.elements]}

    def expand(self, element, geometry: Geometry):
        if element.cells:
            return element
        n = geometry.size
        r, c = element.cell
        arms = []
        for dr, dc in ((0, -1), (0, 1), (-1, 0), (1, 0)):  # left, right, up, down
            arm, (y, x) = [], (r, c)
            while 1 <= y <= n and 1 <= x <= n:
                arm.append((y, x))
                y, x = y + dr, x + dc
            arms.append(tuple(arm))
        return element._replace(cells=tuple(arms))

    def check_element(self, i, element, geometry):
        what = self.label(i, element)
        self._offset(i, element)
        control = cellrefs.resolve([element.cell], geometry, what)
        arms = element.cells
        if not arms:
            raise ModelError(f"{what}: no arm")
        starts = {arm[0] for arm in arms if arm}
        if len(starts) != 1 or not all(arms):
            raise ModelError(f"{what}: every arm must start at the same cell")
        for arm in arms:
            cellrefs.resolve(arm, geometry, what)
        return control

    def clue(self, i, element, cells, geometry, first_label):
        what = self.label(i, element)
        start = cellrefs.resolve([element.cells[0][0]], geometry, what)[0]
        arms = [cellrefs.resolve(arm, geometry, what)[1:] for arm in element.cells]
        arms = [arm for arm in arms if arm]  # an arm of the start alone adds nothing
        yield _runs(cells[0], start, arms, geometry, first_label, self._offset(i, element),
                    what)


class ChaosCounts(_ChaosClues):
    name: ClassVar[str] = "chaos-counts"
    noun: ClassVar[str] = "chaos count"
    key: ClassVar[str] = "chaos_counts"
    meaning: ClassVar[str] = ("the digit counts the listed cells in the first listed cell's "
                              "region (chaos rule)")

    def describe(self) -> str:
        return f"chaos counts ({len(self.elements)})"

    def data(self) -> dict:
        return {self.key: [{"cell": cellrefs.name(e.cell), "offset": e.offset,
                            **({"cells": cellrefs.names(e.cells)} if e.cells else {})}
                           for e in self.elements]}

    def expand(self, element, geometry: Geometry):
        if element.cells:
            return element
        n = geometry.size
        r, c = element.cell
        around = [(r, c)] + [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                             if (dr or dc) and 1 <= r + dr <= n and 1 <= c + dc <= n]
        return element._replace(cells=tuple(around))

    def check_element(self, i, element, geometry):
        what = self.label(i, element)
        self._offset(i, element)
        control = cellrefs.resolve([element.cell], geometry, what)
        cellrefs.resolve(element.cells, geometry, what)
        return control

    def clue(self, i, element, cells, geometry, first_label):
        what = self.label(i, element)
        counted = cellrefs.resolve(element.cells, geometry, what)
        yield _runs(cells[0], counted[0], [(cell,) for cell in counted[1:]], geometry,
                    first_label, self._offset(i, element), what)


class SameRegions(_ChaosClues):
    name: ClassVar[str] = "same-regions"
    noun: ClassVar[str] = "same-region group"
    key: ClassVar[str] = "same_regions"
    meaning: ClassVar[str] = "the listed cells lie in one region (chaos rule)"

    def describe(self) -> str:
        return f"same regions ({len(self.elements)}): each group's cells lie in one region"

    def data(self) -> dict:
        return {self.key: [cellrefs.names(group) for group in self.elements]}

    def label(self, i: int, element) -> str:
        return f"{self.noun} {i} at {cellrefs.name(element[0])}" if element else \
            f"{self.noun} {i}"

    def check_element(self, i, element, geometry):
        what = self.label(i, element)
        cells = cellrefs.resolve(element, geometry, what)
        if len(set(cells)) < 2:
            raise ModelError(f"{what}: two cells or more")
        return cells

    def clue(self, i, element, cells, geometry, first_label):
        equal = tuple((v, v) for v in range(1, geometry.size + 1))  # labels 1..N
        for cell in dict.fromkeys(cells[1:]):
            if cell != cells[0]:
                yield Allowed((first_label + cells[0], first_label + cell), equal,
                              label=self.label(i, element))


def _runs(digit: int, start: int, arms: list[tuple[int, ...]], geometry: Geometry,
          first_label: int, offset: int, what: str) -> RegionRuns:
    """A clue's constraint: the digit, then the start's label and the arms' labels."""
    return RegionRuns((digit, first_label + start)
                      + tuple(first_label + cell for arm in arms for cell in arm),
                      size=geometry.size, arms=tuple(len(arm) for arm in arms), offset=offset,
                      near=_near(start, arms, geometry.size), label=what)


CHAOS_RULES = (ChaosArrows, ChaosCounts, SameRegions)
