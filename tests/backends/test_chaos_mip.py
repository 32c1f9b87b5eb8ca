"""The mip backend on chaos constructions, beyond what `test_chaos_backends` holds every
backend to: listings short enough for its one-cut-a-solution enumeration (its longer
ones are slow there), a 5x5 with clues, the connected pieces its set partition chooses
among, and the distance formulation it uses above 7x7, tried on small grids."""

from __future__ import annotations

import itertools

import pytest
from chaos_cases import brute_force, chaos, cpsat, found, joined

from cpsudoku import solve

pytest.importorskip("highspy", reason="highspy (the mip backend) is not installed")
mip = pytest.importorskip("cpsudoku.backends.mip")

LIMIT = 120  # seconds: a generous bound, never reached
ALL = 1000  # max_solutions: more than any case here has

# Clue puzzles of 4x4 with a handful of solutions (13, 22 and 6): each one costs mip a
# solve, the listing stays short.
FEW = {
    "arrow": chaos(4, "1......." "..3..4.2", chaos_arrows=[{"cell": "r2c2"}]),
    "count": chaos(4, "2....2.." "....3..4", chaos_counts=[{"cell": "r3c3"}]),
    "arrow and count": chaos(4, "1......." "...3...4", chaos_arrows=[{"cell": "r1c4"}],
                             chaos_counts=[{"cell": "r3c2"}]),
}
# For the distance formulation: 3x3 (24 solutions), 3x3 of digits 1-4 (32), and a 4x4
# whose digits are all given, with a count: its 15 solutions differ by regions alone.
BY_DISTANCE = {
    "3x3": chaos(3, "1........"),
    "3x3 of 1-4": chaos(3, "1.3.2...4", digits="1-4"),
    "one grid, count": chaos(4, "1234" "3412" "2143" "4321", chaos_counts=[{"cell": "r2c2"}]),
}
# Too many grids and splits for the brute force: held to CP-SAT (10 solutions).
FIVE = chaos(5, "1.2.." "....." "..3.." "....4" "....5",
             chaos_arrows=[{"cell": "r3c3"}, {"cell": "r1c3"}], chaos_counts=[{"cell": "r4c5"}])


def listed(puzzle) -> list[tuple[int, ...]]:
    """Every solution mip finds, digits then labels; the search must have ended."""
    result = solve(puzzle, "mip", max_solutions=ALL, time_limit=LIMIT)
    assert result.status.value in ("unique", "multiple", "unsolvable")
    return found(result)


@pytest.mark.parametrize("name", sorted(FEW))
def test_every_solution_once_as_the_definition_and_cpsat_list_them(name):
    puzzle = FEW[name]
    expected = brute_force(puzzle)
    assert 1 < len(expected) < 30
    solutions = listed(puzzle)
    assert len(solutions) == len(set(solutions))  # none twice
    assert set(solutions) == expected
    assert set(found(solve(puzzle, cpsat(), max_solutions=ALL, time_limit=LIMIT))) == expected


def test_a_5x5_with_arrows_and_a_count_lists_what_cpsat_lists():
    solutions = listed(FIVE)
    reference = solve(FIVE, cpsat(), max_solutions=ALL, time_limit=LIMIT)
    assert len(solutions) == len(set(solutions)) == 10
    assert set(solutions) == set(found(reference))


@pytest.mark.parametrize("name", sorted(BY_DISTANCE))
def test_the_distance_formulation_lists_every_solution_once(name, monkeypatch):
    """Above PIECES_UP_TO regions are connected by distances to their roots: tried here
    on grids small enough to list (the program is built in this process)."""
    monkeypatch.setattr(mip, "PIECES_UP_TO", 0)
    puzzle = BY_DISTANCE[name]
    expected = brute_force(puzzle)
    solutions = listed(puzzle)
    assert len(solutions) == len(set(solutions)) == len(expected) > 1
    assert set(solutions) == expected


@pytest.mark.parametrize("n, count", [(2, 4), (3, 22), (4, 113), (5, 571), (6, 2816)])
def test_the_connected_pieces_are_each_connected_set_once(n, count):
    pieces = mip.connected_pieces(n)
    assert len(pieces) == len(set(pieces)) == count
    assert all(len(p) == n and list(p) == sorted(p) and joined(p, n) for p in pieces)
    if n <= 4:  # every set of n cells, those connected
        cells = range(n * n)
        assert set(pieces) == {p for p in itertools.combinations(cells, n) if joined(p, n)}
