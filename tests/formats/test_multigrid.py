"""Multi-grid boards (samurai, twodoku, ...): the named layouts and `grids`, their
validation, the board's rows read and written with `-` outside every sub-grid, `check`
of a filled board, the places that refuse a board by name, and a board's record read
back."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import cli, one_error_line

from cpsudoku.errors import ExitCode, ModelError
from cpsudoku.formats import iss, puzzlefile
from cpsudoku.formats.fpuzzles_write import to_fpuzzles
from cpsudoku.grid.multigrid import LAYOUTS, board, named

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "samurai.toml"
SAMURAI = puzzlefile.load(EXAMPLE.read_text(encoding="utf-8"))[0]

# (board rows, columns, sub-grids, cells inside some sub-grid) of each named layout
SHAPES = {
    "twodoku": (15, 15, 2, 153), "butterfly": (12, 12, 4, 144), "flower": (15, 15, 5, 189),
    "sohei": (21, 21, 4, 288), "samurai": (21, 21, 5, 369), "windmill": (21, 21, 5, 333),
    "gattai-8": (21, 33, 8, 576), "shogun": (21, 45, 11, 783), "sumo": (33, 33, 13, 909),
    "clueless-1": (27, 27, 10, 729), "clueless-2": (27, 27, 10, 729),
}


@pytest.mark.unit
@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_each_named_layout_has_its_shape_and_every_house_holds_nine(name):
    g = named(name)
    rows, cols, grids, cells = SHAPES[name]
    assert (g.size, g.width, len(g.grids)) == (rows, cols, grids)
    assert g.ncells - len(g.absent) == cells
    assert all(len(unit) == 9 for unit in g.units)
    assert len({frozenset(u) for u in g.units}) == len(g.units)  # shared boxes once


@pytest.mark.unit
def test_a_samurai_shares_a_corner_box_between_the_centre_and_each_corner_grid():
    g = named("samurai")
    assert len(g.regions) == 5 * 9 - 4
    assert g.cell_name(g.absent[0]) == "r1c10"
    centre = set(g.grids[2])
    assert [len(centre & set(grid)) for grid in g.grids] == [9, 9, 81, 9, 9]


@pytest.mark.unit
def test_clueless_tenth_grids_take_centre_cells_or_centre_boxes():
    one, two = named("clueless-1"), named("clueless-2")
    assert [one.cell_name(c) for c in one.grids[9][:3]] == ["r2c2", "r2c5", "r2c8"]
    assert [two.cell_name(c) for c in two.grids[9][:4]] == ["r4c4", "r4c5", "r4c6", "r4c13"]


@pytest.mark.unit
@pytest.mark.parametrize("origins, side, message", [
    ([(0, 0), (4, 4)], 9, r"sub-grids 1 \(at r1c1\) and 2 \(at r5c5\) overlap across their "
                          r"3x3 boxes at r5c5"),
    ([(0, 0), (0, 0)], 9, r"sub-grids 1 and 2 both start at r1c1"),
    ([(0, 0), (-1, 3)], 9, r"sub-grid 2 must be a \[row, column\] pair"),
    ([(0, 0), (60, 0)], 9, r"the board would be 69x9: each side at most 64"),
    ([], 9, r"grids must be a non-empty list"),
])
def test_bad_boards_are_refused_naming_what_and_where(origins, side, message):
    with pytest.raises(ModelError, match=message):
        board(origins, side)


@pytest.mark.unit
@pytest.mark.parametrize("text, message", [
    ('layout = "samuari"', r"unknown layout 'samuari'; did you mean 'samurai'\?"),
    ('layout = "samurai"\ngrids = [[1, 1]]', r"'layout' or its 'grids', not both"),
    ('layout = "samurai"\nsize = 4', r"layout 'samurai' is of 9x9 sub-grids"),
    ('grids = [[0, 1]]', r"sub-grid 1 must be \[row, column\] of its top-left cell, 1-based"),
    ('grids = [[1, 1], [3, 3]]\nsize = 4\nregions = ["1122"]', r"'regions' is not available"),
    ('grids = [[1, 1], [3, 3]]\nsize = 4\ngrid = "1234--\\n"',
     r"a 6x6 board of 2 sub-grids is written as 6 rows of 6 cells, not 1 rows"),
    ('grids = [[1, 1], [3, 3]]\nsize = 4\ngrid = """\n' + "......\n" * 5 + '.....\n"""',
     r"grid: row 6 has 5 cells, expected 6"),
    ('grids = [[1, 1], [3, 3]]\nsize = 4\ngrid = """\n' + "......\n" * 5 + '....5.\n"""',
     r"row 6, column 5: '5' is not a digit 1..4"),
    ('grids = [[1, 1], [3, 3]]\nsize = 4\ngrid = """\n' + "....1.\n" + "......\n" * 5 + '"""',
     r"r1c5 is outside every sub-grid of the board of 2 sub-grids but holds a digit"),
    ('layout = "twodoku"\nrules = ["diagonal"]',
     r"rule diagonal is not available on multi-grid boards yet \(twodoku board\)"),
])
def test_bad_board_files_are_refused_by_name(text, message):
    with pytest.raises(ModelError, match=message):
        puzzlefile.load(text, "board.toml")


@pytest.mark.unit
def test_blanks_and_absent_cells_may_be_dot_or_dash_and_rows_may_hold_spaces():
    rows = [row.replace("-", ".") for row in puzzlefile.as_dict(SAMURAI)["grid"].split("\n")]
    spaced = "\n".join(" ".join(row[i:i + 3] for i in range(0, 21, 3)) for row in rows)
    again = puzzlefile.load(f'layout = "samurai"\ngrid = """\n{spaced}\n"""')[0]
    assert again.givens == SAMURAI.givens


@pytest.mark.unit
def test_a_listed_board_reads_like_its_named_layout_and_writes_back():
    listed = replace(SAMURAI, geometry=board(LAYOUTS["samurai"]))
    text = puzzlefile.dumps(listed)
    assert "grids = [\n    [1, 1],\n    [1, 13],\n    [7, 7]," in text
    assert "layout" not in text
    again = puzzlefile.load(text)[0]
    assert again.geometry.units == SAMURAI.geometry.units
    assert again.givens == SAMURAI.givens
    assert puzzlefile.load(puzzlefile.dumps(SAMURAI))[0].geometry == SAMURAI.geometry


def test_solve_writes_the_board_with_dashes_outside():
    result = cli("solve", EXAMPLE, "-n", "2", "-f", "jsonl")
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["status"] == "unique" and record["layout"] == "samurai"
    text = record["solutions"][0]
    assert len(text) == 441 and text[9:12] == "---" and text.count("-") == 72
    pretty = cli("solve", EXAMPLE, "-f", "pretty").stdout
    assert "│ 4 9 3 │ 7 1 5 │ 2 6 8 │ - - - │ 9 4 6 │" in pretty
    numbers = cli("solve", EXAMPLE, "-f", "numbers").stdout.splitlines()
    assert numbers[1].split()[9:12] == ["-", "-", "-"]


def test_a_board_record_reads_back_into_check_and_solve(tmp_path):
    path = tmp_path / "solved.jsonl"
    path.write_text(cli("solve", EXAMPLE, "-n", "2", "-f", "jsonl").stdout, encoding="utf-8")
    checked = cli("check", path)
    assert checked.exit_code == 0 and "valid solution" in checked.stdout
    again = cli("solve", path, "-b", "dlx", "-n", "2", "-f", "line")
    assert again.exit_code == 0 and "unique solution" in again.stdout


def test_check_of_a_filled_board_finds_a_broken_sub_grid_column(tmp_path):
    solution = SAMURAI.geometry.line(SAMURAI.meta["solution"])
    good = tmp_path / "good.toml"
    good.write_text(f'layout = "samurai"\ngrid = "{solution}"\n', encoding="utf-8")
    result = cli("check", good)
    assert result.exit_code == 0 and "valid solution" in result.stdout
    bad = tmp_path / "bad.toml"
    bad.write_text(f'layout = "samurai"\ngrid = "4397{solution[4:]}"\n', encoding="utf-8")
    result = cli("check", bad)
    assert result.exit_code == ExitCode.NOT_UNIQUE
    assert "r1c2 and r9c2 both hold 3 in grid 1 column 2" in result.stdout


@pytest.mark.parametrize("fmt, name", [("fpuzzles", "the f-puzzles format"),
                                       ("link", "the f-puzzles format"),
                                       ("iss", "the ISS format"),
                                       ("iss-link", "the ISS format")])
def test_writers_without_a_board_form_refuse_it_by_name(fmt, name):
    result = cli("convert", "-f", fmt, EXAMPLE)
    assert result.exit_code == ExitCode.BAD_INPUT
    assert one_error_line(result).endswith(
        f"{name} is not available on multi-grid boards yet (samurai board)")


@pytest.mark.unit
def test_the_writers_refuse_a_board_in_python_too():
    with pytest.raises(ModelError, match="f-puzzles format is not available on multi-grid"):
        to_fpuzzles(SAMURAI)
    with pytest.raises(ModelError, match="ISS format is not available on multi-grid"):
        iss.dumps(SAMURAI)


def test_the_play_page_refuses_a_board_by_name():
    pytest.importorskip("fastapi")
    from cpsudoku.errors import UsageError
    from cpsudoku.web import jobs
    from cpsudoku.web.schemas import PuzzleIn
    with pytest.raises(UsageError, match=r"play page does not draw multi-grid boards yet "
                                         r"\(samurai board\)"):
        jobs.load(PuzzleIn(puzzle=EXAMPLE.read_text(encoding="utf-8")))


def test_the_logical_solver_explains_a_board_across_its_sub_grids():
    from cpsudoku import api
    from cpsudoku.logic import explain, hint, rate
    solution = api.solve(SAMURAI, max_solutions=2).solution
    explanation = explain(SAMURAI, time_limit=60)
    assert explanation.solved and explanation.grid == list(solution)
    absent = set(SAMURAI.geometry.absent)
    assert absent and all(explanation.grid[c] == 0 for c in absent)
    names = set()
    for step in explanation.steps:  # only sub-grid cells, each step sound
        for cell, v in step.placements:
            assert cell not in absent and solution[cell] == v, step.text
        for cell, v in step.eliminations:
            assert cell not in absent and solution[cell] != v, step.text
        names.update(step.groups)
        assert step.reason
    # cells named on the board (r13c21), houses by sub-grid
    assert any(f"r{c // 21 + 1}c{c % 21 + 1}=" in s.text for s in explanation.steps
               for c, _ in s.placements if c % 21 >= 12)
    assert any(name.startswith("grid 5 ") for name in names)
    first = hint(SAMURAI).step
    assert first is not None and first.text == explanation.steps[0].text
    rating = rate(SAMURAI, time_limit=60)
    assert rating.er is not None and rating.steps == len(explanation.steps)
    with pytest.raises(ModelError, match="a player's grid is read on square grids"):
        hint(SAMURAI, [0] * SAMURAI.geometry.ncells)


def test_explain_on_the_command_line_writes_the_board():
    result = cli("explain", EXAMPLE, "-f", "json")
    assert result.exit_code == 0
    record = json.loads(result.stdout)
    assert record["solved"] and record["layout"] == "samurai"


def test_a_one_line_grid_refuses_a_board_and_names_the_formats_that_hold_it():
    result = cli("convert", "-f", "line", EXAMPLE)
    assert result.exit_code == ExitCode.BAD_INPUT
    assert one_error_line(result).endswith("use toml or json")
