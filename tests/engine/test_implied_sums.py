"""The killer's implied sums (innies, outies, the leftovers of growing blocks of
houses, sums crossing a unit) hold on every solution, and the leftovers are found
where cages stick out."""

from __future__ import annotations

import random

import pytest
from conftest import random_grid

from cpsudoku.engine.plan import structure_of
from cpsudoku.generator.killer import random_cages
from cpsudoku.grid.constraints import Sum
from cpsudoku.grid.geometry import boxed
from cpsudoku.grid.puzzle import unit_constraints

pytestmark = pytest.mark.unit


def implied(size: int, cages, solution):
    constraints = unit_constraints(boxed(size)) + tuple(
        Sum(tuple(cage), total=sum(solution[c] for c in cage)) for cage in cages)
    given = set(constraints)
    return [con for con in structure_of(size, constraints).others if con not in given]


@pytest.mark.parametrize("size", [4, 6, 9])
@pytest.mark.parametrize("seed", range(12))
def test_implied_sums_hold_on_the_solution(size, seed):
    rng = random.Random(seed)
    solution = random_grid(size, rng)
    cages = random_cages(solution, size, rng)
    for con in implied(size, cages, solution):
        assert con.holds([solution[c] for c in con.cells]), con.label


def test_leftovers_weigh_the_cages_that_stick_out():
    rng = random.Random(3)
    solution = random_grid(9, rng)
    cages = random_cages(solution, 9, rng)
    made = implied(9, cages, solution)
    leftovers = [con for con in made if con.label.startswith("leftovers")]
    assert leftovers
    # some difference of outies and innies: weights +1 and -1 in one sum
    assert any(con.coeffs and set(con.coeffs) == {1, -1} for con in leftovers)
    for con in leftovers:
        assert con.holds([solution[c] for c in con.cells])


def diagonal_sums(size: int, solution, rng, count: int):
    """Sums along random diagonal runs (little killers), which overlap each other."""
    out = []
    for _ in range(count):
        r, c = rng.randrange(size), rng.randrange(size)
        dr, dc = rng.choice([(1, 1), (1, -1), (-1, 1), (-1, -1)])
        cells = []
        while 0 <= r < size and 0 <= c < size:
            cells.append(r * size + c)
            r, c = r + dr, c + dc
        out.append(Sum(tuple(cells), total=sum(solution[x] for x in cells)))
    return out


@pytest.mark.parametrize("size", [4, 6, 9])
def test_sums_crossing_units_hold_on_the_solution(size):
    """Cages with little killers over them (overlapping sums): every implied sum holds,
    and some of them are sums crossing a unit."""
    crossing = 0
    for seed in range(12):
        rng = random.Random(seed)
        solution = random_grid(size, rng)
        cages = [Sum(tuple(cage), total=sum(solution[c] for c in cage))
                 for cage in random_cages(solution, size, rng)]
        constraints = unit_constraints(boxed(size)) + tuple(
            cages + diagonal_sums(size, solution, rng, size))
        given = set(constraints)
        for con in structure_of(size, constraints).others:
            if con not in given:
                assert con.holds([solution[c] for c in con.cells]), con.label
                crossing += con.label.startswith("sums crossing")
    assert crossing >= 3


def test_little_killers_crossing_boxes_give_their_outside_cells_a_sum():
    from cpsudoku.bench.iss import expressed, load_puzzles, recorded_for
    from cpsudoku.engine.plan import compile_model
    from cpsudoku.model import build_model

    entry = load_puzzles("all", name="Hailstone - little killer")[0]
    puzzle, _ = expressed(entry)
    solution = recorded_for(entry["solution"], puzzle.geometry)
    crossing = [con for con in compile_model(build_model(puzzle)).structure.others
                if con.label.startswith("sums crossing")]
    # the little killers through boxes 1 and 3, their gaps filled by the diagonals
    assert sorted(con.label for con in crossing) == ["sums crossing box 1", "sums crossing box 3"]
    for con in crossing:
        assert len(con.cells) == 12
        assert con.holds([solution[c] for c in con.cells])
