"""The killer's implied sums (innies, outies and the leftovers of growing blocks of
houses) hold on every solution, and the leftovers are found where cages stick out."""

from __future__ import annotations

import random

import pytest
from conftest import random_grid

from cpsudoku.engine.plan import structure_of
from cpsudoku.generator.killer import random_cages
from cpsudoku.grid.constraints import Sum
from cpsudoku.grid.geometry import boxed
from cpsudoku.grid.puzzle import unit_constraints


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
