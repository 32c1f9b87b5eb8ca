"""Line rules: thermometers (strictly increasing from the bulb) and arrows (sums)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from ..errors import ModelError
from ..grid.constraints import Less, Sum
from . import cells as C
from .alphabet import shown
from .element import ElementRule


class Thermometers(ElementRule):
    """Digits strictly increase along each thermometer, starting from its bulb."""
    any_shape: ClassVar[bool] = True  # its cells are named: any R x C grid

    name: ClassVar[str] = "thermometer"
    noun: ClassVar[str] = "thermometer"

    def __init__(self, thermometers: Iterable):
        super().__init__(tuple(C.refs(t) for t in thermometers))

    def describe(self) -> str:
        return f"thermometers ({len(self.elements)}): digits increase from the bulb"

    def data(self):
        return {"thermometers": [C.names(t) for t in self.elements]}

    def label(self, i, cells):
        return f"thermometer {i}" + (f" at {C.name(cells[0])}" if cells else "")

    def check_element(self, i, thermo, geometry):
        what = self.label(i, thermo)
        if len(thermo) < 2:
            raise ModelError(f"{what} needs a bulb and at least one more cell")
        cells = C.resolve(thermo, geometry, what)
        C.require_chain(thermo, what)
        if len(cells) > len(geometry.digits):
            raise ModelError(f"{what}: {len(cells)} cells cannot increase within "
                             f"{shown(geometry.digits)}")
        return cells

    def element_constraints(self, i, thermo, cells, geometry):
        yield Less(cells, label=self.label(i, thermo))


@dataclass(frozen=True)
class Arrow:
    """The digits on the arrow's lines sum to the number in its circle.

    A circle of several cells (a pill) reads as a number, first cell first.
    Several lines may leave one circle: all their digits count.
    """

    circle: tuple[C.CellRef, ...]
    lines: tuple[tuple[C.CellRef, ...], ...]

    @classmethod
    def of(cls, circle, cells=None, lines=None) -> Arrow:
        chosen = list(lines or []) + ([cells] if cells is not None else [])
        return cls(C.refs(circle), tuple(C.refs(line) for line in chosen))

    @property
    def cells(self) -> tuple[C.CellRef, ...]:
        return tuple(c for line in self.lines for c in line)


class Arrows(ElementRule):
    any_shape: ClassVar[bool] = True  # its cells are named: any R x C grid
    name: ClassVar[str] = "arrow"
    noun: ClassVar[str] = "arrow"

    def __init__(self, arrows: Iterable[Arrow]):
        super().__init__(tuple(arrows))

    def describe(self) -> str:
        return f"arrows ({len(self.elements)}): digits on an arrow sum to its circle"

    def data(self):
        return {"arrows": [{"circle": C.names(a.circle),
                            "lines": [C.names(line) for line in a.lines]}
                           for a in self.elements]}

    def label(self, i, arrow):
        return f"arrow {i}" + (f" at {C.name(arrow.circle[0])}" if arrow.circle else "")

    def check_element(self, i, arrow, geometry):
        what = self.label(i, arrow)
        if not arrow.circle or not arrow.cells or not all(arrow.lines):
            raise ModelError(f"{what} needs a circle and at least one arrow cell")
        cells = C.resolve(arrow.circle + arrow.cells, geometry, what)
        C.require_chain(arrow.circle, what)
        for line in arrow.lines:
            if not any(C.king_adjacent(c, line[0]) for c in arrow.circle):
                raise ModelError(f"{what}: the arrow starts at {C.name(line[0])}, "
                                 f"away from its circle")
            C.require_chain(line, what)
        return cells

    def element_constraints(self, i, arrow, cells, geometry):
        k = len(arrow.circle)
        coeffs = (tuple(-(10 ** (k - 1 - j)) for j in range(k))
                  + (1,) * len(arrow.cells))
        yield Sum(cells, total=0, coeffs=coeffs, label=self.label(i, arrow))
