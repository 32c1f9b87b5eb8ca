"""Chaos construction: the regions are part of the solution.

The global rule `chaos` gives every cell a region label (an auxiliary variable,
see `grid.variables`) and one `Regions` constraint: N orthogonally connected
regions of N cells, each holding every digit once. Two clue kinds speak of those
regions, both lowered to tables over the labels and yes/no helpers (is this cell
in the start's region, or in its run?), tied to the digit by a sum (counts) or one
automaton over the digit and the helpers (arrows, `_runs`):

- chaos arrows (`chaos_arrows`): the control cell's digit is the length of the run
  of cells that share the start cell's region along each arm from it (the start
  counted once over all arms); no arms: the four directions from the control cell;
- chaos counts (`chaos_counts`): the control cell's digit counts the listed cells
  in the first listed cell's region (first included); no cells: the 3x3 block
  around the control cell, the control first.

`offset = 1` leaves the start (the first cell) out of the number.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar, NamedTuple

from ..errors import ModelError
from ..grid.automaton import Automaton
from ..grid.constraints import Allowed, Constraint, Regions, Regular, Sum
from ..grid.geometry import Geometry
from ..grid.variables import Layout, Variables, layout
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
    return layout(geometry.ncells, rule.variables(geometry))


class Chaos:
    """The global rule: regions found while solving."""

    name: ClassVar[str] = "chaos"
    aliases: ClassVar[tuple[str, ...]] = ("chaos-construction", "chaosconstruction")

    def __repr__(self):
        return "Chaos()"

    def describe(self) -> str:
        return ("chaos construction: the solution also splits the grid into N orthogonally "
                "connected regions of N cells, each holding every digit once (cpsat, native)")

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


# A helper says yes or no as 2 or 1, not 1 or 0: the native engine's values
# start at 1, and a sum of helpers only shifts by their count.
NO, YES = 1, 2


def _same(size: int) -> tuple[tuple[int, int, int], ...]:
    """(label a, label b, YES if equal else NO)."""
    return tuple((a, b, YES if a == b else NO) for a in range(1, size + 1)
                 for b in range(1, size + 1))


def _run(size: int) -> tuple[tuple[int, int, int, int], ...]:
    """(start's label, cell's label, previous cell in the run?, this cell in the run?)."""
    return tuple((a, b, p, YES if p == YES and a == b else NO) for a in range(1, size + 1)
                 for b in range(1, size + 1) for p in (NO, YES))


def _runs(size: int, arms: tuple[int, ...], offset: int) -> Automaton:
    """The digit, then each arm's helpers in order: the digit is 1 - offset plus the
    helpers saying yes, and along an arm they say yes only while its run goes on.
    One automaton for the sum and the runs, so that a digit decides at once which
    helpers say yes (a sum alone leaves them open until the labels are known)."""
    firsts = {sum(arms[:i]) for i in range(len(arms))}
    total = sum(arms)

    def step(state, value):
        if state is None:  # the digit: how many helpers must say yes
            left = value - 1 + offset
            return (0, left, True) if 0 <= left <= total else None
        at, left, open_ = state
        if at == total or value not in (NO, YES):
            return None
        open_ = open_ or at in firsts
        if value == YES:
            return (at + 1, left - 1, True) if open_ and left else None
        return at + 1, left, False

    return Automaton.build(None, step, lambda state: state is not None and state[0] == total
                           and state[1] == 0, range(1, size + 1))


class _ChaosClues(ElementRule):
    """Clues over the chaos labels: a control cell, a list of cells, an offset."""

    key: ClassVar[str]
    meaning: ClassVar[str]

    def helpers(self, element) -> int:
        """How many yes/no helper variables one element needs."""
        raise NotImplementedError

    def clue(self, i: int, element, cells, geometry: Geometry, first_label: int,
             helpers) -> Iterable[Constraint]:
        """One clue's tables and sum; `helpers` hands out its yes/no variables."""
        raise NotImplementedError

    def variables(self, geometry: Geometry) -> tuple[Variables, ...]:
        count = sum(self.helpers(e) for e in self.expanded(geometry))
        return (labels(geometry), Variables(self.key, count, frozenset((NO, YES)),
                                            f"the {self.noun}s' helpers", derived=True))

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
        helpers = iter(layout.indices(self.key))
        first_label = layout.start(LABELS)
        for i, element in enumerate(self.expanded(geometry), 1):
            cells = self.check_element(i, element, geometry)
            out.extend(self.clue(i, element, cells, geometry, first_label, helpers))
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

    def helpers(self, element) -> int:
        return sum(len(arm) - 1 for arm in element.cells)

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

    def clue(self, i, element, cells, geometry, first_label, helpers):
        n, what = geometry.size, self.label(i, element)
        start = cellrefs.resolve([element.cells[0][0]], geometry, what)[0]
        run, counted, lengths = _run(n), [], []
        for arm in element.cells:
            lengths.append(len(arm) - 1)
            previous = None
            for cell in cellrefs.resolve(arm, geometry, what)[1:]:
                helper = next(helpers)
                if previous is None:  # the first step: in the run when it shares the region
                    yield Allowed((first_label + start, first_label + cell, helper),
                                  _same(n), label=what)
                else:
                    yield Allowed((first_label + start, first_label + cell, previous, helper),
                                  run, label=what)
                counted.append(helper)
                previous = helper
        yield Regular(cells + tuple(counted),
                      automaton=_runs(n, tuple(lengths), self._offset(i, element)), label=what)


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

    def helpers(self, element) -> int:
        return len(element.cells) - 1

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

    def clue(self, i, element, cells, geometry, first_label, helpers):
        n, what = geometry.size, self.label(i, element)
        counted = cellrefs.resolve(element.cells, geometry, what)
        used = []
        for cell in counted[1:]:
            helper = next(helpers)
            yield Allowed((first_label + counted[0], first_label + cell, helper), _same(n),
                          label=what)
            used.append(helper)
        yield Sum(tuple(used) + cells, total=self._offset(i, element) - 1 + len(used),
                  coeffs=(1,) * len(used) + (-1,), label=what)


CHAOS_RULES = (ChaosArrows, ChaosCounts)
