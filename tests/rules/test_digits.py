"""Rules over digits other than 1..N: each rule states its meaning in the digits shown
(0..3 on a 0-indexed 4x4; 1..5 on a 4x4 holding five digits), as ISS reads it.

Each grid here is small enough to list every solution of the plain puzzle. A rule's
puzzle must have exactly those solutions whose digits keep the rule's definition,
written here directly over the digits; and the rule must bite (some grids fail it)
and hold somewhere. Rules without a meaning for such digits are refused by name.
"""

from __future__ import annotations

import re
from functools import cache

import pytest

from cpsudoku import boxed, solve
from cpsudoku.errors import ModelError, NeverHolds
from cpsudoku.grid.geometry import Geometry
from cpsudoku.grid.puzzle import Puzzle
from cpsudoku.rules import (
    XV,
    Arrow,
    Arrows,
    Cage,
    Clue,
    Killer,
    Kropki,
    LittleKiller,
    Mark,
    Parity,
    Thermometers,
    by_names,
)
from cpsudoku.rules import cellrules as CR
from cpsudoku.rules import cells as C
from cpsudoku.rules import linerules as L
from cpsudoku.rules import outside as O
from cpsudoku.rules.custom import RegexLine, RegexLines
from cpsudoku.rules.distinct import DistinctCount, DistinctCounts
from cpsudoku.rules.either import Alternative, Either
from cpsudoku.rules.full_rank import FullRanks
from cpsudoku.rules.indexing import Indexers, Indexing
from cpsudoku.rules.same_values import Clue as SayClue
from cpsudoku.rules.same_values import LookAndSay

pytestmark = pytest.mark.unit

LIMIT = 5000


def rows_as_regions(n: int, values: int) -> Geometry:
    return Geometry(n, tuple(tuple(range(r * n, r * n + n)) for r in range(n)), None,
                    values=values)


ZERO = boxed(4).with_digits(4, 0)  # 0..3, 288 grids
MORE = boxed(4).with_digits(5)  # 1..5 in 2x2 boxes; the last row given below
MORE_GIVENS = (0,) * 12 + (2, 5, 1, 3)
THREE = rows_as_regions(3, 4)  # 1..4 on 3x3, rows as regions: 1056 grids
SIX = rows_as_regions(4, 6)  # 1..6 on 4x4, for the refusals


@cache
def every_grid(geometry: Geometry, givens: tuple[int, ...] | None) -> frozenset:
    return frozenset(solved(geometry, givens, ()))


def solved(geometry: Geometry, givens, rules) -> set[tuple[int, ...]]:
    """The solutions, as digits."""
    puzzle = Puzzle(geometry, givens or (0,) * geometry.ncells, tuple(rules))
    result = solve(puzzle, "native", max_solutions=LIMIT)
    assert len(result.solutions) < LIMIT
    shift = geometry.first - 1
    return {tuple(v + shift for v in grid) for grid in result.solutions}


def at(grid, geometry: Geometry, *names: str) -> list[int]:
    """The digits of the named cells."""
    n = geometry.size
    return [grid[(r - 1) * n + c - 1] for r, c in C.refs(names)]


def row(grid, geometry: Geometry, r: int) -> list[int]:
    n = geometry.size
    return list(grid[(r - 1) * n:r * n])


def agree(rule, holds, geometry: Geometry = ZERO, givens=None) -> None:
    """The rule's solutions are exactly the grids whose digits keep `holds`."""
    base = every_grid(geometry, givens)
    want = {grid for grid in base if holds(grid)}
    assert 0 < len(want) < len(base)
    assert solved(geometry, givens, [rule]) == want


def sandwiched(line: list[int], low: int, high: int) -> int | None:
    """The sum between the digits low and high of a line (None: one is missing)."""
    if low not in line or high not in line:
        return None
    i, j = sorted((line.index(low), line.index(high)))
    return sum(line[i + 1:j])


def x_summed(line: list[int]) -> int | None:
    """The sum of the first X digits, X the first (None: no X cells to sum)."""
    x = line[0]
    return sum(line[:x]) if 1 <= x <= len(line) else None


