"""Either/or of rules: what an `either` allows and refuses, its puzzle-file and ISS forms,
and ISS's Either/Or example on native and cpsat."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cpsudoku import count, is_solution, parse, solve
from cpsudoku.errors import BackendError, ModelError, ParseError
from cpsudoku.formats import iss, puzzlefile
from cpsudoku.grid import constraints
from cpsudoku.web.drawing import describe

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "variants" / "either.toml"


def either(*groups, size=9):
    """The puzzle of a 9x9 grid with these either groups (lists of alternatives)."""
    return puzzlefile.from_dict({"size": size, "either": list(groups)})


def table(puzzle, i=0):
    """Either group i as the table every backend but CP-SAT is given (full domains)."""
    [con] = puzzle.rules[0].constraints(puzzle.geometry)[i:i + 1]
    [lowered] = con.decompose([frozenset(range(1, puzzle.size + 1))] * puzzle.geometry.ncells)
    return lowered


def allows(puzzle, values: dict[str, int], i=0) -> bool:
    """Whether either group i accepts these digits on the cells it covers."""
    con = table(puzzle, i)
    names = [puzzle.geometry.cell_name(c) for c in con.cells]
    return con.holds([values[name] for name in names])


def test_givens_either_in_one_cell_or_the_other():
    p = either([{"givens": {"r1c1": 1}}, {"givens": {"r1c2": 1}}])
    assert allows(p, {"r1c1": 1, "r1c2": 5}) and allows(p, {"r1c1": 7, "r1c2": 1})
    assert allows(p, {"r1c1": 1, "r1c2": 1})  # at least one: both may hold
    assert not allows(p, {"r1c1": 2, "r1c2": 3})
    assert len(table(p).tuples) == 9 + 9 - 1


def test_an_alternative_holds_only_when_all_its_parts_do():
    cage = {"cages": [{"cells": ["r1c1", "r1c2"], "sum": 3}], "givens": {"r2c1": 9}}
    x = {"xv": {"x": [["r1c1", "r1c2"]]}}
    p = either([cage, x])
    assert allows(p, {"r1c1": 1, "r1c2": 2, "r2c1": 9})
    assert not allows(p, {"r1c1": 1, "r1c2": 2, "r2c1": 8})  # the cage's given fails
    assert allows(p, {"r1c1": 4, "r1c2": 6, "r2c1": 8})  # the X holds
    assert not allows(p, {"r1c1": 1, "r1c2": 1, "r2c1": 9})  # a cage never repeats
    assert not allows(p, {"r1c1": 5, "r1c2": 4, "r2c1": 9})  # neither a 3 nor an X
    assert allows(p, {"r1c1": 5, "r1c2": 5, "r2c1": 1})  # an X may repeat: 5 + 5


def test_lines_and_nested_eithers():
    up = {"thermometers": [["r1c1", "r1c2", "r1c3"]]}
    down = {"thermometers": [["r1c3", "r1c2", "r1c1"]]}
    p = either([up, down])
    assert allows(p, {"r1c1": 1, "r1c2": 4, "r1c3": 9})
    assert allows(p, {"r1c1": 9, "r1c2": 4, "r1c3": 1})
    assert not allows(p, {"r1c1": 4, "r1c2": 9, "r1c3": 1})
    inner = {"either": [[{"givens": {"r1c1": 2}}, {"givens": {"r1c2": 2}}]]}
    nested = either([inner, {"givens": {"r1c3": 3}}])
    assert allows(nested, {"r1c1": 5, "r1c2": 2, "r1c3": 1})
    assert allows(nested, {"r1c1": 5, "r1c2": 6, "r1c3": 3})
    assert not allows(nested, {"r1c1": 5, "r1c2": 6, "r1c3": 1})


def test_other_sizes():
    p = either([{"givens": {"r4c4": 4}}, {"givens": {"r1c1": 4}}], size=4)
    assert len(table(p).tuples) == 4 + 4 - 1
    with pytest.raises(ModelError, match=r"either 1, alternative 1: given r1c1 = 5 is "
                                         r"outside 1..4"):
        either([{"givens": {"r1c1": 5}}], size=4)


@pytest.mark.parametrize("groups, words", [
    ([[]], "either 1 lists no alternatives"),
    ([[{"givens": {"r1c1": 1}}], [{}]], "either 2, alternative 1 is empty"),
    ([[{"givens": {"r1c1": 1}}, {"cage": []}]],
     "either 1, alternative 2: unknown key 'cage'; known: givens, cages"),
    ([[{"givens": {"r10c1": 1}}]], "either 1, alternative 1: given: cell r10c1 is outside "
                                   "the 9x9 grid"),
    ([[{"thermometers": [["r1c1", "r1c0"]]}]], "either 1, alternative 1: thermometer 1"),
    ([[{"size": 4}]], "either 1, alternative 1: unknown key 'size'"),
    ([["r1c1"]], "either 1, alternative 1 must be a table"),
    ([[{"givens": ["r1c1"]}]], "either 1, alternative 1: givens must be a table"),
    ({"r1c1": 1}, "either must be a list"),
])
def test_refusals_name_the_either_and_alternative(groups, words):
    with pytest.raises(ModelError) as caught:
        puzzlefile.from_dict({"either": groups}, source="p.toml")
    assert words in str(caught.value) and str(caught.value).startswith("p.toml: ")


def test_a_table_too_large_is_refused_by_backends_that_need_it(monkeypatch):
    row = [f"r1c{c}" for c in range(1, 10)]
    p = either([{"givens": {"r1c1": 1}}, {"extra_regions": [row]}])
    with pytest.raises(BackendError, match=r"either 1 \(r1c1=1 or extra_regions at r1c1\): "
                                           r"more than 50000 value tuples"):
        solve(p, "python-constraint")
    monkeypatch.setattr(constraints, "MAX_TRIES", 1000)
    with pytest.raises(BackendError, match=r"more than 1000 value combinations tried"):
        solve(either([{"extra_regions": [row[:5]]}, {"extra_regions": [row[4:]]}]),
              "python-constraint")


@pytest.mark.parametrize("kernel", ["c", "python"])
def test_native_takes_an_either_whole(kernel):
    """No table and no product automaton: the C kernel's or the Python engine's
    constructive disjunction, agreeing with CP-SAT (an alternative of a sum, one of a
    nine-cell region with a given)."""
    small = either([{"givens": {"r1c1": 1}}, {"givens": {"r1c2": 1}}], size=4)
    assert solve(small, "native", max_solutions=2, kernel=kernel).stats["kernel"] == kernel
    row = [f"r1c{c}" for c in range(1, 10)]
    grid = [[(3 * (r % 3) + r // 3 + c) % 9 + 1 for c in range(9)] for r in range(9)]
    shown = [row_ if r >= 2 else [0] * 9 for r, row_ in enumerate(grid)]  # rows 3-9 given
    alternatives = [{"cages": [{"sum": 17, "cells": ["r1c1", "r1c2"]}]},
                    {"extra_regions": [row], "givens": {"r1c1": grid[0][0]}}]
    p = puzzlefile.from_dict({"size": 9, "grid": shown, "either": [alternatives]})
    native = solve(p, "native", max_solutions=50, kernel=kernel)
    assert native.stats["kernel"] == kernel
    cpsat = solve(p, "cpsat", max_solutions=50)
    assert native.status is cpsat.status
    assert sorted(native.solutions) == sorted(cpsat.solutions)
    assert 1 < len(native.solutions) < 50 and all(is_solution(p, s) for s in native.solutions)
    assert tuple(v for r in grid for v in r) in native.solutions


def test_cpsat_counts_each_grid_once_when_several_alternatives_hold():
    """Both alternatives may hold at once; CP-SAT's literals then take several values over
    one grid, which must still be one solution (every 4x4 grid is counted)."""
    groups = [[{"givens": {"r1c1": 1}}, {"givens": {"r1c2": 2}}],
              [{"thermometers": [["r2c1", "r2c2", "r2c3"]]},
               {"thermometers": [["r2c3", "r2c2", "r2c1"]]},
               {"either": [[{"givens": {"r4c4": 4}}, {"xv": {"v": [["r3c3", "r3c4"]]}}]]}]]
    p = either(*groups, size=4)
    counts = {b: len(solve(p, b, max_solutions=300).solutions) for b in ("native", "cpsat")}
    assert counts["native"] == counts["cpsat"] > 2
    assert all(is_solution(p, s) for s in solve(p, "cpsat", max_solutions=300).solutions)


def test_puzzle_file_forms_read_back_the_same():
    [p] = parse(EXAMPLE.read_text(), source=EXAMPLE.name)
    assert puzzlefile.load(puzzlefile.dumps(p))[0].rules == p.rules
    assert puzzlefile.from_dict(json.loads(json.dumps(puzzlefile.as_dict(p)))).rules == p.rules
    assert p.rules[0].describe().startswith("either (16): at least one alternative")


def test_the_example_on_native_and_its_page_text():
    [p] = parse(EXAMPLE.read_text(), source=EXAMPLE.name)
    result = solve(p, "native", max_solutions=2)
    assert result.status.value == "unique" and result.solution == p.meta["solution"]
    page = describe(p)
    assert page["elements"]["either"][0] == [{"givens": {"r4c7": 7}}, {"givens": {"r4c6": 7}}]
    assert "r4c7=7 or r4c6=7" in page["rules"][0]["description"]


# ---------------------------------------------------------------- ISS

def iss_entry(name: str) -> dict:
    data = json.loads((ROOT / "cpsudoku" / "bench" / "data" / "iss_puzzles.json")
                      .read_text(encoding="utf-8"))
    return next(p for p in data["puzzles"] if p["name"] == name)


@pytest.mark.parametrize("backend", ["native", "cpsat"])
def test_iss_either_or_example_is_unique_with_its_solution(backend):
    entry = iss_entry("Either/Or")
    puzzle = iss.from_string(entry["input"], source=entry["name"])
    assert len(puzzle.rules[0].elements) == 36
    result = solve(puzzle, backend, max_solutions=2, time_limit=60)
    assert result.status.value == "unique"
    assert "".join(map(str, result.solution)) == entry["solution"]
    assert iss.dumps(puzzle) == entry["input"]  # ISS's own string written back


@pytest.mark.slow  # about a second on CP-SAT
def test_cpsat_takes_alternatives_too_wide_for_a_table():
    """ISS's Unbidden First Hidden: each alternative two hidden skyscrapers (row 9 and
    column 9): no table would do, CP-SAT takes the literals."""
    entry = iss_entry("Unbidden First Hidden")
    puzzle = iss.from_string(entry["input"], source=entry["name"])
    result = count(puzzle, "cpsat", limit=2, time_limit=60)
    assert result.status.value == "unique"
    assert "".join(map(str, result.solution)) == entry["solution"]
    with pytest.raises(BackendError, match="cpsat takes either/or whole"):
        solve(puzzle, "native")


def test_iss_and_groups_and_candidates_inside_an_or():
    text = ".~R5C5_1.Or.And.Cage~3~R1C1~R1C2.~R2C2_3.End.X~R1C1~R1C2.~R3C3_1_3_5.End"
    p = iss.from_string(text)
    [group] = puzzlefile.as_dict(p)["either"]
    assert group == [{"cages": [{"sum": 3, "cells": ["r1c1", "r1c2"]}], "givens": {"r2c2": 3}},
                     {"xv": {"x": [["r1c1", "r1c2"]]}},
                     {"given_candidates": [{"cell": "r3c3", "values": [1, 3, 5]}]}]
    assert p.givens[40] == 1
    again = iss.from_string(iss.dumps(p))
    assert again.rules == p.rules
    # a two-clue item is one alternative: both its clues hold together
    [two] = puzzlefile.as_dict(iss.from_string(".Or.~R1C1_1~R1C2_2.~R1C3_3.End"))["either"]
    assert two == [{"givens": {"r1c1": 1, "r1c2": 2}}, {"givens": {"r1c3": 3}}]


@pytest.mark.parametrize("text, column, words", [
    (".Or.~R1C1_1.~R1C2_1", 1, "(Or, column 1): has no matching End"),
    (".~R1C1_1.End", 9, "(End, column 9): closes no Or or And"),
    (".Or.End", 1, "(Or, column 1): holds no alternatives"),
    (".Or.AntiKnight.~R1C1_1.End", 4, "a layout or global rule inside an Or"),
])
def test_iss_composites_refused_by_item_and_column(text, column, words):
    with pytest.raises(ParseError) as caught:
        iss.from_string(text, source="p.iss", line=1)
    assert caught.value.column == column and words in str(caught.value)


def test_the_example_is_right_and_its_solution_recorded():
    [p] = parse(EXAMPLE.read_text(), source=EXAMPLE.name)
    assert is_solution(p, p.meta["solution"])
    broken = list(p.meta["solution"])
    broken[2], broken[3] = broken[3], broken[2]  # r1c3 and r1c4 swapped
    assert not is_solution(p, tuple(broken))


def _whisper(n: int) -> constraints.Automaton:
    return constraints.Automaton.build(
        0, lambda last, v: v if not last or abs(v - last) >= 2 else None, lambda s: True,
        range(1, n + 1))


def test_an_either_along_one_line_is_one_automaton_that_holds_as_it_does():
    import itertools
    line = (0, 1, 2)
    either_ = constraints.AnyOf(line, alternatives=(
        (constraints.InSet((1,), values=frozenset({3})),),
        (constraints.Regular(line, automaton=_whisper(4)),)))
    regular = either_.as_regular(range(1, 5))
    assert regular is not None and regular.cells == line
    for word in itertools.product(range(1, 5), repeat=3):
        assert regular.holds(word) == either_.holds(word), word
    # digits alone, on cells of no line: any order of the cells
    digits = constraints.AnyOf((7, 4), alternatives=(
        (constraints.InSet((7,), values=frozenset({1})),),
        (constraints.InSet((4,), values=frozenset({2, 3})),)))
    regular = digits.as_regular(range(1, 5))
    for word in itertools.product(range(1, 5), repeat=2):
        assert regular.holds(word) == digits.holds(word), word


def test_an_either_across_lines_reads_them_in_one_order():
    import itertools
    crossing = constraints.AnyOf((0, 1, 2), alternatives=(
        (constraints.Regular((0, 1), automaton=_whisper(4)),
         constraints.Regular((0, 2), automaton=_whisper(4))),  # both start at cell 0
        (constraints.InSet((2,), values=frozenset({1})),)))
    regular = crossing.as_regular(range(1, 5))
    assert regular is not None
    for word in itertools.product(range(1, 5), repeat=3):
        at = dict(zip(regular.cells, word))
        assert regular.holds(word) == crossing.holds([at[c] for c in crossing.cells]), word
    # one line read both ways: the second read the first way, its automaton reversed
    rising = constraints.Automaton.build(0, lambda last, v: v if v > last else None,
                                         lambda s: True, range(1, 5))
    both_ways = constraints.AnyOf((0, 1, 2), alternatives=(
        (constraints.Regular((0, 1, 2), automaton=rising),),
        (constraints.Regular((2, 1, 0), automaton=_whisper(4)),)))
    regular = both_ways.as_regular(range(1, 5))
    assert regular is not None and regular.cells == (0, 1, 2)
    for word in itertools.product(range(1, 5), repeat=3):
        assert regular.holds(word) == both_ways.holds(word), word
    # two lines crossing mid-way interleave
    crossing_mid = constraints.AnyOf((0, 1, 2, 3, 4), alternatives=(
        (constraints.Regular((0, 1, 2), automaton=rising),
         constraints.Regular((3, 1, 4), automaton=_whisper(4))),))
    regular = crossing_mid.as_regular(range(1, 5))
    assert regular is not None
    for word in itertools.product(range(1, 5), repeat=5):
        at = dict(zip(regular.cells, word))
        assert regular.holds(word) == crossing_mid.holds([at[c] for c in crossing_mid.cells])
    # a cycle of orders has none
    cycle = constraints.AnyOf((0, 1, 2), alternatives=(
        (constraints.Regular((0, 1), automaton=rising),
         constraints.Regular((1, 2), automaton=rising),
         constraints.Regular((2, 0), automaton=rising)),))
    assert cycle.as_regular(range(1, 5)) is None


def test_an_either_of_arrows_over_one_set_of_cells_is_one_automaton():
    # ISS's ambiguous arrows: one of four cells is the sum of the other three, each
    # alternative an arrow read from another circle (sums read in any order; weights of
    # both signs; a cell listed twice counts twice)
    import itertools
    cells = (0, 1, 2, 3)
    arrows = tuple((constraints.Sum(cells[k:] + cells[:k], 0, (-1, 1, 1, 1)),)
                   for k in range(4))
    either_ = constraints.AnyOf(cells, alternatives=arrows)
    regular = either_.as_regular(range(1, 10))
    assert regular is not None
    for word in itertools.product(range(1, 10), repeat=4):
        at = dict(zip(regular.cells, word))
        assert regular.holds(word) == either_.holds([at[c] for c in cells]), word
    twice = constraints.AnyOf((0, 1), alternatives=(
        (constraints.Sum((0, 1, 0), 9, (1, 1, 1)),), (constraints.InSet((1,), frozenset({2})),)))
    regular = twice.as_regular(range(1, 6))
    for word in itertools.product(range(1, 6), repeat=2):
        at = dict(zip(regular.cells, word))
        assert regular.holds(word) == twice.holds([at[c] for c in (0, 1)]), word


def test_cells_all_different_in_every_alternative_are_said_once_outside():
    cells = ["r1c1", "r1c2", "r2c2"]
    p = either([{"cages": [{"sum": 7, "cells": cells}]},
                {"lunchboxes": [{"cells": cells, "value": 0}]}])
    made = list(p.rules[0].constraints(p.geometry))
    assert [type(con).__name__ for con in made] == ["AllDifferent", "AnyOf"]
    [inner] = [con for con in made if isinstance(con, constraints.AnyOf)]
    assert not any(isinstance(con, constraints.AllDifferent)
                   for group in inner.alternatives for con in group)
    # the cage (a sum) and the lunchbox (an automaton) read as one automaton
    import itertools
    regular = inner.as_regular(range(1, 10))
    assert regular is not None
    for word in itertools.permutations(range(1, 10), 3):
        at = dict(zip(regular.cells, word))
        assert regular.holds(word) == inner.holds([at[c] for c in inner.cells]), word


def test_an_either_with_one_alternative_that_can_hold_is_that_alternative():
    # three different digits never sum to 3: the lunchbox alone remains
    cells = ["r1c1", "r1c2", "r2c2"]
    p = either([{"cages": [{"sum": 3, "cells": cells}]},
                {"lunchboxes": [{"cells": cells, "value": 0}]}])
    made = list(p.rules[0].constraints(p.geometry))
    assert not any(isinstance(con, constraints.AnyOf) for con in made)
    assert {type(con).__name__ for con in made} == {"AllDifferent", "Regular"}
