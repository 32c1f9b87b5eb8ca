"""ISS's one-line killer and jigsaw shorthands, read by the shared parser."""

from __future__ import annotations

import pytest

from cpsudoku import is_solution, parse, solve
from cpsudoku.errors import ParseError
from cpsudoku.formats import iss, iss_shorthand, puzzlefile

# Every row one cage of 9 cells summing to 45 ('j'), its sum in the first cell.
ROWS = "".join("j" + "<" * 8 for _ in range(9))


def test_a_killer_shorthand_follows_arrows_to_the_sum():
    # r1c1 holds 3 for itself and r1c2 (arrow left); r2c1 points up-right into it
    text = "3<" + "5" * 7 + "'" + "5" * 8 + "5" * 63
    data = iss_shorthand.to_dict(text)
    cages = {tuple(c["cells"]): c["sum"] for c in data["cages"]}
    assert cages[("r1c1", "r1c2", "r2c1")] == 3
    assert cages[("r1c3",)] == 5 and len(cages) == 81 - 2


def test_the_sum_letters():
    line = "A" + "<" * 8 + "a" + "<" * 8 + "j" + "<" * 8 + "9" * 54
    sums = [c["sum"] for c in iss_shorthand.to_dict(line)["cages"][:3]]
    assert sums == [10, 36, 45]


def test_rows_as_cages_solve():
    [puzzle] = parse(ROWS)
    assert puzzle.meta.get("format") == "iss"
    assert len(puzzle.rules[0].elements) == 9
    result = solve(puzzle, "native", max_solutions=1)
    assert is_solution(puzzle, result.solution)


@pytest.mark.parametrize("text, column, words", [
    ("j" + "<" * 7 + "x" + ROWS[9:], 9, "'x' is neither a cage sum"),
    ("^" + ROWS[1:], 1, "points outside the grid"),
    ("><" + ROWS[2:], 1, "go round in a loop"),
    ("0" + ROWS[1:], 1, "has the sum 0"),
])
def test_bad_killer_characters_are_named_with_their_column(text, column, words):
    with pytest.raises(ParseError, match=words) as caught:
        parse(text)
    assert caught.value.column == column


JIGSAW_LAYOUT = "".join(str(r // 3 * 3 + c // 3) for r in range(9) for c in range(9))


def test_a_jigsaw_shorthand_is_givens_then_the_layout():
    bands = "".join(str((r % 3) * 3 + c // 3) for r in range(9) for c in range(9))
    givens = "1" + "." * 80
    data = iss_shorthand.to_dict(givens + " " + bands)
    assert data["grid"][0][0] == 1 and data["regions"][1] == "333444555"
    [puzzle] = parse(givens + bands)
    assert puzzle.geometry.box is None and puzzle.givens[0] == 1


def test_a_16x16_jigsaw_reads_letters_as_digits():
    layout = "".join(chr(65 + r // 4 * 4 + c // 4) for r in range(16) for c in range(16))
    givens = "P" + "0" * 255
    [puzzle] = parse(givens + "  " + layout)
    assert puzzle.size == 16 and puzzle.givens[0] == 16


def test_plain_grids_and_constraint_strings_are_not_shorthands():
    assert iss_shorthand.kind("." * 81) is None
    assert iss_shorthand.kind("1" * 81) is None
    assert iss_shorthand.kind(".~R1C1_5" + "v" * 73) is None
    assert iss_shorthand.kind(JIGSAW_LAYOUT) is None  # a layout alone is not a puzzle


def test_a_shorthand_loads_as_a_puzzle_file_would():
    [puzzle] = parse(ROWS)
    again = parse(puzzlefile.dumps(puzzle))[0]
    assert (again.rules, again.givens, again.geometry) == (puzzle.rules, puzzle.givens,
                                                           puzzle.geometry)
    assert iss.looks_like_iss(ROWS)
