"""The cells of an f-puzzles grid: regions on sizes without boxes (a cell that names none
is in its row's region), written back in the same way; cell keys only drawn are ignored,
and a key cpsudoku does not read is refused naming it and its cell."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from cpsudoku import solve
from cpsudoku.cli import app
from cpsudoku.errors import ExitCode, ModelError
from cpsudoku.formats.fpuzzles import from_fpuzzles
from cpsudoku.formats.fpuzzles_write import to_fpuzzles
from cpsudoku.formats.read import parse
from cpsudoku.grid.geometry import boxed
from cpsudoku.grid.puzzle import Puzzle

pytestmark = pytest.mark.unit

# Jigsaws on 5x5 and 7x7: each region is a row but for the cells listed, (row, column)
# 0-based with the region they are in instead; the givens leave one solution.
PRIME = {
    5: ({(0, 4): 1, (1, 0): 0}, "1000500200040000042000050",
        "1234551234245133542143152"),
    7: ({(2, 6): 3, (3, 0): 2, (5, 5): 6, (6, 1): 5},
        "1000500040005046100000040000007000307230007000020",
        "1234567346725146157322341675657214357234167156324"),
}


def fp(n: int, givens: str, regions: dict) -> dict:
    """An f-puzzles object as f-puzzles writes it: a region only where it is not the row."""
    grid = []
    for r in range(n):
        row = []
        for c in range(n):
            cell: dict = {}
            if givens[r * n + c] != "0":
                cell.update(value=int(givens[r * n + c]), given=True)
            if (r, c) in regions:
                cell["region"] = regions[(r, c)]
            row.append(cell)
        grid.append(row)
    return {"size": n, "grid": grid}


def expected_regions(n: int, moved: dict) -> set:
    regions: dict[int, set] = {}
    for r in range(n):
        for c in range(n):
            regions.setdefault(moved.get((r, c), r), set()).add(r * n + c)
    return {frozenset(cells) for cells in regions.values()}


@pytest.mark.parametrize("n", sorted(PRIME))
def test_a_prime_size_cell_without_a_region_is_in_its_rows(n):
    moved, givens, solution = PRIME[n]
    puzzle = from_fpuzzles(fp(n, givens, moved))
    assert {frozenset(r) for r in puzzle.geometry.regions} == expected_regions(n, moved)
    result = solve(puzzle, "native", max_solutions=2)
    assert result.status.value == "unique"
    assert result.solution == tuple(int(d) for d in solution)


@pytest.mark.parametrize("n", sorted(PRIME))
def test_a_prime_size_grid_is_written_back_with_only_the_moved_regions(n):
    moved, givens, solution = PRIME[n]
    puzzle = from_fpuzzles(fp(n, givens, moved))
    written = to_fpuzzles(puzzle)
    named = {(r, c) for r, row in enumerate(written["grid"])
             for c, cell in enumerate(row) if "region" in cell}
    assert named == set(moved)
    back = parse(json.dumps(written))[0]
    assert back.geometry.region_of == puzzle.geometry.region_of
    assert solve(back, "native", max_solutions=2).solution == tuple(int(d) for d in solution)


def test_a_prime_size_grid_without_regions_is_a_latin_square():
    puzzle = from_fpuzzles(fp(5, "0" * 25, {}))
    assert {frozenset(r) for r in puzzle.geometry.regions} == expected_regions(5, {})
    assert not any("region" in cell for row in to_fpuzzles(puzzle)["grid"] for cell in row)


def test_every_cell_naming_its_region_still_reads():
    moved, givens, _ = PRIME[5]
    data = fp(5, givens, moved)
    for r, row in enumerate(data["grid"]):
        for cell in row:
            cell.setdefault("region", r)
    assert (from_fpuzzles(data).geometry.region_of
            == from_fpuzzles(fp(5, givens, moved)).geometry.region_of)


def test_boxes_of_another_shape_than_f_puzzles_default_are_written_as_regions():
    # f-puzzles' 6x6 boxes are 2 rows by 3 columns: 3x2 boxes must name their regions
    puzzle = Puzzle(boxed(6, (3, 2)), (0,) * 36)
    assert from_fpuzzles(to_fpuzzles(puzzle)).geometry.region_of == puzzle.geometry.region_of


# ---------------------------------------------------------------- cell keys

DRAWN = {"c": "#A0A0A0", "cArray": ["#A0A0A0"], "highlight": "#FFD0D0",
         "centerPencilMarks": [1, 2], "cornerPencilMarks": [3], "_region": 0}


def empty(n: int = 9) -> dict:
    return {"size": n, "grid": [[{} for _ in range(n)] for _ in range(n)]}


def test_keys_that_only_draw_are_ignored():
    data = empty()
    data["grid"][0][0].update(DRAWN)
    data["grid"][0][1].update(value=5, given=True, givenPencilMarks=[5, 6])
    data["grid"][0][2].update(value=7)  # a solver's digit, not a given
    puzzle = from_fpuzzles(data)
    assert puzzle.givens[:3] == (0, 5, 0)
    assert puzzle.geometry.box == (3, 3)


@pytest.mark.parametrize("key, value", [("parity", "Even"), ("parity", "odd"),
                                        ("thermo", True), ("sum", 12)])
def test_a_cell_key_cpsudoku_does_not_read_is_refused_naming_it_and_its_cell(key, value):
    data = empty()
    data["grid"][3][6][key] = value
    with pytest.raises(ModelError, match=rf"r4c7 has the key '{key}', which is not supported"):
        from_fpuzzles(data)


def test_a_refused_parity_key_says_where_f_puzzles_keeps_odd_and_even_cells():
    data = empty()
    data["grid"][0][0]["parity"] = "Even"
    with pytest.raises(ModelError, match="under its 'odd' and 'even' keys"):
        from_fpuzzles(data)


def test_an_unknown_cell_key_left_empty_carries_nothing():
    data = empty()
    data["grid"][0][0].update(parity=None, thermo=False, sums=[])
    assert from_fpuzzles(data).givens == (0,) * 81


def test_the_command_refuses_an_unknown_cell_key_as_bad_input(tmp_path):
    data = empty()
    data["grid"][1][2]["parity"] = "Odd"
    path = tmp_path / "parity.json"
    path.write_text(json.dumps(data))
    result = CliRunner().invoke(app, ["solve", str(path)])
    assert result.exit_code == ExitCode.BAD_INPUT
    assert "r2c3 has the key 'parity'" in result.stderr
