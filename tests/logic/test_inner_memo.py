"""What the nested levels remember: inner searches shared by every outer search and
level, layout tables looked up by the layout itself. Remembering changes no result."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from cpsudoku.bench.hardest import read_rated
from cpsudoku.bench.rating import audited_rating
from cpsudoku.formats.read import parse_one
from cpsudoku.logic.chaincore import per_layout
from cpsudoku.logic.solver import Solver
from cpsudoku.logic.techniques import nested
from cpsudoku.logic.techniques.forcing import ForcingSearch

HARDEST = read_rated(Path(__file__).parent / "data" / "se_hardest.txt")
# SE 10.4 (se_nested.txt): its grid after three steps has dynamic and nested chains
PUZZLE = "........2..8.1.9..5....3.4....1.93...6..3..8...37......4......53.1.7.8..2........"


@pytest.fixture(scope="module")
def grid():
    solver = Solver(parse_one(PUZZLE))
    state = solver.start()
    for number in range(1, 4):
        solver.advance(state, number)
    return state


def test_per_layout_builds_once_per_layout_object(grid):
    built = []
    tables = per_layout(lambda layout: built.append(layout) or len(built))
    first = grid.layout
    second = dataclasses.replace(first)  # equal, yet another object: its own tables
    assert tables(first) == tables(first) == 1
    assert tables(second) == 2 and tables(first) == 1
    assert built[0] is first and built[1] is second


def _hint_view(hints):
    return [(h.key, h.rating, h.complexity, h.removed, h.needs) for h in hints]


def test_remembered_inner_hints_are_the_hints_of_a_fresh_search(grid):
    state = grid
    layout, source = state.layout, state.cand[:]
    # an assumption's grid: the first candidate of a bivalue cell struck out
    cand = source[:]
    cell = next(c for c, m in enumerate(cand) if bin(m).count("1") == 2)
    cand[cell] &= cand[cell] - 1
    nested._MEMO.clear()
    cold = nested._dynamic(layout, source, cand)
    warm = nested._dynamic(layout, source, cand)
    assert cold and _hint_view(cold) == _hint_view(warm)
    # the same steps as a search made and read without the memo
    fresh = ForcingSearch(nested._grid(layout, cand), 8.5, True, True, True, False, "Dynamic ")
    keys = [f[0] for f in fresh.inner_found()]
    assert [h.key for h in cold] == [k for k in keys if k in {h.key for h in cold}]
    # the chains, searched again when shown, are the fresh search's
    for hint in cold[:3]:
        index = next(f[4] for f in fresh.inner_found() if f[0] == hint.key)
        assert [b.lines() for b in hint.branches()] == \
            [b.lines() for b in fresh.branches_of(index)]


@pytest.mark.slow
@pytest.mark.parametrize("row", HARDEST, ids=[f"SE{r[1]}-{i}" for i, r in enumerate(HARDEST)])
def test_the_hardest_puzzles_rate_as_se(row):
    """SE 10.9-11.1: ER within 0.1, solved to the end, every step sound."""
    puzzle, er, _ep, _ed, _seconds = row
    mine_er, _mine_ep, _mine_ed, stuck, problems = audited_rating(puzzle)
    assert problems == [] and not stuck
    assert abs(mine_er - er) <= 0.1 + 1e-9, (mine_er, er)
