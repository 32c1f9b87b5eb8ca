"""Global rules that are no pattern of one relation: each written in Python, by name.

- anti-taxicab: a digit d is never a taxicab distance of exactly d from another d
  (pair tables without (d, d), only for pairs that share no row, column or region);
- global-entropy / global-mod: every 2x2 square holds a digit of each of three
  classes (low, middle, high thirds; residues mod 3): a `Regular` over its four
  cells whose state is the set of classes seen;
- dutch-flatmates: every middle digit (5 on 9x9) has a 1 right above it or the
  largest digit (9) right below it: a six-state `Regular` over each cell and its
  neighbours in the column (a table of the three would list 665 rows on 9x9, and
  a pass over them cost the kernel 20 times the automaton's).

The rules that are patterns of existing constraints are TOML files in `models/`.

Their digits, as ISS reads them: anti-taxicab and dutch-flatmates need digits from 1
(a distance, a 1 above), global-entropy digits from 1 in thirds; global-mod takes the
residues of whatever digits there are.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import ClassVar

from ..errors import ModelError
from ..grid.automaton import Automaton
from ..grid.constraints import Allowed, Constraint, Regular
from ..grid.geometry import Geometry
from .alphabet import entropy_thirds, refuse_unless


class GlobalRule:
    """A rule the same on every puzzle of a size; constraints remembered per geometry."""

    name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    description: ClassVar[str]

    def __repr__(self):
        return f"{type(self).__name__}()"

    def describe(self) -> str:
        return self.description

    def constraints(self, geometry: Geometry) -> tuple[Constraint, ...]:
        cache_ = self.__dict__.setdefault("_cache", {})
        found = cache_.get(geometry)
        if found is None:
            found = cache_[geometry] = tuple(self.build(geometry))
        return found

    def build(self, geometry: Geometry) -> Iterator[Constraint]:  # pragma: no cover
        raise NotImplementedError


def squares(geometry: Geometry) -> Iterator[tuple[int, ...]]:
    """Every 2x2 square of cells, in reading order of its top-left cell."""
    n = geometry.size
    for r in range(n - 1):
        for c in range(n - 1):
            top = r * n + c
            yield (top, top + 1, top + n, top + n + 1)


@cache
def every_class(digits: range, classes: tuple[int, ...]) -> Automaton:
    """The digits read cover every class (`classes[i]` is the class of the i-th digit,
    from 0). The state is the set of classes seen."""
    wanted = frozenset(classes)
    return Automaton.build(frozenset(), lambda seen, v: seen | {classes[v - digits[0]]},
                           lambda seen: seen == wanted, digits)


class AntiTaxicab(GlobalRule):
    name: ClassVar[str] = "anti-taxicab"
    aliases: ClassVar[tuple[str, ...]] = ("antitaxicab",)
    description: ClassVar[str] = ("a digit d is never a taxicab distance (rows plus columns "
                                  "apart) of exactly d from another d")

    def validate(self, geometry: Geometry) -> None:
        # a 0 would be a distance of nothing (ISS refuses 0-based digits)
        refuse_unless(geometry.first == 1, self.name, "digits from 1 (a digit is a "
                      "distance)", geometry)

    def build(self, geometry):
        self.validate(geometry)
        n = geometry.size
        digits = geometry.digits
        region = geometry.region_of
        tables: dict[int, tuple[tuple[int, int], ...]] = {}
        for a in range(n * n):
            ra, ca = divmod(a, n)
            for b in range(a + 1, n * n):
                rb, cb = divmod(b, n)
                d = abs(ra - rb) + abs(ca - cb)
                # a shared row, column or region already keeps the digits apart
                housed = geometry.houses and (ra == rb or ca == cb or region[a] == region[b])
                if d > digits[-1] or housed:
                    continue
                table = tables.get(d)
                if table is None:
                    table = tables[d] = tuple((x, y) for x in digits for y in digits
                                              if x != d or y != d)
                yield Allowed((a, b), table, label=f"anti-taxicab {d} between "
                              f"{geometry.cell_name(a)} and {geometry.cell_name(b)}")


class _ThreeClasses(GlobalRule):
    what: ClassVar[str]

    def classes(self, geometry: Geometry) -> tuple[int, ...]:  # pragma: no cover
        raise NotImplementedError

    def validate(self, geometry: Geometry) -> None:
        self.classes(geometry)

    def build(self, geometry):
        automaton = every_class(geometry.digits, self.classes(geometry))
        for cells in squares(geometry):
            yield Regular(cells, automaton=automaton,
                          label=f"{self.name} square at {geometry.cell_name(cells[0])}")


class GlobalEntropy(_ThreeClasses):
    name: ClassVar[str] = "global-entropy"
    aliases: ClassVar[tuple[str, ...]] = ("globalentropy",)
    description: ClassVar[str] = ("every 2x2 square holds a low (1-3), a middle (4-6) and a "
                                  "high (7-9) digit; other sizes by thirds")

    def classes(self, geometry):
        return entropy_thirds(geometry, self.name, "global-entropy needs")


class GlobalMod(_ThreeClasses):
    name: ClassVar[str] = "global-mod"
    aliases: ClassVar[tuple[str, ...]] = ("globalmod", "global-mod-3")
    description: ClassVar[str] = ("every 2x2 square holds a digit of each residue mod 3 "
                                  "(one of 147, one of 258, one of 369)")

    def classes(self, geometry):
        count = len(geometry.digits)
        if count < 3:
            raise ModelError(f"global-mod needs digits of three residues: three digits or "
                             f"more, not {count}")
        return tuple(d % 3 for d in geometry.digits)  # residues of the digits, 0 too


class DutchFlatmates(GlobalRule):
    name: ClassVar[str] = "dutch-flatmates"
    aliases: ClassVar[tuple[str, ...]] = ("dutchflatmates",)
    description: ClassVar[str] = ("every middle digit (5 on 9x9) has a 1 directly above it or "
                                  "the largest digit (9) directly below it")

    def validate(self, geometry: Geometry) -> None:
        # the middle digit of 1..V, a 1 above or V below (ISS refuses shifted digits)
        refuse_unless(geometry.first == 1, self.name, "digits from 1 (a 1 above the "
                      "middle digit)", geometry)
        if geometry.size < 3:
            raise ModelError(f"dutch-flatmates needs a size of 3 or more, not "
                             f"{geometry.size}")

    def build(self, geometry):
        self.validate(geometry)
        n = geometry.size
        digits = geometry.digits
        low, high = digits[0], digits[-1]
        middle = (len(digits) + 1) // 2
        both = flatmates(digits)
        top = tuple((m, b) for m in digits for b in digits if m != middle or b == high)
        bottom = tuple((a, m) for a in digits for m in digits if m != middle or a == low)
        for r in range(n):
            for c in range(n):
                cell = r * n + c
                label = f"dutch flatmates at {geometry.cell_name(cell)}"
                if r == 0:
                    yield Allowed((cell, cell + n), top, label=label)
                elif r == n - 1:
                    yield Allowed((cell - n, cell), bottom, label=label)
                else:
                    yield Regular((cell - n, cell, cell + n), automaton=both, label=label)


@cache
def flatmates(digits: range) -> Automaton:
    """Three digits down a column (above, middle, below): the middle one is not the
    middle digit, or a 1 is above it, or the largest digit below it."""
    low, high = digits[0], digits[-1]
    middle = (len(digits) + 1) // 2

    def step(state: str, v: int) -> str | None:
        if state == "start":
            return "low above" if v == low else "above"
        if state == "low above":
            return "free"
        if state == "above":
            return "needs high" if v == middle else "free"
        if state == "free" or v == high:  # "needs high": only the largest digit below
            return "done"
        return None

    return Automaton.build("start", step, lambda state: state == "done", digits)


GLOBAL_RULES: tuple[GlobalRule, ...] = (AntiTaxicab(), GlobalEntropy(), GlobalMod(),
                                       DutchFlatmates())

__all__ = ["GLOBAL_RULES", "AntiTaxicab", "DutchFlatmates", "GlobalEntropy", "GlobalMod",
           "GlobalRule", "every_class", "squares"]
