"""Cell and region rules with the meaning the Interactive Sudoku Solver gives them.

Each element is a group of cells (a quadruple's 2x2 square, a cage, a set of
circles) with the digits or the total it speaks of, or several parts of equal
standing (clones, equal-sum segments). Every rule lowers to the vocabulary:

- counts of a digit in a group (quadruples, contain-at-least, contain-exact,
  counting circles) and the balance of an equality cage are regular languages
  read over the group's cells (`Regular`), tiny automata whatever the size;
- a rellik cage is a regular language whose state is the set of digits placed
  so far (no subset of them may reach the clue), beside an `AllDifferent`;
- clones are equality tables over corresponding cells, equal sums one weighted
  `Sum` per segment after the first (its sum minus the first's is 0);
- given candidates fold into the cell's domain (`InSet`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import ClassVar

from ..errors import ModelError
from ..grid.automaton import Automaton
from ..grid.constraints import AllDifferent, Allowed, InSet, Regular, Sum
from ..grid.geometry import Geometry
from . import cells as C
from .alphabet import shown
from .element import ElementRule


@dataclass(frozen=True)
class Group:
    """Cells, with the digits (`values`) or the total (`total`) the rule reads, if any."""

    cells: tuple[C.CellRef, ...]
    values: tuple[int, ...] = ()
    total: int | None = None


@dataclass(frozen=True)
class Parts:
    """Two or more groups of cells the rule ties together (clones, equal-sum segments)."""

    parts: tuple[tuple[C.CellRef, ...], ...]


# ---------------------------------------------------------------- automata

@cache
def count_of(digits: range, value: int, counts: frozenset[int]) -> Automaton:
    """The number of cells holding `value` is one of `counts`. The state is that
    number so far; beyond the largest count there is no way on."""
    top = max(counts)
    return Automaton.build(0, lambda seen, v: seen + (v == value) if seen + (v == value) <= top
                           else None, lambda seen: seen in counts, digits)


@cache
def at_least(digits: range, value: int, least: int) -> Automaton:
    """At least `least` cells hold `value`; the state stops counting at `least`."""
    return Automaton.build(0, lambda seen, v: min(least, seen + (v == value)),
                           lambda seen: seen == least, digits)


@cache
def no_subset_sum(digits: range, total: int, length: int) -> Automaton:
    """`length` different digits, no set of which sums to `total`. The state is the
    digits so far and the subset sums below the total they reach (a 0 adds none)."""
    def step(state, v):
        digits, sums = state
        if v in digits or v == total or total - v in sums:
            return None
        return (digits | {v}, sums | {v} | {s + v for s in sums if s + v < total})

    return Automaton.build((frozenset(), frozenset()), step,
                           lambda state: len(state[0]) == length, digits)


@cache
def balanced(digits: range, length: int) -> Automaton:
    """`length` digits with as many even as odd and as many low as high ones: the lower
    half of the digits against the upper half (the middle digit of an odd number of
    digits is neither, so never fits). The state is the position and the two
    differences, kept within what the cells left can undo."""
    count = len(digits)
    half = count // 2

    def step(state, v):
        at, parity, height = state
        place = v - digits[0]
        if count % 2 and place == half:
            return None
        parity += 1 if v % 2 == 0 else -1
        height += 1 if place < half else -1
        left = length - at - 1
        if left < 0 or abs(parity) > left or abs(height) > left:
            return None
        return (at + 1, parity, height)

    return Automaton.build((0, 0, 0), step, lambda state: state == (length, 0, 0), digits)


# ---------------------------------------------------------------- the rule shape

class CellRule(ElementRule):
    key: ClassVar[str]  # the puzzle-file key
    meaning: ClassVar[str]  # one line, for listings
    # How the puzzle file writes one element: "cells" (a list of cells), "values"
    # ({cells, values}), "cell" ({cell, values}), "total" ({cells, sum}), "parts"
    # (a list of lists of cells).
    shape: ClassVar[str] = "cells"
    part_noun: ClassVar[str] = "part"  # what one part is called, for rules of parts

    def __init__(self, elements: Iterable):
        super().__init__(tuple(elements))

    def describe(self) -> str:
        return f"{self.key.replace('_', ' ')} ({len(self.elements)}): {self.meaning}"

    def data(self):
        return {self.key: [self.entry(e) for e in self.elements]}

    def entry(self, element) -> object:
        if isinstance(element, Parts):
            return [C.names(part) for part in element.parts]
        if self.shape == "cells":
            return C.names(element.cells)
        if self.shape == "cell":
            return {"cell": C.name(element.cells[0]), "values": list(element.values)}
        if self.shape == "total":
            return {"cells": C.names(element.cells), "sum": element.total}
        return {"cells": C.names(element.cells), "values": list(element.values)}

    def label(self, i, element):
        first = element.parts[0][:1] if isinstance(element, Parts) else element.cells[:1]
        return f"{self.noun} {i}" + (f" at {C.name(first[0])}" if first else "")

    def check_element(self, i, element, geometry):
        what = self.label(i, element)
        if not element.cells:
            raise ModelError(f"{what} has no cells")
        cells = C.resolve(element.cells, geometry, what)
        self.check_group(element, cells, geometry, what)
        return cells

    def check_group(self, element, cells, geometry: Geometry, what: str) -> None:
        """Refuse a group this rule cannot hold on this grid."""

    def check_values(self, element, geometry: Geometry, what: str) -> None:
        if not element.values:
            raise ModelError(f"{what} lists no digits")
        bad = [v for v in element.values if v not in geometry.digits]
        if bad:
            raise ModelError(f"{what}: digit {bad[0]} is outside {shown(geometry.digits)}")


# ---------------------------------------------------------------- digit counts

class ContainAtLeast(CellRule):
    name: ClassVar[str] = "contain-at-least"
    noun: ClassVar[str] = "required-digits group"
    key: ClassVar[str] = "contain_at_least"
    shape: ClassVar[str] = "values"
    meaning: ClassVar[str] = ("the listed digits all appear in the cells (a digit listed "
                              "twice at least twice)")
    exact: ClassVar[bool] = False

    def check_group(self, element, cells, geometry, what):
        self.check_values(element, geometry, what)
        if len(element.values) > len(cells):
            raise ModelError(f"{what}: {len(element.values)} digits cannot fit in "
                             f"{len(cells)} cells")

    def element_constraints(self, i, element, cells, geometry):
        label = self.label(i, element)
        digits = geometry.digits
        for value, times in sorted(Counter(element.values).items()):
            automaton = (count_of(digits, value, frozenset({times})) if self.exact
                         else at_least(digits, value, times))
            yield Regular(cells, automaton=automaton, label=f"{label}: {value}")


class ContainExact(ContainAtLeast):
    name: ClassVar[str] = "contain-exact"
    noun: ClassVar[str] = "exact-digits group"
    key: ClassVar[str] = "contain_exact"
    meaning: ClassVar[str] = ("each listed digit appears in the cells exactly as often as "
                              "it is listed; other digits are free")
    exact: ClassVar[bool] = True


class Quadruples(ContainAtLeast):
    name: ClassVar[str] = "quadruples"
    noun: ClassVar[str] = "quadruple"
    key: ClassVar[str] = "quadruples"
    meaning: ClassVar[str] = ("the digits in a circle on a 2x2 corner all appear in its four "
                              "cells (a digit listed twice appears twice)")

    def check_group(self, element, cells, geometry, what):
        rows = sorted({r for r, _ in element.cells})
        cols = sorted({c for _, c in element.cells})
        if (len(cells) != 4 or len(rows) != 2 or len(cols) != 2
                or rows[1] - rows[0] != 1 or cols[1] - cols[0] != 1):
            raise ModelError(f"{what}: a quadruple's cells must be the four cells of a 2x2 "
                             f"square")
        super().check_group(element, cells, geometry, what)


class CountingCircles(CellRule):
    name: ClassVar[str] = "counting-circles"
    noun: ClassVar[str] = "set of counting circles"
    key: ClassVar[str] = "counting_circles"
    meaning: ClassVar[str] = ("the digit in a circle says how many circles of its set hold "
                              "that digit")

    def element_constraints(self, i, element, cells, geometry):
        label = self.label(i, element)
        # a digit counts its own circle: 0 never, nor one above the number of circles
        counts = [d for d in geometry.digits if 1 <= d <= len(cells)]
        yield InSet(cells, values=frozenset(counts), label=label)
        for value in counts:
            yield Regular(cells, automaton=count_of(geometry.digits, value,
                                                    frozenset({0, value})),
                          label=f"{label}: {value}")


# ---------------------------------------------------------------- cages

class RellikCages(CellRule):
    name: ClassVar[str] = "rellik-cages"
    noun: ClassVar[str] = "rellik cage"
    key: ClassVar[str] = "rellik_cages"
    shape: ClassVar[str] = "total"
    meaning: ClassVar[str] = ("digits in a cage differ, and no one or more of them sum to "
                              "the cage's clue")

    def label(self, i, element):
        return (f"{self.noun} {i} (not {element.total})"
                + (f" at {C.name(element.cells[0])}" if element.cells else ""))

    def check_group(self, element, cells, geometry, what):
        if len(cells) > len(geometry.digits):
            raise ModelError(f"{what}: {len(cells)} cells cannot hold different digits "
                             f"{shown(geometry.digits)}")
        if element.total is None or element.total < 1:
            raise ModelError(f"{what}: the clue must be a whole number from 1")

    def element_constraints(self, i, element, cells, geometry):
        label = self.label(i, element)
        digits = geometry.digits
        con = Regular(cells, automaton=no_subset_sum(digits, element.total, len(cells)),
                      label=label)
        if not con.automaton.fits(len(cells), digits):
            raise ModelError(f"{label}: no {len(cells)} different digits {shown(digits)} "
                             f"avoid the sum {element.total}")
        if len(cells) > 1:
            yield AllDifferent(cells, label=label)
        yield con


class EqualityCages(CellRule):
    name: ClassVar[str] = "equality-cages"
    noun: ClassVar[str] = "equality cage"
    key: ClassVar[str] = "equality_cages"
    meaning: ClassVar[str] = ("digits in a cage differ, as many are even as odd and as many "
                              "low as high (the middle digit of an odd size never fits)")

    def check_group(self, element, cells, geometry, what):
        count = len(geometry.digits)
        if len(cells) % 2:
            raise ModelError(f"{what}: an odd number of cells ({len(cells)}) cannot split "
                             f"evenly")
        if len(cells) > count - count % 2:
            raise ModelError(f"{what}: {len(cells)} cells cannot hold different digits "
                             f"{shown(geometry.digits)} without the middle one")

    def element_constraints(self, i, element, cells, geometry):
        label = self.label(i, element)
        digits = geometry.digits
        con = Regular(cells, automaton=balanced(digits, len(cells)), label=label)
        if not con.automaton.fits(len(cells), digits):
            raise ModelError(f"{label}: no digits {shown(digits)} balance its "
                             f"{len(cells)} cells")
        yield AllDifferent(cells, label=label)
        yield con


# ---------------------------------------------------------------- single cells

class GivenCandidates(CellRule):
    name: ClassVar[str] = "given-candidates"
    noun: ClassVar[str] = "candidate set"
    key: ClassVar[str] = "given_candidates"
    shape: ClassVar[str] = "cell"
    meaning: ClassVar[str] = "the cell holds one of the listed digits"

    def check_group(self, element, cells, geometry, what):
        if len(cells) != 1:
            raise ModelError(f"{what} must name exactly one cell")
        self.check_values(element, geometry, what)

    def element_constraints(self, i, element, cells, geometry):
        yield InSet(cells, values=frozenset(element.values), label=self.label(i, element))


# ---------------------------------------------------------------- parts

class _PartsRule(CellRule):
    shape: ClassVar[str] = "parts"

    def check_element(self, i, element, geometry):
        what = self.label(i, element)
        if len(element.parts) < 2 or not all(element.parts):
            raise ModelError(f"{what} needs two or more non-empty {self.part_noun}s")
        # parts may share cells (a magic square's rows, columns and diagonals)
        cells = tuple(c for k, part in enumerate(element.parts, 1)
                      for c in C.resolve(part, geometry, f"{what} {self.part_noun} {k}"))
        self.check_parts(element, geometry, what)
        return cells

    def check_parts(self, element, geometry: Geometry, what: str) -> None:
        """Refuse parts this rule cannot tie together."""

    def split(self, element, cells) -> list[tuple[int, ...]]:
        out, at = [], 0
        for part in element.parts:
            out.append(tuple(cells[at:at + len(part)]))
            at += len(part)
        return out


def _shape(part) -> tuple[C.Ref, ...]:
    """A region's cells in reading order, moved so that its top-left corner is (0, 0)."""
    top, left = min(r for r, _ in part), min(c for _, c in part)
    return tuple(sorted((r - top, c - left) for r, c in part))


