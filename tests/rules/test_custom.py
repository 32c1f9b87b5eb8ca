"""Rules written as data: the expression language, regex lines, automata, relations.

Semantics are pinned by value sequences that satisfy or break each rule (checked on
the constraints the rules lower to, by the independent `check`), refusals by their
messages; the ISS examples of these types load and solve with native and cpsat.
"""

from __future__ import annotations

import itertools
import json
import random
import re

import pytest

from cpsudoku import parse_one, solve
from cpsudoku.bench.iss import DATA, recorded_for
from cpsudoku.errors import ModelError, ParseError
from cpsudoku.formats import iss, iss_codes, puzzlefile
from cpsudoku.grid.constraints import AllDifferent, Allowed, Regular
from cpsudoku.grid.geometry import boxed
from cpsudoku.rules import describe_elements
from cpsudoku.rules.custom import (
    Automata,
    AutomatonLine,
    RegexLine,
    RegexLines,
    Relation,
    Relations,
)
from cpsudoku.rules.expressions import parse
from cpsudoku.rules.regex import compile_pattern

GEOMETRY = boxed(9)
ROW = tuple((1, c) for c in range(1, 10))


def holds(rule, values) -> bool:
    """Whether the values placed along row 1 satisfy every constraint of the rule."""
    grid = list(values) + [0] * (81 - len(values))
    return all(con.check(grid) for con in rule.constraints(GEOMETRY))


# ---------------------------------------------------------------- the expression language

@pytest.mark.parametrize("text, values, expected", [
    ("abs(a - b) >= 5", (1, 6), True), ("abs(a - b) >= 5", (4, 6), False),
    ("a + b == 10 or a == 2 * b", (6, 3), True), ("a + b == 10 or a == 2 * b", (6, 5), False),
    ("not (a % 2 == b % 2)", (3, 4), True), ("not (a % 2 == b % 2)", (3, 5), False),
    ("a < b < c", (1, 2, 3), True), ("a < b < c", (1, 3, 2), False),
    ("max(a, b) - min(a, b) == 1", (5, 4), True), ("-a + b // 2 == 0", (2, 4), True),
    ("a // (b - a) == 1", (3, 3), False),  # a division by zero: false, not an error
])
def test_expressions_evaluate(text, values, expected):
    assert parse(text)(*values) is expected


@pytest.mark.parametrize("text, words, column", [
    ("a / b", "'/' (use '//'", 3), ("a ** 2", "'**'", 3), ("a.real", "attribute", 1),
    ("__import__('os')", "only abs, min and max", 1), ("x + 1", "unknown name 'x'", 1),
    ("a in b", "'in'", 3), ("'a'", "not a whole number", 1), ("True", "not a whole number", 1),
    ("max(a)", "max takes 2 to 8 values", 1), ("a if b else a", "'if ... else'", 1),
    ("(a + b", "does not parse", None), ("c == 1", "unknown name 'c'", 1),
])
def test_expressions_refuse_what_the_language_lacks_naming_the_column(text, words, column):
    with pytest.raises(ModelError) as caught:
        parse(text, "relation 2", most=2)
    message = str(caught.value)
    assert message.startswith("relation 2: expression") and words in message
    if column is not None:
        assert message.endswith(f"at column {column}")


# ---------------------------------------------------------------- regex lines

PATTERNS = ["1.*9", "(12|34)+", "[1-3]{2,3}5?", "[^5]*5[^5]*", "(1|2)*1.{2}", "1?2?3?",
            "(12)*|9+", "[13579]{2}|[2468]{2}", "((1|2)(3|4))*", "[4-6]{2,}"]


@pytest.mark.parametrize("pattern", PATTERNS)
def test_regex_automata_accept_exactly_what_python_matches(pattern):
    automaton = compile_pattern(pattern, 9)
    rnd = random.Random(pattern)
    words = [w for n in range(4) for w in itertools.product(range(1, 10), repeat=n)]
    words += [tuple(rnd.randint(1, 9) for _ in range(rnd.randint(4, 7))) for _ in range(2000)]
    for word in words:
        text = "".join(map(str, word))
        assert automaton.accepts(word) == bool(re.fullmatch(pattern, text)), (pattern, text)


