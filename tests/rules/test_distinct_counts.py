"""Distinct counts: the lowering against a plain count of the different values; ISS's
puzzles on the backends; counting chaos regions; refusals, files and ISS strings."""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest

from cpsudoku import boxed, is_solution, solve
from cpsudoku.bench.iss import load_puzzles, recorded_solution
from cpsudoku.errors import BackendError, CpsudokuError, ModelError
from cpsudoku.formats import iss, puzzlefile
from cpsudoku.rules.distinct import (
    MAX_STATES,
    DistinctCount,
    DistinctCounts,
    distinct_values,
)

NINE = boxed(9)


def entry(name: str) -> dict:
    return next(p for p in load_puzzles("all") if p["name"] == name)


@pytest.mark.parametrize("size, length", [(4, 3), (6, 4), (9, 5)])
def test_automaton_accepts_exactly_the_count(size, length):
    automaton = distinct_values(range(1, size + 1), length)
    rng = random.Random(size)
    words = itertools.product(range(1, size + 1), repeat=length) if size ** length < 5000 \
        else (tuple(rng.randint(1, size) for _ in range(length)) for _ in range(5000))
    for word in words:
        for control in range(1, size + 1):
            assert automaton.accepts((*word, control)) == (control == len(set(word)))


def test_the_control_may_count_itself():
    rule = DistinctCounts([DistinctCount((1, 1), ((1, 1), (2, 2), (3, 3)))])
    [con] = rule.constraints(NINE)
    assert con.cells == (0, 10, 20, 0)
    grid = [0] * 81
    for value in (1, 2, 3):  # r1c1 = count of {r1c1, r2c2, r3c3}
        grid[0], grid[10], grid[20] = value, 2, 2
        assert con.check(grid) == (len({value, 2}) == value)


def test_automaton_sizes_stay_within_the_bound():
    # every set of up to 8 digits, and the end
    assert distinct_values(range(1, 10), 8).states == 512
    assert distinct_values(range(1, 17), 16).states == (1 << 16) + 1
    rule = DistinctCounts([DistinctCount((1, 1), tuple((1, c) for c in range(2, 12)))])
    wide = rf"need an automaton of \d+ states \(at most {MAX_STATES}\)"
    with pytest.raises(ModelError, match=wide):
        rule.validate(boxed(25))


# --- ISS's puzzles ---------------------------------------------------------------------

CIRCLES = entry("Count Different (Circles)")


@pytest.mark.cross
@pytest.mark.parametrize("backend", ["native", "cpsat", "python-constraint", "sat", "mip",
                                     "choco"])
def test_count_different_circles_on_every_backend(backend):
    puzzle = iss.from_string(CIRCLES["input"], source=CIRCLES["name"])
    try:
        result = solve(puzzle, backend, max_solutions=2, time_limit=60)
    except (BackendError, ModuleNotFoundError) as exc:
        pytest.skip(f"{backend} is not usable here: {exc}")
    assert result.status.value == "unique"
    assert result.solution == recorded_solution(CIRCLES["solution"], 9)
    assert is_solution(puzzle, result.solution)


def test_without_the_counts_the_circles_puzzle_is_not_unique():
    puzzle = iss.from_string(CIRCLES["input"])
    assert solve(dataclasses.replace(puzzle, rules=()), max_solutions=2).status.value \
        == "multiple"


@pytest.mark.parametrize("backend", [  # cpsat needs about 25 s to find the regions
    "native", pytest.param("cpsat", marks=pytest.mark.slow)])
def test_the_fountain_counts_regions(backend):
    """ISS's "The Fountain" counts chaos regions (its CC cells): with its digits given,
    one partition fits, and every count holds on it."""
    found = entry("The Fountain")
    puzzle = iss.from_string(found["input"], source=found["name"])
    assert "distinct-region-counts" in [rule.name for rule in puzzle.rules]
    digits = recorded_solution(found["solution"], 9)
    result = solve(dataclasses.replace(puzzle, givens=digits), backend, max_solutions=2,
                   time_limit=120)
    assert result.status.value == "unique" and result.solution == digits
    regions = result.variables[0][:81]  # the region labels come first
    rule = next(r for r in puzzle.rules if r.name == "distinct-region-counts")
    for count in rule.elements:
        (r, c), cells = count.cell, count.cells
        labels = {regions[(y - 1) * 9 + x - 1] for y, x in cells}
        assert digits[(r - 1) * 9 + c - 1] == len(labels)


# --- refusals, files and strings ---------------------------------------------------------

@pytest.mark.parametrize("data, message", [
    ({"distinct_counts": [{"cell": "r1c1", "cells": []}]},
     "distinct count 1 at r1c1 lists no cells to count"),
    ({"distinct_counts": [{"cell": "r1c1", "cells": ["r1c2", "r1c2"]}]},
     "distinct count 1 at r1c1: cell r1c2 is listed twice"),
    ({"distinct_counts": [{"cell": "r10c1", "cells": ["r1c2"]}]},
     "distinct count 1 at r10c1: cell r10c1 is outside the 9x9 grid"),
    ({"distinct_counts": [{"cell": "r1c1"}]},
     "distinct count 1: expected a table with cell (the control) and cells"),
    ({"distinct_counts": [{"cell": "r1c1", "cells": ["r1c2"], "sum": 3}]},
     "distinct count 1: unknown key 'sum'; known: cell, cells"),
    ({"distinct_region_counts": [{"cell": "r1c1", "cells": ["r1c2"]}]},
     'distinct_region_counts: counting regions found while solving needs rules = ["chaos"]'),
])
def test_bad_counts_are_refused_by_name(data, message):
    with pytest.raises(ModelError) as err:
        solve(puzzlefile.from_dict(data), "native")
    assert message in str(err.value)


def test_puzzle_file_and_iss_string_round_trip():
    puzzle = puzzlefile.from_dict({"distinct_counts": [
        {"cell": "r3c3", "cells": ["r2c2", "r2c3", "r2c4"]}]})
    [again] = puzzlefile.load(puzzlefile.dumps(puzzle))
    assert again.rules == puzzle.rules
    text = iss.dumps(puzzle)
    assert text == ".CountDistinct~R3C3~R2C2~R2C3~R2C4"
    assert iss.from_string(text).rules == puzzle.rules
    regions = iss.from_string(".ChaosConstruction.NoBoxes.CountDistinct~R1C1~CC1~CC2~CC10")
    assert iss.dumps(regions).endswith(".CountDistinct~R1C1~CC1~CC2~CC10")


def test_iss_counts_mixing_digits_and_regions_are_refused():
    with pytest.raises(CpsudokuError, match="mixing digits and regions"):
        iss.from_string(".ChaosConstruction.NoBoxes.CountDistinct~R1C1~CC1~R1C2")


def test_f_puzzles_refuses_distinct_counts_by_name():
    from cpsudoku.formats.fpuzzles_write import to_fpuzzles
    puzzle = puzzlefile.from_dict({"distinct_counts": [{"cell": "r1c1", "cells": ["r2c2"]}]})
    with pytest.raises(ModelError, match="distinct counts .*f-puzzles has no form"):
        to_fpuzzles(puzzle)
