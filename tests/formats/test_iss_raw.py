"""Raw grids (ISS's grid type `Raw`, `houses = false` in a puzzle file): rows, columns
and regions need not hold different digits, so only the rules constrain the cells."""

from __future__ import annotations

import json

import pytest

from cpsudoku import ArgumentError, ModelError, ParseError, Puzzle, count, raw_grid, solve
from cpsudoku.bench.iss import load_puzzles, recorded_for
from cpsudoku.formats import fpuzzles_write, iss, puzzlefile
from cpsudoku.grid.geometry import Geometry
from cpsudoku.logic import explain
from cpsudoku.web.drawing import describe

RAW = [e for e in load_puzzles("all") if "~Raw" in e["input"]]


def test_the_collection_has_its_raw_puzzle():
    assert [e["name"] for e in RAW] == ["250!"]


@pytest.mark.parametrize("backend", ["native", "cpsat", "sat", "mip", "choco",
                                     "python-constraint"])
def test_the_raw_puzzle_solves_to_its_recorded_solution(backend):
    entry = RAW[0]
    puzzle = iss.from_string(entry["input"], source=entry["name"])
    assert not puzzle.geometry.houses and puzzle.geometry.digits == range(0, 9)
    expected = recorded_for(entry["solution"], puzzle.geometry)
    result = solve(puzzle, backend, max_solutions=2, time_limit=120)
    assert result.status.value == "unique" and result.solution == expected
    # a digit repeats in a row: the rows are not houses
    assert len(set(expected[:9])) < 9


def test_a_raw_puzzle_is_written_back_as_iss_and_as_a_puzzle_file():
    puzzle = iss.from_string(RAW[0]["input"])
    text = iss.dumps(puzzle)
    assert text.startswith(".Shape~9x9~0-8~Raw.")
    assert iss.from_string(text) == puzzle
    data = json.loads(json.dumps(puzzlefile.as_dict(puzzle)))
    assert data["houses"] is False and "regions" not in data and "box" not in data
    again = puzzlefile.from_dict(data)
    assert again.geometry == puzzle.geometry and again.constraints() == puzzle.constraints()
    plain = Puzzle(raw_grid(4), (0,) * 16)
    assert iss.dumps(plain) == ".Shape~4x4~~Raw"  # ISS's empty digits slot
    assert iss.from_string(".Shape~4x4~~Raw").geometry == plain.geometry


def test_a_raw_grid_has_no_houses():
    g = raw_grid(3, width=4, values=2, first=0)
    assert g.units == () and g.regions == () and not g.houses
    assert g.describe() == "3x4, raw (no houses), digits 0..1"
    assert Puzzle(g, (0,) * 12).constraints() == ()
    # every filling is a solution: 2 digits in each of 4 cells
    assert len(count(Puzzle(raw_grid(2, values=2), (0,) * 4), limit=100).solutions) == 16
    assert len(count(Puzzle(raw_grid(2, values=2), (1, 1, 0, 0)), limit=100).solutions) == 4


@pytest.mark.parametrize("build, error, words", [
    (lambda: raw_grid(4, values=26), ArgumentError, "values"),
    (lambda: Geometry(4, ((0, 1, 2, 3),) * 4, houses=False), ModelError, "no regions"),
    (lambda: Geometry(4, (), houses=0), ArgumentError, "houses must be True or False"),
    (lambda: puzzlefile.load('size = 4\nhouses = false\nbox = "2x2"\n'), ModelError,
     "has no box or regions"),
    (lambda: puzzlefile.load('size = 4\nhouses = "no"\n'), ModelError,
     "houses must be true or false"),
    (lambda: puzzlefile.load('houses = false\n'), ModelError, "needs its size"),
    (lambda: puzzlefile.load('size = 4\nhouses = false\ndigits = "1-26"\n'), ModelError,
     "1 to 25 of them on a raw grid"),
])
def test_bad_raw_grids_are_named(build, error, words):
    with pytest.raises(error, match=words):
        build()


