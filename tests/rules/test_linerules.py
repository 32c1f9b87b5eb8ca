"""The line rules' meaning, pinned on value sequences (as the Interactive Sudoku Solver
defines them), their refusals, and their puzzle-file, f-puzzles and drawing forms."""

from __future__ import annotations

import pytest

from cpsudoku import parse
from cpsudoku.errors import ModelError
from cpsudoku.formats.fpuzzles import fpuzzles_lines, from_fpuzzles
from cpsudoku.formats.puzzlefile import dumps
from cpsudoku.grid.geometry import boxed
from cpsudoku.rules import linerules as L
from cpsudoku.web.drawing import describe

pytestmark = pytest.mark.unit

ROW = [(1, c) for c in range(1, 10)]  # a line along row 1 (r1c1, r1c2, ...)


def fits(cls, values, value=None, size=9, cells=None):
    """Whether the rule's constraints accept `values` on a line (other cells blank)."""
    geometry = boxed(size)
    cells = cells or ROW[:len(values)]
    rule = cls([L.Line(tuple(cells), value)])
    grid = [0] * (size * size)
    for (r, c), v in zip(cells, values):
        grid[(r - 1) * size + c - 1] = v
    return all(con.check(grid) for con in rule.constraints(geometry))


CASES = [
    (L.Whispers, None, (1, 6, 1, 7), True), (L.Whispers, None, (1, 5), False),
    (L.Whispers, None, (4, 9, 3), True), (L.Whispers, 3, (1, 4, 7), True),
    (L.Whispers, 3, (1, 3), False),
    (L.DutchWhispers, None, (1, 5, 9), True), (L.DutchWhispers, None, (1, 4), False),
    (L.Renban, None, (3, 1, 2), True), (L.Renban, None, (5, 7, 6, 4), True),
    (L.Renban, None, (1, 2, 4), False), (L.Renban, None, (2, 2, 3), False),
    (L.Palindromes, None, (1, 2, 1), True), (L.Palindromes, None, (4, 5, 5, 4), True),
    (L.Palindromes, None, (1, 2, 3, 2), False),
    (L.BetweenLines, None, (2, 5, 7), True), (L.BetweenLines, None, (7, 1, 2), False),
    (L.BetweenLines, None, (7, 3, 4, 2), True), (L.BetweenLines, None, (2, 2, 7), False),
    (L.LockoutLines, None, (1, 7, 5), True), (L.LockoutLines, None, (1, 3, 5), False),
    (L.LockoutLines, None, (1, 5, 5), False), (L.LockoutLines, None, (1, 9, 4), False),
    (L.LockoutLines, 2, (3, 9, 1, 5), True),
    (L.EntropicLines, None, (1, 4, 7, 2), True), (L.EntropicLines, None, (1, 2, 7), False),
    (L.EntropicLines, None, (1, 4, 7, 7), False), (L.EntropicLines, None, (1, 4), True),
    (L.EntropicLines, None, (1, 2), False),
    (L.ModularLines, None, (1, 2, 3, 4), True), (L.ModularLines, None, (1, 4, 2), False),
    (L.ModularLines, None, (3, 5, 7, 9, 3), False), (L.ModularLines, 4, (1, 2, 3, 4, 5), True),
    (L.ModularLines, 4, (1, 2, 3, 5), False),
    (L.ParityLines, None, (1, 2, 3, 4), True), (L.ParityLines, None, (1, 3), False),
    (L.ZipperLines, None, (1, 2, 7, 8), True), (L.ZipperLines, None, (1, 9, 3, 4), False),
    (L.ZipperLines, None, (2, 6, 8, 2, 6), True), (L.ZipperLines, None, (2, 6, 9, 2, 6), False),
    (L.SumLines, None, (1, 9, 4, 6), True), (L.SumLines, None, (2, 3, 5, 9, 1), True),
    (L.SumLines, None, (1, 9, 5), False), (L.SumLines, 15, (7, 8, 6, 9), True),
    (L.SlowThermometers, None, (1, 1, 3, 3), True), (L.SlowThermometers, None, (2, 1), False),
    (L.DoubleArrows, None, (1, 2, 3, 4), True), (L.DoubleArrows, None, (3, 1, 2, 2), False),
]


@pytest.mark.parametrize("cls, value, values, expected", CASES,
                         ids=[f"{c[0].key}-{c[2]}" for c in CASES])
def test_meaning(cls, value, values, expected):
    assert fits(cls, values, value) is expected


def test_region_sum_lines_compare_the_stretches_in_each_box():
    line = [(1, 3), (1, 4), (1, 5), (2, 6), (2, 7)]  # box 1 | box 2 (three cells) | box 3
    assert fits(L.RegionSumLines, (7, 3, 2, 2, 7), cells=line)
    assert not fits(L.RegionSumLines, (7, 3, 2, 3, 7), cells=line)
    assert not fits(L.RegionSumLines, (7, 3, 2, 2, 6), cells=line)