@pytest.mark.parametrize("pattern, words, column", [
    ("1(2", "missing ')'", 2), ("1)2", "unmatched ')'", 2), ("*1", "nothing to repeat", 1),
    ("1{3,2}", "n <= m", 2), ("\\d", "'\\\\' is not supported", 1), ("^12", "'^'", 1),
    ("0", "outside the digits 1..9", 1), ("12+?", "lazy or possessive", 4),
    ("[3-1]", "low to high", 2), ("[12", "missing ']'", 1), ("1{99}", "<= 64", 2),
])
def test_regex_refusals_name_the_character_and_column(pattern, words, column):
    with pytest.raises(ModelError, match=re.escape(words)) as caught:
        compile_pattern(pattern, 9, "regex line 1")
    assert str(caught.value).startswith("regex line 1: pattern")
    assert str(caught.value).endswith(f"at column {column}")


def test_regex_lines_lower_to_regular_and_read_letters_past_nine():
    rule = RegexLines((RegexLine(ROW[:3], "1[2-4]+"),))
    [con] = rule.constraints(GEOMETRY)
    assert isinstance(con, Regular) and con.label == "regex line 1 at r1c1"
    assert holds(rule, (1, 2, 4)) and not holds(rule, (1, 5, 4)) and not holds(rule, (2, 2, 2))
    assert compile_pattern("A+G", 16).accepts((10, 10, 16))
    with pytest.raises(ModelError, match="no digits 1..9 along its 3 cells are accepted"):
        RegexLines((RegexLine(ROW[:3], "12"),)).constraints(GEOMETRY)


# ---------------------------------------------------------------- automata

def odd_never_twice() -> tuple[tuple[int, int, int], ...]:
    return tuple([(0, d, d % 2) for d in range(1, 10)] + [(1, d, 0) for d in (2, 4, 6, 8)])


def test_automata_read_along_the_line():
    rule = Automata((AutomatonLine(ROW[:4], (0,), (0, 1), odd_never_twice()),))
    assert holds(rule, (1, 2, 3, 4)) and holds(rule, (2, 4, 6, 1))
    assert not holds(rule, (1, 3, 2, 4)) and not holds(rule, (2, 4, 5, 7))


def test_automata_with_several_start_states_start_in_any():
    # start 0 reads 1s, start 1 reads 2s: the line is all 1s or all 2s
    rule = Automata((AutomatonLine(ROW[:3], (0, 1), (0, 1), ((0, 1, 0), (1, 2, 1))),))
    assert holds(rule, (1, 1, 1)) and holds(rule, (2, 2, 2)) and not holds(rule, (1, 2, 2))


@pytest.mark.parametrize("line, words", [
    (AutomatonLine(ROW[:2], (0,), (0,), ((0, 10, 0),)), "reads 10, outside the digits 1..9"),
    (AutomatonLine(ROW[:2], (-1,), (0,), ((0, 1, 0),)), "state -1 is outside"),
    (AutomatonLine(ROW[:2], (), (0,), ((0, 1, 0),)), "give a start state"),
    (AutomatonLine(ROW[:3], (0,), (2,), ((0, 1, 1), (1, 1, 2))), "no digits 1..9 along its 3"),
    (AutomatonLine(((1, 1), (1, 10)), (0,), (0,), ((0, 1, 0),)), "r1c10 is outside"),
])
def test_automata_refusals_name_the_element(line, words):
    with pytest.raises(ModelError, match=re.escape(words)) as caught:
        Automata((line,)).constraints(GEOMETRY)
    assert str(caught.value).startswith("automaton 1 at r1c")