def seen(line: list[int]) -> int:
    """How many digits are taller than all before them; a 0 is no building (ISS)."""
    count, tallest = 0, 0
    for d in line:
        if d > tallest:
            count, tallest = count + 1, d
    return count


def numbered(line: list[int]) -> int | None:
    x = line[0]
    return line[x - 1] if 1 <= x <= len(line) else None


def consecutive_only_at(grid, pairs: set[str]) -> bool:
    """Whether orthogonal neighbours of ZERO are consecutive exactly at the named pairs."""
    for r in range(1, 5):
        for c in range(1, 5):
            for r2, c2 in ((r, c + 1), (r + 1, c)):
                if r2 > 4 or c2 > 4:
                    continue
                a, b = f"r{r}c{c}", f"r{r2}c{c2}"
                marked = f"{a} {b}" in pairs
                if marked != (abs(z(grid, a)[0] - z(grid, b)[0]) == 1):
                    return False
    return True


def counts_itself(digits: list[int]) -> bool:
    """Whether each digit is how many of the cells hold it."""
    return all(digits.count(d) == d for d in digits)


def balanced(digits: list[int], low: set[int], high: set[int]) -> bool:
    """As many even digits as odd, and as many low as high (none other)."""
    evens = sum(d % 2 == 0 for d in digits)
    lows, highs = sum(d in low for d in digits), sum(d in high for d in digits)
    return 2 * evens == len(digits) and lows == highs and lows + highs == len(digits)


def apart(digits: list[int], least: int) -> bool:
    """Whether neighbours differ by `least` at least."""
    return all(abs(a - b) >= least for a, b in zip(digits, digits[1:]))


def segments_sum(digits: list[int], total: int) -> bool:
    """Whether the digits split into runs that each sum to `total`."""
    if not digits:
        return True
    return any(sum(digits[:i]) == total and segments_sum(digits[i:], total)
               for i in range(1, len(digits) + 1))


def readings(grid) -> list[list[int]]:
    """Every row and column of ZERO read from both ends, row 1 from the left first."""
    rows = [row(grid, ZERO, r) for r in range(1, 5)]
    cols = [z(grid, *(f"r{r}c{c}" for r in range(1, 5))) for c in range(1, 5)]
    return rows + [r[::-1] for r in rows] + cols + [c[::-1] for c in cols]


def line(cells: str, value=None, loop=False) -> L.Line:
    return L.Line(C.refs(cells), value, loop)


def group(cells: str, values=(), total=None) -> CR.Group:
    return CR.Group(C.refs(cells), tuple(values), total)


def clue(kind: str, index: int, value: int, side: str = "start") -> O.OutsideClue:
    return O.OutsideClue(value, kind, index, side)


# ---------------------------------------------------------------- 0-indexed: 0..3

def z(grid, *names):
    return at(grid, ZERO, *names)


WHITE = {"r1c1 r1c2", "r1c3 r1c4", "r2c1 r2c2", "r2c1 r3c1", "r2c2 r3c2", "r2c3 r2c4",
         "r2c3 r3c3", "r2c4 r3c4", "r3c1 r3c2", "r3c3 r3c4", "r4c1 r4c2", "r4c3 r4c4"}

