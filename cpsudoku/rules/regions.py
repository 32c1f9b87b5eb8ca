"""Extra regions: further groups of cells whose digits all differ."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from ..errors import ModelError
from ..grid.constraints import AllDifferent
from . import cells as C
from .element import ElementRule


class ExtraRegions(ElementRule):
    any_shape: ClassVar[bool] = True  # its cells are named: any R x C grid
    name: ClassVar[str] = "extra-region"
    noun: ClassVar[str] = "extra region"

    def __init__(self, regions: Iterable):
        super().__init__(tuple(C.refs(r) for r in regions))

    def describe(self) -> str:
        return f"extra regions ({len(self.elements)}): no digit repeats in each"

    def data(self):
        return {"extra_regions": [C.names(r) for r in self.elements]}

    def label(self, i, cells):
        return f"extra region {i}" + (f" at {C.name(cells[0])}" if cells else "")

    def check_element(self, i, region, geometry):
        what = self.label(i, region)
        cells = C.resolve(region, geometry, what)
        most = len(geometry.digits)  # different digits: at most one cell per digit
        if not 2 <= len(cells) <= most:
            raise ModelError(f"{what} has {len(cells)} cells, expected 2..{most}")
        return cells

    def element_constraints(self, i, region, cells, geometry):
        yield AllDifferent(cells, label=self.label(i, region))
