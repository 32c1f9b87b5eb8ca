"""Full rank: outside clues that rank every row and column read as a number, with the
meaning the Interactive Sudoku Solver gives them (its FullRank and FullRankTies).

Each row read from the left and from the right, and each column read from the top and
from the bottom, is a number of N digits: 4N readings in all. A clue at one end of a
row or column gives the rank of the reading from that end among all 4N: one more than
the number of readings smaller than it (the smallest is ranked 1). The rule's `ties`
says which readings may be equal ("only-unclued", the default; "any"; "none").

Lowering: each clue's first cell holds ceil(rank / 4) (four readings start with each
digit), and one `FullRank` constraint holds every clue and the tie rule (see
`grid/ranks.py`, which also restates it as automata for the backends that read those).
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

    def most(self, size: int) -> int:
        return 4 * size

    def automaton(self, clue, size, length):
        """What the clue says of its own reading alone: its first digit."""
        return _starts_with(size, first_digit(clue.value))

    def validate(self, geometry: Geometry) -> None:
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
        yield InSet(cells[:1], values=frozenset({first_digit(clue.value)}),
                    label=self.label(i, clue))

    def extra_constraints(self, geometry, used):
        n = geometry.size
        if not self.elements and self.ties != "none":
            return
        yield FullRank(tuple(range(n * n)), size=n, ties=self.ties, label="full rank",
                       clues=tuple((reading_of(c.line, c.index, c.side, n), c.value)
                                   for c in self.elements),
                       names=tuple(self.label(i, c) for i, c in enumerate(self.elements, 1)))


@cache
def _starts_with(size: int, first: int) -> Automaton:
    return Automaton.build("start", lambda s, v: "any" if s == "any" or v == first else None,
                           lambda s: s == "any", range(1, size + 1))


__all__ = ["DEFAULT_TIES", "EDGES", "TIES", "TIES_KEY", "FullRanks", "first_digit",
           "smaller_readings"]