@pytest.mark.parametrize("text, words", [
    (".Shape~4x4~~Raw.NoBoxes", "NoBoxes, column 16\\): is only valid on a Sudoku grid"),
    (".Shape~4x4~~Raw.RegionSize~2", "is only valid on a Sudoku grid"),
    (".Shape~4x4~~Raw.Jigsaw~0011001122332233", "is only valid on a Sudoku grid"),
    (".Shape~4x4~~Bent", "grid type 'Bent' is neither Sudoku nor Raw"),
    (".Shape~4x4~3", "a 4x4 grid holds 4 to 16"),
])
def test_iss_refuses_what_a_raw_grid_cannot_hold(text, words):
    with pytest.raises(ParseError, match=words):
        iss.from_string(text)


def test_fewer_digits_than_a_row_fit_a_raw_grid_only():
    puzzle = iss.from_string(".Shape~4x4~3~Raw.Thermo~R1C1~R1C2~R1C3")
    assert puzzle.geometry.values == 3
    result = solve(puzzle, "native", max_solutions=2)
    assert result.status.value == "multiple"
    assert all(s[:3] == (1, 2, 3) for s in result.solutions)


@pytest.mark.parametrize("rule", ["sandwich", "chaos", "159", "doppelganger",
                                  "disjoint-groups", "region-sum-line"])
def test_rules_that_read_houses_are_refused_on_a_raw_grid(rule):
    from cpsudoku.rules import get
    instance = get(rule) if rule in ("chaos", "159", "doppelganger", "disjoint-groups") \
        else None
    if instance is None:
        key = {"sandwich": '[[sandwiches]]\nrow = 1\nvalue = 5\n',
               "region-sum-line": 'region_sum_lines = [["r1c1", "r1c2"]]\n'}[rule]
        with pytest.raises(ModelError, match=f"rule {rule} reads the grid's rows, columns "
                                             f"and regions as houses"):
            puzzlefile.load(f'size = 9\nhouses = false\n{key}')
        return
    digits = range(0, 10) if rule == "doppelganger" else range(1, 10)
    g = raw_grid(9, values=len(digits), first=digits[0])
    with pytest.raises(ModelError, match="raw grid has none"):
        Puzzle(g, (0,) * 81, rules=(instance,)).constraints()


def test_anti_taxicab_keeps_its_pairs_in_a_shared_row_on_a_raw_grid():
    """On a Sudoku grid a shared row already keeps two 1s apart; on a raw one only the
    rule does."""
    def pairs(geometry):
        puzzle = Puzzle(geometry, (0,) * 16, rules=("anti-taxicab",))
        return {con.cells for con in puzzle.constraints() if "taxicab" in con.describe()}
    from cpsudoku import boxed
    assert (0, 1) in pairs(raw_grid(4)) and (0, 1) not in pairs(boxed(4))
    puzzle = Puzzle(raw_grid(2, values=2), (1, 0, 0, 0), rules=("anti-taxicab",))
    for found in solve(puzzle, "native", max_solutions=20).solutions:
        assert found[1] != 1 and found[2] != 1  # one step from the 1
        assert not (found[1] == found[2] == 2)  # two steps between the 2s


def test_what_reads_houses_refuses_a_raw_grid_by_name():
    puzzle = Puzzle(raw_grid(4), (1, 1, 0, 0) + (0,) * 12)
    with pytest.raises(ModelError, match="the logical solver reads the grid's rows"):
        explain(puzzle)
    with pytest.raises(ModelError, match="f-puzzles has no form for a raw grid"):
        fpuzzles_write.to_fpuzzles(puzzle)


def test_the_play_page_is_told_a_raw_grid_has_no_peers():
    drawn = describe(Puzzle(raw_grid(4), (0,) * 16))
    assert drawn["houses"] is False and drawn["box"] is None
    assert set(drawn["regions"]) == {0}  # one region: no thick borders inside


@pytest.mark.parametrize("fmt", ["json", "jsonl"])
def test_a_raw_grid_written_as_json_reads_back(fmt):
    from cpsudoku.formats.read import parse_one
    from cpsudoku.formats.write import render_grid
    grid = raw_grid(4, values=2)
    text = render_grid((1, 2, 1, 2) * 4, grid, fmt)
    assert json.loads(text)["houses"] is False and "regions" not in json.loads(text)
    again = parse_one(text)
    assert again.geometry == grid and again.givens == (1, 2, 1, 2) * 4