ZERO_RULES = {
    "killer cage": (Killer([Cage.of(3, "r1c1 r2c1")]),
                    lambda g: sum(z(g, "r1c1", "r2c1")) == 3),
    "killer cage of repeats": (Killer([Cage.of(2, "r1c1 r2c2", distinct=False)]),
                               lambda g: sum(z(g, "r1c1", "r2c2")) == 2),
    "arrow": (Arrows([Arrow.of("r1c1", lines=[["r2c2", "r3c3"]])]),
              lambda g: z(g, "r1c1")[0] == sum(z(g, "r2c2", "r3c3"))),
    # a pill reads its digits as a number: a leading 0 leaves the second digit
    "pill arrow": (Arrows([Arrow.of(["r1c1", "r1c2"], lines=[["r2c3", "r3c3"]])]),
                   lambda g: 10 * z(g, "r1c1")[0] + z(g, "r1c2")[0]
                   == sum(z(g, "r2c3", "r3c3"))),
    "little killer": (LittleKiller([Clue.of(3, at="r0c1", direction="DR")]),
                      lambda g: sum(z(g, "r1c2", "r2c3", "r3c4")) == 3),
    "sandwich": (O.Sandwiches([clue("row", 1, 3), clue("column", 2, 0)]),
                 lambda g: sandwiched(row(g, ZERO, 1), 0, 3) == 3
                 and sandwiched(z(g, "r1c2", "r2c2", "r3c2", "r4c2"), 0, 3) == 0),
    "x-sum": (O.XSums([clue("row", 1, 4), clue("column", 1, 1, "end")]),
              lambda g: x_summed(row(g, ZERO, 1)) == 4
              and x_summed(z(g, "r4c1", "r3c1", "r2c1", "r1c1")) == 1),
    "skyscraper": (O.Skyscrapers([clue("row", 1, 3), clue("column", 3, 1)]),
                   lambda g: seen(row(g, ZERO, 1)) == 3
                   and seen(z(g, "r1c3", "r2c3", "r3c3", "r4c3")) == 1),
    "numbered room": (O.NumberedRooms([clue("row", 2, 0)]),
                      lambda g: numbered(row(g, ZERO, 2)) == 0),
    "lunchbox on cells": (O.Lunchboxes([O.OutsideClue(1, cells=C.refs("r1c1 r2c2 r3c3"))]),
                          lambda g: len(set(d := z(g, "r1c1", "r2c2", "r3c3"))) == 3
                          and sandwiched(d, min(d), max(d)) == 1),
    "kropki": (Kropki([Mark.of("white", "r1c1 r1c2"), Mark.of("black", "r3c1 r3c2")]),
               lambda g: abs(z(g, "r1c1")[0] - z(g, "r1c2")[0]) == 1
               and sorted(z(g, "r3c1", "r3c2")) == [1, 2]),
    "xv": (XV([Mark.of("V", "r1c1 r1c2")]), lambda g: sum(z(g, "r1c1", "r1c2")) == 5),
    "odd and even": (Parity(odd=["r1c1"], even=["r1c2", "r2c3"]),
                     lambda g: z(g, "r1c1")[0] % 2 == 1
                     and all(d % 2 == 0 for d in z(g, "r1c2", "r2c3"))),
    "thermometer": (Thermometers([["r1c1", "r2c2", "r3c3"]]),
                    lambda g: z(g, "r1c1")[0] < z(g, "r2c2")[0] < z(g, "r3c3")[0]),
    "whispers": (L.Whispers([line("r1c1 r2c2 r3c3")]),  # 2 for four digits
                 lambda g: apart(z(g, "r1c1", "r2c2", "r3c3"), 2)),
    "renban": (L.Renban([line("r1c1 r2c2 r3c3")]),
               lambda g: sorted(d := z(g, "r1c1", "r2c2", "r3c3"))
               == list(range(min(d), min(d) + 3))),
    "modular line": (L.ModularLines([line("r1c1 r2c2 r3c3", 3)]),
                     lambda g: len({d % 3 for d in z(g, "r1c1", "r2c2", "r3c3")}) == 3),
    "sum line": (L.SumLines([line("r1c1 r1c2 r1c3", 3)]),
                 lambda g: segments_sum(z(g, "r1c1", "r1c2", "r1c3"), 3)),
    "region sum line": (L.RegionSumLines([line("r2c1 r2c2 r2c3 r2c4")]),
                        lambda g: sum(z(g, "r2c1", "r2c2")) == sum(z(g, "r2c3", "r2c4"))),
    "zipper line": (L.ZipperLines([line("r1c1 r2c2 r3c3")]),
                    lambda g: z(g, "r1c1")[0] + z(g, "r3c3")[0] == z(g, "r2c2")[0]),
    "between line": (L.BetweenLines([line("r1c1 r1c2 r1c3")]),
                     lambda g: min(d := z(g, "r1c1", "r1c3")) < z(g, "r1c2")[0] < max(d)),
    "quadruple": (CR.Quadruples([group("r2c2 r2c3 r3c2 r3c3", (0, 3))]),
                  lambda g: {0, 3} <= set(z(g, "r2c2", "r2c3", "r3c2", "r3c3"))),
    "given candidates": (CR.GivenCandidates([group("r1c1", (0, 2))]),
                         lambda g: z(g, "r1c1")[0] in (0, 2)),
    "counting circles": (CR.CountingCircles([group("r1c1 r2c3 r3c2")]),
                         lambda g: counts_itself(z(g, "r1c1", "r2c3", "r3c2"))),
    "equality cage": (CR.EqualityCages([group("r1c1 r1c2")]),
                      # one even one odd, one of 0-1 and one of 2-3
                      lambda g: balanced(z(g, "r1c1", "r1c2"), {0, 1}, {2, 3})),
    "distinct count": (DistinctCounts([DistinctCount(C.ref("r4c4"), C.refs("r1c1 r2c2 r3c3"))]),
                       lambda g: z(g, "r4c4")[0] == len(set(z(g, "r1c1", "r2c2", "r3c3")))),
    # the digit k in r2c2 (1 or 2) says the kth cell after it holds r1c1's digit
    "value indexing": (O.ValueIndexing([C.refs("r1c1 r2c2 r3c1 r4c2")]),
                       lambda g: 1 <= (k := z(g, "r2c2")[0]) <= 2
                       and z(g, "r1c1")[0] == z(g, "r1c1", "r2c2", "r3c1", "r4c2")[1 + k]),
    "column indexing": (Indexing([Indexers("column", C.refs("r1c2"))]),
                        # the digit k in r1c2 says r1ck holds 2 (places from 1)
                        lambda g: 1 <= (k := z(g, "r1c2")[0]) <= 4
                        and row(g, ZERO, 1)[k - 1] == 2),
    "regex line": (RegexLines([RegexLine(C.refs("r1c1 r1c2 r1c3"), "0[23].")]),
                   lambda g: z(g, "r1c1")[0] == 0 and z(g, "r1c2")[0] in (2, 3)),
    # two 0s and no 1
    "look and say": (LookAndSay([SayClue(C.refs("r1c1 r2c2 r3c3"), "2001")]),
                     lambda g: (d := z(g, "r1c1", "r2c2", "r3c3")).count(0) == 2
                     and 1 not in d),
    "either": (Either([[Alternative(givens=((C.ref("r1c1"), 0),)),
                        Alternative(rules=(XV([Mark.of("V", "r1c1 r1c2")]),))]]),
               lambda g: z(g, "r1c1")[0] == 0 or sum(z(g, "r1c1", "r1c2")) == 5),
    # every white dot given: no other neighbours consecutive
    "negative kropki": (Kropki([Mark.of("white", pair) for pair in WHITE], negative=["white"]),
                        lambda g: consecutive_only_at(g, WHITE)),
    # row 1 read from the left is the smallest reading, tied with none
    "full rank": (FullRanks([clue("row", 1, 1)]),
                  lambda g: all(row(g, ZERO, 1) < other for other in readings(g)[1:])),
}


