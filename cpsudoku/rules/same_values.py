"""Rules about which digits a group holds, whatever their order: same-value sets and
look-and-say groups, with the meaning the Interactive Sudoku Solver gives them.

- Same-value sets: sets of equal size hold the same digits, counted with repeats, in
  any order (clones keep places; these do not). Sets of one cell are equal cells
  (tables); larger ones are read pairwise, the first set against each other, by one
  automaton over both sets whose state is the multiset of the first set's digits not
  yet matched (a set, when each set lies in a row, column or region, whose digits
  differ): it grows with the set, never with the grid's other digits. Sets too
  long for that (more than MAX_MULTISETS such multisets) are compared digit by digit,
  one small counting automaton each.
- Look-and-say groups: a clue read as (count, digit) pairs, `1324` meaning exactly one
  3 and exactly two 4s; a count of 0 bars the digit. Counts are automata along the
  cells (the number seen so far), a barred digit leaves the cells' domains.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from math import comb
from typing import ClassVar

from ..errors import ModelError
from ..grid.automaton import Automaton
from ..grid.constraints import Allowed, InSet, Regular, SameCount, SameSet
from ..grid.geometry import Geometry
from . import cells as C
from .alphabet import digit_range, shown
from .cellrules import CellRule, Parts, _PartsRule, count_of


@cache
def same_multiset(digits: range, length: int) -> Automaton:
    """2 x `length` digits whose second half is a reordering of the first. The state is
    the cells read and the first half's digits not yet matched (a sorted tuple)."""
    def step(state, v: int):
        read, pending = state
        if read < length:
            return read + 1, tuple(sorted(pending + (v,)))
        if v not in pending:
            return None
        rest = list(pending)
        rest.remove(v)
        return read + 1, tuple(rest)

    return Automaton.build((0, ()), step, lambda state: state == (2 * length, ()), digits)


# The multisets of `length` digits 1..N one automaton may hold in its states: beyond
# them (15 cells on 9x9: 490,314 multisets) the sets are compared digit by digit.
MAX_MULTISETS = 3003  # 6 cells on 9x9


class SameValues(_PartsRule):
    name: ClassVar[str] = "same-values"
    noun: ClassVar[str] = "same-value group"
    key: ClassVar[str] = "same_values"
    part_noun: ClassVar[str] = "set"
    meaning: ClassVar[str] = ("sets of the same number of cells hold the same digits (as "
                              "often each), in any order")

    def check_element(self, i, element, geometry):
        cells = super().check_element(i, element, geometry)
        if len(set(cells)) != len(cells):
            twice = next(C.name(c) for k, c in enumerate(sum(element.parts, ()))
                         if c in sum(element.parts, ())[:k])
            raise ModelError(f"{self.label(i, element)}: cell {twice} is in two sets (or "
                             f"twice in one)")
        return cells

    def check_parts(self, element, geometry, what):
        first = len(element.parts[0])
        for k, part in enumerate(element.parts[1:], 2):
            if len(part) != first:
                raise ModelError(f"{what}: set {k} has {len(part)} cells, set 1 has {first}")

    def element_constraints(self, i, element, cells, geometry):
        label = self.label(i, element)
        parts = self.split(element, cells)
        digits = geometry.digits
        if len(parts[0]) == 1:
            equal = tuple((d, d) for d in digits)
            for part in parts[1:]:
                yield Allowed((parts[0][0], part[0]), equal, label=label)
            return
        length = len(parts[0])
        houses = [frozenset(unit) for unit in geometry.units]
        if all(any(set(part) <= house for house in houses) for part in parts):
            for part in parts[1:]:  # each set's digits differ: sets suffice
                yield SameSet(parts[0] + part, values=digits, label=label)
            return
        if comb(length + len(digits) - 1, length) <= MAX_MULTISETS:
            for part in parts[1:]:
                yield Regular(parts[0] + part, automaton=same_multiset(digits, length),
                              label=label)
            return
        for part in parts[1:]:  # as many of each digit in both: weaker alone, small together
            for digit in digits:
                yield SameCount(parts[0] + part, values=digits, value=digit, label=label)


@dataclass(frozen=True)
class Clue:
    """A look-and-say group: its cells and its clue, (count, digit) pairs as written."""

    cells: tuple[C.CellRef, ...]
    clue: str


def clue_counts(clue: str, digits: int | range, what: str) -> dict[int, int]:
    """The clue as digit -> exact count (0: barred), or a ModelError naming `what`
    (`digits` a range, or n for 1..n)."""
    digits = digit_range(digits)
    if not clue or len(clue) % 2 or not clue.isdigit():
        raise ModelError(f"{what}: the clue {clue!r} must be (count, digit) pairs of digits, "
                         f"such as 1324")
    counts: dict[int, int] = {}
    for k in range(0, len(clue), 2):
        count, digit = int(clue[k]), int(clue[k + 1])
        if digit not in digits:
            raise ModelError(f"{what}: the clue {clue} names the digit {digit}, outside "
                             f"{shown(digits)}")
        if digit in counts:
            raise ModelError(f"{what}: the clue {clue} names the digit {digit} twice")
        counts[digit] = count
    return counts


class LookAndSay(CellRule):
    name: ClassVar[str] = "look-and-say"
    noun: ClassVar[str] = "look-and-say group"
    key: ClassVar[str] = "look_and_say"
    shape: ClassVar[str] = "clue"
    meaning: ClassVar[str] = ("the clue read as (count, digit) pairs: 1324 means exactly one "
                              "3 and two 4s in the cells (a count of 0 bars the digit); other "
                              "digits are free")

    def entry(self, element):
        return {"cells": C.names(element.cells), "clue": element.clue}

    def label(self, i, element):
        return (f"{self.noun} {i} ({element.clue})"
                + (f" at {C.name(element.cells[0])}" if element.cells else ""))

    def check_group(self, element, cells, geometry: Geometry, what):
        counts = clue_counts(element.clue, geometry.digits, what)
        if sum(counts.values()) > len(cells):
            raise ModelError(f"{what}: the clue asks for {sum(counts.values())} digits in "
                             f"{len(cells)} cells")
        barred = {v for v, k in counts.items() if k == 0}
        if len(barred) == len(geometry.digits):
            raise ModelError(f"{what}: the clue bars every digit")

    def element_constraints(self, i, element, cells, geometry):
        label = self.label(i, element)
        digits = geometry.digits
        counts = clue_counts(element.clue, digits, label)
        barred = {v for v, k in counts.items() if k == 0}
        if barred:
            yield InSet(cells, values=frozenset(digits) - barred, label=label)
        for value, times in sorted(counts.items()):
            if times:
                yield Regular(cells, automaton=count_of(digits, value, frozenset({times})),
                              label=f"{label}: {value}")


SET_RULES: tuple[type[CellRule], ...] = (SameValues, LookAndSay)

__all__ = ["SET_RULES", "Clue", "LookAndSay", "Parts", "SameValues", "clue_counts",
           "same_multiset"]
