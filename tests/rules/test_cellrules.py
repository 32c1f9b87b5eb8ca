"""Cell and region rules: what each one allows, what it refuses, and the ISS puzzles of
these types."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cpsudoku import boxed, solve
from cpsudoku.errors import ModelError
from cpsudoku.formats import iss, puzzlefile
from cpsudoku.rules import cellrules as CR
from cpsudoku.rules import describe_elements

ROOT = Path(__file__).resolve().parents[2]
NINE = boxed(9)


def holds(rule, values: dict[str, int], geometry=NINE) -> bool:
    """Whether the rule's constraints over the named cells accept these digits (each
    constraint read on its own cells; the others must all be named)."""
    at = {geometry.size * (int(n[1:n.index("c")]) - 1) + int(n[n.index("c") + 1:]) - 1: v
          for n, v in values.items()}
    for con in rule.constraints(geometry):
        if con.kind == "inset":
            if not all(at[c] in con.values for c in con.cells):
                return False
        elif not con.holds([at[c] for c in con.cells]):
            return False
    return True


def group(cells, values=(), total=None):
    from cpsudoku.rules import cells as C
    return CR.Group(C.refs(cells), tuple(values), total)


def named(cells, digits):
    return dict(zip(cells.split(), digits))


SQUARE = "r1c1 r1c2 r2c1 r2c2"


@pytest.mark.parametrize("digits, ok", [((1, 2, 3, 4), True), ((2, 1, 5, 6), True),
                                        ((3, 4, 5, 6), False), ((1, 3, 4, 5), False)])
def test_quadruple_needs_every_listed_digit(digits, ok):
    rule = CR.Quadruples([group(SQUARE, (1, 2))])
    assert holds(rule, named(SQUARE, digits)) is ok


def test_quadruple_digit_listed_twice_appears_twice():
    rule = CR.Quadruples([group(SQUARE, (1, 1))])
    assert holds(rule, named(SQUARE, (1, 2, 3, 1)))
    assert not holds(rule, named(SQUARE, (1, 2, 3, 4)))


def test_contain_exact_counts_exactly_and_leaves_other_digits_free():
    cells = "r1c1 r1c2 r1c3 r2c1"
    rule = CR.ContainExact([group(cells, (7,))])
    assert holds(rule, named(cells, (7, 1, 2, 3)))
    assert not holds(rule, named(cells, (7, 1, 2, 7)))
    assert not holds(rule, named(cells, (4, 1, 2, 3)))
    assert holds(CR.ContainAtLeast([group(cells, (7,))]), named(cells, (7, 1, 2, 7)))


@pytest.mark.parametrize("digits, ok", [((1, 2, 2), True), ((3, 3, 3), True),
                                        ((1, 1, 2), False), ((2, 2, 2), False)])
def test_counting_circles_count_their_digit(digits, ok):
    cells = "r1c1 r2c4 r3c7"
    assert holds(CR.CountingCircles([group(cells)]), named(cells, digits)) is ok


@pytest.mark.parametrize("digits, ok", [((1, 5, 7), True), ((2, 3, 4), False),
                                        ((9, 1, 2), False), ((4, 6, 7), True)])
def test_rellik_cage_no_subset_reaches_the_clue(digits, ok):
    # 9 alone, 4+5, 2+3+4 all reach 9
    cells = "r1c1 r1c2 r2c1"
    rule = CR.RellikCages([group(cells, total=9)])
    assert holds(rule, named(cells, digits)) is ok


def test_rellik_cage_digits_differ():
    assert not holds(CR.RellikCages([group("r1c1 r2c4", total=20)]),
                     {"r1c1": 3, "r2c4": 3})


@pytest.mark.parametrize("digits, ok", [((1, 8), True), ((2, 7), True), ((1, 2), False),
                                        ((5, 4), False), ((1, 3), False), ((2, 9, 1, 6), True)])
def test_equality_cage_balances_parity_and_height(digits, ok):
    cells = "r1c1 r1c2 r1c3 r1c4"[:len(digits) * 5 - 1]
    assert holds(CR.EqualityCages([group(cells)]), named(cells, digits)) is ok


def test_given_candidates_restrict_the_cell():
    rule = CR.GivenCandidates([group("r5c5", (1, 3))])
    assert holds(rule, {"r5c5": 3}) and not holds(rule, {"r5c5": 2})


def test_clones_match_by_place_in_the_region():
    from cpsudoku.rules import cells as C
    rule = CR.Clones([CR.Parts((C.refs("r1c1 r1c2 r2c1"), C.refs("r9c8 r8c8 r8c9")))])
    # reading order pairs r1c1-r8c8, r1c2-r8c9, r2c1-r9c8
    assert holds(rule, {"r1c1": 1, "r1c2": 2, "r2c1": 3, "r8c8": 1, "r8c9": 2, "r9c8": 3})
    assert not holds(rule, {"r1c1": 1, "r1c2": 2, "r2c1": 3, "r8c8": 3, "r8c9": 2, "r9c8": 1})


def test_equal_sums_segments_may_share_cells():
    from cpsudoku.rules import cells as C
    rule = CR.EqualSums([CR.Parts((C.refs("r1c1 r1c2"), C.refs("r1c1 r2c1")))])
    assert holds(rule, {"r1c1": 5, "r1c2": 3, "r2c1": 3})
    assert not holds(rule, {"r1c1": 5, "r1c2": 3, "r2c1": 4})


def test_equal_sums_compare_every_segment():
    from cpsudoku.rules import cells as C
    rule = CR.EqualSums([CR.Parts((C.refs("r1c1 r1c2"), C.refs("r5c5"), C.refs("r9c1 r9c2")))])
    assert holds(rule, {"r1c1": 1, "r1c2": 6, "r5c5": 7, "r9c1": 3, "r9c2": 4})
    assert not holds(rule, {"r1c1": 1, "r1c2": 6, "r5c5": 7, "r9c1": 3, "r9c2": 5})


@pytest.mark.parametrize("key, value, message", [
    ("quadruples", [{"cells": ["r1c1", "r1c2", "r2c1", "r3c3"], "values": [1]}],
     "quadruple 1 at r1c1: a quadruple's cells must be the four cells of a 2x2 square"),
    ("quadruples", [{"cells": SQUARE.split(), "values": [1, 2, 3, 4, 5]}],
     "quadruple 1 at r1c1: 5 digits cannot fit in 4 cells"),
    ("quadruples", [{"cells": SQUARE.split(), "values": [10]}],
     "quadruple 1 at r1c1: digit 10 is outside 1..9"),
    ("quadruples", [{"cells": SQUARE.split(), "digits": [1]}],
     "quadruple 1: unknown key 'digits'; known: cells, values"),
    ("equality_cages", [["r1c1", "r1c2", "r1c3"]],
     "equality cage 1 at r1c1: an odd number of cells (3) cannot split evenly"),
    ("rellik_cages", [{"cells": ["r1c1", "r1c2"], "sum": 3}, {"cells": ["r2c1"], "sum": 0}],
     "rellik cage 2 (not 0) at r2c1: the clue must be a whole number from 1"),
    ("rellik_cages", [{"cells": [f"r1c{c}" for c in range(1, 10)], "sum": 5}],
     "no 9 different digits 1..9 avoid the sum 5"),
    ("clones", [[["r1c1", "r1c2"], ["r5c5", "r6c5"]]],
     "clone 1 at r1c1: region 2 does not have the shape of region 1"),
    ("clones", [[["r1c1", "r1c2"]]], "clone 1 at r1c1 needs two or more non-empty regions"),
    ("equal_sums", [[["r1c1", "r1c1"], ["r1c2"]]],
     "equal sum 1 at r1c1 segment 1: cell r1c1 is listed twice"),
    ("given_candidates", [{"cell": "r10c1", "values": [1]}],
     "candidate set 1 at r10c1: cell r10c1 is outside the 9x9 grid"),
    ("contain_exact", [{"cells": ["r1c1"]}], "exact-digits group 1: missing 'values'"),
])
def test_bad_elements_are_refused_by_name(key, value, message):
    with pytest.raises(ModelError) as err:
        solve(puzzlefile.from_dict({key: value}), "native")
    assert message in str(err.value)


@pytest.mark.parametrize("stem", ["quadruples", "contain-at-least", "contain-exact",
                                  "counting-circles", "rellik-cages", "equality-cages",
                                  "given-candidates", "clones", "equal-sums"])
def test_examples_write_back_as_they_read(stem):
    path = ROOT / "examples" / "variants" / f"{stem}.toml"
    [puzzle] = puzzlefile.load(path.read_text(encoding="utf-8"), source=path.name)
    [again] = puzzlefile.load(puzzlefile.dumps(puzzle))
    assert again.rules == puzzle.rules and again.givens == puzzle.givens


def test_every_cell_rule_is_listed():
    listed = dict(describe_elements())
    for cls in CR.CELL_RULES:
        assert listed[cls.key] == cls.meaning
    for key in ("cages (no sum)", "cages (repeats = true)", "kropki (value)",
                "kropki (all_given)", "xv (all_given)"):
        assert key in listed


def test_killer_cages_without_sum_with_repeats_and_big_sums():
    # r1c1 and r2c4 share no unit: only the cage keeps them apart, only repeats = true
    # lets a sum of 2 hold
    apart = puzzlefile.from_dict({"cages": [{"cells": ["r1c1", "r2c4"]}],
                                  "grid": "1" + "." * 80, "given_candidates": [
                                      {"cell": "r2c4", "values": [1, 2]}]})
    assert solve(apart, "native").solution[12] == 2
    twice = puzzlefile.from_dict({"cages": [{"sum": 2, "cells": ["r1c1", "r2c4"],
                                             "repeats": True}]})
    s = solve(twice, "native").solution
    assert s[0] == s[12] == 1
    with pytest.raises(ModelError, match="sum to 3..17, not 2"):
        solve(puzzlefile.from_dict({"cages": [{"sum": 2, "cells": ["r1c1", "r2c4"]}]}), "native")
    sixteen = puzzlefile.from_dict({"size": 16, "cages": [
        {"sum": 120, "cells": [f"r1c{c}" for c in range(1, 13)]}]})
    s = solve(sixteen, "native").solution
    assert sum(s[:12]) == 120 and len(set(s[:12])) == 12


def test_difference_and_ratio_dots_with_values_round_trip():
    data = {"kropki": {"white": [{"cells": ["r1c1", "r1c2"], "value": 3}],
                       "black": [{"cells": ["r2c1", "r2c2"], "value": 3}]}}
    puzzle = puzzlefile.from_dict(data)
    s = solve(puzzle, "native").solution
    assert abs(s[0] - s[1]) == 3 and (s[9] == 3 * s[10] or s[10] == 3 * s[9])
    assert puzzlefile.as_dict(puzzle)["kropki"] == data["kropki"]


# --- ISS puzzles of these types -----------------------------------------------------

ISS_KINDS = (".Quad~", ".RellikCage~", ".EqualityCage~", ".CountingCircles~",
             ".ContainAtLeast~", ".ContainExact~", ".DutchFlatmates", ".AntiTaxicab",
             ".GlobalEntropy", ".GlobalMod", ".EqualSum~")
# cpsat finds these but takes over 20 s to prove them unique (GlobalMod/Entropy squares)
CPSAT_SLOW = {"Global mod 3"}


def iss_examples():
    data = json.loads((ROOT / "cpsudoku" / "bench" / "data" / "iss_puzzles.json")
                      .read_text(encoding="utf-8"))
    for entry in data["puzzles"]:
        if (entry["set"] == "examples" and any(k in entry["input"] for k in ISS_KINDS)
                and ".Chaos" not in entry["input"]):  # regions built while solving
            for backend in ("native", "cpsat"):
                slow = backend == "cpsat" and entry["name"] in CPSAT_SLOW
                yield pytest.param(entry, backend, id=f"{backend}-{entry['name']}",
                                   marks=[pytest.mark.slow] if slow else [])


@pytest.mark.parametrize("entry, backend", list(iss_examples()))
def test_iss_examples_solve_to_their_solution(entry, backend):
    puzzle = iss.from_string(entry["input"], source=entry["name"])
    result = solve(puzzle, backend, max_solutions=2, time_limit=60)
    assert result.status.value == "unique"
    assert "".join(map(str, result.solution)) == entry["solution"]
