"""The sat backend on chaos constructions, beyond what `test_chaos_backends` holds every
backend to (the example, ISS's 6x6 puzzles, the small listings, two partitions of one
grid, an impossible run): the regions' clauses alone over thousands of solutions, more
digits than a region has cells, a 5x5 with clues, the labels blocked in the child
process CaDiCaL searches in, and ISS's 9x9 (slow)."""

from __future__ import annotations

import pytest
from chaos_cases import ONE_GRID, brute_force, chaos, cpsat, found, iss_puzzle

from cpsudoku import solve

pytest.importorskip("pysat", reason="python-sat (the sat backend) is not installed")

LIMIT = 120  # seconds: a generous bound, never reached
MANY = 100_000  # max_solutions: more than any case here has

# One given and no clue: 3,468 solutions (a quarter of the blank 4x4's 13,872, by
# renaming digits), every way a Latin square and a partition fit.
ONE_GIVEN = chaos(4, "1" + "." * 15)
# Digits 1-5 on a 4x4: each region holds four different digits out of five.
FIVE_DIGITS = chaos(4, "1234" "2345" "3451" "....", digits="1-5")
# Too many grids and splits for the brute force: held to CP-SAT (63 solutions).
FIVE = chaos(5, "1.2.." "....." "..3.." "....4" "....5",
             chaos_arrows=[{"cell": "r3c3"}, {"cell": "r1c3"}])
# The same with a 2 given at r5c1, which none of those 63 has: no solution.
FIVE_NONE = chaos(5, "1.2.." "....." "..3.." "....4" "2...5",
                  chaos_arrows=[{"cell": "r3c3"}, {"cell": "r1c3"}])

def listed(puzzle, **options) -> list[tuple[int, ...]]:
    """Every solution sat finds, digits then labels; the search must have ended."""
    result = solve(puzzle, "sat", max_solutions=MANY, time_limit=LIMIT, **options)
    assert result.status.value in ("unique", "multiple", "unsolvable")
    return found(result)


@pytest.mark.parametrize("puzzle", [ONE_GIVEN, FIVE_DIGITS], ids=["one given", "digits 1-5"])
def test_every_solution_once_as_the_definition_lists_them(puzzle):
    expected = brute_force(puzzle)
    solutions = listed(puzzle)
    assert len(solutions) == len(set(solutions))  # none twice
    assert set(solutions) == expected
    assert len(expected) == {ONE_GIVEN: 3468, FIVE_DIGITS: 125}[puzzle]


def test_a_5x5_with_arrows_lists_what_cpsat_lists_and_no_more():
    solutions = listed(FIVE)
    reference = solve(FIVE, cpsat(), max_solutions=MANY, time_limit=LIMIT)
    assert len(solutions) == len(set(solutions)) == 63
    assert set(solutions) == set(found(reference))
    assert all(s[20] != 2 for s in solutions)  # so one more given leaves none
    result = solve(FIVE_NONE, "sat", max_solutions=2, time_limit=LIMIT)
    assert result.status.value == "unsolvable" and result.reason is None  # searched


def test_cadical_in_its_child_process_blocks_the_labels_too():
    """The digits are all given: without the labels in its blocking clauses, the
    search would meet one grid again and again, or stop after the first."""
    expected = brute_force(ONE_GRID)
    solutions = listed(ONE_GRID, solver="cadical195")
    assert len(solutions) == len(set(solutions)) == len(expected) > 1
    assert set(solutions) == expected


def test_iss_harder_cell_count_is_unique_as_on_cpsat():
    puzzle, solution = iss_puzzle("Chaos Construction: cell count [harder]")
    result = solve(puzzle, "sat", max_solutions=2, time_limit=LIMIT)
    reference = solve(puzzle, cpsat(), max_solutions=2, time_limit=LIMIT)
    assert result.status.value == reference.status.value == "unique"
    assert result.solutions == reference.solutions == [solution]
    assert result.variables == reference.variables


@pytest.mark.slow
def test_iss_9x9_is_unique_as_on_cpsat():
    """About 1 s on sat, 12 s on CP-SAT."""
    puzzle, solution = iss_puzzle("Chaos Construction - easier")
    assert puzzle.geometry.size == 9
    result = solve(puzzle, "sat", max_solutions=2, time_limit=LIMIT)
    reference = solve(puzzle, cpsat(), max_solutions=2, time_limit=LIMIT)
    assert result.status.value == reference.status.value == "unique"
    assert result.solutions == reference.solutions == [solution]
    assert result.variables == reference.variables
