"""Grids that are not square: ISS's `.Shape~RxC`, the puzzle file's `size = "RxC"`, the
rules that read them, and every output."""

from __future__ import annotations

import json
import re

import pytest

from cpsudoku import ModelError, ParseError, Puzzle, boxed, solve
from cpsudoku.bench.iss import load_puzzles, recorded_for
from cpsudoku.formats import iss, puzzlefile
from cpsudoku.formats.read import parse_one
from cpsudoku.formats.write import numbers, pretty, render_result
from cpsudoku.grid.geometry import Geometry, box_for, irregular
from cpsudoku.logic import explain

pytestmark = pytest.mark.unit


def _oblong(text: str) -> bool:
    shape = re.search(r"\.Shape~(\d+)x(\d+)", text)
    return shape is not None and shape[1] != shape[2]


OBLONG = [e for e in load_puzzles("all") if _oblong(e["input"])]


def test_the_collection_has_its_nine_oblong_puzzles():
    assert len(OBLONG) == 9


@pytest.mark.parametrize("entry", OBLONG, ids=[e["name"] for e in OBLONG])
def test_iss_oblong_puzzles_solve_to_their_recorded_solution(entry):
    puzzle = iss.from_string(entry["input"], source=entry["name"])
    assert not puzzle.geometry.square
    expected = recorded_for(entry["solution"], puzzle.geometry)
    assert expected is not None and len(expected) == puzzle.geometry.ncells
    result = solve(puzzle, "native", max_solutions=2)
    assert result.solution == expected and result.status.value == "unique"
    # written back as ISS and as a puzzle file, the same puzzle
    assert iss.from_string(iss.dumps(puzzle)).constraints() == puzzle.constraints()
    again = puzzlefile.from_dict(json.loads(json.dumps(puzzlefile.as_dict(puzzle))))
    assert again.geometry == puzzle.geometry and again.constraints() == puzzle.constraints()


def test_boxes_are_iss_boxes_of_the_longer_side():
    assert box_for(6, 8, 8) == (2, 4)
    assert box_for(5, 10, 10) == (5, 2)
    assert box_for(6, 9, 9) == (3, 3)
    assert box_for(9, 8, 9) is None and box_for(4, 7, 7) is None
    g = boxed(9, width=8)
    assert g.regions == g.rows and g.values == 9 and g.describe() == "9x8, no boxes"
    assert boxed(6, width=8).describe() == "6x8, 2x4 boxes"
    assert boxed(6, width=8, first=0).describe() == "6x8, 2x4 boxes, digits 0..7"


def test_geometry_lines_and_names():
    g = boxed(2, width=3, values=3)
    assert g.rows == ((0, 1, 2), (3, 4, 5)) and g.cols == ((0, 3), (1, 4), (2, 5))
    assert g.ncells == 6 and g.shape == "2x3" and not g.square and not g.standard
    assert g.cell_name(4) == "r2c2"


@pytest.mark.parametrize("build, words", [
    (lambda: Geometry(4, ((0, 1, 2, 3),), width=6), "split the 4x6 grid"),
    (lambda: boxed(4, width=6, values=5), "5 digits on a 4x6 grid"),
    (lambda: boxed(4, (3, 2), width=6), "box 3x2 does not tile a 4x6 grid"),
    (lambda: irregular(2, [[0, 1, 2], [3, 4], [5]], width=3), "split the 2x3 grid"),
])
def test_bad_shapes_are_named(build, words):
    with pytest.raises(ModelError, match=words):
        build()


@pytest.mark.parametrize("rule", ["diagonal", "windoku", "disjoint-groups", "159"])
def test_square_only_rules_are_refused_by_name(rule):
    with pytest.raises(ModelError, match=f"rule {rule} is only available on square grids, "
                                         f"not 6x8"):
        Puzzle(boxed(6, width=8), (0,) * 48, rules=(rule,)).constraints()


