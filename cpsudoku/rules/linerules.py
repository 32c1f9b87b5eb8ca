"""Line rules with the meaning the Interactive Sudoku Solver gives them.

Each rule is a list of lines (cells in order, each touching the next); some
take a parameter (a whisper's difference, a modular line's modulus, a sum
line's total). A rule lowers to the vocabulary where it is plainest:

- regular languages read along the line (`Regular`, see `automata.py`):
  whispers, parity lines, slow thermometers, entropic and modular lines,
  sum lines (free segments adding up to the total);
- sums: region-sum lines, zipper lines, double arrows;
- tables over pairs or triples: renban (pairwise distinct, within the
  line's length), palindromes, between and lockout lines.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import ClassVar

from ..errors import ModelError, NeverHolds
from ..grid.constraints import AllDifferent, Allowed, Constraint, Regular, Sum
from ..grid.geometry import Geometry
from . import automata
from . import cells as C
from .alphabet import entropy_thirds, shown
from .element import ElementRule


@dataclass(frozen=True)
class Line:
    """A line's cells in order, and its parameter when given (None: the rule's default)."""

    cells: tuple[C.CellRef, ...]
    value: int | None = None
    loop: bool = False  # the last cell touches the first and the line closes there


class LineRule(ElementRule):
    any_shape: ClassVar[bool] = True  # its cells are named: any R x C grid
    key: ClassVar[str]  # the puzzle-file key
    meaning: ClassVar[str]  # one line, for listings
    parameter: ClassVar[str | None] = None  # the name of the line's parameter, if it has one
    least_cells: ClassVar[int] = 2
    words: ClassVar[str] = "at least two cells"
    # How far apart one cell may stand twice on a line (a line crossing itself, a loop
    # closed on its first cell): rules read over runs of this many cells keep their
    # meaning then; None: a repeat is refused.
    repeats_apart: ClassVar[int | None] = None
    loops: ClassVar[bool] = False  # whether a line may close on itself (`loop = true`)

    def __init__(self, lines: Iterable):
        super().__init__(tuple(line if isinstance(line, Line) else Line(C.refs(line))
                               for line in lines))

    def describe(self) -> str:
        return f"{self.key.replace('_', ' ')} ({len(self.elements)}): {self.meaning}"

    def data(self):
        # all plain lists, or all tables as soon as one line has its own parameter or loops
        if all(line.value is None and not line.loop for line in self.elements):
            return {self.key: [C.names(line.cells) for line in self.elements]}
        return {self.key: [{"cells": C.names(line.cells)}
                           | ({} if line.value is None else {self.parameter: line.value})
                           | ({"loop": True} if line.loop else {})
                           for line in self.elements]}

    def label(self, i, line):
        return f"{self.noun} {i}" + (f" at {C.name(line.cells[0])}" if line.cells else "")

    def default(self, geometry: Geometry) -> int:
        return 0  # no parameter

    def value_of(self, line: Line, geometry: Geometry) -> int:
        return self.default(geometry) if line.value is None else line.value

    def check_value(self, value: int, geometry: Geometry, what: str) -> None:
        """Refuse a parameter that makes no sense on this grid."""

    def check_element(self, i, line, geometry):
        what = self.label(i, line)
        if len(line.cells) < self.least_cells:
            raise ModelError(f"{what} needs {self.words}")
        cells = C.resolve(line.cells, geometry, what, repeats=self.repeats_apart is not None)
        self.check_repeats(line.cells, what)
        C.require_chain(line.cells + line.cells[:1] if line.loop else line.cells, what)
        if line.loop and not self.loops:
            raise ModelError(f"{what}: a {self.noun} cannot loop (its meaning needs two ends)")
        if self.parameter is not None:
            value = self.value_of(line, geometry)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ModelError(f"{what}: {self.parameter} must be a whole number, "
                                 f"not {value!r}")
            self.check_value(value, geometry, what)
        self.check_line(cells, geometry, what)
        return cells

    def check_line(self, cells, geometry: Geometry, what: str) -> None:
        """Refuse a line this rule cannot hold on this grid."""

    def check_repeats(self, cells: Sequence[C.CellRef], what: str) -> None:
        """A cell listed twice must stand at least `repeats_apart` places from itself."""
        apart = self.repeats_apart
        if apart is None:
            return
        last: dict[C.CellRef, int] = {}
        for at, cell in enumerate(cells):
            if cell in last and at - last[cell] < apart:
                raise ModelError(
                    f"{what}: cell {C.name(cell)} is listed twice within {apart} places; "
                    f"the {self.noun}'s runs of {apart} cells would read it twice")
            last[cell] = at

    def element_constraints(self, i, line, cells, geometry):
        label = self.label(i, line)
        value = self.value_of(line, geometry)
        pieces = list(self.lower_loop(cells, value, geometry, label) if line.loop
                      else self.lower(cells, value, geometry, label))
        digits = geometry.digits
        full_domains = {c: frozenset(digits) for c in cells}
        for con in pieces:
            if isinstance(con, Regular):
                if not con.automaton.fits(len(con.cells), digits):
                    raise NeverHolds(f"{label}: no digits {shown(digits)} fit its "
                                     f"{len(cells)} cells")
        if len(set(cells)) < len(cells):
            # a cell read twice: the line's runs as tables, each over different cells
            return [piece for con in pieces
                    for piece in (con.decompose(full_domains) if isinstance(con, Regular)
                                  else [con])]
        return pieces

    def lower(self, cells, value: int, geometry: Geometry,
              label: str) -> Iterable[Constraint]:  # pragma: no cover - overridden
        raise NotImplementedError

    def lower_loop(self, cells, value: int, geometry: Geometry,
                   label: str) -> Iterable[Constraint]:  # pragma: no cover - overridden
        """A closed line (rules with `loops` only)."""
        raise NotImplementedError


def _pairs(cells, label: str, digits: range, keep) -> Iterator[Allowed]:
    """Tables over the given cell pairs, of the digit pairs that `keep` accepts."""
    table = C.pair_table(digits, keep)
    for a, b in cells:
        yield Allowed((a, b), table, label=label)


def _difference_range(value: int, geometry: Geometry, what: str, name: str) -> None:
    widest = geometry.digits[-1] - geometry.digits[0]
    if not 1 <= value <= widest:
        raise ModelError(f"{what}: {name} {value} is outside 1..{widest}")


# ---------------------------------------------------------------- regular languages

class Whispers(LineRule):
    name: ClassVar[str] = "whispers"
    noun: ClassVar[str] = "whisper"
    key: ClassVar[str] = "whispers"
    parameter: ClassVar[str | None] = "difference"
    meaning: ClassVar[str] = ("neighbours on the line differ by at least the difference "
                              "(5 on 9x9: German whispers)")
    repeats_apart: ClassVar[int | None] = 2  # read pair by pair: a line may cross itself

    def default(self, geometry):
        return (len(geometry.digits) + 1) // 2  # German: 5 with nine digits

    def check_value(self, value, geometry, what):
        _difference_range(value, geometry, what, "difference")

    def lower(self, cells, value, geometry, label):
        yield Regular(cells, automaton=automata.adjacent(geometry.digits, "differ-by", value),
                      label=label)


class DutchWhispers(Whispers):
    name: ClassVar[str] = "dutch-whispers"
    noun: ClassVar[str] = "dutch whisper"
    key: ClassVar[str] = "dutch_whispers"
    parameter: ClassVar[str | None] = None
    meaning: ClassVar[str] = "neighbours on the line differ by at least 4 (on 9x9)"

    def value_of(self, line, geometry):
        return (len(geometry.digits) + 1) // 2 - 1  # 4 with nine digits

    def check_line(self, cells, geometry, what):
        if len(geometry.digits) < 3:
            raise ModelError(f"{what}: dutch whispers need three digits or more (a grid of "
                             f"3x3 or more)")


class ParityLines(LineRule):
    name: ClassVar[str] = "parity-line"
    noun: ClassVar[str] = "parity line"
    key: ClassVar[str] = "parity_lines"
    meaning: ClassVar[str] = "digits alternate between odd and even along the line"
    repeats_apart: ClassVar[int | None] = 2

    def lower(self, cells, value, geometry, label):
        yield Regular(cells, automaton=automata.adjacent(geometry.digits, "parity"),
                      label=label)


class SlowThermometers(LineRule):
    name: ClassVar[str] = "slow-thermometer"
    noun: ClassVar[str] = "slow thermometer"
    key: ClassVar[str] = "slow_thermometers"
    meaning: ClassVar[str] = "digits never decrease from the bulb (first cell); repeats allowed"
    words: ClassVar[str] = "a bulb and at least one more cell"

    def lower(self, cells, value, geometry, label):
        yield Regular(cells, automaton=automata.adjacent(geometry.digits, "not-less"),
                      label=label)


class EntropicLines(LineRule):
    name: ClassVar[str] = "entropic-line"
    noun: ClassVar[str] = "entropic line"
    key: ClassVar[str] = "entropic_lines"
    meaning: ClassVar[str] = ("every three cells in a row on the line hold one low (1-3), "
                              "one middle (4-6) and one high (7-9) digit")
    repeats_apart: ClassVar[int | None] = 3  # read three by three

    def check_line(self, cells, geometry, what):
        entropy_thirds(geometry, "entropic lines", f"{what}: entropic lines need")

    def lower(self, cells, value, geometry, label):
        yield Regular(cells, automaton=automata.distinct_classes(
            geometry.digits, 3, entropy_thirds(geometry, "entropic lines", "entropic lines need")),
            label=label)


class ModularLines(LineRule):
    name: ClassVar[str] = "modular-line"
    noun: ClassVar[str] = "modular line"
    key: ClassVar[str] = "modular_lines"
    parameter: ClassVar[str | None] = "modulus"
    meaning: ClassVar[str] = ("every `modulus` cells in a row on the line differ modulo "
                              "`modulus` (3: one each of 147, 258, 369)")

    def default(self, geometry):
        return 3

    def check_value(self, value, geometry, what):
        count = len(geometry.digits)
        if not 2 <= value <= count:
            raise ModelError(f"{what}: modulus {value} is outside 2..{count}")

    def lower(self, cells, value, geometry, label):
        classes = tuple(d % value for d in geometry.digits)  # residues of the digits
        yield Regular(cells, automaton=automata.distinct_classes(geometry.digits, value,
                                                                 classes), label=label)


class SumLines(LineRule):
    name: ClassVar[str] = "sum-line"
    noun: ClassVar[str] = "sum line"
    key: ClassVar[str] = "sum_lines"
    parameter: ClassVar[str | None] = "total"
    meaning: ClassVar[str] = ("the line divides into segments of consecutive cells that each "
                              "sum to the total (10 unless given)")
    loops: ClassVar[bool] = True

    def default(self, geometry):
        return 10

    def check_value(self, value, geometry, what):
        if value < 1:
            raise ModelError(f"{what}: total {value} must be at least 1")

    def lower(self, cells, value, geometry, label):
        yield Regular(cells, automaton=automata.segment_sums(geometry.digits, value),
                      label=label)

    def lower_loop(self, cells, value, geometry, label):
        yield Regular(cells, automaton=automata.looped_segment_sums(geometry.digits, value,
                                                                     len(cells)), label=label)


# ---------------------------------------------------------------- sums

class RegionSumLines(LineRule):
    name: ClassVar[str] = "region-sum-line"
    reads_houses: ClassVar[bool] = True  # its stretches are cut by the regions
    noun: ClassVar[str] = "region sum line"
    key: ClassVar[str] = "region_sum_lines"
    meaning: ClassVar[str] = ("the digits of each stretch of the line inside one box (or "
                              "jigsaw region) have the same sum")

    @staticmethod
    def segments(cells, geometry: Geometry) -> list[tuple[int, ...]]:
        """The line cut where it crosses into another region."""
        region = geometry.region_of
        out: list[list[int]] = []
        for c in cells:
            if out and region[out[-1][-1]] == region[c]:
                out[-1].append(c)
            else:
                out.append([c])
        return [tuple(s) for s in out]

    def check_line(self, cells, geometry, what):
        if len(self.segments(cells, geometry)) < 2:
            raise ModelError(f"{what} stays inside one region: it must cross into another")

    def lower(self, cells, value, geometry, label):
        # every two segments, not only neighbours: a sum's bounds then reach each other
        # segment at once (ISS's region-sum puzzles, nodes to two solutions: Raw
        # Spaghetti 1,909 to 391, Region sum lines, hard 3,898 to 2,571, Beauty Mark
        # 191,209 to 134,718; one segment against all the others did worse)
        parts = self.segments(cells, geometry)
        for a, b in itertools.combinations(parts, 2):
            yield Sum(a + b, total=0, coeffs=(1,) * len(a) + (-1,) * len(b), label=label)


class ZipperLines(LineRule):
    name: ClassVar[str] = "zipper-line"
    noun: ClassVar[str] = "zipper line"
    key: ClassVar[str] = "zipper_lines"
    meaning: ClassVar[str] = ("cells at the same distance from the centre sum to the same "
                              "total: the centre digit when the length is odd")
    least_cells: ClassVar[int] = 3
    words: ClassVar[str] = "at least three cells"

    def lower(self, cells, value, geometry, label):
        k = len(cells)
        pairs = [(cells[i], cells[k - 1 - i]) for i in range(k // 2)]
        if k % 2:
            centre = cells[k // 2]
            for a, b in pairs:
                yield Sum((a, b, centre), total=0, coeffs=(1, 1, -1), label=label)
        else:  # every two pairs, as region-sum segments (The Zip that Zips the Zips:
            # 4,082 nodes to 1,057 against neighbouring pairs only)
            for (a, b), (c, d) in itertools.combinations(pairs, 2):
                yield Sum((a, b, c, d), total=0, coeffs=(1, 1, -1, -1), label=label)


class DoubleArrows(LineRule):
    name: ClassVar[str] = "double-arrow"
    noun: ClassVar[str] = "double arrow"
    key: ClassVar[str] = "double_arrows"
    meaning: ClassVar[str] = "the two end circles sum to the digits on the line between them"
    least_cells: ClassVar[int] = 3
    words: ClassVar[str] = "two ends and at least one cell between"

    def lower(self, cells, value, geometry, label):
        k = len(cells)
        yield Sum(cells, total=0, coeffs=(1,) + (-1,) * (k - 2) + (1,), label=label)


# ---------------------------------------------------------------- tables

class Renban(LineRule):
    name: ClassVar[str] = "renban"
    noun: ClassVar[str] = "renban line"
    key: ClassVar[str] = "renban"
    meaning: ClassVar[str] = "the line holds a set of consecutive digits, in any order"

    def check_line(self, cells, geometry, what):
        if len(cells) > len(geometry.digits):
            raise ModelError(f"{what}: {len(cells)} different consecutive digits do not fit "
                             f"in {shown(geometry.digits)}")

    def lower(self, cells, value, geometry, label):
        # distinct digits no further apart than the line is long: a run of consecutive ones
        k = len(cells)
        yield AllDifferent(cells, label=label)
        yield from _pairs(_all_pairs(cells), label, geometry.digits,
                          lambda a, b: a != b and abs(a - b) < k)


def _all_pairs(cells: Sequence[int]) -> list[tuple[int, int]]:
    return [(a, b) for i, a in enumerate(cells) for b in cells[i + 1:]]


class Palindromes(LineRule):
    name: ClassVar[str] = "palindrome"
    noun: ClassVar[str] = "palindrome"
    key: ClassVar[str] = "palindromes"
    meaning: ClassVar[str] = "the line reads the same from either end"

    def lower(self, cells, value, geometry, label):
        k = len(cells)
        yield from _pairs([(cells[i], cells[k - 1 - i]) for i in range(k // 2)], label,
                          geometry.digits, lambda a, b: a == b)


class _EndsRule(LineRule):
    """A line whose two ends (circles, diamonds) bound the cells between them."""

    least_cells: ClassVar[int] = 3
    words: ClassVar[str] = "two ends and at least one cell between"

    def middle(self, a: int, b: int, m: int) -> bool:  # pragma: no cover - overridden
        raise NotImplementedError

    def ends(self, a: int, b: int, value: int) -> bool:  # pragma: no cover - overridden
        raise NotImplementedError

    def lower(self, cells, value, geometry, label):
        digits = geometry.digits
        first, last = cells[0], cells[-1]
        yield from _pairs([(first, last)], label, digits, lambda a, b: self.ends(a, b, value))
        table = tuple((a, b, m) for a in digits for b in digits for m in digits
                      if self.ends(a, b, value) and self.middle(a, b, m))
        for m in cells[1:-1]:
            yield Allowed((first, last, m), table, label=label)


class BetweenLines(_EndsRule):
    name: ClassVar[str] = "between-line"
    noun: ClassVar[str] = "between line"
    key: ClassVar[str] = "between_lines"
    meaning: ClassVar[str] = ("digits on the line lie strictly between the digits in its two "
                              "end circles")

    def check_line(self, cells, geometry, what):
        if len(cells) - 2 > len(geometry.digits) - 2:
            raise ModelError(f"{what}: {len(cells) - 2} cells cannot lie strictly between "
                             f"two digits of {shown(geometry.digits)}")

    def ends(self, a, b, value):
        return abs(a - b) >= 2

    def middle(self, a, b, m):
        return min(a, b) < m < max(a, b)


class LockoutLines(_EndsRule):
    name: ClassVar[str] = "lockout-line"
    noun: ClassVar[str] = "lockout line"
    key: ClassVar[str] = "lockout_lines"
    parameter: ClassVar[str | None] = "difference"
    meaning: ClassVar[str] = ("the end diamonds differ by at least the difference (4 unless "
                              "given) and no digit on the line lies between them, inclusive")

    def default(self, geometry):
        return 4

    def check_value(self, value, geometry, what):
        _difference_range(value, geometry, what, "difference")

    def ends(self, a, b, value):
        return abs(a - b) >= value

    def middle(self, a, b, m):
        return m < min(a, b) or m > max(a, b)


LINE_RULES: tuple[type[LineRule], ...] = (
    Whispers, DutchWhispers, Renban, Palindromes, RegionSumLines, BetweenLines, LockoutLines,
    EntropicLines, ModularLines, ParityLines, ZipperLines, SumLines, SlowThermometers,
    DoubleArrows)
"""Every line rule, in the order of the puzzle-file keys."""
