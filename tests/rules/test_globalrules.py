"""Global rules written in Python: anti-taxicab, global-entropy, global-mod, dutch-flatmates."""

from __future__ import annotations

import itertools

import pytest

from cpsudoku import boxed, rules, solve
from cpsudoku.errors import ModelError
from cpsudoku.grid.puzzle import Puzzle
from cpsudoku.rules.globalrules import flatmates

pytestmark = pytest.mark.unit

NINE = boxed(9)


def cell(name: str) -> int:
    r, c = name[1:].split("c")
    return (int(r) - 1) * 9 + int(c) - 1


def broken(rule_name: str, values: dict[str, int], geometry=NINE) -> list[str]:
    """Labels of the rule's constraints whose cells are all named and that fail."""
    at = {cell(n): v for n, v in values.items()}
    return [con.label for con in rules.get(rule_name).constraints(geometry)
            if all(c in at for c in con.cells) and not con.holds([at[c] for c in con.cells])]


def test_anti_taxicab_forbids_a_digit_at_its_own_distance():
    # r1c1 and r3c4 are 2 + 3 = 5 apart and share no row, column or box
    assert broken("anti-taxicab", {"r1c1": 5, "r3c4": 5}) == [
        "anti-taxicab 5 between r1c1 and r3c4"]
    assert broken("anti-taxicab", {"r1c1": 4, "r3c4": 4}) == []
    assert broken("anti-taxicab", {"r1c1": 5, "r3c4": 4}) == []


@pytest.mark.parametrize("digits, ok", [((1, 4, 7, 2), True), ((1, 2, 3, 4), False),
                                        ((9, 5, 3, 3), True), ((4, 5, 6, 7), False)])
def test_global_entropy_every_square_low_middle_high(digits, ok):
    square = dict(zip(("r1c1", "r1c2", "r2c1", "r2c2"), digits))
    assert (broken("global-entropy", square) == []) is ok


@pytest.mark.parametrize("digits, ok", [((1, 2, 3, 4), True), ((1, 4, 7, 2), False),
                                        ((3, 5, 7, 9), True), ((2, 5, 8, 3), False)])
def test_global_mod_every_square_each_residue(digits, ok):
    square = dict(zip(("r4c4", "r4c5", "r5c4", "r5c5"), digits))
    assert (broken("global-mod", square) == []) is ok


@pytest.mark.parametrize("column, ok", [
    ({"r4c2": 1, "r5c2": 5, "r6c2": 3}, True), ({"r4c2": 2, "r5c2": 5, "r6c2": 9}, True),
    ({"r4c2": 2, "r5c2": 5, "r6c2": 3}, False), ({"r1c2": 5, "r2c2": 9}, True),
    ({"r1c2": 5, "r2c2": 8}, False), ({"r8c2": 2, "r9c2": 5}, False),
    ({"r8c2": 1, "r9c2": 5}, True)])
def test_dutch_flatmates_five_beside_one_above_or_nine_below(column, ok):
    assert (broken("dutch-flatmates", column) == []) is ok


@pytest.mark.parametrize("digits", [range(1, 10), range(1, 7), range(1, 4)])
def test_dutch_flatmates_automaton_accepts_exactly_the_rule(digits):
    middle, low, high = (len(digits) + 1) // 2, digits[0], digits[-1]
    automaton = flatmates(digits)
    for triple in itertools.product(digits, repeat=3):
        a, m, b = triple
        assert automaton.accepts(triple) is (m != middle or a == low or b == high), triple


@pytest.mark.parametrize("name, size, message", [
    ("global-entropy", 4, "global-entropy needs a size divisible by 3"),
    ("global-mod", 2, "global-mod needs digits of three residues"),
    ("dutch-flatmates", 2, "dutch-flatmates needs a size of 3 or more"),
])
def test_sizes_without_meaning_are_refused(name, size, message):
    with pytest.raises(ModelError, match=message):
        rules.get(name).constraints(boxed(size, (1, size) if size < 4 else None))


@pytest.mark.parametrize("name", ["global-entropy", "global-mod", "dutch-flatmates"])
def test_other_sizes_solve_within_the_rule(name):
    six = boxed(6)
    puzzle = Puzzle(six, (0,) * 36, (rules.get(name),))
    result = solve(puzzle, "native")
    grid = result.solution
    assert grid is not None
    assert all(con.check(grid) for con in rules.get(name).constraints(six)), grid


def test_rules_are_listed_by_name_with_their_aliases():
    listed = dict(rules.describe_all())
    for name in ("anti-taxicab", "global-entropy", "global-mod", "dutch-flatmates"):
        assert listed[name] == rules.get(name).describe()
    assert rules.get("GlobalMod").name == "global-mod"