@pytest.mark.parametrize("name", ZERO_RULES)
def test_zero_indexed_rules_speak_digits(name):
    rule, holds = ZERO_RULES[name]
    agree(rule, holds)


# ---------------------------------------------------------------- more digits: 1..5 on 4x4

def m(grid, *names):
    return at(grid, MORE, *names)


MORE_RULES = {
    "killer cage": (Killer([Cage.of(9, "r1c1 r1c2")]),
                    lambda g: sum(m(g, "r1c1", "r1c2")) == 9),
    # a row of four of the five digits: the crusts are its own smallest and largest
    "sandwich": (O.Sandwiches([clue("row", 1, 3)]),
                 lambda g: sandwiched(d := row(g, MORE, 1), min(d), max(d)) == 3),
    "x-sum": (O.XSums([clue("row", 2, 9)]), lambda g: x_summed(row(g, MORE, 2)) == 9),
    "skyscraper": (O.Skyscrapers([clue("column", 1, 3, "end")]),
                   lambda g: seen(m(g, "r4c1", "r3c1", "r2c1", "r1c1")) == 3),
    "thermometer": (Thermometers([["r1c1", "r1c2", "r1c3", "r1c4"]]),
                    lambda g: row(g, MORE, 1) == sorted(set(row(g, MORE, 1)))),
    "whispers": (L.Whispers([line("r1c1 r1c2 r1c3")]),  # 3 for five digits
                 lambda g: apart(row(g, MORE, 1)[:3], 3)),
    "renban": (L.Renban([line("r1c1 r1c2 r2c2 r2c1")]),
               lambda g: max(d := m(g, "r1c1", "r1c2", "r2c2", "r2c1")) - min(d) == 3),
    "kropki": (Kropki([Mark.of("black", "r1c1 r1c2"), Mark.of("white", "r2c3 r2c4", 3)]),
               lambda g: sorted(m(g, "r1c1", "r1c2")) in ([1, 2], [2, 4])
               and abs(m(g, "r2c3")[0] - m(g, "r2c4")[0]) == 3),
    # the diagonals hold four different digits of the five
    "diagonal": (by_names("diagonal")[0],
                 lambda g: len(set(m(g, "r1c1", "r2c2", "r3c3", "r4c4"))) == 4
                 and len(set(m(g, "r4c1", "r3c2", "r2c3", "r1c4"))) == 4),
    "counting circles": (CR.CountingCircles([group("r1c1 r2c3 r3c2")]),
                         lambda g: counts_itself(m(g, "r1c1", "r2c3", "r3c2"))),
    "given candidates": (CR.GivenCandidates([group("r1c1", (5,))]),
                         lambda g: m(g, "r1c1")[0] == 5),
    "equality cage": (CR.EqualityCages([group("r1c1 r1c2")]),
                      # 1-2 low, 4-5 high, 3 neither
                      lambda g: balanced(m(g, "r1c1", "r1c2"), {1, 2}, {4, 5})),
}


