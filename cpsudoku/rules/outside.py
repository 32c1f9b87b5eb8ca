"""Outside clues with the meaning the Interactive Sudoku Solver gives them.

A clue stands at one end of a row or column (`side` "start": left of a row, above a
column; "end": right of a row, below a column) and reads the line from there. Each
clue is a regular language over the digits of its line, lowered to one `Regular`
constraint (see `outside_automata.py`):

- sandwiches: the digits between the smallest and the largest digit (1 and 9 on 9x9)
  sum to the clue; a row of fewer cells than digits holds neither for sure, so there
  the crusts are its own smallest and largest digits (a lunchbox, as ISS reads it);
- x-sums: the first X digits sum to the clue, X the first digit (counted itself);
- skyscrapers: the clue counts the digits taller than every digit before them;
- numbered rooms: the Xth digit is the clue, X the first digit;
- hidden skyscrapers: the first digit lower than one before it is the clue;
- lunchboxes: the digits between the smallest and the largest sum to the clue; on a
  whole row or column holding every digit those are the smallest and largest digits
  (a sandwich), and a lunchbox may also be any list of cells, in order, holding
  different digits.

Counts read from a digit (x-sums, numbered rooms, value indexing) are the digit itself,
1-based as ISS reads them: on a 0-indexed grid a 0 there counts nothing and cannot be.

Value indexing is a line rule of the same kind: the second digit k of the line says
the digit k cells on from the first equals the first.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from ..errors import ModelError, NeverHolds
from ..grid.automaton import Automaton
from ..grid.constraints import AllDifferent, Constraint, Regular, Sandwich, XSum
from ..grid.geometry import Geometry
from . import cells as C
from . import outside_automata as automata
from .alphabet import one_per_cell, shown
from .element import ElementRule

SIDES = ("start", "end")
_WHERE = {("row", "start"): "left of", ("row", "end"): "right of",
          ("column", "start"): "above", ("column", "end"): "below"}


@dataclass(frozen=True)
class OutsideClue:
    """A clue at one end of a row or column (`line` "row" or "column", `index`
    1-based), or, for lunchboxes, over listed cells (`cells`, in order)."""

    value: int
    line: str = "row"
    index: int = 0
    side: str = "start"
    cells: tuple[C.CellRef, ...] = ()

    def where(self) -> str:
        if self.cells:
            return f"at {C.name(self.cells[0])}"
        return f"{_WHERE.get((self.line, self.side), self.side)} {self.line} {self.index}"

    def data(self) -> dict:
        if self.cells:
            return {"cells": C.names(self.cells), "value": self.value}
        return {self.line: self.index, "side": self.side, "value": self.value}


def line_cells(line: str, index: int, side: str, geometry: Geometry) -> list[C.Ref]:
    """The cells of a row or column, read from the clue's side."""
    along = [(index, k) for k in range(1, geometry.width + 1)] if line == "row" else [
        (k, index) for k in range(1, geometry.size + 1)]
    return along if side == "start" else along[::-1]


