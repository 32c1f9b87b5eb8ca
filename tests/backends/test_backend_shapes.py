"""Grids that are not square (R rows of C cells), on every backend.

Such a grid holds max(R, C) digits unless it says otherwise: the longer lines hold
each digit once, the shorter ones only differ, and the regions (boxes of V cells when
they tile the grid, else the rows) differ too. Each puzzle is small enough to list all
its solutions; a plain enumeration written here from that definition is the
reference, and every backend must return exactly its solutions.
"""

from __future__ import annotations

import itertools

import pytest

from cpsudoku import Puzzle, Status, backends, boxed, solve
from cpsudoku.backends import load
from cpsudoku.grid.constraints import AllDifferent, Sum

LIMIT = 500  # more than any puzzle here has solutions

VARIANTS = [
    ("native", "native", {}),
    ("native-python", "native", {"kernel": "python"}),
    ("naive", "naive", {}),
    ("python-constraint", "python-constraint", {}),
    ("cpsat", "cpsat", {}),
    ("sat", "sat", {}),
    ("mip", "mip", {}),
    ("choco", "choco", {}),
    ("dlx", "dlx", {}),
]


def values_of(text: str) -> tuple[int, ...]:
    """Givens as values 1..V ('.' blank), row by row."""
    return tuple(0 if ch == "." else int(ch, 36) for ch in text)


class Cage:
    """Different values summing to a total, written here without the killer rule."""

    name = "cage"
    any_shape = True

    def __init__(self, cells, total):
        self.cells, self.total = tuple(cells), total

    def constraints(self, geometry):
        return (Sum(self.cells, total=self.total, label="cage"),
                AllDifferent(self.cells, label="cage"))

    def holds(self, grid) -> bool:
        picked = [grid[c] for c in self.cells]
        return sum(picked) == self.total and len(set(picked)) == len(picked)


# id -> puzzle
PUZZLES = {
    # 2x4 of 1..4 in 2x2 boxes: rows and boxes hold 1..4, columns of two differ
    "2x4, 2x2 boxes": Puzzle(boxed(2, width=4), values_of("1.......")),
    # 3x4 of 1..4: no boxes of 4 cells tile it, so only rows and columns
    "3x4, no boxes": Puzzle(boxed(3, width=4), values_of("12..3.......")),
    # 6x4 of 1..6, tall: 3x2 boxes, columns of six hold every digit
    "6x4, 3x2 boxes": Puzzle(boxed(6, width=4),
                             values_of("12.." + "3..6" + "...." + "..2." + ".4.." + "...5")),
    # 4x6 of 1..6 with a cage across a box border
    "4x6, cage": Puzzle(boxed(4, width=6), values_of("123456" + "4....." + "......" + ".....1"),
                        rules=(Cage((6, 7, 13), 12),)),
    # 3x5 of 0..4 (rows as regions)
    "3x5 of 0..4": Puzzle(boxed(3, width=5, first=0), values_of("1..2." + "..4.." + ".3...")),
    # 4x3 of 1..6: more digits than either side
    "4x3 of 1..6": Puzzle(boxed(4, width=3, values=6), values_of("12." + "..." + "3.." + "...")),
}


def keeps_definition(puzzle: Puzzle, grid) -> bool:
    g = puzzle.geometry
    rows, cols, v = g.size, g.width, g.values
    if len(grid) != rows * cols or not all(1 <= x <= v for x in grid):
        return False
    if any(given and given != x for given, x in zip(puzzle.givens, grid)):
        return False
    lines = [range(r * cols, r * cols + cols) for r in range(rows)]
    lines += [range(c, rows * cols, cols) for c in range(cols)]
    for group in itertools.chain(lines, g.regions):
        if len({grid[c] for c in group}) != len(group):
            return False
    return all(rule.holds(grid) for rule in puzzle.rules)


def reference(puzzle: Puzzle) -> set[tuple[int, ...]]:
    """Every solution, by plain backtracking over cells in reading order."""
    g = puzzle.geometry
    grid = list(puzzle.givens)
    found: set[tuple[int, ...]] = set()

    def fill(cell: int) -> None:
        if cell == len(grid):
            if keeps_definition(puzzle, grid):
                found.add(tuple(grid))
            return
        if grid[cell]:
            fill(cell + 1)
            return
        r, c = divmod(cell, g.width)
        used = {grid[r * g.width + k] for k in range(g.width)}
        used |= {grid[k * g.width + c] for k in range(g.size)}
        for x in range(1, g.values + 1):
            if x not in used:
                grid[cell] = x
                fill(cell + 1)
        grid[cell] = 0

    fill(0)
    return found


@pytest.fixture(scope="module")
def expected():
    return {key: reference(puzzle) for key, puzzle in PUZZLES.items()}


@pytest.fixture(params=[pytest.param(v, marks=pytest.mark.cross, id=v[0]) for v in VARIANTS])
def variant(request):
    _, name, options = request.param
    if not load(name).is_available():
        pytest.skip(f"{name} is not installed")
    return name, options


def test_every_backend_is_covered():
    assert {name for _, name, _ in VARIANTS} == set(backends.names())


def test_the_reference_puzzles_are_as_described(expected):
    for key, found in expected.items():
        assert 1 < len(found) < LIMIT, key
    assert PUZZLES["2x4, 2x2 boxes"].geometry.box == (2, 2)
    assert PUZZLES["3x4, no boxes"].geometry.regions == PUZZLES["3x4, no boxes"].geometry.rows
    assert PUZZLES["6x4, 3x2 boxes"].geometry.box == (3, 2)
    # the shorter lines use digits beyond their length
    assert any(max(grid[0::4]) == 4 and max(grid[:4]) == 4 for grid in expected["2x4, 2x2 boxes"])
    assert any(5 in grid[:3] or 6 in grid[:3] for grid in expected["4x3 of 1..6"])


@pytest.mark.parametrize("key", list(PUZZLES))
def test_solutions_match_the_reference(variant, key, expected):
    name, options = variant
    puzzle = PUZZLES[key]
    if name == "dlx" and puzzle.rules:
        pytest.skip("dlx takes all-different models only")
    result = solve(puzzle, name, max_solutions=LIMIT, **options)
    assert result.status is Status.MULTIPLE
    assert set(result.solutions) == expected[key]
