"""Either/or of rules: at least one of several groups of elements holds (ISS's `Or`).

An element of `either` is a list of alternatives; an alternative is a small piece of a
puzzle (givens and any per-puzzle elements: cages, lines, outside clues ...), holding
when all its constraints hold.

Lowering: "at least one alternative holds" is a disjunction, which the vocabulary has
no kind for. It becomes one `Allowed` table over the union of the alternatives' cells,
listing every tuple of values that satisfies at least one alternative (each checked by
its own constraints' `holds`). Every backend runs tables, the logical solver reasons on
them, and the independent checker reads them; the price is the table's size, so an
either whose tuples pass `MAX_TUPLES` is refused, naming it, rather than built.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import ClassVar

from ..errors import ModelError
from ..grid.constraints import Allowed, Constraint, InSet
from ..grid.geometry import Geometry
from . import cells as C
from .element import ElementRule

MAX_TUPLES = 50_000  # value tuples one either may list as its table
MAX_NODES = 2_000_000  # partial assignments tried while listing one alternative's tuples


@dataclass(frozen=True)
class Alternative:
    """Givens ((row, column), value) and element rules that hold together."""

    givens: tuple[tuple[C.Ref, int], ...] = ()
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
        return f"{self.noun} {i} ({' or '.join(_summary(alt) for alt in element)})"

    def check_element(self, i, element, geometry):
        return self._lowered(i, element, geometry)[0]

    def element_constraints(self, i, element, cells, geometry):
        yield self._lowered(i, element, geometry)[1]

    def _lowered(self, i: int, element, geometry: Geometry) -> tuple[tuple[int, ...], Allowed]:
        """The union of the alternatives' cells and its table, built once per geometry."""
        cache = self.__dict__.setdefault("_tables", {})
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
    n = geometry.size
    out: list[Constraint] = []
    for ref, value in alt.givens:
        [cell] = C.resolve([ref], geometry, f"{what}: given")
        if not 1 <= value <= n:
            raise ModelError(f"{what}: given {C.name(ref)} = {value} is outside 1..{n}")
        # checked by the table's search only: never folded into the grid's domains
        out.append(InSet((cell,), values=frozenset({value}), label=f"{what}: {C.name(ref)}"))
    for rule in alt.rules:
        if hasattr(rule, "variables"):
            raise ModelError(f"{what}: {rule.name} cannot stand in an alternative (it "
                             f"needs cells beside the grid's)")
        try:
            rule.validate(geometry)
            out.extend(rule.constraints(geometry))
        except ModelError as exc:
            raise ModelError(f"{what}: {exc}") from None
    return out


def _lower(i: int, element, geometry: Geometry, label: str) -> tuple[tuple[int, ...], Allowed]:
    what = f"either {i}"
    if not element:
        raise ModelError(f"{what} lists no alternatives")
    groups = [alternative_constraints(i, k, alt, geometry) for k, alt in enumerate(element, 1)]
    union = tuple(dict.fromkeys(c for group in groups for con in group for c in con.cells))
    n = geometry.size
    tuples: set[tuple[int, ...]] = set()
    for k, group in enumerate(groups, 1):
        own = tuple(dict.fromkeys(c for con in group for c in con.cells))
        free = [c for c in union if c not in own]
        for values in _satisfying(own, group, n, f"{what}, alternative {k}"):
            at = dict(zip(own, values))
            for rest in itertools.product(range(1, n + 1), repeat=len(free)):
                at.update(zip(free, rest))
                tuples.add(tuple(at[c] for c in union))
                if len(tuples) > MAX_TUPLES:
                    raise ModelError(f"{what}: its alternatives over {len(union)} cells allow "
                                     f"more than {MAX_TUPLES} value tuples, too many to list "
                                     f"as one table; give each alternative fewer free cells")
    return union, Allowed(union, tuple(sorted(tuples)), label=label)


def _satisfying(cells: Sequence[int], group: list[Constraint], n: int,
                what: str) -> Iterator[tuple[int, ...]]:
    """Every tuple of values 1..n on `cells` satisfying all of `group`, each constraint
    checked as soon as its last cell has a value (a depth-first search)."""
    depth = {c: d for d, c in enumerate(cells)}
    due: list[list[Constraint]] = [[] for _ in cells]
    for con in group:
        due[max(depth[c] for c in con.cells)].append(con)
    values: dict[int, int] = {}
    nodes = 0

    def extend(d: int) -> Iterator[tuple[int, ...]]:
        nonlocal nodes
        if d == len(cells):
            yield tuple(values[c] for c in cells)
            return
        for v in range(1, n + 1):
            nodes += 1
            if nodes > MAX_NODES:
                raise ModelError(f"{what}: too many value combinations to list (more than "
                                 f"{MAX_NODES} tried); give it fewer cells")
            values[cells[d]] = v
            if all(con.holds([values[c] for c in con.cells]) for con in due[d]):
                yield from extend(d + 1)
        del values[cells[d]]

    return extend(0)


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
