"""Digits other than 1..N through the formats: ISS's `.Shape` value ranges and
`.RegionSize`, the puzzle file's `digits` key, grids whose 0 is a digit, and output that
prints the digits."""

from __future__ import annotations

import json

import pytest

from cpsudoku import parse, parse_one, solve
from cpsudoku.bench.iss import DATA
from cpsudoku.compare import compare_puzzle
from cpsudoku.errors import ModelError, ParseError
from cpsudoku.formats import iss, puzzlefile, write
from cpsudoku.formats.fpuzzles_write import to_fpuzzles
from cpsudoku.formats.puzzle_out import render_puzzle
from cpsudoku.grid.geometry import boxed
from cpsudoku.grid.puzzle import Puzzle
from cpsudoku.grid.symbols import value_of

pytestmark = pytest.mark.unit

COLLECTION = {p["name"]: p for p in json.loads(DATA.read_text(encoding="utf-8"))["puzzles"]}
# 6x6 cut into four 3x3 regions: a jigsaw of nine-cell pieces
QUARTERS = "000111000111000111222333222333222333"


def sizes(puzzle: Puzzle) -> set[int]:
    return {len(region) for region in puzzle.geometry.regions}


@pytest.mark.parametrize("text, values, first, box, region", [
    (".Shape~9x9~0-8", 9, 0, (3, 3), 9),
    (".Shape~6x6~0-5", 6, 0, (2, 3), 6),
    (".Shape~9x9~0-9", 10, 0, (3, 3), 9),  # ISS's boxes hold N cells unless sized
    (".Shape~6x6~9", 9, 1, (2, 3), 6),
    (".Shape~6x6~1-9", 9, 1, (2, 3), 6),
    (".Shape~6x6~9.RegionSize~9", 9, 1, (3, 3), 9),
    (".Shape~6x6~0-8.RegionSize~9", 9, 0, (3, 3), 9),
    (".Shape~6x6~9.RegionSize~6", 9, 1, (2, 3), 6),
    (".Shape~6x6~9.RegionSize~4", 9, 1, (2, 2), 4),  # nine 2x2 boxes
    (".Shape~9x9~1-9", 9, 1, (3, 3), 9),
    (".Shape~9x9~~Sudoku", 9, 1, (3, 3), 9),
])
def test_shapes_read_into_the_geometry(text, values, first, box, region):
    geometry = iss.from_string(text).geometry
    assert (geometry.values, geometry.first, geometry.box) == (values, first, box)
    assert {len(r) for r in geometry.regions} == {region}
    assert len(geometry.regions) == geometry.ncells // region


def test_grids_without_boxes_take_their_rows_or_their_jigsaw():
    seven = iss.from_string(".Shape~7x7~9")  # 7 has no box: rows stand in
    assert seven.geometry.values == 9 and seven.geometry.regions == seven.geometry.rows
    rows = iss.from_string(".Shape~6x6~9.NoBoxes").geometry
    assert rows.regions == rows.rows and rows.values == 9
    jigsaw = iss.from_string(f".Shape~6x6~9.RegionSize~9.NoBoxes.Jigsaw~{QUARTERS}")
    assert jigsaw.geometry.box is None and sizes(jigsaw) == {9}
    assert len(jigsaw.geometry.regions) == 4


def test_a_jigsaw_that_leaves_a_piece_over_adds_extra_regions():
    # ISS's squishdoku: four nine-cell pieces and the thirteen cells left over
    layout = "1112333111233311123332222222444255544425554442555"
    data, _ = iss.to_dict(f".Shape~7x7~9.RegionSize~9.Jigsaw~{layout}")
    assert [len(piece) for piece in data["extra_regions"]] == [9] * 4
    assert data["digits"] == "1-9" and len(data["regions"]) == 7  # rows


def test_givens_are_digits_and_land_as_values():
    zero = iss.from_string(".Shape~9x9~0-8.~R1C1_0~R1C2_8~R9C9_4")
    assert (zero.givens[0], zero.givens[1], zero.givens[80]) == (1, 9, 5)
    assert zero.line().startswith("08") and zero.line().endswith("4")
    wide = iss.from_string(".Shape~6x6~9.RegionSize~9.~R1C1_9~R6C6_7")
    assert (wide.givens[0], wide.givens[35]) == (9, 7)


