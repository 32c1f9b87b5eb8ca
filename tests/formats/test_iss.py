"""The Interactive Sudoku Solver's constraint strings: reading ISS's examples, refusals
that name the ISS type and its column, links, and round trips through ISS strings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cpsudoku import is_solution, parse, parse_one, solve
from cpsudoku.bench.iss import DATA, recorded_for
from cpsudoku.errors import CpsudokuError, ModelError, ParseError
from cpsudoku.formats import iss, iss_codes, puzzlefile
from cpsudoku.grid.constraints import AllDifferent, InSet, Sum
from cpsudoku.grid.symbols import value_of

VARIANTS = Path(__file__).resolve().parents[2] / "examples" / "variants"
EXAMPLES = [p for p in json.loads(DATA.read_text(encoding="utf-8"))["puzzles"]
            if p["set"] == "examples"]
THERMO = next(p for p in EXAMPLES if p["name"] == "Thermo")


def canonical(puzzle):
    """What makes two puzzles the same: givens, regions, and constraints (the cells of
    order-free constraints as sets: ISS runs a little-killer diagonal the other way)."""
    def key(con):
        free = isinstance(con, (AllDifferent, InSet)) or (isinstance(con, Sum)
                                                          and con.coeffs is None)
        return (type(con).__name__, tuple(sorted(con.cells)) if free else con.cells,
                repr({k: v for k, v in vars(con).items() if k not in ("cells", "label")}))
    return (puzzle.givens, frozenset(frozenset(r) for r in puzzle.geometry.regions),
            sorted(map(repr, map(key, puzzle.constraints()))))


def iss_solution(text: str, puzzle):
    """ISS's recorded solution as the puzzle's values: its digits read with the puzzle's
    (from 0 in a 0-indexed puzzle, past N when it has more digits)."""
    if puzzle.geometry.standard:
        return recorded_for(text, puzzle.geometry)
    return tuple(value_of(ch, puzzle.geometry.first) for ch in text)


def test_iss_examples_read_or_refused_by_name():
    """Every one of ISS's 62 examples is read, and then its recorded solution is a
    solution, or refused naming an ISS type (or ISS's text shorthand)."""
    read = 0
    for entry in EXAMPLES:
        if not iss.looks_like_iss(entry["input"]):
            continue  # ISS's killer and jigsaw text shorthands
        try:
            puzzle = iss.from_string(entry["input"], source=entry["name"])
        except ParseError as exc:
            assert "ISS constraint" in str(exc) and exc.column, entry["name"]
            continue
        except ModelError as exc:  # an element the loader checks and refuses, named
            assert str(exc).startswith(entry["name"] + ": "), exc
            continue
        read += 1
        assert is_solution(puzzle, iss_solution(entry["solution"], puzzle)), entry["name"]
    assert read >= 17  # classic, odd/even, thermo, killer, arrows, dots, X, jigsaw, 16x16 ...


def test_the_shared_parser_and_links():
    puzzle = parse_one(THERMO["input"])
    assert puzzle.meta["format"] == "iss" and puzzle.rules[0].name == "thermometer"
    url = "https://sigh.github.io/Interactive-Sudoku-Solver/?q=.Shape%7E6x6.%7ER1C5_4&mode=all"
    six = parse_one(url)
    assert six.size == 6 and six.givens[4] == 4
    assert iss.from_string(iss.from_link(iss.link(puzzle))).givens == puzzle.givens
    # a grid line that starts with '.' is still a grid
    assert parse_one(".49....3..16.83.7..5....9......64..3...8.7...8..39......5....9..8.12.76..9"
                     "....32.").meta.get("format") != "iss"
    several = parse("# two puzzles\n" + THERMO["input"] + "\n\n.Shape~4x4.~R1C1_1\n")
    assert [p.size for p in several] == [9, 4]


@pytest.mark.parametrize("text, column, words", [
    (".~R1C1_5.SameValues~3~R1C1~R1C2", 9, "do not split into 3 sets"),
    (".~R1C1_5.Thermo~R1C1~RzC2", 9, "'RzC2' is not an ISS cell id"),
    (".Foo~R1C1", 1, "unknown ISS type 'Foo'"),
    (".Shape~6x17", 1, "expects the grid's rows x columns, 1 to 16 each"),
    (".~R1C1_10", 1, "values must be 1..9"),
    (".Diagonal~2", 1, "direction must be 1 or -1"),
    (".Cage~x~R1C1~R1C2", 1, "sum must be a whole number"),
    (".Thermo~R1C1~R1C2~R2C2~R2C1~LOOP", 1, "looped line"),
    (".Or.~R1C1_1.~R1C2_1", 1, "has no matching End"),
    (".Thermo~R1C1~R1C2.Replicate~AAAAAAAAAAAAAAB.Thermo~R3C1~R3C2.End", 18,
     "a target lies 84 cells after r1c1, outside the grid"),
    (".Replicate~C.Thermo~R3C8~R3C9.End", 13, "R3C9 copied 0 rows and 1 columns on lies outside"),
    (".Replicate~B.Replicate~B.~R1C1_1.End.End", 13, "a Replicate inside a Replicate"),
    (".Container~A.End", 1, "ISS type 'Container' (a composite constraint group)"),
    (".Thermo~R1C1~R1C2.Sum~5_=_1~R1C1~R1C2", 18, "1 coefficients for 2 cells"),
    (".Sum~5_+_1~R1C1", 1, "then _=_ and coefficients"),
])
def test_bad_strings_name_the_item_and_column(text, column, words):
    with pytest.raises(ParseError) as caught:
        parse(text, source="p.iss")
    assert caught.value.column == column and caught.value.line == 1
    assert words in str(caught.value) and str(caught.value).startswith("p.iss:1:")


def test_every_mapped_type_loads_or_is_refused_clearly():
    """The table maps each ISS type to a puzzle-file key or rule; whether cpsudoku has
    that key today is the loader's call, and a refusal names the ISS type."""
    differ = iss_codes.key_from_pairs([(a, b) for a in range(1, 10) for b in range(1, 10)
                                       if a != b], 9)
    ones_and_twos = iss_codes.code_from_automaton([0], [0], [(0, 1, 0), (0, 2, 0)])
    samples = {
        "Given": ".~R1C1_5~R2C2_1_2", "Shape": ".Shape~4x4", "Jigsaw":
        ".NoBoxes.Jigsaw~" + "".join(str(c // 9) for c in range(81)), "NoBoxes": ".NoBoxes",
        "RegionSize": ".Shape~6x6~9.RegionSize~9",
        "Thermo": ".Thermo~R1C1~R1C2", "Whisper": ".Whisper~R1C1~R1C2",
        "Renban": ".Renban~R1C1~R1C2", "Modular": ".Modular~3~R1C1~R1C2~R1C3",
        "Entropic": ".Entropic~R1C1~R1C2~R1C3", "RegionSumLine": ".RegionSumLine~R1C3~R1C4",
        "Between": ".Between~R1C1~R1C2~R1C3", "Lockout": ".Lockout~4~R1C1~R1C2~R1C3",
        "Palindrome": ".Palindrome~R1C1~R2C2~R3C1", "Zipper": ".Zipper~R1C1~R1C2~R1C3",
        "SumLine": ".SumLine~10~R1C1~R1C2", "DoubleArrow": ".DoubleArrow~R1C1~R1C2~R1C3",
        "AllDifferent": ".AllDifferent~R1C1~R2C4",
        "Regex": ".Regex~" + iss.encode_pattern("[1-5]+") + "~R1C1~R1C2",
        "Arrow": ".Arrow~R1C1~R1C2", "PillArrow": ".PillArrow~2~R1C2~R1C1~R2C1~R3C1",
        "Cage": ".Cage~3~R1C1~R1C2", "Sum": ".Sum~4~R1C1~R2C4", "RellikCage":
        ".RellikCage~5~R1C1~R1C2", "WhiteDot": ".WhiteDot~R1C1~R1C2", "BlackDot":
        ".BlackDot~R1C1~R1C2", "StrictKropki": ".StrictKropki", "X": ".X~R1C1~R1C2",
        "V": ".V~R1C1~R1C2", "StrictXV": ".StrictXV", "GreaterThan": ".GreaterThan~R1C1~R1C2",
        "LittleKiller": ".LittleKiller~10~R1C2", "Sandwich": ".Sandwich~10~R1",
        "XSum": ".XSum~R1~10~", "Skyscraper": ".Skyscraper~C1~~3",
        "HiddenSkyscraper": ".HiddenSkyscraper~R3~~4",
        "ValueIndexing": ".ValueIndexing~R1C1~R1C2~R1C3",
        "NumberedRoom": ".NumberedRoom~R2~5~", "Lunchbox": ".Lunchbox~10~" + "~".join(
            f"R1C{c}" for c in range(1, 10)), "Quad": ".Quad~R1C1~1~2",
        "EqualSum": ".EqualSum~R1C1~R1C2~-~R2C1", "Indexing": ".Indexing~C~R1C1",
        "EqualityCage": ".EqualityCage~R1C1~R1C2", "CountingCircles": ".CountingCircles~R1C1",
        "ContainAtLeast": ".ContainAtLeast~1_2~R1C1~R1C2", "ContainExact":
        ".ContainExact~3~R1C1~R2C2",
        "Diagonal": ".Diagonal~1", **{kind: "." + kind for kind in iss.RULE_TYPES},
        "Pair": f".Pair~{differ}~_apart~R1C1~R1C2", "PairX": f".PairX~{differ}~~R1C1~R2C2",
        "Binary": f".Binary~{differ}~~R1C1~R1C2", "BinaryX": f".BinaryX~{differ}~~R1C1~R1C3",
        "NFA": f".NFA~{ones_and_twos}~~R1C1~R1C2",
        "ChaosArrow": ".ChaosConstruction.NoBoxes.ChaosArrow~R1C1",
        "ChaosCount": ".ChaosConstruction.NoBoxes.ChaosCount~R1C1~0~CC1~CC2",
        "SameValues": ".SameValues~2~R1C1~R1C2~R5C5~R6C5",
        "RegionSameValues": ".Shape~6x6~9.RegionSize~6.RegionSameValues",
        "LookAndSay": ".LookAndSay~1617~R3C1~R2C1~R1C1",
        "FullRank": ".FullRank~C1~10~", "FullRankTies": ".FullRankTies~any",
        "CountDistinct": ".CountDistinct~R3C3~R2C2~R2C3~R2C4",
        "Var": ".Var~A~~2.Cage~5~VA1~R1C1.AllDifferent~VA1~VA2",
        "Doppelganger": ".Shape~4x4~0-4.Doppelganger",  # it needs the digits 0..N
    }
    assert set(samples) == set(iss.ISS_TYPES)
    for kind, text in samples.items():
        try:
            puzzle = iss.from_string(text, source=kind)
        except ParseError as exc:
            assert f"({kind}, column " in str(exc), (kind, exc)
            assert "this version of cpsudoku has no" in str(exc), (kind, exc)
        else:
            assert puzzle.meta["format"] == "iss"


@pytest.mark.cross
@pytest.mark.parametrize("path", sorted(p for p in VARIANTS.iterdir() if p.suffix != ".md"),
                         ids=lambda p: p.name)
def test_round_trip_through_iss(path):
    """cpsudoku -> ISS -> cpsudoku gives the same puzzle for every example variant
    that ISS can say; the others are refused with what has no ISS form."""
    puzzle = puzzlefile.load(path.read_text(), source=path.name)[0]
    try:
        text = iss.dumps(puzzle)
    except ModelError as exc:
        assert "no ISS form" in str(exc)
        return
    back = iss.from_string(text, source="again")
    assert canonical(back) == canonical(puzzle)
    assert iss.dumps(back) == text
    assert is_solution(back, puzzle.meta["solution"])


def test_round_trip_of_iss_examples():
    """ISS -> cpsudoku -> ISS -> cpsudoku keeps every example cpsudoku reads."""
    for entry in EXAMPLES:
        try:
            puzzle = iss.from_string(entry["input"], source=entry["name"])
        except CpsudokuError:
            continue
        assert canonical(iss.from_string(iss.dumps(puzzle))) == canonical(puzzle), entry["name"]


def test_layouts_sizes_and_flags():
    jigsaw = parse_one((VARIANTS / "jigsaw.toml").read_text())
    assert iss.dumps(jigsaw).startswith(".NoBoxes.Jigsaw~")
    sixteen = iss.from_string(".Shape~16x16.~RgCg_16~RaC1_10")
    assert sixteen.givens[-1] == 16 and sixteen.givens[9 * 16] == 10
    assert "RgCg_16" in iss.dumps(sixteen)
    five = iss.from_string(".Shape~5x5.~R1C1_1")  # no boxes: a Latin square
    assert sorted(map(sorted, five.geometry.regions)) == [list(range(r * 5, r * 5 + 5))
                                                          for r in range(5)]
    both = iss.from_string(".Diagonal~1.Diagonal~-1.AntiKnight.Windoku")
    assert [r.name for r in both.rules] == ["diagonal", "anti-knight", "windoku"]
    assert iss.dumps(both) == ".Diagonal~1.Diagonal~-1.AntiKnight.Windoku"
    boxes_kept = iss.from_string(".Jigsaw~" + "".join(str(c % 9) for c in range(81)))
    assert boxes_kept.geometry.box == (3, 3)  # without NoBoxes ISS keeps its boxes
    assert [r.name for r in boxes_kept.rules] == ["extra-region"]
    odd = iss.from_string(".~R1C1_1_3_5_7_9~R1C2_2~R1C2_2_4_6_8")
    assert [r.name for r in odd.rules] == ["parity"] and odd.givens[1] == 2


def test_whitespace_and_empty_items_as_iss_reads_them():
    spaced = "\n    .Thermo~r1c1~r1c2\n    .Thermo~R2C1~R2C2\n"
    assert iss.looks_like_iss(spaced) and iss.looks_like_iss("..Cage~3~R1C1~R1C2")
    puzzle = iss.from_string(spaced)
    assert puzzle.rules[0].data() == {"thermometers": [["r1c1", "r1c2"], ["r2c1", "r2c2"]]}
    assert iss.from_string("..Cage~3~R1C1~R1C2").rules[0].elements[0].total == 3


def test_a_cage_of_sum_0_has_no_sum():
    [cage] = iss.from_string(".Cage~0~R1C1~R1C2~R1C3").rules[0].elements
    assert cage.total is None and cage.distinct


def test_a_cell_listed_twice_counts_twice_in_the_sum_once_in_the_difference():
    """ISS's cage and sum add a repeated cell's coefficients; its cage's digits still
    differ (each cell once)."""
    puzzle = iss.from_string(".Cage~20~R1C1~R1C2~R1C2")
    [cage] = puzzle.rules[0].elements
    assert cage.weights == (1, 2) and cage.distinct
    [total] = [c for c in puzzle.constraints() if isinstance(c, Sum)]
    assert (total.cells, total.coeffs, total.total) == ((0, 1), (1, 2), 20)
    assert total.holds([4, 8]) and not total.holds([8, 4])
    assert ".Cage~20~R1C1~R1C2~R1C2" in iss.dumps(puzzle)  # written back as ISS wrote it
    assert parse_one(iss.dumps(puzzle)).rules == puzzle.rules


def test_sum_coefficients_and_arrows_that_jump():
    puzzle = iss.from_string(".Sum~5_=_2_-1~R1C1~R1C2")
    [cage] = puzzle.rules[0].elements
    assert (cage.total, cage.weights, cage.distinct) == (5, (2, -1), False)
    assert iss.from_string(iss.dumps(puzzle)).rules == puzzle.rules
    # r1c1's circle, then r1c3 beside nothing: a sum, the circle subtracted
    [jump] = iss.from_string(".Arrow~R1C1~R1C3~R1C4").rules[0].elements
    assert (jump.total, jump.weights, jump.distinct) == (0, (-1, 1, 1), False)
    [arrow] = iss.from_string(".Arrow~R1C1~R1C2~R1C3").rules[0].elements  # a real arrow
    assert not hasattr(arrow, "weights")


def test_a_weighted_cage_solves_the_same_on_every_backend():
    puzzle = iss.from_string(".Sum~20_=_2_-1_3~R1C1~R1C2~R1C3.Arrow~R2C1~R2C3~R2C5")
    from cpsudoku import solve
    for backend in ("native", "cpsat", "python-constraint"):
        result = solve(puzzle, backend, max_solutions=1)
        s = result.solution
        assert is_solution(puzzle, s), backend
        assert 2 * s[0] - s[1] + 3 * s[2] == 20 and s[9] == s[11] + s[13]


def test_a_jigsaw_on_a_grid_without_boxes_is_its_regions():
    layout = "".join(str(i // 7 + 1) for i in range(49))  # rows as the pieces
    puzzle = iss.from_string(f".Shape~7x7.Jigsaw~{layout}")
    assert puzzle.size == 7
    assert sorted(map(sorted, puzzle.geometry.regions))[0] == list(range(7))


def test_an_alternative_that_can_never_hold_is_false_not_an_error():
    text = ".Or.Cage~3~R1C1~R1C2~R1C3.Cage~6~R1C1~R1C2~R1C3.End"  # 3 from three digits: never
    [either] = iss.from_string(text).rules
    made = list(either.constraints(iss.from_string(text).geometry))
    # the cage of 6 alone remains, so it holds: no either left
    assert {type(con).__name__ for con in made} == {"Sum", "AllDifferent"}
    assert next(con for con in made if con.kind == "sum").total == 6
    with pytest.raises(ModelError, match="sum to 6..24, not 3"):
        iss.from_string(".Or.Cage~3~R1C1~R1C2~R1C3.Cage~4~R1C1~R1C2~R1C3.End").constraints()


def test_replicate_copies_its_items_onto_each_target():
    """`D` is bits 0 and 1: the origin itself and the cell after it; `C` from R2C2 is
    the cell after R2C2, one column on; candidates move with their cells."""
    copied = iss.from_string(".Replicate~D.Thermo~R1C1~R1C2.End"
                             ".Replicate~C~R2C2.~R2C2_1_2.End")
    written = iss.from_string(".Thermo~R1C1~R1C2.Thermo~R1C2~R1C3.~R2C3_1_2")
    assert copied.constraints() == written.constraints()


def test_region_same_values_gives_every_largest_region_one_set():
    """4x4 of 1..6 in 2x2 boxes: every row, column and box holds the same four digits."""
    puzzle = iss.from_string(".Shape~4x4~6.RegionSize~4.RegionSameValues.~R1C1_1~R2C3_5")
    result = solve(puzzle, "native", max_solutions=200)
    assert result.solutions
    g = puzzle.geometry
    for grid in result.solutions:
        sets = {frozenset(grid[c] for c in group) for group in g.rows + g.cols + g.regions}
        assert len(sets) == 1
    free = solve(iss.from_string(".Shape~4x4~6.RegionSize~4.~R1C1_1~R2C3_5"), "native",
                 max_solutions=200)
    assert len(free.solutions) > len(result.solutions)  # the rule removes some
    with pytest.raises(ParseError, match="do not join by disjoint pairs"):
        iss.from_string(".Shape~4x4~6.RegionSize~4.NoBoxes.RegionSameValues")