def test_iss_automaton_code_round_trips():
    rnd = random.Random(3)
    for _ in range(40):
        states = rnd.randint(1, 12)
        moves = sorted({(rnd.randrange(states), rnd.randint(1, 9), rnd.randrange(states))
                        for _ in range(rnd.randint(1, 40))})
        starts = sorted(rnd.sample(range(states), rnd.randint(1, min(2, states))))
        accepting = sorted(rnd.sample(range(states), rnd.randint(1, states)))
        code = iss_codes.code_from_automaton(starts, accepting, moves)
        read = AutomatonLine(ROW[:3], *map(tuple, iss_codes.automaton_from_code(code)))
        given = AutomatonLine(ROW[:3], tuple(starts), tuple(accepting), tuple(moves))
        back, mine = (Automata(()).automaton(line, GEOMETRY, "automaton")
                      for line in (read, given))
        for word in itertools.product(range(1, 4), repeat=3):
            assert back.accepts(word) == mine.accepts(word), (code, word)


def test_a_cut_iss_automaton_code_is_refused():
    code = iss_codes.code_from_automaton([0], [1], [(0, 1, 1), (1, 2, 0), (1, 3, 1)])
    assert iss_codes.automaton_from_code(code)[2] == [(0, 1, 1), (1, 2, 0), (1, 3, 1)]
    with pytest.raises(ValueError, match="ends too soon"):
        iss_codes.automaton_from_code(code[:2])  # the header cut short


def test_lines_sharing_one_automaton_share_its_build_and_its_refusal():
    moves = ((0, 1, 1), (1, 2, 0))
    lines = Automata((AutomatonLine(ROW[:2], (0,), (0,), moves),
                      AutomatonLine(ROW[2:4], (0,), (0,), moves)))
    built = [lines.automaton(line, GEOMETRY, "a") for line in lines.elements]
    assert built[0] is built[1] and built[0].accepts((1, 2))
    bad = Automata((AutomatonLine(ROW[:2], (0,), (0,), ((0, 12, 0),)),) * 2)
    for line in bad.elements:  # each asking line is refused, not only the first
        with pytest.raises(ModelError, match="reads 12, outside the digits"):
            bad.automaton(line, GEOMETRY, "a")


# ---------------------------------------------------------------- relations

def relation(expression=None, pairs=None, mode="line", cells=ROW[:3]) -> Relations:
    return Relations((Relation(cells, expression, pairs, mode),))


def test_relation_modes():
    line = relation("abs(a - b) >= 5")
    assert holds(line, (1, 6, 1)) and not holds(line, (1, 6, 2))
    every = relation("a + b != 10", mode="all")
    assert holds(every, (1, 2, 3)) and not holds(every, (1, 5, 9))  # 1 and 9: not neighbours
    cells = relation("a + b == c", mode="cells")
    assert holds(cells, (1, 2, 3)) and not holds(cells, (1, 2, 4))
    assert all(isinstance(c, Allowed) and c.label == "relation 1 at r1c1"
               for c in every.constraints(GEOMETRY))
    pairs = relation(pairs=((1, 2), (2, 1)))
    assert holds(pairs, (1, 2, 1)) and not holds(pairs, (1, 2, 3))


def test_a_relation_every_pair_of_which_differs_says_its_group_is_all_different():
    apart = relation("abs(a - b) >= 2", mode="all").constraints(GEOMETRY)
    assert [type(c) for c in apart].count(AllDifferent) == 1
    assert next(c for c in apart if isinstance(c, AllDifferent)).cells == (0, 1, 2)
    for rule in (relation("abs(a - b) != 1", mode="all"),  # a pair may be equal
                 relation("abs(a - b) >= 2")):  # neighbours only: a line
        assert not any(isinstance(c, AllDifferent) for c in rule.constraints(GEOMETRY))
    for grid in ((1, 3, 5), (1, 3, 1)):  # the same verdicts with or without it
        assert holds(relation("abs(a - b) >= 2", mode="all"), grid) == (grid == (1, 3, 5))


