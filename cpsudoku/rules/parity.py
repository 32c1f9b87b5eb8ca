"""Even and odd cells: unary restrictions, folded into the domains."""

from __future__ import annotations

from typing import ClassVar

from ..grid.constraints import InSet
from . import cells as C
from .element import ElementRule


class Parity(ElementRule):
    """Marked cells hold odd (or even) digits."""
    any_shape: ClassVar[bool] = True  # its cells are named: any R x C grid

    name: ClassVar[str] = "parity"
    noun: ClassVar[str] = "cell"

    def __init__(self, odd=(), even=()):
        marks = tuple(("odd", r) for r in C.refs(odd)) + tuple(("even", r) for r in C.refs(even))
        super().__init__(marks)

    def describe(self) -> str:
        return f"odd/even cells ({len(self.elements)})"

    def data(self):
        out: dict[str, list[str]] = {}
        for kind, ref in self.elements:
            out.setdefault(kind, []).append(C.name(ref))
        return out

    def label(self, i, mark):
        return f"{mark[0]} cell {C.name(mark[1])}"

    def check_element(self, i, mark, geometry):
        return C.resolve([mark[1]], geometry, self.label(i, mark))

    def element_constraints(self, i, mark, cells, geometry):
        remainder = 1 if mark[0] == "odd" else 0
        values = frozenset(d for d in geometry.digits if d % 2 == remainder)  # 0 is even
        yield InSet(cells, values=values, label=self.label(i, mark))
