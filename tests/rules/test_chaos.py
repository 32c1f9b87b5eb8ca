"""Chaos construction: region labels as auxiliary variables, the Regions kind, chaos
arrows and counts, their ISS forms, and the backends that refuse them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cpsudoku import backends, parse, solve
from cpsudoku.errors import BackendError, CpsudokuError, ModelError
from cpsudoku.formats import iss, puzzlefile
from cpsudoku.grid.constraints import Regions

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "variants" / "chaos.toml"
ISS_PUZZLES = ROOT / "cpsudoku" / "bench" / "data" / "iss_puzzles.json"


def cpsat():
    try:
        backends.get("cpsat")
    except (BackendError, ModuleNotFoundError) as exc:
        pytest.skip(f"backend cpsat is not usable here: {exc}")
    return "cpsat"


def example():
    [puzzle] = parse(EXAMPLE.read_text(encoding="utf-8"), source=EXAMPLE.name)
    return puzzle


# --- the Regions kind: what a partition must be ---------------------------------------

ROWS_4 = (1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4)
LATIN_4 = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)
REGIONS_4 = Regions(tuple(range(32)), width=4, label="chaos regions")


def test_rows_are_regions():
    assert REGIONS_4.holds(LATIN_4 + ROWS_4)


def test_square_regions_hold_when_their_digits_differ():
    squares = (1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4)
    assert REGIONS_4.holds(LATIN_4 + squares)  # each 2x2 square holds 1..4


def test_a_region_with_a_repeated_digit_breaks_it():
    # the 2x2 squares of a grid whose squares repeat a digit
    digits = (1, 2, 3, 4, 2, 1, 4, 3, 3, 4, 1, 2, 4, 3, 2, 1)
    squares = (1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4)
    assert not REGIONS_4.holds(digits + squares)


def test_a_disconnected_region_breaks_it():
    # region 1 is r1c1, r1c2, r2c3, r2c4 (two pieces); region 2 the rest of rows 1-2
    labels = (1, 1, 2, 2, 2, 2, 1, 1, 3, 3, 3, 3, 4, 4, 4, 4)
    digits = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)
    assert not REGIONS_4.holds(digits + labels)


def test_labels_are_numbered_in_the_order_of_their_first_cells():
    swapped = (2, 2, 2, 2, 1, 1, 1, 1, 3, 3, 3, 3, 4, 4, 4, 4)
    assert not REGIONS_4.holds(LATIN_4 + swapped)  # one partition has one labelling


def test_a_region_of_the_wrong_size_breaks_it():
    labels = (1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4)
    assert not REGIONS_4.holds(LATIN_4 + labels)


# --- the example: unique on cpsat, its regions reported and checked --------------------

@pytest.mark.parametrize("backend, options", [("cpsat", {}), ("native", {})])
def test_example_is_unique_with_its_regions(backend, options):
    puzzle = example()
    if backend == "cpsat":
        cpsat()
    result = solve(puzzle, backend, max_solutions=2, time_limit=60, **options)
    assert result.status.value == "unique"
    assert result.solution == puzzle.meta["solution"]
    [variables] = result.variables
    full = result.solution + variables
    for con in puzzle.constraints():  # every constraint, the labels' too
        assert con.check(full), con.describe()
    regions = variables[:36]
    assert sorted(regions.count(k) for k in set(regions)) == [6] * 6


def test_the_example_without_its_clues_has_many_solutions():
    data = puzzlefile.as_dict(example())
    del data["chaos_arrows"], data["chaos_counts"]
    data.pop("solution", None)
    puzzle = puzzlefile.from_dict(data, "no clues")
    assert solve(puzzle, cpsat(), max_solutions=2, time_limit=60).status.value == "multiple"


def test_a_wrong_arrow_makes_it_unsolvable():
    data = puzzlefile.as_dict(example())
    data.pop("solution", None)
    data["chaos_arrows"] = [{"cell": "r1c1"}]  # r1c1 = 6: a run of 6 ...
    data["grid"] = "6" + "." * 35
    puzzle = puzzlefile.from_dict(data, "arrow")
    assert solve(puzzle, cpsat(), time_limit=60).status.value == "solved"
    data["chaos_arrows"] = [{"cell": "r1c1", "offset": 1}]  # ... 7 with the start left out
    data["chaos_counts"] = [{"cell": "r1c1", "cells": ["r1c1", "r1c2"]}]  # 6 of 2 cells
    puzzle = puzzlefile.from_dict(data, "arrow")
    assert solve(puzzle, cpsat(), time_limit=60).status.value == "unsolvable"


def test_every_backend_but_the_baselines_searches_labels():
    # naive and dlx search digits only (the tutorials' backtracking, exact cover)
    assert backends.with_auxiliary() == ["native", "python-constraint", "cpsat", "sat", "mip",
                                         "choco"]


@pytest.mark.cross
@pytest.mark.parametrize("backend", [b for b in backends.names()
                                     if b not in backends.with_auxiliary()])
def test_backends_without_auxiliary_variables_refuse_naming_the_others(backend):
    try:
        backends.get(backend)
    except (BackendError, ModuleNotFoundError) as exc:
        pytest.skip(f"backend {backend} is not usable here: {exc}")
    with pytest.raises(BackendError, match="region labels.*cannot be expressed.*use native, "
                                           "python-constraint, cpsat, sat, mip or choco"):
        solve(example(), backend, max_solutions=2)


# --- refusals in the puzzle file -------------------------------------------------------

def _data(**extra):
    data = {"size": 6, "regions": [str(r) * 6 for r in range(1, 7)], "rules": ["chaos"]}
    data.update(extra)
    return data


@pytest.mark.parametrize("extra, message", [
    ({"chaos_arrows": [{"cell": "r1c1", "offset": 2}]}, "chaos arrow 1 at r1c1: offset"),
    ({"chaos_arrows": [{"cell": "r1c1", "arms": [["r1c1", "r1c2"], ["r2c1", "r3c1"]]}]},
     "chaos arrow 1 at r1c1: every arm must start at the same cell"),
    ({"chaos_counts": [{"cell": "r7c1"}]}, "chaos count 1 at r7c1: cell r7c1 is outside"),
    ({"chaos_counts": [{"cell": "r1c1", "colour": 1}]}, "chaos count 1: unknown key 'colour'"),
])
def test_bad_clues_are_named(extra, message):
    with pytest.raises(ModelError, match=message):
        puzzlefile.from_dict(_data(**extra), "bad")


def test_clues_need_the_chaos_rule():
    data = _data(chaos_counts=[{"cell": "r1c1"}])
    del data["rules"]
    with pytest.raises(ModelError, match=r'chaos_counts: .* need rules = \["chaos"\]'):
        puzzlefile.from_dict(data, "bad")


def test_the_file_form_is_read_back():
    puzzle = example()
    again = puzzlefile.from_dict(puzzlefile.as_dict(puzzle), "again")
    assert again.rules == puzzle.rules and again.givens == puzzle.givens


# --- ISS ---------------------------------------------------------------------------------

def iss_puzzle(name: str) -> dict:
    found = [p for p in json.loads(ISS_PUZZLES.read_text())["puzzles"] if p["name"] == name]
    return found[0]


def test_iss_chaos_types_are_read():
    assert {"ChaosArrow", "ChaosCount"} <= set(iss.ISS_TYPES)
    assert not {"ChaosConstruction", "ChaosArrow", "ChaosCount"} & set(iss.REFUSED)
    puzzle = iss.from_string(iss_puzzle("Let there be chaos")["input"])
    counts = next(r for r in puzzle.rules if r.name == "chaos-counts")
    assert len(counts) == 21 and counts.elements[0].cells == ((1, 1), (1, 2), (2, 1), (2, 2))


def test_iss_arrow_arms_and_defaults():
    puzzle = iss.from_string(".NoBoxes.ChaosConstruction.ChaosArrow~R2C6~0"
                             ".ChaosArrow~R1C1~1~CC1~-~CC1~CC10~CC19")
    arrows = next(r for r in puzzle.rules if r.name == "chaos-arrows")
    assert arrows.elements[0].cells == ()  # the four directions, taken when solving
    assert arrows.elements[1].offset == 1
    assert arrows.elements[1].cells == (((1, 1),), ((1, 1), (2, 1), (3, 1)))


def test_iss_form_round_trips():
    text = iss_puzzle("Stretching")["input"]
    puzzle = iss.from_string(text)
    again = iss.from_string(iss.dumps(puzzle))
    assert again.rules == puzzle.rules and again.geometry == puzzle.geometry


@pytest.mark.slow
def test_iss_stretching_is_unique_on_cpsat():
    expected = iss_puzzle("Stretching")
    puzzle = iss.from_string(expected["input"])
    result = solve(puzzle, cpsat(), max_solutions=2, time_limit=300)
    assert result.status.value == "unique"
    assert "".join(map(str, result.solution)) == expected["solution"]


def test_iss_refusal_still_names_the_type():
    with pytest.raises(CpsudokuError, match="SameValues"):
        iss.from_string(".ChaosConstruction.SameValues~2~CC1~R1C2")


# --- a clue's automaton: the digit, the start's label, the arms' labels ---------------

def _fits(word, arms, offset, near):
    """The definition, written out: the start plus each arm's run of the start's
    label from its first cell; a near arm must have a run when there are any."""
    digit, start, labels = word[0], word[1], word[2:]
    total, at, met = 1, 0, not near
    for a, length in enumerate(arms):
        arm = labels[at:at + length]
        run = next((i for i, label in enumerate(arm) if label != start), length)
        total += run
        met = met or (a in near and run > 0)
        at += length
    return met and digit + offset == total


@pytest.mark.parametrize("arms, offset, near", [
    ((3,), 0, ()), ((3,), 1, ()), ((2, 1, 2), 0, ()), ((1, 2), 1, (0,)),
    ((1, 1, 1, 1), 0, (0, 1, 2, 3)), ((2, 2), 0, (1,))])
def test_a_clues_automaton_accepts_exactly_its_runs(arms, offset, near):
    from itertools import product

    from cpsudoku.grid.constraints import runs_automaton
    n = 4
    automaton = runs_automaton(n, arms, offset, frozenset(near))
    total = sum(arms)
    accepted = 0
    for word in product(range(1, n + 1), repeat=2 + total):
        fits = _fits(word, arms, offset, frozenset(near))
        assert automaton.accepts(word) == fits, word
        accepted += fits
    assert accepted


# --- same-region groups ------------------------------------------------------------------

SAME = ROOT / "examples" / "variants" / "same-regions.toml"


def test_same_region_groups_decide_the_example():
    """The example is unique with its groups, and not without them; native, cpsat and
    the Python engine find the same regions."""
    [puzzle] = parse(SAME.read_text(encoding="utf-8"), source=SAME.name)
    found = {b: solve(puzzle, b, max_solutions=2, time_limit=60) for b in ("native", cpsat())}
    python = solve(puzzle, "native", max_solutions=2, kernel="python", time_limit=60)
    for result in (*found.values(), python):
        assert result.status.value == "unique" and result.solution == puzzle.meta["solution"]
    regions = found["native"].variables[0]
    assert regions == found["cpsat"].variables[0] == python.variables[0]
    for group in next(r for r in puzzle.rules if r.name == "same-regions").elements:
        cells = [(r - 1) * 6 + c - 1 for r, c in group]
        assert len({regions[c] for c in cells}) == 1, group
    data = puzzlefile.as_dict(puzzle)
    del data["same_regions"]
    assert solve(puzzlefile.from_dict(data), "native", max_solutions=2).status.value == "multiple"


@pytest.mark.parametrize("extra, message", [
    ({"same_regions": [["r1c1"]]}, "same-region group 1 at r1c1: two cells or more"),
    ({"same_regions": [["r1c1", "r7c1"]]}, "same-region group 1 at r1c1: cell r7c1 is outside"),
    ({"same_regions": "r1c1"}, "same_regions"),
])
def test_bad_same_region_groups_are_named(extra, message):
    with pytest.raises(ModelError, match=message):
        puzzlefile.from_dict(_data(**extra), "bad")


def test_iss_same_values_over_region_cells_are_same_region_groups():
    """ISS writes a group of cells in one region as same-value sets of region cells."""
    text = ".ChaosConstruction.NoBoxes.SameValues~3~CC11~CC2~CC1.SameValues~2~CC80~CC81"
    puzzle = iss.from_string(text)
    same = next(r for r in puzzle.rules if r.name == "same-regions")
    assert same.elements == (((2, 2), (1, 2), (1, 1)), ((9, 8), (9, 9)))
    assert iss.from_string(iss.dumps(puzzle)).rules == puzzle.rules
    with pytest.raises(CpsudokuError, match="region cells .* one by one"):
        iss.from_string(".ChaosConstruction.NoBoxes.SameValues~2~CC1~R1C2")
    with pytest.raises(CpsudokuError, match="region cells .* one by one"):
        iss.from_string(".ChaosConstruction.NoBoxes.SameValues~1~CC1~CC2")


def test_iss_chaos_killer_and_sack_lunch_are_read():
    for name in ("Chaos Construction: Sack Lunch", "Chaos Construction: killer"):
        entry = iss_puzzle(name)
        puzzle = iss.from_string(entry["input"])
        assert any(r.name == "same-regions" for r in puzzle.rules)
    solved = solve(iss.from_string(iss_puzzle("Chaos Construction: Sack Lunch")["input"]),
                   "native", max_solutions=2, time_limit=60)
    assert solved.status.value == "unique"
    assert "".join(map(str, solved.solution)) == iss_puzzle(
        "Chaos Construction: Sack Lunch")["solution"]
