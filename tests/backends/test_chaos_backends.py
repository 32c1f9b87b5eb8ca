"""Chaos constructions on every backend that searches region labels (auxiliary
variables) beside native: python-constraint, sat, mip and choco, each held to CP-SAT
and to a brute force from the definition: every solution found, none twice, two
partitions of one grid as two solutions, an impossible run proved so by search."""

from __future__ import annotations

import pytest
from chaos_cases import (
    ALL,
    EXAMPLE,
    ONE_GRID,
    SMALL,
    TOO_LONG,
    brute_force,
    cpsat,
    found,
    iss_puzzle,
)
from conftest import usable

from cpsudoku import backends, parse, solve

LIMIT = 300  # seconds: a generous bound, never reached
BACKENDS = ["python-constraint", "sat", "mip", "choco"]
# Run with -m slow: the 6x6 example on python-constraint (about 30 s: its constraint
# prunes far less than a solver's propagators) and mip's listing of hundreds of
# solutions one no-good cut at a time (about 20 s each; its smallest listing stays).
SLOW = {("python-constraint", "example"), ("mip", "arrow"), ("mip", "count"),
        ("mip", "arrow and count")}


def case_marks(backend: str, what: str) -> list[pytest.MarkDecorator]:
    """A case of this cross product of backends, slow where SLOW says so."""
    return [pytest.mark.cross] + ([pytest.mark.slow] if (backend, what) in SLOW else [])


def cases(what: str):
    return [pytest.param(b, marks=case_marks(b, what), id=b) for b in BACKENDS]


def test_these_backends_search_auxiliary_variables():
    assert set(BACKENDS) <= set(backends.with_auxiliary())


@pytest.mark.parametrize("backend", cases("example"))
def test_the_example_is_unique_as_on_cpsat(backend):
    [puzzle] = parse(EXAMPLE.read_text(encoding="utf-8"), source=EXAMPLE.name)
    result = solve(puzzle, usable(backend), max_solutions=2, time_limit=LIMIT)
    reference = solve(puzzle, cpsat(), max_solutions=2, time_limit=LIMIT)
    assert result.status.value == reference.status.value == "unique"
    assert result.solutions == reference.solutions == [puzzle.meta["solution"]]
    assert result.variables == reference.variables
    [labels] = result.variables or [()]
    assert all(con.check(puzzle.meta["solution"] + labels) for con in puzzle.constraints())


@pytest.mark.parametrize("name, shape", [
    ("Order From Chaos", (6, 9)),  # 6x6 of digits 1-9: a region holds 6 of them
    ("Chaos Construction: cell count", (6, 6)),
])
@pytest.mark.parametrize("backend", cases("iss"))
def test_iss_puzzles_are_unique_as_on_cpsat(backend, name, shape):
    puzzle, solution = iss_puzzle(name)
    assert (puzzle.geometry.size, puzzle.geometry.values) == shape
    result = solve(puzzle, usable(backend), max_solutions=2, time_limit=LIMIT)
    reference = solve(puzzle, cpsat(), max_solutions=2, time_limit=LIMIT)
    assert result.status.value == reference.status.value == "unique"
    assert result.solutions == reference.solutions == [solution]
    assert result.variables == reference.variables


@pytest.mark.parametrize("backend, name", [
    pytest.param(b, name, marks=case_marks(b, name), id=f"{b}-{name}")
    for b in BACKENDS for name in sorted(SMALL)])
def test_every_solution_of_a_small_puzzle_once(backend, name):
    puzzle = SMALL[name]
    expected = brute_force(puzzle)
    assert 1 < len(expected) < ALL
    solutions = found(solve(puzzle, usable(backend), max_solutions=ALL, time_limit=LIMIT))
    assert len(solutions) == len(set(solutions))  # none twice
    assert set(solutions) == expected
    assert set(found(solve(puzzle, cpsat(), max_solutions=ALL, time_limit=LIMIT))) == expected


@pytest.mark.parametrize("backend", cases("one grid"))
def test_two_partitions_of_one_grid_are_two_solutions(backend):
    expected = brute_force(ONE_GRID)
    result = solve(ONE_GRID, usable(backend), max_solutions=ALL, time_limit=LIMIT)
    assert result.status.value == "multiple"
    assert set(result.solutions) == {ONE_GRID.givens}  # the digits are all given
    partitions = result.variables or []
    assert len(set(partitions)) == len(partitions) == len(expected) > 1
    assert set(found(result)) == expected
    assert solve(ONE_GRID, backend, max_solutions=2, time_limit=LIMIT).status.value == "multiple"


@pytest.mark.parametrize("backend", cases("too long"))
def test_a_run_longer_than_a_region_is_unsolvable(backend):
    assert not brute_force(TOO_LONG)
    result = solve(TOO_LONG, usable(backend), max_solutions=2, time_limit=LIMIT)
    assert result.status.value == "unsolvable" and result.reason is None  # searched