class Clones(_PartsRule):
    name: ClassVar[str] = "clones"
    noun: ClassVar[str] = "clone"
    key: ClassVar[str] = "clones"
    part_noun: ClassVar[str] = "region"
    meaning: ClassVar[str] = ("regions of the same shape hold the same digits in the same "
                              "places")

    def check_parts(self, element, geometry, what):
        first = _shape(element.parts[0])
        for k, part in enumerate(element.parts[1:], 2):
            if _shape(part) != first:
                raise ModelError(f"{what}: region {k} does not have the shape of region 1")

    def element_constraints(self, i, element, cells, geometry):
        label = self.label(i, element)
        equal = tuple((d, d) for d in geometry.digits)
        parts = self.split(element, cells)
        # pair cells by their place in the region (reading order)
        order = [sorted(range(len(part)), key=part.__getitem__) for part in element.parts]
        for k in range(1, len(parts)):
            for a, b in zip(order[0], order[k]):
                yield Allowed((parts[0][a], parts[k][b]), equal, label=label)


class EqualSums(_PartsRule):
    name: ClassVar[str] = "equal-sums"
    noun: ClassVar[str] = "equal sum"
    key: ClassVar[str] = "equal_sums"
    part_noun: ClassVar[str] = "segment"
    meaning: ClassVar[str] = "every segment of cells has the same sum"

    def element_constraints(self, i, element, cells, geometry):
        label = self.label(i, element)
        parts = self.split(element, cells)
        for part in parts[1:]:
            weights = dict.fromkeys(parts[0], 1)
            for c in part:  # a shared cell adds to both sides: it drops out
                weights[c] = weights.get(c, 0) - 1
            kept = {c: w for c, w in weights.items() if w}
            if kept:
                yield Sum(tuple(kept), total=0, coeffs=tuple(kept.values()), label=label)


CELL_RULES: tuple[type[CellRule], ...] = (
    Quadruples, ContainAtLeast, ContainExact, CountingCircles, RellikCages, EqualityCages,
    GivenCandidates, Clones, EqualSums)

__all__ = ["CELL_RULES", "CellRule", "Clones", "ContainAtLeast", "ContainExact",
           "CountingCircles", "EqualSums", "EqualityCages", "GivenCandidates", "Group",
           "Parts", "Quadruples", "RellikCages"]
