"""Digits other than 1..N: the geometry that states them, the restating of rules'
constraints from digits into values (`grid/digits.py`), and the native engine's two
kernels on grids with more digits than a row has cells."""

from __future__ import annotations

import random

import pytest

from cpsudoku import Puzzle, boxed, solve
from cpsudoku.engine import vkernel
from cpsudoku.errors import ModelError
from cpsudoku.grid.automaton import Automaton
from cpsudoku.grid.constraints import AllDifferent, Allowed, AnyOf, InSet, Regions, Regular, Sum
from cpsudoku.grid.digits import in_values
from cpsudoku.grid.geometry import Geometry

ROWS4 = tuple(tuple(range(r * 4, r * 4 + 4)) for r in range(4))


def test_the_digits_of_a_geometry():
    g = boxed(9).with_digits(9, 0)
    assert list(g.digits) == list(range(9)) and not g.standard
    assert g.describe() == "9x9, 3x3 boxes, digits 0..8"
    assert boxed(9).standard and list(boxed(9).digits) == list(range(1, 10))
    wide = Geometry(4, ROWS4, None, values=6)
    assert list(wide.digits) == list(range(1, 7)) and wide.units[-1] == ROWS4[-1]


@pytest.mark.parametrize("values, first, regions, message", [
    (3, 1, None, "3 digits on a 4x4 grid"),
    (4, 2, None, "digits start at 0 or 1"),
    (6, 1, ROWS4[:3], "regions must split the 4x4 grid"),
    (5, 1, (tuple(range(8)), tuple(range(8, 16))), "at most 5 cells"),
    (26, 1, None, "at most 25"),
])
def test_a_geometry_refuses_digits_that_cannot_fill_it(values, first, regions, message):
    with pytest.raises(ModelError, match=message):
        Geometry(4, regions if regions is not None else ROWS4, None, values=values,
                 first=first)


def test_constraints_in_digits_are_restated_in_values():
    g = boxed(4).with_digits(4, 0)  # value = digit + 1; cells 16 and up are auxiliary
    cage = Sum((0, 1, 16), 5, (1, 2, 1))
    pair = Allowed((0, 16), ((0, 0), (3, 2)))
    odd = InSet((2, 3), frozenset({1, 3}))
    line = Regular((0, 1), automaton=Automaton(0, frozenset({1}), ((0, 0, 1),)))
    out = in_values([cage, pair, odd, line, AllDifferent((0, 1)),
                     AnyOf((0, 1), alternatives=((cage,), (odd,)))], g)
    assert out[0] == Sum((0, 1, 16), 5 + 3, (1, 2, 1))  # the auxiliary 16 keeps its count
    assert out[1].tuples == ((1, 0), (4, 2))
    assert out[2].values == frozenset({2, 4})
    assert out[3].automaton.transitions == ((0, 1, 1),)
    assert out[4] == AllDifferent((0, 1))
    assert out[5].alternatives == ((out[0],), (out[2],))
    assert in_values([cage], boxed(4)) == [cage]  # digits from 1 are the values
    with pytest.raises(ModelError, match="regions constraint is only stated for digits from 1"):
        in_values([Regions(tuple(range(32)), width=4)], g)


class Cages:
    """Killer cages with given digit totals, for the kernels below."""

    name = "cages"

    def __init__(self, cages):
        self.cages = cages

    def constraints(self, geometry):
        for cells, total in self.cages:
            yield AllDifferent(cells)
            yield Sum(cells, total)


def random_cages(rng: random.Random, grid: tuple[int, ...], first: int) -> Cages:
    """Domino and tromino cages along rows, totals read off a solved grid (digits)."""
    cages = []
    for row in range(4):
        cells = tuple(row * 4 + c for c in range(rng.choice((2, 3))))
        cages.append((cells, sum(grid[c] + first - 1 for c in cells)))
    return Cages(cages)


@pytest.mark.skipif(not vkernel.available(), reason="the C kernel is not built")
@pytest.mark.parametrize("seed", range(12))
def test_both_kernels_find_every_grid_of_many_digits(seed):
    """A 4x4 grid with 5 or 6 digits (0- or 1-indexed), rows as regions, cages in digits:
    the C and the Python kernel find the same grids, each one the definition allows."""
    rng = random.Random(seed)
    values, first = rng.choice((5, 6)), rng.choice((0, 1))
    geometry = Geometry(4, ROWS4, None, values=values, first=first)
    some = solve(Puzzle(geometry, (0,) * 16), "native", max_solutions=50).solutions
    rule = random_cages(rng, rng.choice(some), first)
    puzzle = Puzzle(geometry, (0,) * 16, (rule,))
    found = {kernel: {tuple(s) for s in solve(puzzle, "native", max_solutions=100_000,
                                               kernel=kernel).solutions}
             for kernel in ("c", "python")}
    assert found["c"] == found["python"] and found["c"]
    for grid in found["c"]:
        assert all(1 <= v <= values for v in grid)
        for line in ROWS4 + tuple(tuple(range(c, 16, 4)) for c in range(4)):
            assert len({grid[c] for c in line}) == 4
        for cells, total in rule.cages:
            assert sum(grid[c] + first - 1 for c in cells) == total
