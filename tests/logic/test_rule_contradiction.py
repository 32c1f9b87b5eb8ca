"""Rule contradictions and the rule passes read from the engine: on ISS's example
puzzles (shipped with the package) they finish explanations the rule techniques
alone left stuck, every step is sound against the recorded solution, each says why
(the assumption, what it forces and by which rule, the rule or house that breaks),
and a classic grid never takes them (SE's ladder stays as it is)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from cpsudoku.engine import vkernel
from cpsudoku.errors import ModelError
from cpsudoku.formats import iss
from cpsudoku.formats.read import parse
from cpsudoku.logic import explain, hint
from cpsudoku.logic.solver import Solver
from cpsudoku.logic.techniques.rulecontradiction import by_rule_pass

pytestmark = pytest.mark.skipif(not vkernel.available(), reason="the variant kernel is not built")

DATA = Path(__file__).parents[2] / "cpsudoku" / "bench" / "data" / "iss_puzzles.json"


def _example(prefix: str):
    puzzles = json.loads(DATA.read_text(encoding="utf-8"))["puzzles"]
    entry = next(e for e in puzzles if e["set"] == "examples" and e["name"].startswith(prefix))
    return iss.from_string(entry["input"], source=entry["name"]), [int(ch) for ch in
                                                                  entry["solution"]]


def _sound(steps, solution):
    for step in steps:
        for cell, v in step.placements:
            assert solution[cell] == v, step.text
        for cell, v in step.eliminations:
            assert solution[cell] != v, step.text


@pytest.mark.parametrize("name", ["Arrow", "Quadruple X", "Clockwork"])
def test_contradictions_finish_puzzles_the_rule_techniques_left(name):
    puzzle, solution = _example(name)
    explanation = explain(puzzle, time_limit=60)
    assert explanation.solved
    assert explanation.grid == solution
    _sound(explanation.steps, solution)
    taken = [s for s in explanation.steps if s.technique == "Rule Contradiction"]
    assert taken or name != "Arrow", "the arrows need an assumption somewhere"
    for step in taken:
        assert step.rating >= 9.0
        assert len(step.eliminations) == 1 and not step.placements
        (cell, value), = step.eliminations
        said = f"r{cell // 9 + 1}c{cell % 9 + 1}"
        assert step.reason.startswith(f"If {said} were {value}: ")
        assert step.reason.endswith(f"So {said} is not {value}.")
        assert step.chain and step.chain[0].text.startswith(f"{said}={value}")
        record = step.as_dict()
        assert record["reason"] == step.reason and record["chain"]


def test_a_rule_too_wide_to_enumerate_is_read_by_its_pass():
    puzzle, solution = _example("Sudoku Variants Series (173)")
    explanation = explain(puzzle, time_limit=60)
    assert explanation.solved
    _sound(explanation.steps, solution)
    passes = [s for s in explanation.steps
              if s.technique == "By Rule" and "no way of keeping the rule" in s.reason]
    assert passes, "the between lines too wide to enumerate are read by the engine"
    for step in passes:
        assert step.groups and step.groups[0].startswith("between line")
        assert step.eliminations


def test_a_classic_grid_never_takes_them():
    # a classic puzzle SE rates 10.x: its ladder is SE's, without the engine's steps
    grid = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
    classic = {t.name for t in Solver(parse(grid, source="inkala")[0]).techniques}
    variant = {t.name for t in Solver(_example("Arrow")[0]).techniques}
    assert {"Rule Contradiction", "Nested Rule Contradiction"} <= variant - classic
    assert [t.find for t in Solver(parse(grid, source="inkala")[0]).techniques
            if t.find is by_rule_pass] == []


def test_nested_contradictions_keep_only_what_the_failure_needs():
    puzzle, solution = _example("Sudoku X")
    explanation = explain(puzzle, time_limit=120)
    assert explanation.solved and explanation.grid == solution
    _sound(explanation.steps, solution)
    nested = [s for s in explanation.steps if s.technique == "Nested Rule Contradiction"]
    assert nested
    for step in nested:
        assert step.rating >= 9.5
        (branch,) = step.chain
        assert branch.nested, "each inner contradiction is a chain of its own"
        # each inner chain starts from a candidate the outer chain strikes out
        struck = {b.text.split(" -> ")[0].replace("=", "<>") for b in branch.nested}
        assert struck <= set(branch.text.split(" -> "))


def test_rule_pointing_names_the_cells_a_rule_needs_and_those_that_see_them():
    puzzle, solution = _example("Arrow")
    solver = Solver(puzzle)
    explanation = explain(puzzle, time_limit=60)
    _sound(explanation.steps, solution)
    pointing = [s for s in explanation.steps if s.technique == "Rule Pointing"]
    assert pointing
    for step in pointing:
        assert step.rating == 2.8 and not step.placements and step.groups
        needed, seeing = step.reason.split(" needs ")[1].split(", every way it can still hold; ")
        value = int(needed.split(" in one of ")[0])
        cells = [c for c, v in step.eliminations]
        assert all(v == value for _, v in step.eliminations)
        needed_cells = [_cell(name) for name in needed.split(" in one of ")[1].split(", ")]
        for c in cells:  # each removed candidate sees every cell the rule needs it in
            assert all(q in solver.layout.peers[c] for q in needed_cells)
        assert seeing.startswith(", ".join(f"r{c // 9 + 1}c{c % 9 + 1}" for c in cells))


def _cell(name: str) -> int:
    r, c = name[1:].split("c")
    return (int(r) - 1) * 9 + int(c) - 1


@pytest.mark.parametrize("name", ["Easy as a Quattroquadri", "Answers on a Postcard"])
def test_grids_other_than_n_by_n_are_explained_with_the_techniques_for_any_grid(name):
    # nine digits on a 6x6 with regions of nine cells; a 6x9 whose rows hold 1..9
    puzzle, solution = _example(name)
    solver = Solver(puzzle)
    assert all(t.any_grid for t in solver.techniques)
    assert {"Naked Single", "Rule Contradiction"} <= {t.name for t in solver.techniques}
    assert "X-Wing" not in {t.name for t in solver.techniques}
    explanation = explain(puzzle, time_limit=60)
    assert explanation.solved and explanation.grid == solution
    _sound(explanation.steps, solution)
    width = puzzle.geometry.width
    for step in explanation.steps:  # cells named by the grid's own width
        for cell, _ in step.placements:
            assert f"r{cell // width + 1}c{cell % width + 1}=" in step.text
    with pytest.raises(ModelError, match="a player's grid is read on square grids"):
        hint(puzzle, [0] * puzzle.geometry.ncells)


@pytest.mark.timing
def test_a_deadline_inside_the_contradictions_is_a_timeout_not_stuck():
    # The Zip that Zips the Zips needs nested contradictions for a long way
    puzzle, _ = _example("The Zip that Zips the Zips")
    explanation = explain(puzzle, time_limit=2)
    assert not explanation.solved and not explanation.stuck
    assert explanation.status == "timeout"


def _counting(solver: Solver) -> list[str]:
    """Wrap the solver's techniques so that each search is recorded by name."""
    asked: list[str] = []

    def wrap(tech):
        def find(state, tech=tech):
            asked.append(tech.name)
            return tech.find(state)
        return dataclasses.replace(tech, find=find)

    solver.techniques = [wrap(t) for t in solver.techniques]
    return asked


