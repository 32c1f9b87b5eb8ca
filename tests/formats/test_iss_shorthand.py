"""ISS's one-line killer and jigsaw shorthands, read by the shared parser."""

from __future__ import annotations

import pytest

from cpsudoku import is_solution, parse, solve
from cpsudoku.errors import ParseError
from cpsudoku.formats import iss, iss_shorthand, puzzlefile

pytestmark = pytest.mark.unit

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


def test_a_killer_shorthand_sum_of_0_is_a_cage_without_a_sum():
    [puzzle] = parse("0" + ROWS[1:])
    first, second = puzzle.rules[0].elements[:2]
    assert first.total is None and len(first.cells) == 9 and second.total == 45


# SudoCue's killer: every row one cage (id = the row), its sum 45 (45 * 256 + id)
SUDOCUE = "3x3::k:" + "".join(f"{45 * 256 + r}:" for r in range(9) for _ in range(9))


def test_a_sudocue_killer_reads_sums_and_cage_ids():
    [puzzle] = parse(SUDOCUE)
    cages = puzzle.rules[0].elements
    assert [c.total for c in cages] == [45] * 9
    assert all(len({r for r, _ in c.cells}) == 1 and len(c.cells) == 9 for c in cages)
    assert not puzzle.rules[1:]  # no diagonals asked for
    [crossed] = parse(SUDOCUE.replace("3x3::k:", "3x3:d:k:"))
    assert sorted(rule.name for rule in crossed.rules) == ["diagonal", "killer"]
    result = solve(crossed, "native", max_solutions=1)
    assert is_solution(crossed, result.solution)


def test_a_sudocue_cell_with_sum_0_is_in_no_cage():
    numbers = SUDOCUE[len("3x3::k:"):].split(":")
    numbers[:9] = ["0"] + [str(44 * 256)] * 8  # r1c1 out; the rest of row 1 sums to 44
    [puzzle] = parse("3x3::k:" + ":".join(numbers))
    first = puzzle.rules[0].elements[0]
    assert (len(first.cells), first.total) == (8, 44) and (1, 1) not in first.cells


@pytest.mark.parametrize("text, words", [
    ("3x3::k:" + "11520:" * 80, "80 cells, expected 81"),
    ("3x3::k:x:" + "11520:" * 80, "cell 1 is 'x', not a number"),
    ("3x3::k:" + "11520:" * 80 + "11776:", "cage 0 has the sums 45 and 46"),
])
def test_bad_sudocue_killers_are_named(text, words):
    with pytest.raises(ParseError, match=words):
        parse(text)


def test_pencil_marks_read_givens_and_candidate_sets():
    marks = ["123456789"] * 81
    marks[0] = "....5...."  # a given
    marks[1] = "1.3......"  # two candidates
    [puzzle] = parse("".join(marks))
    assert puzzle.givens[0] == 5 and puzzle.givens[1] == 0
    [restricted] = [r for r in puzzle.rules if r.name != "killer"]
    assert restricted.data() == {"given_candidates": [{"cell": "r1c2", "values": [1, 3]}]}
    assert iss_shorthand.kind("".join(marks)) == "pencilmarks"
    result = solve(puzzle, "native", max_solutions=1)
    assert result.solution[0] == 5 and result.solution[1] in (1, 3)