@pytest.mark.parametrize("rule, words", [
    (relation(), "give either an expression or pairs"),
    (relation("a < b", ((1, 2),)), "give either an expression or pairs"),
    (relation("a < b", mode="ring"), "mode 'ring' is not one of line, all, cells"),
    (relation("a < b", cells=ROW[:1]), "needs at least two cells"),
    (relation("a == b + 9"), "no values 1..9 satisfy it"),
    (relation(pairs=((0, 2),)), "pair [0, 2] is outside 1..9"),
    (relation(pairs=((1, 2),), mode="cells"), "mode 'cells' reads all its cells at once"),
    (relation("a < b", mode="cells", cells=ROW[:7]), "too many value tuples"),
    (relation("a < c"), "unknown name 'c' (the values are a, b) at column 5"),
])
def test_relation_refusals_name_the_element(rule, words):
    with pytest.raises(ModelError, match=re.escape(words)) as caught:
        rule.constraints(GEOMETRY)
    assert str(caught.value).startswith("relation 1")


def test_relations_round_trip_through_the_puzzle_file():
    text = """size = 4
grid = "1..............."
regex_lines = [{cells = ["r4c1", "r4c2"], pattern = "[34]+"}]
[[automata]]
cells = ["r3c1", "r3c2"]
start = [0, 1]
accepting = [0, 1]
transitions = [[0, 1, 0], [1, 2, 1]]
[[relations]]
cells = ["r1c1", "r1c2"]
expression = "a + b == 3"
name = "sum 3"
[[relations]]
cells = ["r2c1", "r2c2", "r3c3"]
pairs = [[1, 2], [2, 1]]
mode = "all"
"""
    puzzle = parse_one(text, source="p.toml")
    again = parse_one(puzzlefile.dumps(puzzle), source="again.toml")
    assert again.rules == puzzle.rules and len(puzzle.rules) == 3


@pytest.mark.parametrize("text, words", [
    ('relations = [{cells = ["r1c1", "r1c2"], expr = "a"}]', "relation 1: unknown key 'expr'"),
    ('relations = [["r1c1", "r1c2"]]', "relation 1 must be a table"),
    ('relations = [{cells = ["r1c1", "r1c2"], pairs = [[1]]}]', "pair 1 must be two values"),
    ('regex_lines = [{cells = ["r1c1"]}]', "regex line 1: give its pattern"),
    ('automata = [{cells = ["r1c1"], transitions = [[0, 1]]}]', "transition 1 must be"),
    ('automata = [{cells = ["r1c1"], transitions = [[0, 1, 0], [0, true, 1]]}]',
     "automaton 1 transition 2 must be a whole number, not True"),
    ('automata = [{cells = ["r1c1"], transitions = [[0, 1, 0], [0, 2.5, 1]]}]',
     "automaton 1 transition 2 must be a whole number, not 2.5"),
    ('relations = [{cells = ["r1c1", "r1c2"], expression = "a / b"}]', "column 3"),
])
def test_puzzle_file_refusals_name_the_element(text, words):
    with pytest.raises(ModelError, match=re.escape(words)):
        parse_one(f'size = 4\ngrid = "1..............."\n{text}\n', source="p.toml")


def test_every_custom_key_is_listed():
    keys = {key for key, _ in describe_elements()}
    assert {"relations", "regex_lines", "automata"} <= keys


# ---------------------------------------------------------------- ISS

