"""Grids as the desktop programs frame them, and puzzle lines with more fields after them."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from cpsudoku import parse, parse_one
from cpsudoku.cli import app
from cpsudoku.errors import ParseError

pytestmark = pytest.mark.unit

INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."

HODOKU = """\
.-------.-------.-------.
| 8 . . | . . . | . . . |
| . . 3 | 6 . . | . . . |
| . 7 . | . 9 . | 2 . . |
:-------+-------+-------:
| . 5 . | . . 7 | . . . |
| . . . | . 4 5 | 7 . . |
| . . . | 1 . . | . 3 . |
:-------+-------+-------:
| . . 1 | . . . | . 6 8 |
| . . 8 | 5 . . | . 1 . |
| . 9 . | . . . | 4 . . |
'-------'-------'-------'
"""

SIMPLE_SUDOKU = """\
*-----------*
|8..|...|...|
|..3|6..|...|
|.7.|.9.|2..|
|---+---+---|
|.5.|..7|...|
|...|.45|7..|
|...|1..|.3.|
|---+---+---|
|..1|...|.68|
|..8|5..|.1.|
|.9.|...|4..|
*-----------*
"""


@pytest.mark.parametrize("text", [HODOKU, SIMPLE_SUDOKU], ids=["hodoku", "simple-sudoku"])
def test_framed_grids_are_read(text):
    puzzle = parse_one(text)
    assert puzzle.line() == INKALA
    assert puzzle.geometry.box == (3, 3)


def test_two_framed_grids_in_one_file():
    assert [p.line() for p in parse(HODOKU + "\n" + SIMPLE_SUDOKU)] == [INKALA, INKALA]


def test_a_frame_corner_is_still_a_symbol_inside_rows():
    # `*` and `.` are blanks in rows: only lines of dashes between corners are frames
    assert parse_one(INKALA.replace(".", "*")).line() == INKALA


def test_a_damaged_frame_row_is_still_an_error():
    broken = HODOKU.replace("| . 5 . | . . 7 |", "| . 5 : | . . 7 |")
    with pytest.raises(ParseError, match="unexpected character ':'"):
        parse(broken)


@pytest.mark.parametrize("tail", ["1.2 1.2 1.2", "# Inkala, 2010", "\t9.0\t9.0\t8.5"])
def test_fields_after_a_puzzle_line_are_its_note(tail):
    puzzle = parse_one(f"{INKALA} {tail}")
    assert puzzle.line() == INKALA
    assert puzzle.meta["note"] == tail.strip()


def test_every_line_of_a_rated_list_is_read(tmp_path):
    rated = tmp_path / "rated.txt"
    rated.write_text(f"{INKALA} 10.1 1.2 1.2\n{INKALA} # again\n")
    done = CliRunner().invoke(app, ["solve", str(rated), "-f", "jsonl"])
    assert done.exit_code == 0, done.output
    records = [json.loads(line) for line in done.output.splitlines()]
    assert [r["puzzle"] for r in records] == [INKALA, INKALA]
    assert [r["note"] for r in records] == ["10.1 1.2 1.2", "# again"]
    assert [r["source"] for r in records] == [f"{rated}:1", f"{rated}:2"]


def test_a_bad_puzzle_before_fields_is_still_named():
    with pytest.raises(ParseError, match="80 cells"):
        parse(f"{INKALA[:80]} 1.2 1.2 1.2")
