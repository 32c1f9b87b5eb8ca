"""Digits other than 1..N, on every backend: 0-indexed grids, and grids with more
digits than a row has cells (rows, columns and regions then hold different digits,
not all of them; a region of exactly V cells holds every one).

Each puzzle is small enough to list all its solutions. A plain enumeration written
here from the definition is the reference: every backend must return exactly its
solutions, each keeping the definition, and call a unique puzzle unique.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass

import pytest

from cpsudoku import BackendError, Puzzle, Status, backends, boxed, solve
from cpsudoku.backends import load
from cpsudoku.grid.constraints import AllDifferent, Sum
from cpsudoku.grid.geometry import Geometry
from cpsudoku.rules.chaos import Chaos

LIMIT = 500  # more than any puzzle here has solutions

# (id, backend, options, presolve): the native one also without its C kernel, and two
# backends on the domains native propagation leaves (exact cover sees fewer values).
VARIANTS = [
    ("native", "native", {}, False),
    ("native-python", "native", {"kernel": "python"}, False),
    ("naive", "naive", {}, False),
    ("python-constraint", "python-constraint", {}, False),
    ("cpsat", "cpsat", {}, False),
    ("sat", "sat", {}, False),
    ("mip", "mip", {}, False),
    ("choco", "choco", {}, False),
    ("dlx", "dlx", {}, False),
    ("dlx-presolve", "dlx", {}, True),
    ("sat-presolve", "sat", {}, True),
]


def values_of(text: str) -> tuple[int, ...]:
    """Givens as values 1..V (base 36, '.' blank), row by row."""
    return tuple(0 if ch == "." else int(ch, 36) for ch in text)


def rows_as_regions(n: int, values: int, first: int = 1) -> Geometry:
    return Geometry(n, tuple(tuple(range(r * n, r * n + n)) for r in range(n)), None,
                    values=values, first=first)


# Four 3x3 regions of 9 cells on a 6x6 grid holding 1..9 (each region holds them all).
SQUARES_6 = Geometry(6, tuple(tuple(r * 6 + c for r in range(top, top + 3)
                                    for c in range(left, left + 3))
                              for top in (0, 3) for left in (0, 3)), None, values=9)
# Nine 2x2 regions of 4 cells on a 6x6 grid holding 1..9: more regions than rows.
QUARTERS_6 = Geometry(6, tuple(tuple((top + r) * 6 + left + c for r in range(2) for c in range(2))
                               for top in (0, 2, 4) for left in (0, 2, 4)), None, values=9)
# A 4x4 grid of 0..7 in two regions of 8 cells (the top and bottom halves).
HALVES_4 = Geometry(4, (tuple(range(8)), tuple(range(8, 16))), None, values=8, first=0)
SIX = "1.3.6.5...1764.2.3..2....3.7....7496"


@dataclass(frozen=True)
class Cage:
    """Different values summing to a total (a killer cage, without the killer rule's
    checks, which speak of 1..N)."""

    cells: tuple[int, ...]
    total: int
    name: str = "cage"

    def constraints(self, geometry):
        return (Sum(self.cells, total=self.total, label="cage"),
                AllDifferent(self.cells, label="cage"))

    def holds(self, grid) -> bool:
        picked = [grid[c] for c in self.cells]
        return sum(picked) == self.total and len(set(picked)) == len(picked)


# id -> (puzzle, whether it has exactly one solution)
PUZZLES = {
    "4x4 of 0..3": (Puzzle(boxed(4).with_digits(4, 0), values_of("1.......3.......")), False),
    "9x9 of 0..8": (Puzzle(boxed(9).with_digits(9, 0), values_of(
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")),
        True),
    "6x6 of 1..9": (Puzzle(SQUARES_6, values_of(SIX)), False),
    "6x6 of 1..9, unique": (Puzzle(SQUARES_6, values_of(SIX[:18] + "4128.." + SIX[24:])), True),
    # r1c2 = 2 clashes with no given, but no solution has it
    "6x6 of 1..9, unsolvable": (Puzzle(SQUARES_6, values_of("12" + SIX[2:])), False),
    "5x5 of 1..7, rows as regions": (Puzzle(rows_as_regions(5, 7),
                                            values_of("12345254.34..32342715312.")), False),
    "4x4 of 1..6, 2x2 boxes": (Puzzle(boxed(4).with_digits(6), values_of("12.43..22156.32.")),
                               False),
    "4x4 of 0..7, halves": (Puzzle(HALVES_4, values_of("1234567..81...4.")), False),
    "6x6 of 1..9, nine 2x2 regions": (Puzzle(QUARTERS_6, values_of(
        "249368.9.752.7362482597653..87786.43")), False),
    # a row of 1,3,6 and a cage of 16 on its other cells: read as a row of 1..6 (21 in
    # all), the cage would have to be 11
    "6x6 of 1..9, cage": (Puzzle(SQUARES_6, values_of(SIX), rules=(Cage((1, 3, 5), 16),)),
                          False),
    # 1+2+3 in r1c1-r1c3: r1c4 is 4 or 5, not only 4 as in a row of 1..4
    "4x4 of 1..5, rows as regions, cage": (Puzzle(rows_as_regions(4, 5), values_of(
        "........23453451"), rules=(Cage((0, 1, 2), 6),)), False),
}


def keeps_definition(puzzle: Puzzle, grid) -> bool:
    """Values within 1..V, givens kept, rows, columns and regions without a repeat,
    every cage summed."""
    geometry = puzzle.geometry
    n, v = geometry.size, geometry.values
    if len(grid) != n * n or not all(1 <= x <= v for x in grid):
        return False
    if any(given and given != x for given, x in zip(puzzle.givens, grid)):
        return False
    rows = [range(r * n, r * n + n) for r in range(n)]
    cols = [range(c, n * n, n) for c in range(n)]
    for group in itertools.chain(rows, cols, geometry.regions):
        if len({grid[c] for c in group}) != len(group):
            return False
    return all(rule.holds(grid) for rule in puzzle.rules)


def reference(puzzle: Puzzle) -> set[tuple[int, ...]]:
    """Every solution, by plain backtracking on the definition (the fewest candidates
    first), independent of the package's model."""
    geometry = puzzle.geometry
    n, values = geometry.size, geometry.values
    groups = ([tuple(range(r * n, r * n + n)) for r in range(n)]
              + [tuple(range(c, n * n, n)) for c in range(n)] + list(geometry.regions))
    peers: list[set[int]] = [set() for _ in range(n * n)]
    for group in groups:
        for c in group:
            peers[c].update(group)
    for c in range(n * n):
        peers[c].discard(c)
    grid = list(puzzle.givens)
    found: set[tuple[int, ...]] = set()

    def candidates(c):
        return [x for x in range(1, values + 1) if all(grid[p] != x for p in peers[c])]

    def fill():
        blank = [c for c in range(n * n) if not grid[c]]
        if not blank:
            if keeps_definition(puzzle, grid):
                found.add(tuple(grid))
            return
        cell = min(blank, key=lambda c: len(candidates(c)))
        for x in candidates(cell):
            grid[cell] = x
            fill()
        grid[cell] = 0

    fill()
    return found


