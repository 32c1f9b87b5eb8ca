"""The compiled chain searches (`logic._chaincore`) against the Python ones: same
searches, same chains, same steps."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpsudoku.bench.hardest import read_rated
from cpsudoku.formats.read import parse_one
from cpsudoku.logic import chaincore
from cpsudoku.logic.solver import Solver, apply
from cpsudoku.logic.techniques.chains import Graph
from cpsudoku.logic.techniques.nested import _static_chains

pytestmark = pytest.mark.skipif(not chaincore.available(),
                                reason="the C extension cpsudoku.logic._chaincore is not built")

NESTED = read_rated(Path(__file__).parent / "data" / "se_nested.txt")
# from the SE-rated calibration set (../shared/data/rated): SE 7.3 and 8.5, both with chains
CHAINED = ["......2...65......19.742....139...7.7..3.8..........5.....8.364.....1.8...4....9.",
           "..2..7..45...6..2..7....81.39.8...........1......93..2..3...56..2.5.......87....."]


def _pure(monkeypatch, on: bool) -> None:
    if on:
        monkeypatch.setenv("CPSUDOKU_PURE_CHAINS", "1")
    else:
        monkeypatch.delenv("CPSUDOKU_PURE_CHAINS", raising=False)


def _states():
    """The grids of the calibration puzzles where a chain step is the next step."""
    for puzzle in CHAINED:
        solver = Solver(parse_one(puzzle))
        state = solver.start()
        for step in solver.run(state.copy()):
            if step.rating >= 6.5:
                yield state.copy()
            apply(state, step)


@pytest.mark.parametrize("y,x", [(True, True), (False, True), (True, False)])
def test_every_search_of_the_graph_is_the_python_search(monkeypatch, y, x):
    for state in _states():
        compiled, python = Graph(state, y, x), Graph(state, y, x)
        assert compiled.tables() is not None
        _pure(monkeypatch, True)
        assert python.tables() is None
        _pure(monkeypatch, False)
        for src in python.ons:
            for a, b in zip(compiled.reach_from_on(src), python.reach_from_on(src)):
                assert [(k, a[k]) for k in a] == list(b.items())  # same order reached
            assert compiled.nearest_turned_off(src) == _pure_nearest(monkeypatch, python, src)
            dist, parent = compiled.reach_from_off(src, until=src)
            want_dist, want_parent = python.reach_from_off(src, until=src)
            assert dist.get(src) == want_dist.get(src)
            if src in want_dist:
                node = src
                while node is not None:  # the same path back
                    assert parent[node] == want_parent[node]
                    node = want_parent[node][0]


def _pure_nearest(monkeypatch, graph: Graph, src):
    _pure(monkeypatch, True)
    try:
        return graph.nearest_turned_off(src)
    finally:
        _pure(monkeypatch, False)


def test_the_inner_chains_of_a_grid_are_the_same(monkeypatch):
    total = 0
    for state in _states():
        def found(state=state):
            return [(r, cx, name, removed, path, [b.lines() for b in chain()])
                    for r, cx, name, removed, path, chain in
                    _static_chains(state.layout, state.cand[:])]
        compiled = found()
        _pure(monkeypatch, True)
        assert found() == compiled
        _pure(monkeypatch, False)
        total += len(compiled)
    assert total


@pytest.mark.parametrize("puzzle", CHAINED)
def test_the_steps_are_the_same_with_either_search(monkeypatch, puzzle):
    def steps():
        solver = Solver(parse_one(puzzle))
        return [s.as_dict() for s in solver.run(solver.start())]
    compiled = steps()
    _pure(monkeypatch, True)
    assert steps() == compiled
    assert any("Chain" in s["technique"] or "Cycle" in s["technique"] for s in compiled)
