"""Doppelganger (ISS's rule): on an NxN grid of the digits 0..N, every row, column and
box holds a 0 and all but one of 1..N; no two rows (columns, boxes) miss the same
digit; and at each 0, the digits its row, column and box miss are three different ones.

The missing digits are the puzzle's extra cells (cells outside the grid, named as ISS
names them, so that lines and clues may run through them): `DGC1..DGCn` beside the
rows (DGC i is the digit row i misses), `DGR1..DGRn` below the columns (DGR j: column
j's), `DGB1..DGBk` for the boxes. A row and its missing digit are N + 1 different
digits, so the row holds every other one, its 0 among them; the missing digits of the
rows are 1..N once each (so are the columns' and the boxes'); and an automaton per grid
cell reads it and its houses' missing digits: "this cell is 0, so those differ".
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import ClassVar

from ..errors import ModelError
from ..grid.automaton import Automaton
from ..grid.constraints import AllDifferent, Constraint, InSet, Regular
from ..grid.geometry import Geometry, box_for, has_box
from .globalrules import GlobalRule


def doppelganger_cells(rows: int, cols: int) -> list[str]:
    """The extra cells' names on a rows x cols grid: DGR (one a column), DGC (one a
    row), DGB (one a default box of max(R, C) cells, none where no boxes tile it)."""
    n = max(rows, cols)
    box = box_for(rows, cols, n) if rows != cols else (None if not has_box(n) else True)
    boxes = n if box else 0
    return ([f"DGR{j}" for j in range(1, cols + 1)] + [f"DGC{i}" for i in range(1, rows + 1)]
            + [f"DGB{b}" for b in range(1, boxes + 1)])


class Doppelganger(GlobalRule):
    name: ClassVar[str] = "doppelganger"
    reads_houses: ClassVar[bool] = True  # it reads each house's missing digit
    description: ClassVar[str] = ("digits 0..N: each row, column and box holds 0 and misses "
                                  "one of 1..N (its extra cell DGC/DGR/DGB), no two of a kind "
                                  "miss the same; at a 0 the three missing digits differ")

    def extra_cells(self, geometry: Geometry) -> list[str]:
        """The extra cells this rule reads (the puzzle-file loader adds them)."""
        return doppelganger_cells(geometry.size, geometry.width)

    def validate(self, geometry: Geometry) -> None:
        n = geometry.size
        if not geometry.square or geometry.first != 0 or geometry.values != n + 1:
            raise ModelError(f"doppelganger needs a square grid of the digits 0..N (0-{n} on "
                             f"{n}x{n}), not {geometry.describe()}")
        missing = [x for x in self.extra_cells(geometry) if x not in geometry.extra]
        if missing:
            raise ModelError(f"doppelganger needs the extra cells {', '.join(missing[:3])}"
                             f"{' ...' if len(missing) > 3 else ''} (the missing digits)")

    def build(self, geometry: Geometry) -> Iterator[Constraint]:
        self.validate(geometry)
        n = geometry.size

        def at(name: str) -> int:
            found = geometry.extra_index(name)
            assert found is not None  # validate() found every one
            return found
        by_row = [at(f"DGC{i + 1}") for i in range(n)]
        by_col = [at(f"DGR{j + 1}") for j in range(n)]
        box_names = [x for x in self.extra_cells(geometry) if x.startswith("DGB")]
        boxes = geometry.regions if geometry.box is not None else ()
        by_box = [at(x) for x in box_names]
        digits = frozenset(geometry.digits[1:])  # a house misses one of 1..N, never 0
        for kind, cells, houses in (("row", by_row, geometry.rows),
                                    ("column", by_col, geometry.cols),
                                    ("box", by_box[:len(boxes)], boxes)):
            for i, (house, missing) in enumerate(zip(houses, cells), 1):
                yield AllDifferent(house + (missing,), label=f"doppelganger {kind} {i}")
            if cells:
                yield AllDifferent(tuple(cells), label=f"doppelganger: {kind}s miss "
                                                       f"different digits")
                yield InSet(tuple(cells), digits, label=f"doppelganger: a {kind} misses "
                                                        f"one of 1..{n}")
        if by_box[len(boxes):]:  # no boxes on this grid: their cells hold 0, as in ISS
            yield InSet(tuple(by_box[len(boxes):]), frozenset({0}),
                        label="doppelganger: no boxes, no missing box digits")
        yield from self._at_zeros(geometry, by_row, by_col, by_box[:len(boxes)])

    def _at_zeros(self, geometry: Geometry, by_row, by_col, by_box) -> Iterator[Constraint]:
        """At a 0, its houses' missing digits differ: one automaton per grid cell, read
        over the cell and its houses' missing digits."""
        automaton = zero_apart(geometry.digits, 3 if by_box else 2)
        box_of = geometry.region_of if by_box else None
        for cell in range(geometry.ncells):
            r, c = divmod(cell, geometry.size)
            missing = (by_row[r], by_col[c]) + ((by_box[box_of[cell]],) if box_of else ())
            yield Regular((cell,) + missing, automaton=automaton,
                          label=f"doppelganger: the 0 at {geometry.cell_name(cell)}")


@cache
def zero_apart(digits: range, count: int) -> Automaton:
    """A digit, then `count` more: when the first is 0, the others all differ. An
    automaton (49 states for three on 0..9) rather than tables of every triple,
    which the engines scan tuple by tuple."""
    def step(state, v):
        if state == "start":
            return "free" if v != 0 else frozenset()
        if state in ("free", "done"):
            return state
        if v == 0 or v in state:  # a missing digit is never 0
            return None
        return "done" if len(state) == count - 1 else state | {v}

    return Automaton.build("start", step, lambda state: state in ("free", "done"), digits)


__all__ = ["Doppelganger", "doppelganger_cells"]
