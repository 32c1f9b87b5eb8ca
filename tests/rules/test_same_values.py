"""Same-value sets and look-and-say groups: what each allows and refuses."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from pathlib import Path

import pytest

from cpsudoku import solve
from cpsudoku.errors import ModelError
from cpsudoku.formats import iss, puzzlefile
from cpsudoku.grid.constraints import same_count, same_set
from cpsudoku.rules.same_values import MAX_MULTISETS, same_multiset

GEOMETRY = puzzlefile.from_dict({"size": 9}).geometry


def constraints(data):
    puzzle = puzzlefile.from_dict({"size": 9} | data)
    return [c for rule in puzzle.rules for c in rule.constraints(puzzle.geometry)]


def holds(cons, values: dict[str, int]) -> bool:
    index = {f"r{r}c{c}": (r - 1) * 9 + c - 1 for r in range(1, 10) for c in range(1, 10)}
    by_cell = {index[name]: v for name, v in values.items()}
    for con in cons:
        vals = [by_cell[c] for c in con.cells]
        if hasattr(con, "values") and not hasattr(con, "automaton"):
            if not all(v in con.values for v in vals):
                return False
        elif not con.holds(vals):
            return False
    return True


@pytest.mark.parametrize("length", [1, 2, 3])
def test_the_automaton_accepts_exactly_reorderings(length):
    automaton = same_multiset(range(1, 6), length)
    for word in itertools.product(range(1, 6), repeat=2 * length):
        assert automaton.accepts(word) == (Counter(word[:length]) == Counter(word[length:]))


@pytest.mark.parametrize("digits", [range(1, 6), range(0, 5)])
@pytest.mark.parametrize("length", [1, 2, 3])
def test_the_set_automaton_accepts_exactly_reorderings_of_distinct_digits(digits, length):
    # each half lies in a row, column or region: its digits differ
    automaton = same_set(digits, length)
    for first in itertools.permutations(digits, length):
        for second in itertools.permutations(digits, length):
            assert automaton.accepts(first + second) == (set(first) == set(second))


def test_sets_in_houses_are_read_as_sets():
    # rows 1 and 2 (houses) against a set of cells in no one house
    same = constraints({"same_values": [[["r1c1", "r1c2", "r1c3"], ["r2c4", "r2c5", "r2c6"]]]})
    assert [c.automaton for c in same] == [same_set(range(1, 10), 3)]
    mixed = constraints({"same_values": [[["r1c1", "r1c2", "r1c3"], ["r2c1", "r3c5", "r9c9"]]]})
    assert [c.automaton for c in mixed] == [same_multiset(range(1, 10), 3)]


@pytest.mark.parametrize("length", [1, 2, 3])
def test_counting_each_digit_accepts_exactly_reorderings(length):
    counts = [same_count(range(1, 5), length, digit) for digit in range(1, 5)]
    for word in itertools.product(range(1, 5), repeat=2 * length):
        same = Counter(word[:length]) == Counter(word[length:])
        assert all(a.accepts(word) for a in counts) == same


def test_long_sets_are_compared_digit_by_digit():
    # 15 cells a set on 9x9: one automaton would hold 490,314 multisets
    row, col = [f"r1c{c}" for c in range(1, 10)] + [f"r2c{c}" for c in range(1, 7)], \
        [f"r{r}c9" for r in range(3, 10)] + [f"r{r}c8" for r in range(3, 10)] + ["r9c7"]
    cons = constraints({"same_values": [[row, col]]})
    assert len(cons) == 9 and all(c.automaton.states < 1000 for c in cons)
    assert MAX_MULTISETS < 490_314


# sets whose cells share no row, column or box: digits may repeat in them (sets lying in
# a house are read as sets, their digits differing, see above)
SETS = {"same_values": [[["r1c1", "r2c4"], ["r5c5", "r6c8"], ["r9c1", "r7c9"]]]}


@pytest.mark.parametrize("digits, fits", [
    ((1, 2, 2, 1, 1, 2), True),   # the same two digits in any order
    ((3, 3, 3, 3, 3, 3), True),   # repeats counted alike
    ((1, 2, 1, 2, 2, 2), False),  # the third set has two 2s
    ((1, 1, 1, 2, 1, 2), False),
])
def test_same_value_sets(digits, fits):
    names = ["r1c1", "r2c4", "r5c5", "r6c8", "r9c1", "r7c9"]
    assert holds(constraints(SETS), dict(zip(names, digits))) == fits


def test_sets_of_one_cell_are_equal_cells():
    cons = constraints({"same_values": [[["r1c1"], ["r5c5"], ["r9c9"]]]})
    assert all(type(c).__name__ == "Allowed" for c in cons)
    assert holds(cons, {"r1c1": 4, "r5c5": 4, "r9c9": 4})
    assert not holds(cons, {"r1c1": 4, "r5c5": 4, "r9c9": 5})


@pytest.mark.parametrize("sets, words", [
    ([["r1c1", "r1c2"], ["r5c5"]], "set 2 has 1 cells, set 1 has 2"),
    ([["r1c1", "r1c2"], ["r1c2", "r5c5"]], "cell r1c2 is in two sets"),
    ([["r1c1"]], "two or more non-empty sets"),
])
def test_same_value_refusals(sets, words):
    with pytest.raises(ModelError, match=words):
        constraints({"same_values": [sets]})


CELLS = ["r1c1", "r1c2", "r1c3", "r2c1"]


@pytest.mark.parametrize("clue, digits, fits", [
    ("1324", (3, 4, 4, 9), True),    # one 3, two 4s, the 9 free
    ("1324", (3, 4, 9, 9), False),   # one 4 only
    ("1324", (3, 3, 4, 4), False),   # two 3s
    ("2105", (1, 1, 2, 3), True),    # no 5
    ("2105", (1, 1, 5, 3), False),
    ("05", (1, 2, 3, 4), True),
])
def test_look_and_say(clue, digits, fits):
    cons = constraints({"look_and_say": [{"cells": CELLS, "clue": clue}]})
    assert holds(cons, dict(zip(CELLS, digits))) == fits


@pytest.mark.parametrize("clue, words", [
    ("132", "must be \\(count, digit\\) pairs"),
    ("1x", "must be \\(count, digit\\) pairs"),
    ("1010", "names the digit 0"),
    ("1323", "names the digit 3 twice"),
    ("3142", "asks for 7 digits in 4 cells"),
])
def test_look_and_say_refusals(clue, words):
    with pytest.raises(ModelError, match=f"look-and-say group 1 \\({clue}\\) at r1c1: .*{words}"):
        constraints({"look_and_say": [{"cells": CELLS, "clue": clue}]})


def test_both_round_trip_through_iss():
    text = ".SameValues~2~R1C1~R1C2~R5C5~R6C5.LookAndSay~1324~R1C3~R2C3~R2C4"
    puzzle = iss.from_string(text)
    assert iss.dumps(puzzle) == text
    assert puzzlefile.as_dict(puzzle)["look_and_say"] == [
        {"cells": ["r1c3", "r2c3", "r2c4"], "clue": "1324"}]


ISS_PUZZLES = Path(__file__).parents[2] / "cpsudoku" / "bench" / "data" / "iss_puzzles.json"
MINE = ("10 Lines", "Merry X/V-mas", "Clone", "Look-and-Say Killer", "Killing with flowers",
        "16x16: Jigsaw", "Copycat [easy]")


@pytest.mark.parametrize("name", MINE)
@pytest.mark.parametrize("backend", ["native", pytest.param("cpsat", marks=pytest.mark.slow)])
def test_the_iss_examples_of_these_types_solve_right(name, backend):
    from cpsudoku import parse
    entry = next(p for p in json.loads(ISS_PUZZLES.read_text())["puzzles"] if p["name"] == name)
    [puzzle] = parse(entry["input"])
    result = solve(puzzle, backend, max_solutions=2, time_limit=120)
    expected = [int(ch) if puzzle.size < 10 else ord(ch) - 64 for ch in entry["solution"]]
    assert result.status.value == "unique" and list(result.solution) == expected
