"""The shape shared by rules made of per-puzzle elements (cages, thermometers, dots ...).

A subclass says how to label, check and lower one element; this class numbers
the elements (1-based, as in messages: "cage 3 (sum 15) at r1c3"), validates
them all, and caches the constraints per geometry.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from ..grid import deadline
from ..grid.constraints import Constraint
from ..grid.geometry import Geometry


class ElementRule:
    name: ClassVar[str]
    noun: ClassVar[str]  # what one element is called in messages

    def __init__(self, elements: tuple):
        self.elements = elements

    def __repr__(self):
        return f"{type(self).__name__}({list(self.elements)!r})"

    def __eq__(self, other):
        return type(other) is type(self) and other._key() == self._key()

    def __hash__(self):
        return hash((type(self).__name__, self._key()))

    def _key(self) -> tuple:
        return self.elements

    def __len__(self):
        return len(self.elements)

    def describe(self) -> str:  # pragma: no cover - overridden
        return f"{self.name} ({len(self.elements)})"

    def data(self) -> dict:
        """The rule as puzzle-file keys (see cpsudoku.formats.puzzlefile), for writing files."""
        raise NotImplementedError

    def label(self, i: int, element) -> str:
        return f"{self.noun} {i}"

    def check_element(self, i: int, element, geometry: Geometry) -> tuple[int, ...]:
        """Validate one element; return its cells as indices."""
        raise NotImplementedError

    def element_constraints(self, i: int, element, cells,
                            geometry: Geometry) -> Iterable[Constraint]:
        raise NotImplementedError

    def extra_constraints(self, geometry: Geometry, used) -> Iterable[Constraint]:
        """Constraints of the rule as a whole (negative constraints), after the elements'."""
        return ()

    def validate(self, geometry: Geometry) -> None:
        for i, element in enumerate(self.elements, 1):
            deadline.check()  # thousands of elements, each maybe costly: all in the limit
            self.check_element(i, element, geometry)

    def constraints(self, geometry: Geometry) -> tuple[Constraint, ...]:
        cache = self.__dict__.setdefault("_cache", {})
        found = cache.get(geometry)
        if found is None:
            out: list[Constraint] = []
            used = []
            for i, element in enumerate(self.elements, 1):
                deadline.check()
                cells = self.check_element(i, element, geometry)
                used.append(cells)
                out.extend(self.element_constraints(i, element, cells, geometry))
            out.extend(self.extra_constraints(geometry, used))
            found = cache[geometry] = tuple(out)
        return found