@pytest.mark.parametrize("name", MORE_RULES)
def test_rules_over_more_digits_than_cells(name):
    rule, holds = MORE_RULES[name]
    agree(rule, holds, MORE, MORE_GIVENS)


def test_the_159_rule_with_more_digits_indexes_columns_only():
    """On 3x3 of 1..4 every column indexes: rXc1 holds the column of the 1 in row X, rXc2
    that of the 2, rXc3 that of the 3 (a 4 names no column)."""
    def holds(g):
        return all(1 <= (k := at(g, THREE, f"r{r}c{c}")[0]) <= 3
                   and at(g, THREE, f"r{r}c{k}")[0] == c
                   for r in range(1, 4) for c in range(1, 4))
    agree(by_names("159")[0], holds, THREE)


def test_dutch_flatmates_with_more_digits_take_the_middle_of_them():
    """On 3x3 of 1..4 the middle digit is 2: a 1 above it or a 4 below."""
    def holds(g):
        cell = {(r, c): at(g, THREE, f"r{r}c{c}")[0] for r in range(1, 4) for c in range(1, 4)}
        return all(d != 2 or cell.get((r - 1, c)) == 1 or cell.get((r + 1, c)) == 4
                   for (r, c), d in cell.items())
    agree(by_names("dutch-flatmates")[0], holds, THREE)


def test_global_mod_reads_the_residues_of_the_digits():
    """0..3 on 4x4: 0 and 3 share a residue, so a square needs a 1 and a 2."""
    square = by_names("global-mod")[0].constraints(ZERO)[0]
    assert square.automaton.accepts((3, 1, 2, 1)) and square.automaton.accepts((0, 2, 1, 3))
    assert not square.automaton.accepts((0, 1, 3, 1))


def test_disjoint_groups_over_regions_of_more_cells_than_a_row():
    """Four 3x3 regions of nine cells on 6x6 (digits 1..9): the cells at one place in
    their regions differ, four cells a group (as ISS's disjoint sets)."""
    squares = tuple(tuple(r * 6 + c for r in range(top, top + 3) for c in range(left, left + 3))
                    for top in (0, 3) for left in (0, 3))
    geometry = Geometry(6, squares, (3, 3), values=9)
    groups = [con.cells for con in by_names("disjoint-groups")[0].constraints(geometry)]
    assert sorted(groups) == sorted(tuple(sq[k] for sq in squares) for k in range(9))
    with pytest.raises(ModelError, match="rule disjoint-groups needs boxes that tile"):
        Puzzle(Geometry(6, squares, (2, 4), values=9), (0,) * 36, by_names("disjoint-groups"))


