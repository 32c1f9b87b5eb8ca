"""Full rank: outside clues that rank every row and column read as a number, with the
meaning the Interactive Sudoku Solver gives them (its FullRank and FullRankTies).

Each row read from the left and from the right, and each column read from the top and
from the bottom, is a number of N digits: 4N readings in all. A clue at one end of a
row or column gives the rank of the reading from that end among all 4N: one more than
the number of readings smaller than it (the smallest is ranked 1). The rule's `ties`
says which readings may be equal ("only-unclued", the default; "any"; "none").

Lowering: each clue's first cell holds the ceil(rank / 4)-th smallest digit (four
readings start with each digit), and one `FullRank` constraint holds every clue and the
tie rule (see `grid/ranks.py`, which also restates it as automata for the backends that
read those). Ranks compare readings only, so 0-indexed digits rank as 1..N do; a row
of fewer cells than digits would leave the four-per-digit count, so as ISS the rule
needs exactly N digits.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import ClassVar

from ..errors import ModelError
from ..grid.automaton import Automaton
from ..grid.constraints import InSet
from ..grid.geometry import Geometry
from ..grid.ranks import (
    DEFAULT_TIES,
    EDGES,
    TIES,
    FullRank,
    first_digit,
    reading_of,
    smaller_readings,
)
from .alphabet import one_per_cell, refuse_unless
from .outside import OutsideClue, OutsideRule

TIES_KEY = "full_rank_ties"  # the puzzle-file key of the tie rule


class FullRanks(OutsideRule):
    name: ClassVar[str] = "full-rank"
    noun: ClassVar[str] = "full-rank clue"
    key: ClassVar[str] = "full_ranks"
    meaning: ClassVar[str] = ("every row and column read from both ends is a number; the "
                              "clue is the rank, from 1 (smallest) to 4N, of the number read "
                              "from its side")

    def __init__(self, clues: Iterable, ties: str = DEFAULT_TIES):
        super().__init__(clues)
        self.ties = ties

    def _key(self):
        return (self.elements, self.ties)

    def __repr__(self):
        return f"FullRanks({list(self.elements)!r}, ties={self.ties!r})"

    def describe(self) -> str:
        shown = "" if self.ties == DEFAULT_TIES else f"; ties: {self.ties}"
        return f"full ranks ({len(self.elements)}{shown}): {self.meaning}"

    def data(self) -> dict:
        out: dict = {self.key: [clue.data() for clue in self.elements]} if self.elements else {}
        if self.ties != DEFAULT_TIES:
            out[TIES_KEY] = self.ties
        return out

    def most(self, geometry: Geometry, length: int) -> int:
        return 4 * geometry.size  # a rank among the grid's 4N readings

    def automaton(self, clue, geometry, length):
        """What the clue says of its own reading alone: its first digit."""
        return _starts_with(geometry.digits, _first(clue, geometry))

    def validate(self, geometry: Geometry) -> None:
        refuse_unless(one_per_cell(geometry), "full-rank", "as many digits as a row has "
                      "cells (each digit starts four readings)", geometry)
        if self.ties not in TIES:
            raise ModelError(f"{TIES_KEY}: {self.ties!r} is not one of {', '.join(TIES)}")
        super().validate(geometry)
        seen: dict[tuple, int] = {}
        for i, clue in enumerate(self.elements, 1):
            place = (clue.line, clue.index, clue.side)
            if place in seen:
                j = seen[place]
                raise ModelError(f"{self.label(i, clue)}: {self.label(j, self.elements[j - 1])} "
                                 f"already stands there")
            seen[place] = i

    def element_constraints(self, i, clue: OutsideClue, cells, geometry):
        yield InSet(cells[:1], values=frozenset({_first(clue, geometry)}),
                    label=self.label(i, clue))

    def extra_constraints(self, geometry, used):
        n = geometry.size
        if not self.elements and self.ties != "none":
            return
        yield FullRank(tuple(range(n * n)), size=n, ties=self.ties, label="full rank",
                       clues=tuple((reading_of(c.line, c.index, c.side, n), c.value)
                                   for c in self.elements),
                       names=tuple(self.label(i, c) for i, c in enumerate(self.elements, 1)))


def _first(clue: OutsideClue, geometry: Geometry) -> int:
    """The digit the clue's reading starts with: the ceil(rank / 4)-th smallest."""
    return geometry.digits[first_digit(clue.value) - 1]


@cache
def _starts_with(digits: range, first: int) -> Automaton:
    return Automaton.build("start", lambda s, v: "any" if s == "any" or v == first else None,
                           lambda s: s == "any", digits)


__all__ = ["DEFAULT_TIES", "EDGES", "TIES", "TIES_KEY", "FullRanks", "first_digit",
           "smaller_readings"]