def test_square_only_elements_are_refused_by_name():
    text = '''size = "6x8"\n[[sandwiches]]\nrow = 1\nvalue = 5\n'''
    with pytest.raises(ModelError, match="rule sandwich is only available on square grids"):
        puzzlefile.load(text)
    with pytest.raises(ParseError, match="little killers are read on square grids only"):
        iss.from_string(".Shape~6x8.LittleKiller~10~R1C2")


def test_anti_knight_and_outside_clues_read_the_grid_as_it_is():
    """Anti-knight pairs stay inside 3 rows of 5; a row's skyscraper clue reads its 5
    cells and a column's its 3."""
    puzzle = Puzzle(boxed(3, width=5), (0,) * 15, rules=("anti-knight",))
    pairs = {con.cells for con in puzzle.constraints() if "anti-knight" in con.describe()}
    expected = {tuple(sorted((r * 5 + c, (r + dr) * 5 + c + dc)))
                for r in range(3) for c in range(5)
                for dr, dc in ((1, 2), (1, -2), (2, 1), (2, -1))
                if 0 <= r + dr < 3 and 0 <= c + dc < 5}
    assert pairs == expected
    text = ('size = "3x5"\n[[skyscrapers]]\nrow = 1\nvalue = 5\n'
            '[[skyscrapers]]\ncolumn = 5\nside = "end"\nvalue = 3\n')
    for found in solve(puzzlefile.load(text)[0], "native", max_solutions=500).solutions:
        assert found[:5] == (1, 2, 3, 4, 5) and found[14] < found[9] < found[4]
    with pytest.raises(ModelError, match=r"the clue 4 is outside 1\.\.3 on 3x5"):
        puzzlefile.load('size = "3x5"\n[[skyscrapers]]\ncolumn = 1\nvalue = 4\n')


def test_puzzle_file_size_key():
    puzzle = puzzlefile.load('size = "2x3"\ngrid = "12. ..."\n')[0]
    assert puzzle.geometry.shape == "2x3" and puzzle.givens == (1, 2, 0, 0, 0, 0)
    with pytest.raises(ModelError, match=r"size must be a number or \"RxC\""):
        puzzlefile.load('size = "2x3x4"\n')
    with pytest.raises(ModelError, match="a 2x3 grid is written as its 6 cells"):
        puzzlefile.load('size = "2x3"\ngrid = "12"\n')
    with pytest.raises(ModelError, match="expected 2 rows of 3 numbers"):
        puzzlefile.load('size = "2x3"\ngrid = [[1, 2], [0, 0]]\n')


def test_outputs_draw_rows_of_the_width():
    g = boxed(2, width=4)
    values = (1, 2, 3, 4, 3, 4, 1, 2)
    drawn = pretty(values, g).splitlines()
    assert len(drawn) == 4 and drawn[1] == "│ 1 2 │ 3 4 │"
    assert numbers(values, g) == "1 2 3 4\n3 4 1 2"
    result = solve(Puzzle(g, (1, 2, 3, 4, 3, 4, 0, 0)), "native")
    line = render_result(result, "jsonl")
    record = json.loads(line)
    assert record["size"] == "2x4" and record["solutions"] == ["12343412"]
    back = parse_one(line)  # a record reads back as its puzzle, solution and all
    assert back.geometry == g and back.meta["solutions"] == ((1, 2, 3, 4, 3, 4, 1, 2),)
    assert json.loads(render_result(result, "json"))["size"] == "2x4"


def test_the_logical_solver_explains_a_2x4_and_f_puzzles_refuses_it_by_name():
    done = explain(Puzzle(boxed(2, width=4), (1, 2, 3, 4, 3, 4, 1, 0)))
    assert done.solved and done.grid == [1, 2, 3, 4, 3, 4, 1, 2]  # its rows hold 1..4
    assert [s.text for s in done.steps] == ["Full House: r2c4=2 (row 2)"]
    puzzle = Puzzle(boxed(2, width=4), (1, 2, 3, 4, 3, 4, 0, 0))
    from cpsudoku.formats import fpuzzles_write
    with pytest.raises(ModelError, match="f-puzzles has no form for a 2x4 grid"):
        fpuzzles_write.to_fpuzzles(puzzle)