# ---------------------------------------------------------------- refused

REFUSED = [
    ("entropic line, 0-indexed", ZERO, lambda: L.EntropicLines([line("r1c1 r1c2 r1c3")]),
     "rule entropic lines needs digits from 1"),
    ("global-entropy, 0-indexed", boxed(9).with_digits(9, 0), lambda: by_names("global-entropy")[0],
     "rule global-entropy needs digits from 1"),
    ("anti-taxicab, 0-indexed", ZERO, lambda: by_names("anti-taxicab")[0],
     "rule anti-taxicab needs digits from 1"),
    ("dutch-flatmates, 0-indexed", ZERO, lambda: by_names("dutch-flatmates")[0],
     "rule dutch-flatmates needs digits from 1"),
    ("159, 0-indexed", Geometry(5, rows_as_regions(5, 5).regions, None, first=0),
     lambda: by_names("159")[0], "rule 159 needs digits from 1"),
    ("full rank, more digits", SIX, lambda: FullRanks([clue("row", 1, 1)]),
     "rule full-rank needs as many digits as a row has cells"),
    ("windoku, rows as regions", SIX, lambda: by_names("windoku")[0],
     "rule windoku needs 2x2 boxes"),
    ("indexer of the last column, 0-indexed", ZERO,
     lambda: Indexing([Indexers("column", C.refs("r2c4"))]),
     "column indexer r2c4: its place 4 is not one of the digits 0..3"),
    ("cage sum below its digits", ZERO, lambda: Killer([Cage.of(0, "r1c1 r2c1")]),
     "cage 1 (sum 0) at r1c1: 2 different digits from 0..3 sum to 1..5, not 0"),
    ("x of two digits 0..3", ZERO, lambda: XV([Mark.of("X", "r1c1 r1c2")]),
     "no two digits 0..3 satisfy it"),
    ("given candidate beyond the digits", SIX,
     lambda: CR.GivenCandidates([group("r1c1", (7,))]), "digit 7 is outside 1..6"),
]


@pytest.mark.parametrize("geometry, make, message", [r[1:] for r in REFUSED],
                         ids=[r[0] for r in REFUSED])
def test_rules_without_a_meaning_for_the_digits_are_refused(geometry, make, message):
    with pytest.raises(ModelError, match=re.escape(message)):
        Puzzle(geometry, (0,) * geometry.ncells, (make(),))


def test_an_unreachable_indexer_never_holds():
    with pytest.raises(NeverHolds):
        Puzzle(ZERO, (0,) * 16, (Indexing([Indexers("row", C.refs("r4c1"))]),))


def test_standard_digits_keep_their_entropic_thirds_and_more_digits_take_theirs():
    """1..6 on a 4x4 read by thirds of the digits: 1-2, 3-4, 5-6."""
    rule = L.EntropicLines([line("r1c1 r1c2 r1c3")])
    [con] = rule.constraints(SIX)
    assert con.automaton.accepts((1, 3, 5)) and con.automaton.accepts((6, 2, 4))
    assert not con.automaton.accepts((1, 2, 5))


def test_tables_sharing_rows_are_restated_once_and_still_share():
    """A 0-indexed rule's tables that share one row set (negative dots) share its
    restatement: the engines flatten a row set once, by identity."""
    from cpsudoku.grid.constraints import Allowed
    from cpsudoku.grid.digits import in_values

    zero = boxed(4, (2, 2), first=0)
    rows = tuple((a, b) for a in range(4) for b in range(4) if a + b != 5)
    first, second = in_values([Allowed((0, 1), rows), Allowed((2, 3), rows)], zero)
    assert first.tuples is second.tuples
    assert first.tuples == tuple((a + 1, b + 1) for a, b in rows)