def test_iss_relation_keys_read_both_alphabets():
    differ = [(a, b) for a in range(1, 10) for b in range(1, 10) if abs(a - b) >= 5]
    key = iss_codes.key_from_pairs(differ, 9)
    assert iss_codes.pairs_from_key(key, 9) == differ
    legacy = key.translate(str.maketrans("-_", "_-"))
    assert iss_codes.pairs_from_key(legacy, 9, legacy=True) == differ
    data, _ = iss.to_dict(f".Pair~{key}~_far~R1C1~R1C2~R1C3~~R5C5~R6C6.PairX~{key}~~R9C1~R9C2")
    assert data["relations"][0] == {"cells": ["r1c1", "r1c2", "r1c3"],
                                    "pairs": [list(p) for p in differ], "name": "far"}
    assert data["relations"][1]["cells"] == ["r5c5", "r6c6"]
    assert data["relations"][2]["mode"] == "all"
    with pytest.raises(ParseError, match=r"\(Pair, column 1\).*'\*' is not a base64"):
        iss.to_dict(".Pair~ab*~R1C1~R1C2")


def test_custom_rules_written_to_iss_read_back_the_same():
    text = """size = 9
regex_lines = [{cells = ["r4c1", "r4c2"], pattern = "[34]+"}]
[[automata]]
cells = ["r3c1", "r3c2"]
start = 0
accepting = [0, 1]
transitions = [[0, 1, 1], [1, 2, 0], [0, 2, 0]]
[[relations]]
cells = ["r1c1", "r1c2"]
expression = "abs(a - b) >= 5"
name = "far apart"
[[relations]]
cells = ["r2c1", "r2c2", "r3c3"]
expression = "a != b"
mode = "all"
"""
    puzzle = parse_one(text, source="p.toml")
    back = iss.from_string(iss.dumps(puzzle))
    grids = [tuple(random.Random(s).randint(1, 9) for _ in range(81)) for s in range(300)]
    for grid in grids + [(5, 9, 1, 2) + (1,) * 77]:
        mine = all(c.check(grid) for r in puzzle.rules for c in r.constraints(puzzle.geometry))
        theirs = all(c.check(grid) for r in back.rules for c in r.constraints(back.geometry))
        assert mine == theirs
    with pytest.raises(ModelError, match="relation 1 over all its cells at once has no ISS"):
        iss.dumps(parse_one('size = 9\nrelations = [{cells = ["r1c1", "r1c2"], '
                            'expression = "a < b", mode = "cells"}]\n', source="p.toml"))


CUSTOM_TYPES = {"Pair", "PairX", "Binary", "BinaryX", "Regex", "NFA"}
# ISS puzzles of these types that hold other types cpsudoku refuses (Or, Var cells,
# 0-based digits, line segments), or whose CP-SAT model is slow, are left out by name.
LEFT_OUT = {"Successor Arrows", "Regex line"}


def custom_iss_puzzles() -> list[dict]:
    puzzles = json.loads(DATA.read_text(encoding="utf-8"))["puzzles"]
    out = []
    for p in puzzles:
        kinds = {item.split("~")[0] for item in p["input"].split(".")}
        if kinds & CUSTOM_TYPES and p["name"] not in LEFT_OUT:
            try:
                iss.from_string(p["input"])
            except (ParseError, ModelError):
                continue
            out.append(p)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["native", "cpsat"])
def test_iss_puzzles_of_these_types_solve_right(backend):
    puzzles = custom_iss_puzzles()
    assert len(puzzles) >= 12
    for p in puzzles:
        puzzle = iss.from_string(p["input"])
        result = solve(puzzle, backend, time_limit=60)
        assert result.solution == recorded_for(p["solution"], puzzle.geometry), p["name"]


def test_iss_puzzles_of_these_types_load_and_native_solves_three():
    puzzles = custom_iss_puzzles()
    names = {p["name"] for p in puzzles}
    assert {"Odd/Even Thermo Sudoku", "Knight-arrows", "Sequence sudoku",
            "NFA: Equal sum parition"} <= names
    for p in [q for q in puzzles if q["name"] in ("Knight-arrows", "Sequence sudoku",
                                                   "Odd, Even, Seven Thermos")]:
        puzzle = iss.from_string(p["input"])
        result = solve(puzzle, "native", time_limit=30)
        assert result.solution == recorded_for(p["solution"], puzzle.geometry), p["name"]
