"""The shared parser: every notation, every size, overrides, sources, error messages,
and the round trip through every renderer."""

from __future__ import annotations

import gzip
import io
import json
import random
import sys
import types

import pytest
from conftest import data_file
from hypothesis import given, settings
from hypothesis import strategies as st

from cpsudoku.errors import CpsudokuError, ExitCode, ModelError, ParseError
from cpsudoku.formats import write as render
from cpsudoku.formats.read import parse, parse_one
from cpsudoku.formats.sources import read_puzzles
from cpsudoku.grid.geometry import boxed

pytestmark = pytest.mark.unit

INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
WIKI = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"

# The board as the classic tutorials print it: ASCII rules, `|` between boxes.
ASCII_TUTORIAL = """\
+-------+-------+-------+
| 5 3 . | . 7 . | . . . |
| 6 . . | 1 9 5 | . . . |
| . 9 8 | . . . | . 6 . |
+-------+-------+-------+
| 8 . . | . 6 . | . . 3 |
| 4 . . | 8 . 3 | . . 1 |
| 7 . . | . 2 . | . . 6 |
+-------+-------+-------+
| . 6 . | . . . | 2 8 . |
| . . . | 4 1 9 | . . 5 |
| . . . | . 8 . | . 7 9 |
+-------+-------+-------+
"""

# ... and with box-drawing characters and □ for blank cells.
BOX_TUTORIAL = """\
┌───────┬───────┬───────┐
│ 5 3 □ │ □ 7 □ │ □ □ □ │
│ 6 □ □ │ 1 9 5 │ □ □ □ │
│ □ 9 8 │ □ □ □ │ □ 6 □ │
├───────┼───────┼───────┤
│ 8 □ □ │ □ 6 □ │ □ □ 3 │
│ 4 □ □ │ 8 □ 3 │ □ □ 1 │
│ 7 □ □ │ □ 2 □ │ □ □ 6 │
├───────┼───────┼───────┤
│ □ 6 □ │ □ □ □ │ 2 8 □ │
│ □ □ □ │ 4 1 9 │ □ □ 5 │
│ □ □ □ │ □ 8 □ │ □ 7 9 │
└───────┴───────┴───────┘
"""

# Norvig's display: no outer border, `------+------+------` rules.
NORVIG_DISPLAY = """\
5 3 . |. 7 . |. . . 
6 . . |1 9 5 |. . . 
. 9 8 |. . . |. 6 . 
------+------+------
8 . . |. 6 . |. . 3 
4 . . |8 . 3 |. . 1 
7 . . |. 2 . |. . 6 
------+------+------
. 6 . |. . . |2 8 . 
. . . |4 1 9 |. . 5 
. . . |. 8 . |. 7 9 
"""

# Heavy/double box-drawing lines.
DOUBLE_LINES = """\
╔═══════╦═══════╦═══════╗
║ 5 3 . ║ . 7 . ║ . . . ║
║ 6 . . ║ 1 9 5 ║ . . . ║
║ . 9 8 ║ . . . ║ . 6 . ║
╠═══════╬═══════╬═══════╣
║ 8 . . ║ . 6 . ║ . . 3 ║
║ 4 . . ║ 8 . 3 ║ . . 1 ║
║ 7 . . ║ . 2 . ║ . . 6 ║
╠═══════╬═══════╬═══════╣
║ . 6 . ║ . . . ║ 2 8 . ║
║ . . . ║ 4 1 9 ║ . . 5 ║
║ . . . ║ . 8 . ║ . 7 9 ║
╚═══════╩═══════╩═══════╝
"""

# Project Euler / Simple Sudoku style: digit groups, 0 for blank, a title line.
EULER = """\
Grid 01
003020600
900305001
001806400
008102900
700000008
006708200
002609500
800203009
005010300
"""


def values(line: str) -> tuple[int, ...]:
    return parse_one(line).givens


def error(text: str, **kw) -> ParseError:
    with pytest.raises(ParseError) as info:
        parse(text, **kw)
    return info.value


# --- one-line notation ---------------------------------------------------------------

@pytest.mark.parametrize("blank", list(".0-_*"))
def test_one_line_blanks(blank):
    puzzle = parse_one(INKALA.replace(".", blank))
    assert puzzle.givens == values(INKALA)
    assert puzzle.givens[0] == 8 and puzzle.givens[1] == 0
    assert puzzle.blank == ("0" if blank == "0" else ".")
    assert puzzle.geometry == boxed(9)


