"""Closed sum lines (`loop = true`) and lines that pass a cell twice.

A looped sum line is cut into segments of its total anywhere, one segment may run
over the join; pairwise lines (whispers, parity lines) and entropic lines may list a
cell twice where their runs never read it twice; other lines refuse a repeat.
"""

from __future__ import annotations

import itertools

import pytest

from cpsudoku import is_solution, parse, solve
from cpsudoku.errors import ModelError, ParseError
from cpsudoku.formats import iss, puzzlefile
from cpsudoku.rules import automata
from cpsudoku.rules.linerules import Line, Renban, SumLines, Whispers

pytestmark = pytest.mark.unit

SQUARE = ("r1c1", "r1c2", "r2c2", "r2c1")  # a closed 2x2 loop
SQUARE_REFS = ((1, 1), (1, 2), (2, 2), (2, 1))
GEOMETRY = puzzlefile.from_dict({"size": 9}).geometry


def cut_anywhere(values, total):
    """The meaning, by brute force: some rotation splits into segments of `total`."""
    for start in range(len(values)):
        partial, fits = 0, True
        for v in values[start:] + values[:start]:
            partial += v
            if partial > total:
                fits = False
                break
            partial %= total
        if fits and partial == 0:
            return True
    return False


@pytest.mark.parametrize("total", [5, 10, 13])
@pytest.mark.parametrize("length", [1, 2, 3, 4])
def test_looped_sum_automaton_accepts_exactly_the_loops_that_cut(total, length):
    automaton = automata.looped_segment_sums(range(1, 10), total, length)
    for values in itertools.product(range(1, 10), repeat=length):
        assert automaton.accepts(values) == cut_anywhere(list(values), total), values


@pytest.mark.parametrize("values, fits", [
    ((3, 7, 6, 4), True),     # 3+7 | 6+4
    ((7, 6, 4, 3), True),     # the segment 7+3 runs over the join
    ((6, 4, 3, 7), True),
    ((1, 2, 3, 4), True),     # one segment: the whole loop
    ((5, 6, 4, 5), True),     # 5+5 over the join, 6+4
    ((2, 7, 8, 3), False),    # 20 in all, but no cut gives two tens
    ((1, 2, 3, 5), False),    # 11
])
def test_looped_sum_line_values(values, fits):
    [con] = SumLines([Line(SQUARE_REFS, 10, loop=True)]).constraints(GEOMETRY)
    assert con.holds(values) == fits


def test_an_open_line_is_not_read_as_a_loop():
    [con] = SumLines([Line(SQUARE_REFS, 10)]).constraints(GEOMETRY)
    assert not con.holds((7, 6, 4, 3))  # 7+6 passes 10 without the join


def test_a_loop_must_close_on_a_neighbour():
    rule = SumLines([Line(((1, 1), (1, 2), (1, 3)), 10, loop=True)])
    with pytest.raises(ModelError, match="r1c3 and r1c1 are not adjacent"):
        rule.constraints(GEOMETRY)


def test_only_sum_lines_loop():
    with pytest.raises(ModelError, match="unknown key 'loop'"):
        puzzlefile.from_dict({"size": 9, "whispers": [{"cells": list(SQUARE), "loop": True}]})
    with pytest.raises(ModelError, match="loop must be true or false"):
        puzzlefile.from_dict({"size": 9, "sum_lines": [{"cells": list(SQUARE), "loop": 1}]})


def test_a_looped_sum_line_round_trips_through_the_puzzle_file_and_iss():
    text = ".SumLine~10~R1C1~R1C2~R2C2~R2C1~LOOP"
    puzzle = iss.from_string(text)
    assert puzzlefile.as_dict(puzzle)["sum_lines"] == [
        {"cells": list(SQUARE), "total": 10, "loop": True}]
    assert iss.dumps(puzzle) == text
    assert parse(puzzlefile.dumps(puzzle))[0] == puzzle


def test_iss_refuses_loops_on_other_lines():
    with pytest.raises(ParseError, match="looped line"):
        iss.from_string(".Whisper~5~R1C1~R1C2~R2C2~R2C1~LOOP")


# ---------------------------------------------------------------- repeated cells

CROSSING = [(6, 7), (5, 7), (6, 6), (5, 5), (4, 6), (5, 7)]  # Merry X/V-mas: r5c7 twice


def test_a_whisper_may_pass_a_cell_twice_read_pair_by_pair():
    cons = Whispers([Line(tuple(CROSSING), 5)]).constraints(GEOMETRY)
    cells = [(r - 1) * 9 + c - 1 for r, c in CROSSING]
    assert {tuple(c.cells) for c in cons} == set(zip(cells, cells[1:]))  # a table a pair
    assert all(len(set(c.cells)) == len(c.cells) for c in cons)


def test_a_closed_whisper_ending_where_it_starts():
    loop = ["r1c1", "r1c2", "r2c2", "r2c1", "r1c1"]
    text = puzzlefile.dumps(puzzlefile.from_dict({"size": 9, "whispers": [loop]}))
    [puzzle] = parse(text)
    result = solve(puzzle, "native", max_solutions=1)
    values = [result.solution[(r - 1) * 9 + c - 1] for r, c in ((1, 1), (1, 2), (2, 2), (2, 1))]
    ring = values + values[:1]
    assert all(abs(a - b) >= 5 for a, b in zip(ring, ring[1:]))
    assert is_solution(puzzle, result.solution)


@pytest.mark.parametrize("key, cells, words", [
    ("renban", ["r1c1", "r1c2", "r2c2", "r2c1", "r1c1"], "cell r1c1 is listed twice"),
    ("entropic_lines", ["r1c1", "r1c2", "r1c1"], "listed twice within 3 places"),
    ("whispers", ["r1c1", "r1c1"], "listed twice within 2 places"),
])
def test_repeats_refused_where_they_break_the_meaning(key, cells, words):
    with pytest.raises(ModelError, match=words):
        puzzlefile.from_dict({"size": 9, key: [cells]}).rules[0].constraints(GEOMETRY)


def test_renban_refuses_a_repeat():
    with pytest.raises(ModelError, match="cell r1c1 is listed twice"):
        Renban([Line(((1, 1), (1, 2), (1, 1)))]).constraints(GEOMETRY)