def test_candidate_sets_speak_digits():
    data, _ = iss.to_dict(".Shape~6x6~0-5.~R1C1_1_3_5~R1C2_0_2_4~R1C3_0_1")
    assert data["odd"] == ["r1c1"] and data["even"] == ["r1c2"]
    assert data["given_candidates"] == [{"cell": "r1c3", "values": [0, 1]}]
    wide, _ = iss.to_dict(".Shape~6x6~9.~R1C1_1_3_5_7_9~R1C2_1_3_5")
    assert wide["odd"] == ["r1c1"] and wide["given_candidates"][0]["values"] == [1, 3, 5]


def test_relation_keys_count_values_and_name_digits():
    # ISS's key: one bit per value pair; on 0..8 the first pair (1, 1) is the digits 0, 0
    data, _ = iss.to_dict(".Shape~9x9~0-8.Pair~B~R1C1~R1C2")
    assert data["relations"][0]["pairs"] == [[0, 0]]


@pytest.mark.parametrize("text, at, words", [
    (".Shape~9x9~2-10", ".Shape", "digits '2-10': ISS's digits start at 0 or 1"),
    (".Shape~9x9~8", ".Shape", "holds 9 to 16 of them"),
    (".Shape~9x9~0-16", ".Shape", "holds 9 to 16 of them"),
    (".Shape~9x9~x", ".Shape", "neither a count (such as 9) nor a range"),
    (".Shape~9x9~0-8~Latin", ".Shape", "grid type 'Latin' is neither Sudoku nor Raw"),
    (".Shape~6x9~8", ".Shape", "a 6x9 grid holds 9 to 16 of them"),
    (".Shape~9x9~0-8.~R1C1_9", ".~", "values must be 0..8"),
    (".Shape~6x6~9.~R1C1_0", ".~", "values must be 1..9"),
    (".Shape~8x8.RegionSize~4", ".Region", "regions of 4 cells have no cpsudoku counterpart"),
    (".Shape~6x6~9.RegionSize~12", ".Region",  # 2x6 boxes
     "regions of 12 cells cannot hold 9 different digits"),
    (".Shape~6x6~9.RegionSize~9.NoBoxes.Jigsaw~" + "001122" * 6, ".Jigsaw",
     "jigsaw pieces of inconsistent sizes"),
    (".Shape~6x6~9.RegionSize~9.NoBoxes.Jigsaw~" + "".join(str(c // 6) for c in range(36)),
     ".Jigsaw", "jigsaw pieces must have 9 cells"),
    (".Shape~6x6~9.Windoku", ".Windoku", "windoku windows of 9 cells"),
])
def test_refusals_name_the_item(text, at, words):
    with pytest.raises(ParseError) as caught:
        parse(text, source="p.iss")
    message = str(caught.value)
    assert words in message and message.startswith("p.iss:1:")
    assert caught.value.column == text.index(at) + 1
    assert message.count("ISS constraint") == 1


@pytest.mark.parametrize("text, shape", [
    (".Shape~9x9~0-8.~R1C1_0~R5C5_8", ".Shape~9x9~0-8.~"),
    (".Shape~6x6~0-5.~R2C2_0", ".Shape~6x6~0-5.~"),
    (".Shape~6x6~9.~R1C1_9", ".Shape~6x6~9.~"),
    (".Shape~6x6~9.RegionSize~9.~R1C1_9", ".Shape~6x6~9.RegionSize~9.~"),
    (".Shape~9x9~0-9.~R1C1_9", ".Shape~9x9~0-9.~"),
    (f".Shape~6x6~0-8.RegionSize~9.NoBoxes.Jigsaw~{QUARTERS}.~R1C1_0",
     f".Shape~6x6~0-8.NoBoxes.RegionSize~9.Jigsaw~{QUARTERS}.~"),
    (".Shape~7x7~9.~R1C1_8", ".Shape~7x7~9.NoBoxes.~"),
    (".Shape~6x6~9.RegionSize~4.~R1C1_9", ".Shape~6x6~9.RegionSize~4.~"),
    # ISS sizes windoku's windows by the digits unless the regions are sized
    (".Shape~9x9~0-9.RegionSize~9.Windoku.~R1C1_9", ".Shape~9x9~0-9.RegionSize~9.~"),
])
def test_iss_round_trips(text, shape):
    puzzle = iss.from_string(text)
    written = iss.dumps(puzzle)
    assert written.startswith(shape)
    again = iss.from_string(written)
    assert again.geometry == puzzle.geometry and again.givens == puzzle.givens
    assert iss.from_string(iss.from_link(iss.link(puzzle))).givens == puzzle.givens


def test_iss_writes_candidates_and_parity_as_digits():
    puzzle = iss.from_string(".Shape~6x6~0-5.~R1C1_1_3_5~R1C2_0_2_4~R1C3_0_1~R1C4_0")
    written = iss.dumps(puzzle)
    assert "R1C1_1_3_5" in written and "R1C2_0_2_4" in written and "R1C4_0" in written
    assert iss.to_dict(written)[0] == iss.to_dict(iss.dumps(iss.from_string(written)))[0]


def test_puzzle_file_digits_key_round_trips():
    zero = iss.from_string(".Shape~9x9~0-8.~R1C1_0~R1C2_8")
    data = puzzlefile.as_dict(zero)
    assert data["digits"] == "0-8" and data["grid"].startswith("08.......\n")
    assert puzzlefile.load(puzzlefile.dumps(zero))[0].geometry == zero.geometry
    assert puzzlefile.from_dict(json.loads(json.dumps(data))).givens == zero.givens
    wide = iss.from_string(".Shape~6x6~9.RegionSize~9.~R1C1_9")
    data = puzzlefile.as_dict(wide)
    assert (data["digits"], data["box"]) == ("1-9", "3x3")
    back = puzzlefile.load(puzzlefile.dumps(wide))[0]
    assert back.geometry == wide.geometry and back.givens[0] == 9
    assert "digits" not in puzzlefile.as_dict(iss.from_string(".Shape~6x6.~R1C1_6"))


@pytest.mark.parametrize("value", ['"2-10"', '"0-4"', '"1-26"', "9", '"x"'])
def test_a_bad_digits_key_is_one_error_naming_it(value):
    with pytest.raises(ModelError) as caught:
        puzzlefile.load(f"size = 6\ndigits = {value}\n", source="p.toml")
    message = str(caught.value)
    assert message.startswith("p.toml: digits must be") and value.strip('"') in message


def test_puzzle_file_regions_may_exceed_n_cells_with_more_digits():
    rows = [QUARTERS[r * 6:(r + 1) * 6] for r in range(6)]
    puzzle = puzzlefile.from_dict({"size": 6, "digits": "1-9", "regions": rows,
                                   "grid": "9" + "." * 35})
    assert sizes(puzzle) == {9} and puzzle.givens[0] == 9
    with pytest.raises(ModelError, match="region 1 has 9 cells, expected 6"):
        puzzlefile.from_dict({"size": 6, "regions": rows, "digits": "1-6"})
    boxes = puzzlefile.from_dict({"size": 6, "digits": "1-9", "box": "3x3"})
    assert boxes.geometry.box == (3, 3) and sizes(boxes) == {9}
    with pytest.raises(ModelError, match="does not tile"):
        puzzlefile.from_dict({"size": 6, "box": "3x3"})


ZERO_GRID = """
0 . . | . . 5
. . . | . . .
------+------
. . 0 | . . .
. . . | . . .
------+------
. . . | . . .
. . . | . . 1
"""


def test_zero_is_a_digit_in_grid_text_of_a_0_indexed_puzzle():
    line = puzzlefile.from_dict({"size": 6, "digits": "0-5", "grid": "0" + "." * 34 + "5"})
    assert (line.givens[0], line.givens[35]) == (1, 6)
    drawn = puzzlefile.from_dict({"size": 6, "digits": "0-5", "grid": ZERO_GRID})
    assert (drawn.givens[0], drawn.givens[5], drawn.givens[14], drawn.givens[35]) == (1, 6, 1, 2)
    assert drawn.givens.count(0) == 32
    plain = puzzlefile.from_dict({"size": 6, "grid": ZERO_GRID})  # digits 1..6: 0 is blank
    assert plain.givens[0] == 0 and plain.givens[5] == 5
    with pytest.raises(ModelError, match="cannot tell the digit 0 from a blank"):
        puzzlefile.from_dict({"size": 6, "digits": "0-5", "grid": [[0] * 6] * 6})


def test_grid_text_above_n_is_read_up_to_the_last_digit():
    wide = puzzlefile.from_dict({"size": 6, "digits": "1-9", "grid": "9" + "." * 35})
    assert wide.givens[0] == 9
    with pytest.raises(ModelError, match="digit above 9"):
        puzzlefile.from_dict({"size": 6, "digits": "1-9", "grid": "A" + "." * 35})
    with pytest.raises(ModelError):
        puzzlefile.from_dict({"size": 6, "grid": "9" + "." * 35})
    drawn = ZERO_GRID.replace("5", "8", 1).replace("0", "7", 2)
    assert puzzlefile.from_dict({"size": 6, "digits": "1-8", "grid": drawn}).givens[5] == 8
    with pytest.raises(ParseError, match="digit 8 at r1c6 is not one of the puzzle's digits"):
        puzzlefile.from_dict({"size": 6, "digits": "1-7", "grid": drawn})


def test_output_prints_the_digits():
    puzzle = iss.from_string(".Shape~6x6~0-5.~R1C1_0")
    result = solve(puzzle, "native", max_solutions=1)
    digits = result.solution_lines()[0]
    assert set(digits) == set("012345") and digits[0] == "0"
    assert write.render_result(result, "line").splitlines()[0] == digits
    numbers = write.render_result(result, "numbers").splitlines()[1].split()
    assert numbers == list(digits[:6])
    assert "│ 0 " in write.render_result(result, "pretty")
    assert write.pretty(puzzle.givens, puzzle.geometry, "0").splitlines()[1].startswith("│ 0 .")
    record = json.loads(write.render_result(result, "jsonl"))
    assert record["digits"] == "0-5" and record["solutions"] == [digits]
    back = parse_one(json.dumps(record))
    assert back.geometry == puzzle.geometry and back.meta["solutions"] == (result.solution,)
    grid = write.json_grid(result.solution, puzzle.geometry)
    assert json.loads(grid)["grid"][0] == digits[:6]
    assert parse_one(grid).givens == result.solution


def test_compare_rows_write_the_digits():
    entry = COLLECTION["0-indexed: 6x6"]
    puzzle = iss.from_string(entry["input"])
    compared = compare_puzzle(1, puzzle, [("native", "native", False)], time_limit=None,
                              max_solutions=2)
    assert [row.solution for row in compared.rows] == [entry["solution"]]
    assert not compared.disagreements


def test_formats_without_digits_refuse_them():
    puzzle = iss.from_string(".Shape~9x9~0-8.~R1C1_0")
    with pytest.raises(ModelError, match="f-puzzles has no form for the digits 0-8"):
        to_fpuzzles(puzzle)
    with pytest.raises(ModelError, match="cannot hold its regions, digits"):
        render_puzzle(puzzle, "line")
    assert to_fpuzzles(boxed_puzzle())["size"] == 9  # digits 1..N: unchanged


def boxed_puzzle() -> Puzzle:
    return Puzzle(boxed(9), (1,) + (0,) * 80)


@pytest.mark.parametrize("name", ["0-indexed: Classic sudoku", "0-indexed: 6x6",
                                  "0-indexed: Jigsaw", "6x6: 9-value disjoint sets",
                                  "0-indexed: 6x6 9-value disjoint sets"])
def test_collection_puzzles_solve_to_iss_solution(name):
    entry = COLLECTION[name]
    puzzle = iss.from_string(entry["input"], source=name)
    assert not puzzle.geometry.standard
    first = puzzle.geometry.first
    expected = tuple(value_of(ch, first) for ch in entry["solution"])
    result = solve(puzzle, "native", max_solutions=2)
    assert result.status.value == "unique" and result.solution == expected
    assert result.solution_lines() == [entry["solution"]]
