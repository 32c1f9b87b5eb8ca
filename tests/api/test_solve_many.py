"""solve_many: the classic lane behind the API gives what solve gives, in order."""

from __future__ import annotations

import pytest

from cpsudoku import ParseError, Status, parse_one, solve, solve_many
from cpsudoku.api import BULK

INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
PUZZLES = [INKALA, "." * 81, "11" + "." * 79, "9" * 40 + "." * 41, "0" * 80 + "1",
           parse_one(INKALA), ".14.........2..4", "  " + INKALA + "\n"]


@pytest.mark.parametrize("limit", [1, 2, 3])
def test_the_same_answers_as_solve_in_order(limit):
    many = list(solve_many(PUZZLES * 3, max_solutions=limit))
    one = [solve(p, max_solutions=limit) for p in PUZZLES * 3]
    assert [r.status for r in many] == [r.status for r in one]
    assert [r.solutions for r in many] == [r.solutions for r in one]
    assert [r.reason for r in many] == [r.reason for r in one]
    assert many[0].stats["kernel"] == "c" and many[0].backend == "native"


def test_a_long_input_is_read_in_calls_of_many():
    results = solve_many(iter([INKALA] * (2 * BULK + 3)), max_solutions=2)
    first = next(results)
    assert first.status is Status.UNIQUE and first.puzzle is None
    assert sum(1 for _ in results) == 2 * BULK + 2


def test_a_bad_grid_raises_as_solve_does():
    with pytest.raises(ParseError):
        list(solve_many([INKALA, "12345"]))
