"""Global rules that are no pattern of one relation: each written in Python, by name.

- anti-taxicab: a digit d is never a taxicab distance of exactly d from another d
  (pair tables without (d, d), only for pairs that share no row, column or region);
- global-entropy / global-mod: every 2x2 square holds a digit of each of three
  classes (low, middle, high thirds; residues mod 3): a `Regular` over its four
  cells whose state is the set of classes seen;
- dutch-flatmates: every middle digit (5 on 9x9) has a 1 right above it or the
  largest digit (9) right below it: a table over each cell and its neighbours in
  the column.

The rules that are patterns of existing constraints are TOML files in `models/`.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import ClassVar

from ..errors import ModelError
from ..grid.automaton import Automaton
from ..grid.constraints import Allowed, Constraint, Regular
from ..grid.geometry import Geometry


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
def every_class(size: int, classes: tuple[int, ...]) -> Automaton:
    """The digits read cover every class (`classes[v-1]` is the class of v). The state
    is the set of classes seen."""
    wanted = frozenset(classes)
    return Automaton.build(frozenset(), lambda seen, v: seen | {classes[v - 1]},
                           lambda seen: seen == wanted, range(1, size + 1))


class AntiTaxicab(GlobalRule):
    name: ClassVar[str] = "anti-taxicab"
    aliases: ClassVar[tuple[str, ...]] = ("antitaxicab",)
    description: ClassVar[str] = ("a digit d is never a taxicab distance (rows plus columns "
                                  "apart) of exactly d from another d")

    def build(self, geometry):
        n = geometry.size
        region = geometry.region_of
        tables: dict[int, tuple[tuple[int, int], ...]] = {}
        for a in range(n * n):
            ra, ca = divmod(a, n)
            for b in range(a + 1, n * n):
                rb, cb = divmod(b, n)
                d = abs(ra - rb) + abs(ca - cb)
                # a shared row, column or region already keeps the digits apart
                if d > n or ra == rb or ca == cb or region[a] == region[b]:
                    continue
                table = tables.get(d)
                if table is None:
                    table = tables[d] = tuple((x, y) for x in range(1, n + 1)
                                              for y in range(1, n + 1) if x != d or y != d)
                yield Allowed((a, b), table, label=f"anti-taxicab {d} between "
                              f"{geometry.cell_name(a)} and {geometry.cell_name(b)}")


class _ThreeClasses(GlobalRule):
    what: ClassVar[str]

    def classes(self, size: int) -> tuple[int, ...]:  # pragma: no cover - overridden
        raise NotImplementedError

    def build(self, geometry):
        n = geometry.size
        automaton = every_class(n, self.classes(n))
        for cells in squares(geometry):
            yield Regular(cells, automaton=automaton,
                          label=f"{self.name} square at {geometry.cell_name(cells[0])}")


class GlobalEntropy(_ThreeClasses):
    name: ClassVar[str] = "global-entropy"
    aliases: ClassVar[tuple[str, ...]] = ("globalentropy",)
    description: ClassVar[str] = ("every 2x2 square holds a low (1-3), a middle (4-6) and a "
                                  "high (7-9) digit; other sizes by thirds")

    def classes(self, size):
        if size % 3:
            raise ModelError(f"global-entropy needs a size divisible by 3 (low, middle and "
                             f"high thirds of the digits), not {size}")
        third = size // 3
        return tuple((v - 1) // third for v in range(1, size + 1))


class GlobalMod(_ThreeClasses):
    name: ClassVar[str] = "global-mod"
    aliases: ClassVar[tuple[str, ...]] = ("globalmod", "global-mod-3")
    description: ClassVar[str] = ("every 2x2 square holds a digit of each residue mod 3 "
                                  "(one of 147, one of 258, one of 369)")

    def classes(self, size):
        if size < 3:
            raise ModelError(f"global-mod needs digits of three residues: a size of 3 or "
                             f"more, not {size}")
        return tuple(v % 3 for v in range(1, size + 1))


class DutchFlatmates(GlobalRule):
    name: ClassVar[str] = "dutch-flatmates"
    aliases: ClassVar[tuple[str, ...]] = ("dutchflatmates",)
    description: ClassVar[str] = ("every middle digit (5 on 9x9) has a 1 directly above it or "
                                  "the largest digit (9) directly below it")

    def build(self, geometry):
        n = geometry.size
        if n < 3:
            raise ModelError(f"dutch-flatmates needs a size of 3 or more, not {n}")
        middle = (n + 1) // 2
        digits = range(1, n + 1)
        both = tuple((a, m, b) for a in digits for m in digits for b in digits
                     if m != middle or a == 1 or b == n)
        top = tuple((m, b) for m in digits for b in digits if m != middle or b == n)
        bottom = tuple((a, m) for a in digits for m in digits if m != middle or a == 1)
        for r in range(n):
            for c in range(n):
                cell = r * n + c
                label = f"dutch flatmates at {geometry.cell_name(cell)}"
                if r == 0:
                    yield Allowed((cell, cell + n), top, label=label)
                elif r == n - 1:
                    yield Allowed((cell - n, cell), bottom, label=label)
                else:
                    yield Allowed((cell - n, cell, cell + n), both, label=label)


GLOBAL_RULES: tuple[GlobalRule, ...] = (AntiTaxicab(), GlobalEntropy(), GlobalMod(),
                                       DutchFlatmates())

__all__ = ["GLOBAL_RULES", "AntiTaxicab", "DutchFlatmates", "GlobalEntropy", "GlobalMod",
           "GlobalRule", "every_class", "squares"]