@pytest.fixture(params=[pytest.param(v, marks=pytest.mark.cross, id=v[0]) for v in VARIANTS])
def variant(request):
    _, name, options, presolve = request.param
    engine = load(name)
    if not engine.is_available():
        pytest.skip(f"{name} is not installed ({engine.install_command()})")
    return name, options, presolve


@pytest.fixture(scope="module")
def expected():
    """The reference solutions of every puzzle, found once."""
    return {key: reference(puzzle) for key, (puzzle, _) in PUZZLES.items()}


def test_every_backend_is_covered():
    assert {name for _, name, _, _ in VARIANTS} == set(backends.names())


def test_the_reference_puzzles_are_as_described(expected):
    for key, (_, unique) in PUZZLES.items():
        assert 0 < len(expected[key]) < LIMIT or "unsolvable" in key, key
        assert (len(expected[key]) == 1) == unique, key
    assert not expected["6x6 of 1..9, unsolvable"]
    # more digits than cells: the rows really use digits beyond N
    assert any(max(grid) > 6 for grid in expected["6x6 of 1..9"])
    assert any(max(grid) > 5 for grid in expected["5x5 of 1..7, rows as regions"])
    assert any(max(grid[:8]) > 4 for grid in expected["4x4 of 0..7, halves"])


@pytest.mark.parametrize("key", list(PUZZLES))
def test_solutions_match_the_reference(variant, key, expected):
    name, options, presolve = variant
    puzzle, _ = PUZZLES[key]
    modelled = {frozenset(con.cells) for con in puzzle.constraints()
                if isinstance(con, AllDifferent)}
    if not modelled.issuperset(map(frozenset, puzzle.geometry.regions)):
        pytest.xfail("the puzzle's constraints leave regions out (more regions than N)")
    if name == "dlx" and puzzle.rules:
        with pytest.raises(BackendError, match="cannot be expressed"):
            solve(puzzle, name, max_solutions=LIMIT, presolve=presolve, **options)
        return
    result = solve(puzzle, name, max_solutions=LIMIT, presolve=presolve, **options)
    found = [tuple(grid) for grid in result.solutions]
    assert len(found) == len(set(found)), "a solution reported twice"
    assert set(found) == expected[key]
    for grid in found:
        assert keeps_definition(puzzle, grid)
    want = {0: Status.UNSOLVABLE, 1: Status.UNIQUE}.get(len(found), Status.MULTIPLE)
    assert result.status is want


