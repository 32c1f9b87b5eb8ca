"""The variant rules' steps: each family's reason on a small state, a reason on every
step of every example, and no step over a rule that removes the solution's digit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cpsudoku.formats.sources import read_puzzles
from cpsudoku.grid.puzzle import Puzzle
from cpsudoku.logic.solver import Solver
from cpsudoku.logic.state import State
from cpsudoku.logic.techniques import rulepairs, rules, rulesets, rulesums
from cpsudoku.logic.techniques.ruleorder import order
from cpsudoku.logic.words import plain

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples/variants").glob("*.toml"))


def first(finder, state):
    return next(iter(finder(state)), None)


def cell(name: str) -> int:
    r, c = name[1:].split("c")
    return (int(r) - 1) * 9 + int(c) - 1


def killer(cages) -> Puzzle:
    from cpsudoku.rules.killer import Cage, Killer
    return Puzzle.from_values([0] * 81, rules=[Killer([Cage.of(t, cs) for t, cs in cages])])


def test_sum_bounds_and_combinations_of_a_cage():
    state = State.start(killer([(30, ["r1c1", "r1c2", "r2c1", "r2c2"])]))
    step = first(rulesums.sum_bounds_step, state)
    assert step.technique == "Sum Bounds" and step.rating == 2.0
    assert {v for _, v in step.eliminations} == {1, 2, 3, 4, 5}
    assert "30 in four cells: the other three add 6..24" in step.reason
    assert "at least 6" in step.reason
    combos = first(rulesums.sum_combinations, state)
    assert combos.technique == "Sum Combinations"
    assert "30 in four cells: only 6+7+8+9" in combos.reason


def test_cage_combinations_name_the_digits_that_fit_none():
    state = State.start(killer([(10, ["r1c1", "r1c2", "r1c3"])]))
    step = first(rulesums.sum_combinations, state)
    assert "10 in three cells: 1+2+7, 1+3+6, 1+4+5 or 2+3+5" in step.reason
    assert "8 and 9 fit none" in step.reason and "every one" not in step.reason


def test_a_cage_across_a_box_uses_the_row():
    # a cage allowing repeats is still read with the row's no-repeat: 1+1 is gone
    from cpsudoku.rules.killer import Cage, Killer
    cage = Cage.of(2, ["r1c1", "r1c2"])
    cage = type(cage)(**{**cage.__dict__, "distinct": False}) if hasattr(cage, "distinct") \
        else cage
    state = State.start(Puzzle.from_values([0] * 81, rules=[Killer([cage])]))
    step = first(rules.by_rule, state) or first(rulepairs.pair_relation, state)
    assert step is not None and (cell("r1c1"), 1) in step.eliminations


def test_arrow_circle_bounds():
    puzzles = read_puzzles(str(ROOT / "examples/variants/arrow.toml"))
    state = Solver(puzzles[0]).start()
    found = [s for s in rulesums.sum_bounds_step(state)]
    assert found and all(s.reason for s in found)
    assert any("equals the sum of the other cells" in s.reason for s in found)


def test_thermometer_order():
    state = Solver(read_puzzles(str(ROOT / "examples/variants/thermometer.toml"))[0]).start()
    step = first(order, state)
    assert step.technique == "Order" and step.rating == 1.6
    assert "each cell is more than the one before it" in step.reason
    assert " of 3: at least" in step.reason or " of 3: at most" in step.reason


def test_whisper_pair_relation():
    state = Solver(read_puzzles(str(ROOT / "examples/variants/whispers.toml"))[0]).start()
    step = first(rulepairs.pair_relation, state)
    assert step.technique == "Pair Relation"
    assert "would need" in step.reason and "none left" in step.reason


def test_renban_runs():
    state = Solver(read_puzzles(str(ROOT / "examples/variants/renban.toml"))[0]).start()
    step = first(rulesets.consecutive_set, state)
    assert step.technique == "Consecutive Set"
    assert "different consecutive digits" in step.reason and " fit" in step.reason


def test_a_wide_automaton_still_gives_its_easy_removals():
    from cpsudoku.rules.distinct import DistinctCount, DistinctCounts
    counted = tuple((r, 1) for r in range(2, 10))
    state = State.start(Puzzle.from_values([0] * 81, rules=[
        DistinctCounts([DistinctCount((1, 2), counted)])]))
    step = first(rules.by_rule, state)
    assert step.text == "By Rule: distinct count 1 at r1c2 => r1c2<>9"
    assert step.reason.startswith("Distinct count 1 at r1c2: no filling of the line")


def test_a_wide_sum_is_read_by_its_bounds():
    rules.NODE_LIMIT, old = 10, rules.NODE_LIMIT
    rules._SUPPORT.clear()  # the same cage was searched whole above
    try:
        state = State.start(killer([(30, ["r1c1", "r1c2", "r2c1", "r2c2"])]))
        assert first(rulesums.sum_combinations, state) is None  # too wide to list
        assert first(rulesums.sum_bounds_step, state) is not None
        step = first(rules.by_rule, state)  # each constraint on its own: the bounds
        assert step is not None and "too wide to search" in step.reason
    finally:
        rules.NODE_LIMIT = old
        rules._SUPPORT.clear()


def test_every_classic_step_has_a_reason():
    inkala = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
    solver = Solver(Puzzle.from_values([0 if c == "." else int(c) for c in inkala]))
    steps = list(solver.run(solver.start()))
    assert steps and all(step.as_dict()["reason"] for step in steps)
    assert all(step.reason == plain(step) for step in steps)


@pytest.mark.cross
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_rule_steps_are_sound_and_reasoned(path):
    try:
        puzzle = read_puzzles(str(path))[0]
        solver = Solver(puzzle, time_limit=20)
    except Exception as exc:  # refused by the logical solver (see docs/logic.md)
        pytest.skip(f"refused: {exc}")
    solution = solver.solution
    state = solver.start()
    for step in solver.run(state, limit=400, deadline=None):
        record = step.as_dict()
        assert record["reason"], record
        json.dumps(record)
        for c, v in step.eliminations:
            assert solution[c] != v, (step.text, step.reason)
        for c, v in step.placements:
            assert solution[c] == v, step.text