class OutsideRule(ElementRule):
    key: ClassVar[str]  # the puzzle-file key
    meaning: ClassVar[str]  # one line, for listings
    least: ClassVar[int] = 1  # the smallest clue
    # A clue whose line means the same read from either end is read from the start, so
    # that a clue moved to the other side is the same constraint.
    reads_both_ways: ClassVar[bool] = False
    reads_houses: ClassVar[bool] = True  # a clue counts on its line's digits differing

    def __init__(self, clues: Iterable):
        super().__init__(tuple(clues))

    def describe(self) -> str:
        return f"{self.key.replace('_', ' ')} ({len(self.elements)}): {self.meaning}"

    def data(self) -> dict:
        return {self.key: [clue.data() for clue in self.elements]}

    def label(self, i: int, clue: OutsideClue) -> str:
        return f"{self.noun} {i} ({clue.value}) {clue.where()}"

    def most(self, geometry: Geometry, length: int) -> int:
        """The largest clue that can make sense on a line of `length` cells."""
        return length

    def clue_range(self, geometry: Geometry, length: int) -> tuple[int, int]:
        """The smallest and largest clue that can make sense on a line of `length` cells."""
        return self.least, self.most(geometry, length)

    def check_element(self, i, clue, geometry):
        what = self.label(i, clue)
        if isinstance(clue.value, bool) or not isinstance(clue.value, int):
            raise ModelError(f"{self.noun} {i}: its value must be a whole number, "
                             f"not {clue.value!r}")
        if clue.cells:
            return self.check_cells(clue, geometry, what)
        if clue.line not in ("row", "column"):
            raise ModelError(f"{self.noun} {i}: it stands beside a row or a column, "
                             f"not {clue.line!r}")
        if clue.side not in SIDES:
            raise ModelError(f"{what}: side must be start or end, not {clue.side!r}")
        lines = geometry.size if clue.line == "row" else geometry.width
        if not 1 <= clue.index <= lines:
            raise ModelError(f"{what}: {clue.line} {clue.index} is outside the "
                             f"{geometry.shape} grid")
        side = "start" if self.reads_both_ways else clue.side
        cells = C.resolve(line_cells(clue.line, clue.index, side, geometry), geometry, what)
        least, most = self.clue_range(geometry, len(cells))
        if not least <= clue.value <= most:
            raise ModelError(f"{what}: the clue {clue.value} is outside "
                             f"{least}..{most} on {geometry.shape}")
        self.check_fits(self.automaton(clue, geometry, len(cells)), cells, geometry.digits,
                        what)
        return cells

    def check_cells(self, clue: OutsideClue, geometry: Geometry, what: str) -> tuple[int, ...]:
        raise ModelError(f"{what}: a {self.noun} stands beside a row or column, "
                         f"not on listed cells")

    @staticmethod
    def check_fits(automaton: Automaton, cells, digits: range, what: str) -> None:
        if not automaton.fits(len(cells), digits):
            raise NeverHolds(f"{what}: no digits {shown(digits)} fit its {len(cells)} cells")

    def automaton(self, clue: OutsideClue, geometry: Geometry, length: int) -> Automaton:
        raise NotImplementedError  # pragma: no cover - overridden

    # On a line holding every digit once, the constraint a clue becomes when the native
    # engine reads it in a way of its own (its total the clue); the rest, an automaton.
    whole_line: ClassVar[type[Sandwich] | type[XSum] | None] = None

    def element_constraints(self, i, clue, cells, geometry):
        label = self.label(i, clue)
        automaton = self.automaton(clue, geometry, len(cells))
        if self.whole_line and one_per_cell(geometry) and len(cells) == len(geometry.digits):
            yield self.whole_line(cells, automaton=automaton, total=clue.value, label=label)
        else:
            yield Regular(cells, automaton=automaton, label=label)


def _between_most(geometry: Geometry, length: int) -> int:
    """The largest sum between the two ends of a line: its other length-2 digits, the
    largest below the largest digit (every other digit when the line holds them all)."""
    below = geometry.digits[:-1]
    return sum(below[len(below) - (length - 2):]) if length > 2 else 0


def _digit_counts(geometry: Geometry) -> tuple[int, int]:
    """The clues that name a digit (numbered and hidden skyscrapers): any digit."""
    return geometry.digits[0], geometry.digits[-1]


class Sandwiches(OutsideRule):
    name: ClassVar[str] = "sandwich"
    noun: ClassVar[str] = "sandwich"
    key: ClassVar[str] = "sandwiches"
    least: ClassVar[int] = 0
    reads_both_ways: ClassVar[bool] = True
    meaning: ClassVar[str] = ("the digits between the smallest and the largest digit of the "
                              "row or column sum to the clue (0: they are neighbours)")
    whole_line = Sandwich  # the native engine's own pass

    def most(self, geometry, length):
        return _between_most(geometry, length)

    def automaton(self, clue, geometry, length):
        if one_per_cell(geometry):
            return automata.sandwich(geometry.digits, clue.value)
        return automata.lunchbox(geometry.digits, clue.value, length)



class XSums(OutsideRule):
    any_shape: ClassVar[bool] = True  # its cells are named: any R x C grid
    name: ClassVar[str] = "x-sum"
    noun: ClassVar[str] = "x-sum"
    key: ClassVar[str] = "x_sums"
    meaning: ClassVar[str] = ("the first X digits from the clue's side sum to the clue, X "
                              "being the first digit (it counts itself)")
    whole_line = XSum  # sums of different digits, one per X, in the native engine

    def most(self, geometry, length):
        # X (1..length) and the X-1 largest other digits
        digits = geometry.digits
        return max((x + sum(sorted(set(digits) - {x})[len(digits) - x:])
                    for x in digits if 1 <= x <= length), default=0)

    def automaton(self, clue, geometry, length):
        return automata.x_sum(geometry.digits, clue.value)



class Skyscrapers(OutsideRule):
    any_shape: ClassVar[bool] = True  # its cells are named: any R x C grid
    name: ClassVar[str] = "skyscraper"
    noun: ClassVar[str] = "skyscraper"
    key: ClassVar[str] = "skyscrapers"
    meaning: ClassVar[str] = ("the clue counts the digits seen from its side, a digit seen "
                              "when it is taller than every digit before it")

    def automaton(self, clue, geometry, length):
        return automata.skyscraper(geometry.digits, clue.value, length)


