"""The naive backend: correct on easy puzzles, agrees with native, honours its limits."""

from __future__ import annotations

import random

import pytest
from conftest import blanked, random_grid, read_set

from cpsudoku import is_solution, solve
from cpsudoku.bench.datasets import puzzle_of
from cpsudoku.grid.geometry import boxed
from cpsudoku.grid.puzzle import Puzzle
from cpsudoku.grid.symbols import line


def test_solves_easy_puzzles():
    for puzzle, solution, _ in read_set("norvig_easy50", 5):
        result = solve(puzzle_of(puzzle), "naive", max_solutions=2, time_limit=60)
        assert result.status.value == "unique"
        assert line(result.solution) == solution
        assert result.stats["nodes"] > 0


def test_matches_native():
    rng = random.Random(7)
    for size in (4, 6, 9):
        grid = random_grid(size, rng)
        puzzle = blanked(grid, size, 0.4, rng)
        naive = solve(puzzle, "naive", max_solutions=2, time_limit=60)
        native = solve(puzzle, "native", max_solutions=2)
        assert naive.status == native.status
        if native.status.value == "unique":
            assert naive.solution == native.solution
        assert all(is_solution(puzzle, s) for s in naive.solutions)


@pytest.mark.timing
def test_time_limit_gives_timeout():
    puzzle, _, _ = read_set("royle_17clue", 1)[0]
    result = solve(puzzle_of(puzzle), "naive", time_limit=0.5)
    assert result.status.value == "timeout"
    assert result.stats["timed_out"] is True
    assert result.time_s < 5  # stops near the limit, not after the search


def test_max_solutions():
    empty = Puzzle(boxed(4), (0,) * 16)
    capped = solve(empty, "naive", max_solutions=5)
    assert capped.status.value == "multiple" and len(capped.solutions) == 5
    every = solve(empty, "naive", max_solutions=1000)
    assert len(every.solutions) == 288 == len(set(every.solutions))
    first = solve(empty, "naive")
    assert first.status.value == "solved" and first.solution == every.solutions[0]


def test_unsolvable():
    givens = [0] * 16
    givens[0], givens[1], givens[6], givens[15] = 1, 2, 3, 3
    result = solve(Puzzle(boxed(4), tuple(givens)), "naive", max_solutions=2)
    assert result.status.value == "unsolvable"