@pytest.mark.parametrize("key", [k for k, (_, unique) in PUZZLES.items() if unique])
def test_unique_puzzles_are_unique(variant, key, expected):
    name, options, presolve = variant
    result = solve(PUZZLES[key][0], name, max_solutions=2, presolve=presolve, **options)
    assert result.status is Status.UNIQUE
    assert {tuple(result.solutions[0])} == expected[key]


def test_zero_indexed_solves_as_the_same_values(variant):
    """Digits 0..8 are values 1..9: the solution in values is that of the 1..9 puzzle."""
    name, options, presolve = variant
    zero, _ = PUZZLES["9x9 of 0..8"]
    classic = Puzzle(boxed(9), zero.givens)
    assert (solve(zero, name, presolve=presolve, **options).solutions
            == solve(classic, name, presolve=presolve, **options).solutions)


def connected(cells, n: int) -> bool:
    cells = set(cells)
    start = min(cells)
    seen, stack = {start}, [start]
    while stack:
        c = stack.pop()
        r, k = divmod(c, n)
        for d, ok in ((-n, r > 0), (n, r < n - 1), (-1, k > 0), (1, k < n - 1)):
            if ok and c + d in cells and c + d not in seen:
                seen.add(c + d)
                stack.append(c + d)
    return len(seen) == len(cells)


def partitions(n: int) -> list[list[tuple[int, ...]]]:
    """Every split of the n x n grid into n connected regions of n cells."""
    out = []

    def split(left: frozenset[int], taken: list):
        if not left:
            out.append(taken)
            return
        first = min(left)
        for rest in itertools.combinations(sorted(left - {first}), n - 1):
            region = (first, *rest)
            if connected(region, n):
                split(left - set(region), [*taken, region])

    split(frozenset(range(n * n)), [])
    return out


def test_chaos_regions_with_more_digits():
    """Regions found while solving, on a 4x4 grid of 1..5: each region's four cells
    hold different digits (not every digit). Each digit grid comes once per region
    split that fits it."""
    if not load("cpsat").is_available():
        pytest.skip("cpsat is not installed")
    plain = Puzzle(rows_as_regions(4, 5), values_of("123423453451...."))
    want = Counter({grid: sum(all(len({grid[c] for c in region}) == 4 for region in split)
                              for split in partitions(4))
                    for grid in reference(plain)})
    want = +want  # only the grids some split fits
    assert len(want) > 1 and sum(want.values()) < LIMIT
    chaos = Puzzle(plain.geometry, plain.givens, rules=(Chaos(),))
    result = solve(chaos, "cpsat", max_solutions=LIMIT)
    assert Counter(tuple(grid[:16]) for grid in result.solutions) == want


def test_native_refuses_chaos_regions_with_more_digits_by_name():
    """Its region passes count on every region holding every digit: with more digits it
    says so rather than answer wrongly (cpsat, checked above, takes them)."""
    rows = tuple(tuple(range(r * 3, r * 3 + 3)) for r in range(3))
    puzzle = Puzzle(Geometry(3, rows, None, values=4), (1,) + (0,) * 8).with_rules(["chaos"])
    with pytest.raises(BackendError, match="chaos regions only with 3 digits, not 4"):
        solve(puzzle, "native", max_solutions=2)
