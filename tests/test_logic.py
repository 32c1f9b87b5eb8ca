"""The logical solver: explain, hint and rate on the SE scale."""

from __future__ import annotations

import pytest

from cpsudoku import explain, hint, parse_one, rate
from cpsudoku.logic import LEVELS, level_of

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def test_rate_easy_puzzle_singles_only():
    r = rate(EASY)
    assert (r.er, r.ep, r.ed) == (1.2, 1.2, 1.2)
    assert r.level == "easy" and r.guesses == 0
    assert set(r.techniques) <= {"Full House", "Hidden Single"}
    d = r.as_dict()
    assert set(d) == {"er", "ep", "ed", "level", "techniques", "guesses", "time_s"}


def test_explain_reaches_the_solution():
    from cpsudoku import solve
    ex = explain(EASY)
    assert ex.solved
    assert tuple(ex.grid) == solve(EASY).solution
    assert [s.number for s in ex.steps] == list(range(1, len(ex.steps) + 1))
    d = ex.steps[0].as_dict()
    assert set(d) >= {"step", "technique", "rating", "placements", "eliminations", "text", "cells"}


@pytest.mark.parametrize("er,level", [(1.0, "easy"), (2.3, "medium"), (4.2, "hard"),
                                      (6.6, "expert"), (8.5, "extreme"), (9.0, "beyond")])
def test_levels(er, level):
    assert level_of(er) == level
    assert [name for name, _ in LEVELS][-1] == "beyond"


def test_hint_first_step_is_a_single():
    h = hint(parse_one(EASY))
    assert h.wrong == [] and h.step is not None
    assert h.step.technique in ("Full House", "Hidden Single")
