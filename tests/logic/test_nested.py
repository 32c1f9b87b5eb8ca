"""Nested forcing chains (SE 9.5 and up): SE's levels, their chains, their ratings."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpsudoku.bench.hardest import read_rated
from cpsudoku.bench.rating import audited_rating
from cpsudoku.logic.solver import Solver
from cpsudoku.logic.technique import all_techniques
from cpsudoku.logic.techniques.nested import NAMES, RATINGS

RATED = Path(__file__).parent / "data" / "se_nested.txt"
ROWS = read_rated(RATED)


def test_the_levels_are_ses_in_its_order():
    chain = [t for t in all_techniques() if t.order >= 9.0 and not t.variant_only]
    assert [(t.name, t.rating) for t in chain] == [
        ("Dynamic Forcing Chains (+)", 9.0),
        ("Dynamic Forcing Chains (+ Forcing Chains)", 9.5),
        ("Dynamic Forcing Chains (+ Multiple Forcing Chains)", 10.0),
        ("Dynamic Forcing Chains (+ Dynamic Forcing Chains)", 10.5),
        ("Dynamic Forcing Chains (+ Dynamic Forcing Chains (+ Forcing Chains))", 11.0)]
    # each its own stage: a level is asked only when the ones before find nothing
    assert len({t.stage for t in chain}) == len(chain)
    assert RATINGS == {2: 9.5, 3: 10.0, 4: 10.5, 5: 11.0} and set(NAMES) == set(RATINGS)


@pytest.mark.slow
def test_a_nested_step_is_sound_and_shows_its_inner_chains():
    """SE rates this puzzle 10.3; its second step needs forcing chains inside a dynamic one."""
    puzzle = ROWS[0][0]
    solver = Solver(puzzle)
    state = solver.start()
    first = solver.advance(state, 1)
    assert first.rating < 9.0
    step = solver.advance(state, 2)
    assert "(+ Forcing Chains)" in step.technique and 9.5 <= step.rating <= 10.4
    solution = solver.solution
    assert all(solution[c] == v for c, v in step.placements)
    assert all(solution[c] != v for c, v in step.eliminations)
    chain = step.as_dict()["chain"]
    assert len(chain) >= 2
    inner = [b for branch in chain for b in branch["nested"]]
    assert inner, "a nested step shows the inner chains it used"
    for b in inner:
        names = b["text"].split(" -> ")
        assert len(names) >= 2 and set(zip(names, names[1:])) <= {tuple(x) for x in b["links"]}


@pytest.mark.slow
@pytest.mark.parametrize("row", ROWS, ids=[f"SE{r[1]}" for r in ROWS])
def test_rating_agrees_with_sudoku_explainer(row):
    """ER within 0.1 of SE's, solved to the end, every step sound (audited_rating checks
    each)."""
    puzzle, er, ep, ed, _seconds = row
    mine_er, mine_ep, mine_ed, stuck, problems = audited_rating(puzzle)
    assert problems == []
    assert not stuck
    assert abs(mine_er - er) <= 0.1 + 1e-9, (mine_er, er)