def test_letters_are_case_insensitive_and_not_hexadecimal():
    upper = parse_one("G1" + "." * 254)
    lower = parse_one("g1" + "." * 254)
    assert upper.givens == lower.givens
    assert upper.givens[0] == 16 and upper.size == 16


@pytest.mark.parametrize("size, box", [(4, (2, 2)), (6, (2, 3)), (8, (2, 4)), (9, (3, 3)),
                                       (10, (2, 5)), (12, (3, 4)), (16, (4, 4)), (25, (5, 5))])
def test_every_size_one_line(size, box):
    symbols = "123456789ABCDEFGHIJKLMNOP"[:size]
    text = "".join(symbols[(r * box[1] + r // box[0] + c) % size] for r in range(size)
                   for c in range(size))
    puzzle = parse_one(text)
    assert puzzle.size == size and puzzle.geometry.box == box
    assert sorted(puzzle.givens[:size]) == list(range(1, size + 1))


def test_gecode_16x16_and_25x25_files(data_dir):
    for name, size in (("gecode_16x16.txt", 16), ("gecode_25x25.txt", 25)):
        path = data_dir / "sizes" / name
        puzzles = read_puzzles(str(path))
        lines = path.read_text().split()
        assert len(puzzles) == len(lines)
        assert all(p.size == size for p in puzzles)
        assert [p.line() for p in puzzles] == lines
        assert puzzles[2].source == f"{path}:3"


def test_big_batch_file():
    path = data_file("classic/norvig_top95.txt")
    puzzles = read_puzzles(str(path))
    assert len(puzzles) == 95
    assert puzzles[0].line() == path.read_text().splitlines()[0]
    assert puzzles[94].source.endswith(":95")


# --- multi-line grids ----------------------------------------------------------------

@pytest.mark.parametrize("text, first_row", [(ASCII_TUTORIAL, 2), (BOX_TUTORIAL, 2),
                                             (NORVIG_DISPLAY, 1), (DOUBLE_LINES, 2)],
                         ids=["ascii", "box-drawing", "norvig", "double"])
def test_decorated_grids(text, first_row):
    puzzle = parse_one(text, source="grid.txt")
    assert puzzle.givens == values(WIKI)
    assert puzzle.geometry == boxed(9)
    assert puzzle.source == f"grid.txt:{first_row}"


def test_digit_groups_with_title_line():
    puzzle = parse_one(EULER)
    assert puzzle.name == "Grid 01"
    assert puzzle.line() == ("003020600900305001001806400008102900700000008"
                             "006708200002609500800203009005010300")
    assert puzzle.blank == "0"
    assert puzzle.source == "<string>:2"


def test_titled_grids_back_to_back():
    second = EULER.replace("Grid 01", "Grid 02").replace("003020600", "200080300")
    puzzles = parse(EULER + second)
    assert [p.name for p in puzzles] == ["Grid 01", "Grid 02"]
    assert [p.source for p in puzzles] == ["<string>:2", "<string>:12"]
    assert puzzles[1].givens[:9] == (2, 0, 0, 0, 8, 0, 3, 0, 0)


def test_compact_rows_with_separators_and_spaced_cells():
    rows = [WIKI[i:i + 9] for i in range(0, 81, 9)]
    compact = "\n".join(f"{r[:3]}|{r[3:6]}|{r[6:]}" for r in rows)
    spaced = "\n".join(" ".join(r) for r in rows)
    plain = "\n".join(rows)
    assert parse_one(compact).givens == parse_one(spaced).givens == parse_one(plain).givens \
        == values(WIKI)


def test_several_grids_separated_by_blank_lines_and_back_to_back():
    rows = [WIKI[i:i + 9] for i in range(0, 81, 9)]
    other = [INKALA[i:i + 9] for i in range(0, 81, 9)]
    separated = "\n".join(rows) + "\n\n\n" + "\n".join(other) + "\n"
    back_to_back = "\n".join(rows + other)
    for text in (separated, back_to_back):
        puzzles = parse(text, source="two.txt")
        assert [p.line() for p in puzzles] == [WIKI, INKALA]
        assert [p.source for p in puzzles] == ["two.txt:1", "two.txt:" + str(
            10 if text is back_to_back else 12)]


def test_dash_lines_are_rules_or_rows_of_blanks():
    rows = [WIKI[i:i + 9].replace(".", "-") for i in range(0, 81, 9)]
    rows[4] = "-" * 9
    plain = "\n".join(rows)
    assert parse_one(plain).line() == WIKI[:36] + "." * 9 + WIKI[45:]
    ruled = "\n".join(rows[:3] + ["-" * 11] + rows[3:6] + ["-" * 11] + rows[6:])
    assert parse_one(ruled).line() == WIKI[:36] + "." * 9 + WIKI[45:]
    simple_sudoku = "\n".join(f"{r[:3]}|{r[3:6]}|{r[6:]}" for r in rows[:3]) + "\n-----------\n"
    assert parse(simple_sudoku + simple_sudoku + simple_sudoku)[0].geometry.box == (3, 3)


def test_drawn_borders_give_the_box_shape():
    two_by_three = "12.|...\n...|...\n---+---\n...|...\n...|...\n---+---\n...|...\n...|..."
    three_by_two = "12|..|..\n..|..|..\n..|..|..\n--+--+--\n..|..|..\n..|..|..\n..|..|.."
    assert parse_one(two_by_three).geometry.box == (2, 3)
    assert parse_one(three_by_two).geometry.box == (3, 2)


def test_sixteen_rows_of_sixteen_are_a_16x16_grid(data_dir):
    line = (data_dir / "sizes" / "gecode_16x16.txt").read_text().split()[0]
    rows = "\n".join(line[i:i + 16] for i in range(0, 256, 16))
    puzzle = parse_one(rows)
    assert puzzle.size == 16 and puzzle.line() == line
    # ...unless the size says they are 4x4 puzzles, one per line (these do not fit).
    assert "does not fit a 4x4 grid" in str(error(rows, size=4))
    fours = "\n".join(["1234341221434321"] * 3)
    assert [p.size for p in parse(fours)] == [4, 4, 4]


# --- whitespace-separated numbers ------------------------------------------------------

def test_numbers_one_row_per_line(data_dir):
    line = (data_dir / "sizes" / "gecode_16x16.txt").read_text().split()[0]
    expected = parse_one(line).givens
    text = "\n".join(" ".join(str(v) for v in expected[r * 16:(r + 1) * 16])
                     for r in range(16))
    assert text.startswith("13 9 2 0")
    puzzle = parse_one(text)
    assert puzzle.givens == expected and puzzle.blank == "0"
    dotted = text.replace(" 0", " .").replace("\n0", "\n.")
    assert parse_one(dotted).givens == expected
    assert parse_one(" ".join(str(v) for v in expected)).givens == expected  # one line


def test_numbers_with_separators():
    text = "\n".join(", ".join(str(v) for v in row) for row in
                     ([10, 0, 3, 0, 0, 0, 0, 0, 0, 0], *([[0] * 10] * 9)))
    puzzle = parse_one(text)
    assert puzzle.size == 10 and puzzle.givens[:3] == (10, 0, 3)


# --- JSON ------------------------------------------------------------------------------

def test_json_grid_and_lists():
    grid = [[int(ch) if ch != "." else 0 for ch in WIKI[r * 9:(r + 1) * 9]] for r in range(9)]
    puzzle = parse_one(json.dumps(grid))
    assert puzzle.givens == values(WIKI) and puzzle.blank == "0"
    assert [p.line() for p in parse(json.dumps([grid, grid]))] == [puzzle.line()] * 2
    assert [p.givens for p in parse(json.dumps([WIKI, INKALA]))] == [values(WIKI),
                                                                     values(INKALA)]


def test_json_lines_of_grids():
    grid = [[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]]
    puzzles = parse(json.dumps(grid) + "\n" + json.dumps(grid) + "\n", source="g.jsonl")
    assert [p.givens[-1] for p in puzzles] == [2, 2]
    assert [p.source for p in puzzles] == ["g.jsonl:1", "g.jsonl:2"]


def test_grid_object_goes_through_the_puzzle_file_loader():
    obj = {"size": 6, "box": "3x2", "grid": [[1, 0, 0, 0, 0, 0]] + [[0] * 6] * 5}
    puzzle = parse_one(json.dumps(obj))
    assert puzzle.geometry.box == (3, 2) and puzzle.givens[0] == 1


def test_json_errors():
    assert "invalid JSON" in str(error("[[1, 2], [3,"))
    bad_row = error("[[1,2,3,4],[1,2,3],[0,0,0,0],[0,0,0,0]]")
    assert "row 2 has 3 values, expected 4" in str(bad_row)
    assert "does not fit a 4x4 grid" in str(error("[[5,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]"))
    assert "is not a cell value" in str(error('[["x",0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]'))


# --- .sdk, comments, many puzzles per file --------------------------------------------

# The .sdk example of SudoCue's file format documentation: metadata codes, no space.
SDK = """\
#ARuud
#DA random puzzle created by SudoCue
#CJust start plugging in the numbers
#B03-08-2006
#SSudoCue
#LEasy
#Uhttp://www.sudocue.net/
2..1.5..3
.54...71.
.1.2.3.8.
6.28.73.4
.........
1.53.98.6
.2.7.1.6.
.81...24.
7..4.2..1
"""


def test_sdk_metadata():
    puzzle = parse_one(SDK, source="random.sdk")
    assert puzzle.line() == ("2..1.5..3.54...71..1.2.3.8.6.28.73.4.........1.53.98.6"
                             ".2.7.1.6..81...24.7..4.2..1")
    assert puzzle.meta == {"author": "Ruud", "description": "A random puzzle created by SudoCue",
                           "comment": "Just start plugging in the numbers",
                           "date": "03-08-2006", "source": "SudoCue", "level": "Easy",
                           "url": "http://www.sudocue.net/"}
    assert puzzle.name == "A random puzzle created by SudoCue"
    assert puzzle.source == "random.sdk:8"


def test_sdk_metadata_with_spaces_and_plain_comments():
    text = "#Sudoku collection\n# note\n#A Arto Inkala\n#D The hardest\n" + "\n".join(
        INKALA[i:i + 9] for i in range(0, 81, 9)) + "\n"
    puzzle = parse_one(text)
    assert puzzle.meta == {"author": "Arto Inkala", "description": "The hardest"}
    assert puzzle.givens == values(INKALA)


def test_file_with_comments_and_blank_lines(tmp_path):
    path = tmp_path / "puzzles.txt"
    zeros = WIKI.replace(".", "0")
    path.write_text(f"# three puzzles\n\n{WIKI}\n# another\n{INKALA}\n\n\n{zeros}\n")
    puzzles = read_puzzles(str(path))
    assert [p.line() for p in puzzles] == [WIKI, INKALA, WIKI.replace(".", "0")]
    assert [p.source for p in puzzles] == [f"{path}:3", f"{path}:5", f"{path}:8"]
    assert puzzles[0].meta == {} and puzzles[0].name is None


# --- overrides -------------------------------------------------------------------------

def test_box_override_for_6x6():
    text = "1" + "." * 35
    assert parse_one(text).geometry.box == (2, 3)
    assert parse_one(text, box=(3, 2)).geometry.box == (3, 2)
    assert parse_one(text, box="3x2").geometry.box == (3, 2)
    assert parse_one(text, size=6, box="2x3").geometry.box == (2, 3)


def test_box_alone_sets_the_size_and_size_splits_ambiguous_lines():
    assert parse_one("1" + "." * 35, box="3x2").size == 6
    fours = "1234341221434321\n" * 16
    assert parse(fours)[0].size == 16
    assert [p.size for p in parse(fours, size=4)] == [4] * 16


def test_override_mismatch():
    with pytest.raises(ModelError):
        parse(WIKI, size=9, box=(2, 3))
    assert "expected 36 for a 6x6 grid" in str(error(WIKI, size=6))
    assert str(error("1234" * 20 + "1", size=4)) == \
        "<string>:1: 81 cells, expected 16 for a 4x4 grid"


# --- sources ---------------------------------------------------------------------------

def test_stdin(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(ASCII_TUTORIAL))
    puzzles = read_puzzles("-")
    assert puzzles[0].givens == values(WIKI)
    assert puzzles[0].source.startswith("<stdin>:")


def test_stdin_bytes(monkeypatch):
    stream = io.TextIOWrapper(io.BytesIO((WIKI + "\n" + INKALA + "\n").encode()))
    monkeypatch.setattr(sys, "stdin", stream)
    assert len(read_puzzles("-")) == 2


def test_inline_argument():
    puzzle = read_puzzles(INKALA)[0]
    assert puzzle.givens == values(INKALA) and puzzle.source == "<argument>:1"
    assert read_puzzles("[[1,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]")[0].size == 4


def test_a_missing_file_name_is_not_read_as_a_grid():
    for name in ("abc", "puzzles.txt", "data/1234.sdk", "ABCDEFGHIJKLMNOP-1234567890.txt"):
        with pytest.raises(ParseError, match="no such file"):
            read_puzzles(name)


def test_a_too_short_inline_grid_says_so():
    with pytest.raises(ParseError) as info:
        read_puzzles("1.3.5")
    assert str(info.value) == ("no such file: 1.3.5 (as an inline grid it has 5 cells; "
                               "the smallest grid has 16)")
    assert info.value.exit_code == ExitCode.BAD_INPUT


def test_missing_directory_and_undecodable_sources(tmp_path):
    with pytest.raises(ParseError) as info:
        read_puzzles(str(tmp_path / "nope.txt"))
    assert str(info.value) == f"no such file: {tmp_path / 'nope.txt'}"
    assert info.value.exit_code == ExitCode.BAD_INPUT
    with pytest.raises(ParseError, match="is a directory"):
        read_puzzles(str(tmp_path))
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ParseError, match=r"bad\.txt: not UTF-8"):
        read_puzzles(str(bad))


def test_gzip_and_bom(tmp_path):
    packed = tmp_path / "p.txt.gz"
    packed.write_bytes(gzip.compress(WIKI.encode()))
    assert read_puzzles(str(packed))[0].line() == WIKI
    bom = tmp_path / "bom.txt"
    bom.write_bytes("\ufeff".encode() + INKALA.encode())
    assert read_puzzles(str(bom))[0].line() == INKALA


# --- variant puzzle files --------------------------------------------------------------

def test_variant_files_go_to_puzzlefile(monkeypatch):
    seen = []
    fake = types.ModuleType("cpsudoku.formats.puzzlefile")
    fake.load = lambda text, source: seen.append((text[:10], source)) or [parse_one(WIKI)]
    monkeypatch.setitem(sys.modules, "cpsudoku.formats.puzzlefile", fake)
    import cpsudoku.formats
    monkeypatch.setattr(cpsudoku.formats, "puzzlefile", fake, raising=False)
    for text in ('{"cages": []}', "https://f-puzzles.com/?load=N4Ig", '[puzzle]\nsize = 9\n',
                 'title = "x"\n', '[{"size": 4}]', '# a comment\n[[puzzles]]\nsize = 4\n',
                 "N4IgzglgXgpiBcBOANCA5gJwgEwQbTwBYAA2hgCd4B6ADgEYs8BvAX1gEMBdN"):
        assert parse(text, source="v.json")[0].givens == values(WIKI)
    assert len(seen) == 7 and seen[0] == ('{"cages": ', "v.json")


# --- error messages --------------------------------------------------------------------

def test_error_wrong_count():
    err = error(f"{WIKI}\n{WIKI}\n{WIKI[:80]}\n{WIKI}\n", source="puzzles.txt")
    assert str(err) == "puzzles.txt:3: 80 cells, expected a square count such as 81 (9x9)"
    assert (err.line, err.column) == (3, None)
    assert "7x7 grid, which has no box shape" in str(error("." * 49))


def test_error_bad_character():
    rows = ASCII_TUTORIAL.splitlines()
    rows[2] = rows[2][:13] + "x" + rows[2][14:]
    err = error("\n".join(rows), source="grid.txt")
    assert str(err) == ("grid.txt:3:14: unexpected character 'x'; expected a digit 1-9, "
                        "a letter A-P or a blank (. 0 - _ *)")
    assert error(WIKI[:40] + "Z" + WIKI[41:]).column == 41


def test_error_value_too_large():
    err = error("C" + WIKI[1:])
    assert str(err) == "<string>:1:1: value C (12) at r1c1 does not fit a 9x9 grid (values 1-9)"
    numbers = "\n".join(" ".join("12" if (r, c) == (1, 4) else "0" for c in range(9))
                        for r in range(9))
    err = error(numbers)
    assert (err.line, err.column) == (2, 9) and "at r2c5" in str(err)


def test_error_empty_input():
    assert str(error("")) == "<string>: empty input: no puzzle found"
    assert "no puzzle found" in str(error("# only a comment\n\n"))


def test_error_ragged_rows():
    rows = [WIKI[i:i + 9] for i in range(0, 81, 9)]
    rows[4] = rows[4][:8]
    err = error("\n".join(rows), source="r.txt")
    assert str(err) == "r.txt:5:9: row has 8 cells, expected 9 (ragged grid)"
    rows[4] = WIKI[36:45] + "1"
    assert error("\n".join(rows)).column == 10


def test_error_incomplete_grid():
    rows = [WIKI[i:i + 9] for i in range(0, 81, 9)]
    err = error("\n".join(rows[:8]))
    assert str(err) == "<string>:1: grid has 8 rows of 9 cells, expected 9 rows"


def test_contradictory_givens_are_not_a_parse_error():
    assert parse_one("11" + "." * 79).givens[:2] == (1, 1)


# --- round trip through every renderer --------------------------------------------------

SHAPES = {4: [(2, 2)], 6: [(2, 3), (3, 2)], 8: [(2, 4), (4, 2)], 9: [(3, 3)],
          12: [(3, 4), (4, 3), (2, 6)], 16: [(4, 4), (2, 8)], 25: [(5, 5)]}
FORMATS = ("pretty", "line", "json", "numbers")


@st.composite
def puzzles(draw):
    size = draw(st.sampled_from(sorted(SHAPES)))
    box = draw(st.sampled_from(SHAPES[size]))
    rng = random.Random(draw(st.integers(0, 2 ** 32)))
    density = draw(st.sampled_from([0.0, 0.3, 1.0]))
    givens = tuple(rng.randint(1, size) if rng.random() < density else 0
                   for _ in range(size * size))
    return boxed(size, box), givens


@settings(max_examples=60, deadline=None)
@given(puzzles(), st.sampled_from(FORMATS), st.sampled_from(".0"))
def test_render_then_parse_round_trip(shape, fmt, blank):
    geometry, givens = shape
    text = render.render_grid(givens, geometry, fmt, blank)
    # Line and number notations carry no box shape: the reader tells it, as users do.
    drawn = fmt in ("pretty", "json")
    puzzle = parse_one(text, box=None if drawn else geometry.box)
    assert puzzle.givens == givens
    assert puzzle.geometry == geometry


@pytest.mark.parametrize("size", sorted(SHAPES))
@pytest.mark.parametrize("fmt", FORMATS)
def test_round_trip_every_size_and_format(size, fmt):
    box = SHAPES[size][-1]
    geometry = boxed(size, box)
    givens = tuple((3 * r + r // box[0] + c) % size + 1 if (r + c) % 3 else 0
                   for r in range(size) for c in range(size))
    text = render.render_grid(givens, geometry, fmt)
    puzzle = parse_one(text, box=None if fmt in ("pretty", "json") else box)
    assert (puzzle.givens, puzzle.geometry) == (givens, geometry)


NOISE = list("123456789ABCG0.-|+ \n#[],x") + ["10", "─", "┼", "\n\n", "-----"]


@settings(max_examples=150, deadline=None)
@given(puzzles(), st.sampled_from(FORMATS), st.lists(
    st.tuples(st.integers(0, 10 ** 6), st.sampled_from(["delete", "insert", "replace"]),
              st.sampled_from(NOISE)), max_size=3))
def test_damaged_input_fails_with_a_one_line_error_or_parses(shape, fmt, edits):
    """Whatever the damage, the parser answers with puzzles or a CpsudokuError, never
    another exception."""
    geometry, givens = shape
    chars = list(render.render_grid(givens, geometry, fmt))
    for pos, op, text in edits:
        pos %= len(chars) + 1
        if op == "insert" or pos == len(chars):
            chars.insert(pos, text)
        elif op == "delete":
            del chars[pos]
        else:
            chars[pos] = text
    try:
        parse("".join(chars))
    except CpsudokuError as exc:
        assert "\n" not in str(exc)