def test_contradictions_of_one_rating_are_taken_before_the_ladder_restarts():
    puzzle, solution = _example("Arrow")
    solver = Solver(puzzle)
    asked = _counting(solver)
    state = solver.start()
    runs = []  # (step, techniques asked for it)
    for step in solver.run(state):
        runs.append((step, list(asked)))
        asked.clear()
    _sound([s for s, _ in runs], solution)
    assert state.solved()
    queued = [(s, a) for s, a in runs if s.technique == "Rule Contradiction" and not a]
    assert queued, "some contradictions come from the grid an earlier one was found on"
    for i, (step, was_asked) in enumerate(runs):
        if not was_asked:  # a queued step follows one of its own kind and rating
            before = runs[i - 1][0]
            assert before.technique == step.technique == "Rule Contradiction"
            assert before.rating == step.rating


def test_a_queued_contradiction_whose_candidate_went_is_dropped():
    puzzle, solution = _example("Arrow")
    solver = Solver(puzzle)
    state = solver.start()
    step = None
    while step is None or step.technique != "Rule Contradiction" or not solver._queue[1]:
        step = solver.advance(state, 0)
        assert step is not None
    owner, queued = solver._queue
    assert owner is state
    gone = queued[0]
    (cell, value), = gone.eliminations
    state.eliminate(cell, value)  # struck out by something else meanwhile
    following = solver.next_step(state)
    assert following is not None and following is not gone
    assert following.eliminations != gone.eliminations
    # another state never takes this one's queue
    other = solver.start()
    assert solver._queued_step(other) is None
