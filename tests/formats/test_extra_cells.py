"""Extra cells (cells outside the grid: ISS's `Var` cells, a Doppelganger's missing
digits): the geometry's names, elements that name them, ISS and puzzle-file forms,
the backends that search them, the Doppelganger rule against its definition, and the
places that refuse them by name."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from conftest import usable

from cpsudoku import solve
from cpsudoku.errors import CpsudokuError, ModelError
from cpsudoku.formats import iss, puzzlefile
from cpsudoku.formats.puzzle_out import render_puzzle
from cpsudoku.grid.geometry import boxed

ROOT = Path(__file__).resolve().parents[2]
ISS_PUZZLES = json.loads((ROOT / "cpsudoku" / "bench" / "data" / "iss_puzzles.json")
                         .read_text(encoding="utf-8"))["puzzles"]


def iss_entry(name: str) -> dict:
    return next(p for p in ISS_PUZZLES if p["name"] == name)


def recorded(entry: dict, geometry) -> tuple[int, ...]:
    first = geometry.first
    return tuple(int(ch) - first + 1 for ch in entry["solution"])


# --- the geometry's names ---------------------------------------------------------------

def test_extra_cells_follow_the_grid_in_the_order_named():
    g = boxed(4).with_extra(("VA1", "VA2", "DGC1"))
    assert [g.extra_index(x) for x in ("VA1", "VA2", "DGC1", "VB")] == [16, 17, 18, None]
    assert [g.cell_name(c) for c in (15, 16, 18)] == ["r4c4", "VA1", "DGC1"]
    assert "3 extra cells" in g.describe()


@pytest.mark.parametrize("names, message", [
    (("va1",), "capitals and digits"),
    (("R1C1",), "not a grid cell's name"),
    (("1A",), "starting with a capital"),
    (("VA", "VA"), "extra cell VA is named twice"),
])
def test_bad_extra_cell_names_are_refused_by_name(names, message):
    with pytest.raises(ModelError, match=message):
        boxed(4).with_extra(names)


def test_an_element_naming_an_unknown_extra_cell_says_which_there_are():
    data = {"size": 4, "extra_cells": ["VA"], "cages": [{"sum": 5, "cells": ["VB", "r1c1"]}]}
    with pytest.raises(CpsudokuError, match=r"VB is not a cell of this puzzle \(its extra "
                                            r"cells are VA\)"):
        puzzlefile.from_dict(data, "bad")


# --- elements over extra cells, solved and checked ---------------------------------------

def _sum_puzzle() -> dict:
    # 4x4: VA = r1c1 + r1c2 (an arrow from a cell outside the grid), VA and VB differ
    # and VB holds 4
    return {"size": 4, "extra_cells": ["VA", "VB"],
            "grid": "12..\n....\n....\n....",
            "cages": [{"sum": 0, "cells": ["VA", "r1c1", "r1c2"], "weights": [-1, 1, 1],
                       "repeats": True}],
            "extra_regions": [["VA", "VB"]],
            "given_candidates": [{"cell": "VB", "values": [4]}]}


@pytest.mark.parametrize("backend", ["native", "cpsat"])
def test_a_sum_into_an_extra_cell_gives_its_digit(backend):
    puzzle = puzzlefile.from_dict(_sum_puzzle(), "sum")
    result = solve(puzzle, usable(backend), max_solutions=1000)
    assert result.solutions  # 12.. on 4x4 has many completions
    assert result.variables is not None and len(result.variables) == len(result.solutions)
    for values in result.variables:
        assert values[:2] == (3, 4)  # VA = 1 + 2, VB given 4
    assert result.extra_cells()[0] == {"VA": 3, "VB": 4}
    assert result.as_dict()["extra_digits"][0] == {"VA": 3, "VB": 4}


def test_an_impossible_extra_cell_makes_the_puzzle_unsolvable():
    data = _sum_puzzle()
    data["given_candidates"] = [{"cell": "VB", "values": [3]}]  # VA is 3 too, but differs
    assert solve(puzzlefile.from_dict(data, "sum"), max_solutions=2).status.value == "unsolvable"


def test_the_puzzle_file_keeps_its_extra_cells():
    puzzle = puzzlefile.from_dict(_sum_puzzle(), "sum")
    again = puzzlefile.load(puzzlefile.dumps(puzzle), "again")[0]
    assert again.geometry.extra == ("VA", "VB")
    assert again.constraints() == puzzle.constraints()


# --- ISS's Var cells -------------------------------------------------------------------

VAR_PUZZLES = ["Bates Motel", "The good, the bad and the ugly", "Letter Little Killer",
               "Hailstorm", "House of Cards"]


@pytest.mark.parametrize("name", VAR_PUZZLES)
def test_iss_var_puzzles_solve_to_their_recorded_solution(name):
    entry = iss_entry(name)
    puzzle = iss.from_string(entry["input"], source=name)
    assert puzzle.geometry.extra and all(x.startswith("V") for x in puzzle.geometry.extra)
    result = solve(puzzle, "native", max_solutions=2, time_limit=60)
    assert result.status.value == "unique"
    assert result.solution == recorded(entry, puzzle.geometry)


@pytest.mark.parametrize("name", VAR_PUZZLES + ["Doppelganger", "Dutch-pelgänger"])
def test_iss_strings_with_extra_cells_go_back_to_iss(name):
    puzzle = iss.from_string(iss_entry(name)["input"], source=name)
    again = iss.from_string(iss.dumps(puzzle), source="again")
    assert again.geometry == puzzle.geometry
    assert again.constraints() == puzzle.constraints()


def test_a_var_group_in_rows_and_columns_has_neighbours_for_dots():
    # VX is laid out 2x2 (ISS's `.Var~X~~2x2`): VX1 touches VX2 and VX3; VX2 touches VX4
    puzzle = iss.from_string(".Shape~4x4.Var~X~~2x2.GreaterThan~VX1~VX2~VX4")
    assert puzzlefile.as_dict(puzzle)["greater_than"] == [["VX1", "VX2"], ["VX2", "VX4"]]
    with pytest.raises(CpsudokuError, match="its cells are not adjacent"):
        iss.from_string(".Shape~4x4.Var~X~~2x2.GreaterThan~VX1~VX4")
    with pytest.raises(CpsudokuError, match="its cells are not adjacent"):
        iss.from_string(".Shape~4x4.Var~Y~~4.GreaterThan~VY1~VY2")  # a count: no layout


def test_iss_givens_on_extra_cells_are_candidates():
    puzzle = iss.from_string(".Shape~4x4.Var~A.~VA_3")
    assert puzzlefile.as_dict(puzzle)["given_candidates"] == [{"cell": "VA", "values": [3]}]


def test_an_extra_cell_iss_cannot_name_is_refused_when_written():
    data = _sum_puzzle()
    data["extra_cells"] = ["VA", "XB"]
    data["extra_regions"] = [["VA", "XB"]]
    data["given_candidates"] = [{"cell": "XB", "values": [4]}]
    with pytest.raises(ModelError, match="extra cell XB has no ISS form"):
        iss.dumps(puzzlefile.from_dict(data, "x"))


# --- the Doppelganger rule ---------------------------------------------------------------

def _doppelgangers_by_definition(n: int, br: int, bc: int) -> set[tuple[int, ...]]:
    """Every n x n grid of the digits 0..n that the rule as ISS states it allows: each
    row, column and box holds 0 and all but one of 1..n, no two rows (columns, boxes)
    miss the same digit, and at each 0 the three missing digits differ."""
    rows = [p for p in itertools.permutations(range(n + 1), n) if 0 in p]
    boxes = [[(r0 + i) * n + c0 + j for i in range(br) for j in range(bc)]
             for r0 in range(0, n, br) for c0 in range(0, n, bc)]
    out = set()

    def missing(cells, grid):
        return (set(range(1, n + 1)) - {grid[c] for c in cells}).pop()

    def extend(grid):
        if len(grid) == n * n:
            cols = [list(range(c, n * n, n)) for c in range(n)]
            if any(len({grid[x] for x in col}) != n or 0 not in {grid[x] for x in col}
                   for col in cols + boxes):
                return
            miss_r = [missing(range(r * n, r * n + n), grid) for r in range(n)]
            miss_c = [missing(col, grid) for col in cols]
            miss_b = [missing(box, grid) for box in boxes]
            if len(set(miss_r)) < n or len(set(miss_c)) < n or len(set(miss_b)) < n:
                return
            for cell, d in enumerate(grid):
                b = next(i for i, box in enumerate(boxes) if cell in box)
                trio = {miss_r[cell // n], miss_c[cell % n], miss_b[b]}
                if d == 0 and len(trio) < 3:
                    return
            out.add(tuple(grid))
            return
        for row in rows:  # columns differ so far: prune early
            if all(row[c] not in grid[c::n] for c in range(n)):
                extend(grid + list(row))

    extend([])
    return out


@pytest.mark.parametrize("backend", ["native", "cpsat"])
def test_doppelganger_on_4x4_finds_exactly_the_grids_of_its_definition(backend):
    puzzle = puzzlefile.from_dict({"size": 4, "digits": "0-4", "box": "2x2",
                                   "rules": ["doppelganger"]}, "4x4")
    assert puzzle.geometry.extra == ("DGR1", "DGR2", "DGR3", "DGR4", "DGC1", "DGC2", "DGC3",
                                     "DGC4", "DGB1", "DGB2", "DGB3", "DGB4")
    expected = _doppelgangers_by_definition(4, 2, 2)
    assert expected  # the rule leaves some grids
    result = solve(puzzle, usable(backend), max_solutions=len(expected) + 1)
    digits = {tuple(v - 1 for v in s) for s in result.solutions}  # values 1..5: digits 0..4
    assert digits == expected
    # the extra cells are the digits each house misses
    for solution, extra in zip(result.solutions, result.extra_cells()):
        grid = [v - 1 for v in solution]
        assert extra["DGC1"] not in grid[0:4] and extra["DGR1"] not in grid[0::4]


def test_iss_doppelganger_names_its_missing_digits_as_iss_does():
    entry = iss_entry("Doppelganger")
    puzzle = iss.from_string(entry["input"], source="Doppelganger")
    result = solve(puzzle, "native", max_solutions=2, time_limit=60)
    assert result.status.value == "unique"
    assert result.solution == recorded(entry, puzzle.geometry)
    grid = [int(ch) for ch in entry["solution"]]
    extra = result.extra_cells()[0]
    for i in range(9):  # ISS: DGC i beside row i, DGR j below column j
        assert extra[f"DGC{i + 1}"] == (set(range(1, 10)) - set(grid[9 * i:9 * i + 9])).pop()
        assert extra[f"DGR{i + 1}"] == (set(range(1, 10)) - set(grid[i::9])).pop()


@pytest.mark.slow
def test_iss_dutch_pelganger_is_unique_with_its_recorded_solution():
    entry = iss_entry("Dutch-pelgänger")
    puzzle = iss.from_string(entry["input"], source="Dutch-pelgänger")
    result = solve(puzzle, "native", max_solutions=2, time_limit=120)
    assert result.status.value == "unique"
    assert result.solution == recorded(entry, puzzle.geometry)


@pytest.mark.parametrize("data, message", [
    ({"size": 4, "rules": ["doppelganger"]}, "digits 0..N"),
    ({"size": 4, "digits": "0-5", "rules": ["doppelganger"]}, "digits 0..N"),
])
def test_doppelganger_refuses_other_digits_by_name(data, message):
    with pytest.raises(CpsudokuError, match=message):
        puzzlefile.from_dict(data, "d")


def test_iss_doppelganger_on_other_digits_is_refused_by_item():
    with pytest.raises(CpsudokuError, match=r"ISS constraint 1 \(Doppelganger, column 1\): "
                                            r"Doppelganger needs a square grid of the digits "
                                            r"0..N \(such as .Shape~9x9~0-9\), not 9x9 of 1..9"):
        iss.from_string(".Doppelganger")


# --- what reads the grid's cells only refuses by name -----------------------------------

def test_formats_without_extra_cells_refuse_them_by_name():
    puzzle = puzzlefile.from_dict(_sum_puzzle(), "sum")
    with pytest.raises(ModelError, match="f-puzzles has no form for cells outside the grid"):
        render_puzzle(puzzle, "fpuzzles")
    with pytest.raises(ModelError, match="one-line grid cannot hold"):
        render_puzzle(puzzle, "line")


def test_the_logical_solver_refuses_extra_cells_by_name():
    from cpsudoku.logic.solver import Solver
    with pytest.raises(ModelError, match="the logical solver reads the grid's cells only"):
        Solver(puzzlefile.from_dict(_sum_puzzle(), "sum"))