def test_other_sizes_scale_the_defaults():
    # 6x6: German whispers differ by 3, Dutch by 2; entropic thirds are 1-2, 3-4, 5-6
    assert fits(L.Whispers, (1, 4, 1), size=6) and not fits(L.Whispers, (1, 3), size=6)
    assert fits(L.DutchWhispers, (1, 3, 6), size=6) and not fits(L.DutchWhispers, (2, 3), size=6)
    assert fits(L.EntropicLines, (1, 3, 5, 2), size=6)
    assert not fits(L.EntropicLines, (1, 2, 5), size=6)


@pytest.mark.parametrize("cls, value, cells, size, message", [
    (L.Whispers, 9, ROW[:3], 9, "whisper 1 at r1c1: difference 9 is outside 1..8"),
    (L.LockoutLines, 0, ROW[:3], 9, "difference 0 is outside 1..8"),
    (L.ModularLines, 1, ROW[:3], 9, "modular line 1 at r1c1: modulus 1 is outside 2..9"),
    (L.EntropicLines, None, ROW[:3], 8, "entropic lines need a size divisible by 3"),
    (L.Renban, None, ROW + [(2, 9)], 9, "10 different consecutive digits do not fit"),
    (L.BetweenLines, None, ROW[:2], 9, "between line 1 at r1c1 needs two ends and at least"),
    (L.Whispers, None, [(1, 1), (1, 3)], 9, "r1c1 and r1c3 are not adjacent"),
    (L.RegionSumLines, None, ROW[:3], 9, "stays inside one region"),
    (L.SumLines, 100, ROW[:3], 9, "sum line 1 at r1c1: no digits 1..9 fit its 3 cells"),
    (L.Palindromes, None, [(1, 1), (1, 10)], 9, "cell r1c10 is outside the 9x9 grid"),
])
def test_refusals_name_the_element(cls, value, cells, size, message):
    with pytest.raises(ModelError, match=message.replace(".", r"\.")):
        cls([L.Line(tuple(cells), value)]).constraints(boxed(size))


PUZZLE = '''
name = "lines"
whispers = [["r1c1", "r1c2", "r1c3"], {cells = ["r5c5", "r6c6"], difference = 3}]
renban = [["r9c1", "r9c2"]]
sum_lines = [{cells = "r3c3 r3c4 r3c5", total = 12}]
'''


def test_puzzle_file_keys_and_round_trip():
    [puzzle] = parse(PUZZLE)
    keys = {rule.key: rule for rule in puzzle.rules}
    assert set(keys) == {"whispers", "renban", "sum_lines"}
    assert keys["whispers"].elements[1] == L.Line(((5, 5), (6, 6)), 3)
    assert keys["sum_lines"].elements[0].value == 12
    [again] = parse(dumps(puzzle))
    assert again.rules == puzzle.rules


@pytest.mark.parametrize("text, message", [
    ('whisper = [["r1c1", "r1c2"]]', "did you mean 'whispers'"),
    ('whispers = [{cells = ["r1c1", "r1c2"], diff = 3}]',
     "whisper 1: unknown key 'diff'; known: cells, difference"),
    ('renban = [{cells = ["r1c1", "r1c2"], total = 3}]', "renban line 1: unknown key 'total'"),
    ('sum_lines = [{cells = ["r1c1", "r1c2"], total = "ten"}]', "total must be a whole number"),
])
def test_puzzle_file_refusals(text, message):
    with pytest.raises(ModelError, match=message):
        parse(text)


def fpuzzles(**lines):
    return {"size": 9, "grid": [[{} for _ in range(9)] for _ in range(9)], **lines}


def test_fpuzzles_lines_read_and_written_back():
    data = fpuzzles(whispers=[{"lines": [["R1C1", "R1C2", "R2C3"]], "value": "4"}],
                    betweenline=[{"lines": [["R5C1", "R5C2", "R5C3"], ["R7C1", "R7C2", "R7C3"]]}],
                    zipperline=[{"lines": [["R9C1", "R9C2", "R9C3"]]}])
    puzzle = from_fpuzzles(data)
    kinds = {type(rule): rule for rule in puzzle.rules}
    assert kinds[L.Whispers].elements == (L.Line(((1, 1), (1, 2), (2, 3)), 4),)
    assert len(kinds[L.BetweenLines].elements) == 2
    written = dict(filter(None, (fpuzzles_lines(rule) for rule in puzzle.rules)))
    assert written["whispers"] == [{"lines": [["R1C1", "R1C2", "R2C3"]], "value": 4}]
    assert from_fpuzzles(fpuzzles(**written)).rules == puzzle.rules
    assert fpuzzles_lines(L.LockoutLines([ROW[:3]])) is None  # f-puzzles has no lockout line


def test_the_page_gets_each_line_with_its_style():
    [puzzle] = parse(PUZZLE)
    drawn = describe(puzzle)["styled_lines"]
    assert [(d["kind"], d["colour"]) for d in drawn][:2] == [("whispers", "#67f067")] * 2
    assert drawn[1]["cells"] == ["r5c5", "r6c6"] and drawn[1]["value"] == 3
    between = describe(parse('between_lines = [["r1c1", "r1c2", "r1c3"]]')[0])["styled_lines"]
    assert between[0]["ends"] == "circle"