class NumberedRooms(OutsideRule):
    any_shape: ClassVar[bool] = True  # its cells are named: any R x C grid
    name: ClassVar[str] = "numbered-room"
    noun: ClassVar[str] = "numbered room"
    key: ClassVar[str] = "numbered_rooms"
    meaning: ClassVar[str] = ("the clue is the digit in the Xth cell from its side, X being "
                              "the first digit")

    def clue_range(self, geometry, length):
        return _digit_counts(geometry)

    def automaton(self, clue, geometry, length):
        return automata.numbered_room(geometry.digits, clue.value)


class HiddenSkyscrapers(OutsideRule):
    any_shape: ClassVar[bool] = True  # its cells are named: any R x C grid
    name: ClassVar[str] = "hidden-skyscraper"
    noun: ClassVar[str] = "hidden skyscraper"
    key: ClassVar[str] = "hidden_skyscrapers"
    meaning: ClassVar[str] = ("the clue is the first digit from its side lower than a digit "
                              "before it (the first hidden skyscraper)")

    def clue_range(self, geometry, length):
        return _digit_counts(geometry)

    def automaton(self, clue, geometry, length):
        return automata.hidden_skyscraper(geometry.digits, clue.value)


class Lunchboxes(OutsideRule):
    name: ClassVar[str] = "lunchbox"
    noun: ClassVar[str] = "lunchbox"
    key: ClassVar[str] = "lunchboxes"
    least: ClassVar[int] = 0
    reads_both_ways: ClassVar[bool] = True
    meaning: ClassVar[str] = ("the digits between the smallest and the largest digit of the "
                              "row, column or listed cells (which differ) sum to the clue")

    def most(self, geometry, length):
        return _between_most(geometry, length)

    def check_cells(self, clue, geometry, what):
        digits = geometry.digits
        if len(clue.cells) < 2:
            raise ModelError(f"{what}: a lunchbox needs at least two cells")
        if len(clue.cells) > len(digits):
            raise ModelError(f"{what}: {len(clue.cells)} different digits do not fit in "
                             f"{shown(digits)}")
        if clue.value < 0:
            raise ModelError(f"{what}: the clue {clue.value} must be 0 or more")
        cells = C.resolve(clue.cells, geometry, what)
        self.check_fits(self.automaton(clue, geometry, len(cells)), cells, digits, what)
        return cells

    def automaton(self, clue, geometry, length):
        digits = geometry.digits
        if length == len(digits):  # every digit once: between the smallest and largest
            return automata.sandwich(digits, clue.value)
        return automata.lunchbox(digits, clue.value, length)

    def element_constraints(self, i, clue, cells, geometry):
        if clue.cells:
            yield AllDifferent(cells, label=self.label(i, clue))
        yield from super().element_constraints(i, clue, cells, geometry)


OUTSIDE_RULES: tuple[type[OutsideRule], ...] = (
    Sandwiches, XSums, Skyscrapers, NumberedRooms, Lunchboxes, HiddenSkyscrapers)
"""Every outside-clue rule, in the order of the puzzle-file keys."""


class ValueIndexing(ElementRule):
    any_shape: ClassVar[bool] = True  # its cells are named: any R x C grid
    name: ClassVar[str] = "value-indexing"
    noun: ClassVar[str] = "value-indexing arrow"
    key: ClassVar[str] = "value_indexing"
    meaning: ClassVar[str] = ("an arrow from a digit X: the digit in its second cell says how "
                              "many cells along the arrow the same X stands")

    def __init__(self, lines: Iterable):
        super().__init__(tuple(C.refs(line) for line in lines))

    def describe(self) -> str:
        return f"value indexing ({len(self.elements)}): {self.meaning}"

    def data(self) -> dict:
        return {self.key: [C.names(line) for line in self.elements]}

    def label(self, i, line):
        return f"{self.noun} {i}" + (f" at {C.name(line[0])}" if line else "")

    def check_element(self, i, line, geometry):
        what = self.label(i, line)
        if len(line) < 3:
            raise ModelError(f"{what} needs its start, the cell of the count and at least "
                             f"one more cell")
        # a cell may come back along the arrow (ISS's Bates Motel counts from its second
        # cell, listed again as the first cell passed)
        cells = C.resolve(line, geometry, what, repeats=True)
        C.require_chain([c for i, c in enumerate(line) if i == 0 or c != line[i - 1]], what)
        OutsideRule.check_fits(automata.value_indexing(geometry.digits), cells, geometry.digits,
                               what)
        return cells

    def element_constraints(self, i, line, cells, geometry) -> Iterable[Constraint]:
        yield Regular(cells, automaton=automata.value_indexing(geometry.digits),
                      label=self.label(i, line))
