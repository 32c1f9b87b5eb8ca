"""Full rank as one constraint (`FullRank`), with the automata that restate it.

Each row read from the left and from the right, and each column read from the top and
from the bottom, is a number of N digits: 4N readings, numbered edge by edge (rows
from the left, rows from the right, columns from the top, columns from the bottom),
N per edge. A clue gives a reading's rank among all 4N: one more than the readings
smaller than it. Two readings tie when they hold the same digits in the same order;
`ties` says which may: "only-unclued" (a clued reading ties with none), "any", or
"none" (no two of the 4N readings tie, clued or not).

`FullRank` is one constraint over the whole grid so that an engine can reason on the
ranks together (the native engine has a pass of its own for it); `pieces` says the
same in the shared vocabulary, for every other backend and the logical solver.

The pieces, over the cells alone. Rows and columns hold every digit once, so each edge
of the grid starts exactly one reading with each digit: the readings smaller than one
that starts with v are the 4(v-1) that start lower, and those of the other three
edges that start with v too and read smaller. A clue of rank r therefore says: its
first cell holds v = ceil(r / 4) (a domain restriction the rule states itself), and
exactly k = (r - 1) mod 4 of the other edges' v-readings are smaller than it (and,
unless ties are "any", none is equal to it).

That count is one `Regular` per clue, read along every reading of the other three
edges in turn, each a block of 2N - 1 cells: the reading's first cell, then the clued
reading's digits and its own alternately (e2 f2 e3 f3 ...). The state is the place in
the block, how many smaller readings were met, and where the comparison stands (not
starting with v: skipped; equal so far; a clued digit waiting for the other's;
smaller; larger): about (2N - 1) * (k + 1) * (N + 4) states, shared by every clue of a
size. When k is 0 or 3 (every other v-reading larger, or every one smaller) the count
needs no state: one small `Regular` per block, each its own step for the logical
solver. "none" adds one small `Regular` per pair of readings that could be equal, read
in turns, accepting once they differ.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import ClassVar

from .automaton import Automaton
from .constraints import Constraint, Regular

TIES = ("only-unclued", "any", "none")
DEFAULT_TIES = TIES[0]

# The four edges, in ISS's order: rows from the left and from the right, then columns
# from the top and from the bottom.
EDGES = (("row", "start"), ("row", "end"), ("column", "start"), ("column", "end"))
_WAY = {("row", "start"): "from the left", ("row", "end"): "from the right",
        ("column", "start"): "from the top", ("column", "end"): "from the bottom"}

_SKIP, _EQUAL, _LESS, _MORE = "skip", "equal", "less", "more"


def reading_of(line: str, index: int, side: str, size: int) -> int:
    """The number of the reading of a row or column (index 1-based) from a side."""
    return EDGES.index((line, side)) * size + index - 1


def reading_cells(reading: int, size: int) -> tuple[int, ...]:
    """The grid cells (row-major, 0-based) of a reading, in reading order."""
    edge, i = divmod(reading, size)
    line, side = EDGES[edge]
    along = [i * size + k for k in range(size)] if line == "row" else [
        k * size + i for k in range(size)]
    return tuple(along if side == "start" else along[::-1])


def reading_name(reading: int, size: int) -> str:
    edge, i = divmod(reading, size)
    line, side = EDGES[edge]
    return f"{line} {i + 1} {_WAY[(line, side)]}"


def first_digit(rank: int) -> int:
    """The digit a reading of this rank starts with: four readings start with each."""
    return (rank + 3) // 4


@dataclass(frozen=True)
class FullRank(Constraint):
    """`cells`: the N*N grid cells, row by row. `clues`: (reading, rank) pairs, each
    reading numbered as `reading_of` does; `names` their labels, for messages."""

    size: int = 0
    clues: tuple[tuple[int, int], ...] = ()
    ties: str = DEFAULT_TIES
    names: tuple[str, ...] = field(default=(), compare=False)

    kind: ClassVar[str] = "ranks"

    def __post_init__(self):
        if len(self.cells) != self.size * self.size or self.ties not in TIES:
            raise ValueError(f"{self.describe()}: the N*N grid cells and one of {TIES}")

    def holds(self, values):
        n = self.size
        readings = [tuple(values[c] for c in reading_cells(j, n)) for j in range(4 * n)]
        if self.ties == "none" and len(set(readings)) < len(readings):
            return False
        for reading, rank in self.clues:
            mine = readings[reading]
            if 1 + sum(other < mine for other in readings) != rank:
                return False
            if self.ties != "any" and readings.count(mine) > 1:
                return False
        return True

    def decompose(self, domains):
        return list(self.pieces)

    @cached_property
    def pieces(self) -> tuple[Regular, ...]:
        """The same meaning as `Regular` constraints (see the module's notes), given
        the rows and columns hold every digit once and each clued reading's first
        cell its digit."""
        n = self.size
        out: list[Regular] = []
        names = self.names or tuple(f"full-rank clue {i}" for i in range(1, len(self.clues) + 1))
        for (reading, rank), label in zip(self.clues, names):
            out.extend(_clue_pieces(n, reading, rank, self.ties == "any", label))
        if self.ties == "none":
            for a, b in _could_tie(n):
                out.append(Regular(_in_turns(reading_cells(a, n), reading_cells(b, n)),
                                   automaton=differing(n),
                                   label=f"full rank: no tie between {reading_name(a, n)} "
                                         f"and {reading_name(b, n)}"))
        return tuple(out)


def _clue_pieces(n: int, reading: int, rank: int, ties: bool, label: str) -> list[Regular]:
    first, smaller = first_digit(rank), (rank - 1) % 4
    cells = reading_cells(reading, n)
    blocks = {}  # each reading of the other edges: its block
    for other in range(4 * n):
        if other // n != reading // n:
            theirs = reading_cells(other, n)
            blocks[other] = (theirs[0], *_in_turns(cells[1:], theirs[1:]))
    if smaller in (0, 3):  # every other v-reading larger (or tied), or every one smaller:
        # a short automaton per reading, each its own step for the logical solver
        outcomes = {_LESS} if smaller == 3 else {_MORE, _EQUAL} if ties else {_MORE}
        automaton = one_reading(n, first, frozenset(outcomes))
        return [Regular(block, automaton=automaton,
                        label=f"{label} against {reading_name(other, n)}")
                for other, block in blocks.items()]
    return [Regular(tuple(c for block in blocks.values() for c in block), label=label,
                    automaton=smaller_readings(n, first, smaller, ties))]


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


def _could_tie(n: int) -> list[tuple[int, int]]:
    """The pairs of readings that may hold the same digits, each once. Two rows (columns)
    read the same way differ in every place (a column holds no digit twice), a row read
    both ways would be a palindrome, and two readings are equal exactly when both read
    backwards are: so two rows (or columns) read opposite ways, and a row and a column
    read from their starts or from opposite ends."""
    row, col = reading_of("row", 1, "start", n), reading_of("column", 1, "start", n)
    row_back, col_back = reading_of("row", 1, "end", n), reading_of("column", 1, "end", n)
    out = []
    for start, back in ((row, row_back), (col, col_back)):
        for i in range(n):
            for j in range(i + 1, n):
                out.append((start + i, back + j))
    for i in range(n):
        for j in range(n):
            out.append((row + i, col + j))
            out.append((row + i, col_back + j))
    return out


__all__ = ["DEFAULT_TIES", "EDGES", "TIES", "FullRank", "differing", "first_digit",
           "one_reading", "reading_cells", "reading_name", "reading_of", "smaller_readings"]
