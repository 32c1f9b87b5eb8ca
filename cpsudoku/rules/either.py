"""Either/or of rules: at least one of several groups of elements holds (ISS's `Or`).

An element of `either` is a list of alternatives; an alternative is a small piece of a
puzzle (givens and any per-puzzle elements: cages, lines, outside clues ...), holding
when all its constraints hold. Each element lowers to one `AnyOf` over the union of its
alternatives' cells, one group of constraints per alternative: CP-SAT takes it whole,
every other backend as one table of the tuples satisfying some alternative.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..errors import ModelError, NeverHolds
from ..grid.constraints import AllDifferent, AnyOf, Constraint, InSet
from ..grid.geometry import Geometry
from . import cells as C
from .alphabet import shown
from .element import ElementRule

SHOWN = 3  # alternatives a label names before it counts the rest


@dataclass(frozen=True)
class Alternative:
    """Givens ((row, column), value) and element rules that hold together."""

    givens: tuple[tuple[C.CellRef, int], ...] = ()
    rules: tuple = ()

    def __bool__(self) -> bool:
        return bool(self.givens or self.rules)


class Either(ElementRule):
    name: ClassVar[str] = "either"
    noun: ClassVar[str] = "either"
    key: ClassVar[str] = "either"
    meaning: ClassVar[str] = ("at least one of the listed alternatives holds; an alternative "
                              "is givens and elements written as in the puzzle file")

    def __init__(self, elements):
        super().__init__(tuple(tuple(alternatives) for alternatives in elements))

    def describe(self) -> str:
        return (f"either ({len(self.elements)}): at least one alternative of each holds: "
                + "; ".join(" or ".join(_summary(alt) for alt in element)
                            for element in self.elements))

    def data(self):
        return {self.key: [[_fragment(alt) for alt in element] for element in self.elements]}

    def label(self, i, element):
        shown = " or ".join(_summary(alt) for alt in element[:SHOWN])
        more = f" or ... ({len(element)} alternatives)" if len(element) > SHOWN else ""
        return f"{self.noun} {i} ({shown}{more})"

    def check_element(self, i, element, geometry):
        return self._lowered(i, element, geometry)[0]

    def element_constraints(self, i, element, cells, geometry):
        either = self._lowered(i, element, geometry)[1]
        if len(either.alternatives) == 1:  # the others can never hold: this one must
            yield from either.alternatives[0]
            return
        # cells all different in every alternative (a cage or a lunchbox there) are so
        # whichever holds: said once outside, the alternatives keep the rest
        common = set.intersection(*({con.cells for con in group if isinstance(con, AllDifferent)}
                                    for group in either.alternatives))
        if not common:
            yield either
            return
        rest = tuple(tuple(con for con in group
                           if not (isinstance(con, AllDifferent) and con.cells in common))
                     for group in either.alternatives)
        for cells_ in sorted(common):
            yield AllDifferent(cells_, label=either.label)
        if all(rest):  # else an alternative holds already
            yield AnyOf(_cells_of(rest), alternatives=rest, label=either.label)

    def _lowered(self, i: int, element, geometry: Geometry) -> tuple[tuple[int, ...], AnyOf]:
        """The union of the alternatives' cells and its constraint, built once per geometry."""
        cache = self.__dict__.setdefault("_lowerings", {})
        found = cache.get((i, geometry))
        if found is None:
            found = cache[(i, geometry)] = _lower(i, element, geometry, self.label(i, element))
        return found


def alternative_constraints(i: int, k: int, alt: Alternative,
                            geometry: Geometry) -> list[Constraint]:
    """The constraints of alternative k of either i, each element validated."""
    what = f"either {i}, alternative {k}"
    if not alt:
        raise ModelError(f"{what} is empty: give it givens or elements")
    out: list[Constraint] = []
    for ref, value in alt.givens:
        [cell] = C.resolve([ref], geometry, f"{what}: given")
        if value not in geometry.digits:  # a digit as shown, like the rules' own
            raise ModelError(f"{what}: given {C.name(ref)} = {value} is outside "
                             f"{shown(geometry.digits)}")
        # inside the AnyOf: never folded into the grid's domains
        out.append(InSet((cell,), values=frozenset({value}), label=f"{what}: {C.name(ref)}"))
    for rule in alt.rules:
        if hasattr(rule, "variables"):
            raise ModelError(f"{what}: {rule.name} cannot stand in an alternative (it "
                             f"needs cells beside the grid's)")
        try:
            rule.validate(geometry)
            out.extend(rule.constraints(geometry))
        except ModelError as exc:
            raise (NeverHolds if isinstance(exc, NeverHolds) else ModelError)(
                f"{what}: {exc}") from None
    return out


def _lower(i: int, element, geometry: Geometry, label: str) -> tuple[tuple[int, ...], AnyOf]:
    if not element:
        raise ModelError(f"either {i} lists no alternatives")
    groups, never = [], None
    for k, alt in enumerate(element, 1):
        try:
            groups.append(alternative_constraints(i, k, alt, geometry))
        except NeverHolds as exc:  # a false alternative: the others decide
            never = never or exc
    if not groups:
        assert never is not None
        raise never
    union = _cells_of(groups)
    return union, AnyOf(union, alternatives=tuple(tuple(group) for group in groups), label=label)


def _cells_of(groups) -> tuple[int, ...]:
    """Every cell the alternatives name, once each, in the order met."""
    return tuple(dict.fromkeys(c for group in groups for con in group for c in con.cells))


def _fragment(alt: Alternative) -> dict:
    """The alternative as puzzle-file keys."""
    out: dict = {}
    if alt.givens:
        out["givens"] = {C.name(ref): value for ref, value in alt.givens}
    for rule in alt.rules:
        for key, value in rule.data().items():
            if key in out:
                raise ModelError(f"two {rule.name} rules cannot share one alternative")
            out[key] = value
    return out


def _summary(alt: Alternative) -> str:
    """A short text of an alternative: its givens, and its elements by key."""
    parts = [f"{C.name(ref)}={value}" for ref, value in alt.givens]
    for rule in alt.rules:
        for key, value in rule.data().items():
            first = _first_cell(value)
            parts.append(f"{key} at {first}" if first else key)
    return " and ".join(parts) or "nothing"


def _first_cell(value) -> str | None:
    """The first cell name in an element's puzzle-file data (for labels)."""
    if isinstance(value, str):
        try:
            return C.name(C.ref(value))
        except ModelError:
            return None
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    return next((found for item in items if (found := _first_cell(item))), None)
