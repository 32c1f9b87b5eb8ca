"""Full rank: outside clues that rank every row and column read as a number, with the
meaning the Interactive Sudoku Solver gives them (its FullRank and FullRankTies).

Each row read from the left and from the right, and each column read from the top and
from the bottom, is a number of N digits: 4N readings in all. A clue at one end of a
row or column gives the rank of the reading from that end among all 4N: one more than
the number of readings smaller than it (the smallest is ranked 1). Two readings tie
when they hold the same digits in the same order; the rule's `ties` says which may:

- "only-unclued" (the default): a clued reading ties with no other reading;
- "any": any readings may tie, clued ones too (a tied reading is not smaller);
- "none": no two of the 4N readings tie, clued or not, even with no clue at all.

Lowering, over the cells alone. Rows and columns hold every digit once, so each edge
of the grid starts exactly one reading with each digit: the readings smaller than one
that starts with v are the 4(v-1) that start lower, and those of the other three
edges that start with v too and read smaller. A clue of rank r therefore says: its
first cell holds v = ceil(r / 4), and exactly k = (r - 1) mod 4 of the other edges'
v-readings are smaller than it (and, unless ties are "any", none is equal to it).

That count is one `Regular` per clue, read along every reading of the other three
edges in turn, each a block of 2N - 1 cells: the reading's first cell, then the clued
reading's digits and its own alternately (e2 f2 e3 f3 ...). The state is the place in
the block, how many smaller readings were met, and where the comparison stands (not
starting with v: skipped; equal so far; a clued digit waiting for the other's;
smaller; larger): about (2N - 1) * (k + 1) * (N + 4) states, shared by every clue of a
size. No state counts readings per edge: the rows and columns already leave each edge
one v-reading. When k is 0 or 3 (every other v-reading larger, or every one smaller)
the count needs no state: one small `Regular` per block, quicker to propagate and each
its own step for the logical solver. "none" adds one small `Regular` per pair of
readings that could be equal, read in turns, accepting once they differ.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import ClassVar

from ..errors import ModelError
from ..grid.automaton import Automaton
from ..grid.constraints import InSet, Regular
from ..grid.geometry import Geometry
from . import cells as C
from .outside import OutsideClue, OutsideRule, line_cells

TIES = ("only-unclued", "any", "none")
DEFAULT_TIES = TIES[0]
TIES_KEY = "full_rank_ties"  # the puzzle-file key of the tie rule

# The four edges, in ISS's order: rows from the left and from the right, then columns
# from the top and from the bottom.
EDGES = (("row", "start"), ("row", "end"), ("column", "start"), ("column", "end"))
_WAY = {("row", "start"): "from the left", ("row", "end"): "from the right",
        ("column", "start"): "from the top", ("column", "end"): "from the bottom"}

_SKIP, _EQUAL, _LESS, _MORE = "skip", "equal", "less", "more"


def first_digit(rank: int) -> int:
    """The digit a reading of this rank starts with: four readings start with each."""
    return (rank + 3) // 4


def _compared(size: int, first: int):
    """The step through one block (2N - 1 values): a reading's first digit, then the
    clued reading's digits and its own alternately. State: (place in the block, where
    the comparison stands); returns the outcome instead once the block is read."""
    block = 2 * size - 1

    def step(at, where, v):
        if at == 0:
            where = _EQUAL if v == first else _SKIP
        elif where == _EQUAL:  # the clued reading's digit: kept until the other's
            where = v
        elif isinstance(where, int):
            where = _EQUAL if v == where else _LESS if v < where else _MORE
        return (at + 1, where) if at + 1 < block else where

    return step


@cache
def _block(size: int, first: int) -> tuple[int, tuple, tuple]:
    """One block explored once: its state count (0 the start), the moves within it
    (state, value, next) and the moves that end it (state, value, outcome). The
    automata below repeat it, so they are put together by numbering alone: exploring
    each of them through `_compared` cost a full-rank puzzle most of its time."""
    compared = _compared(size, first)
    number = {(0, None): 0}
    queue = [(0, None)]
    inner, final = [], []
    for state in queue:
        for v in range(1, size + 1):
            nxt = compared(*state, v)
            if not isinstance(nxt, tuple):
                final.append((number[state], v, nxt))
                continue
            if nxt not in number:
                number[nxt] = len(number)
                queue.append(nxt)
            inner.append((number[state], v, number[nxt]))
    return len(number), tuple(inner), tuple(final)


@cache
def smaller_readings(size: int, first: int, smaller: int, ties: bool) -> Automaton:
    """Blocks of 2N - 1 values, one per reading of the other edges: its first digit, then
    the clued reading's digits and its own alternately. Accepted when exactly `smaller`
    of the readings that start with `first` read smaller than the clued one, and (unless
    `ties`) none reads the same. State b * S + s: b readings found smaller so far, at
    state s of the block."""
    states, inner, final = _block(size, first)
    transitions: list[tuple[int, int, int]] = []
    for below in range(smaller + 1):
        base = below * states
        transitions.extend((base + s, v, base + t) for s, v, t in inner)
        for s, v, outcome in final:
            if outcome == _EQUAL and not ties:
                continue
            after = below + (outcome == _LESS)
            if after <= smaller:
                transitions.append((base + s, v, after * states))
    return Automaton(0, frozenset({smaller * states}), tuple(transitions))


@cache
def one_reading(size: int, first: int, outcomes: frozenset[str]) -> Automaton:
    """One block: accepted when the reading does not start with `first`, or compares with
    the clued one as one of `outcomes` says ("less", "equal", "more": it is smaller ...)."""
    states, inner, final = _block(size, first)
    accepted = states  # the one state after the block, when it ends as `outcomes` allow
    ends = tuple((s, v, accepted) for s, v, outcome in final
                 if outcome == _SKIP or outcome in outcomes)
    return Automaton(0, frozenset({accepted}), inner + ends)


@cache
def differing(size: int) -> Automaton:
    """Two readings read in turns (a1 b1 a2 b2 ...): accepted once they differ."""
    def step(state, v):
        if state == "differ":
            return state
        if state == "same":  # a digit of the first reading, waiting for the second's
            return v
        return "same" if v == state else "differ"

    return Automaton.build("same", step, lambda s: s == "differ", range(1, size + 1))


def _in_turns(a, b) -> tuple[int, ...]:
    return tuple(c for pair in zip(a, b) for c in pair)


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
        n, label = geometry.size, self.label(i, clue)
        first = first_digit(clue.value)
        yield InSet(cells[:1], values=frozenset({first}), label=label)
        smaller = (clue.value - 1) % 4
        blocks = {}  # each reading of the other edges: its block
        for line, side in EDGES:
            if (line, side) == (clue.line, clue.side):
                continue
            for index in range(1, n + 1):
                other = C.resolve(line_cells(line, index, side, n), geometry, label)
                blocks[(line, index, side)] = (other[0], *_in_turns(cells[1:], other[1:]))
        ties = self.ties == "any"
        if smaller in (0, 3):  # every other v-reading larger (or tied), or every one smaller:
            # a short automaton per reading, each its own step for the logical solver
            outcomes = {_LESS} if smaller == 3 else {_MORE, _EQUAL} if ties else {_MORE}
            automaton = one_reading(n, first, frozenset(outcomes))
            for place, block in blocks.items():
                yield Regular(block, automaton=automaton,
                              label=f"{label} against {_reading(place)}")
            return
        yield Regular(tuple(c for block in blocks.values() for c in block), label=label,
                      automaton=smaller_readings(n, first, smaller, ties))

    def extra_constraints(self, geometry, used):
        if self.ties != "none":
            return
        n = geometry.size
        readings = {(line, index, side): C.resolve(line_cells(line, index, side, n), geometry,
                                                   self.noun)
                    for line, side in EDGES for index in range(1, n + 1)}
        for a, b in _could_tie(n):
            yield Regular(_in_turns(readings[a], readings[b]), automaton=differing(n),
                          label=f"full rank: no tie between {_reading(a)} and {_reading(b)}")


def _reading(place: tuple[str, int, str]) -> str:
    line, index, side = place
    return f"{line} {index} {_WAY[(line, side)]}"


def _could_tie(n: int) -> list[tuple[tuple, tuple]]:
    """The pairs of readings that may hold the same digits, each once. Two rows (columns)
    read the same way differ in every place (a column holds no digit twice), a row read
    both ways would be a palindrome, and two readings are equal exactly when both read
    backwards are: so two rows (or columns) read opposite ways, and a row and a column
    read from their starts or from opposite ends."""
    out = []
    for kind in ("row", "column"):
        for i in range(1, n + 1):
            for j in range(i + 1, n + 1):
                out.append(((kind, i, "start"), (kind, j, "end")))
    for i in range(1, n + 1):
        for j in range(1, n + 1):
            out.append((("row", i, "start"), ("column", j, "start")))
            out.append((("row", i, "start"), ("column", j, "end")))
    return out


@cache
def _starts_with(size: int, first: int) -> Automaton:
    return Automaton.build("start", lambda s, v: "any" if s == "any" or v == first else None,
                           lambda s: s == "any", range(1, size + 1))


__all__ = ["DEFAULT_TIES", "EDGES", "TIES", "TIES_KEY", "FullRanks", "differing",
           "first_digit", "one_reading", "smaller_readings"]
