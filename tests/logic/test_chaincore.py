"""The compiled chain searches (`logic._chaincore`) against the Python ones: same
searches, same chains, same steps."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import same_graph_searches

from cpsudoku.bench.hardest import read_rated
from cpsudoku.formats.read import parse_one
from cpsudoku.logic import chaincore
from cpsudoku.logic.chain import literal_text, path_branch
from cpsudoku.logic.solver import Solver, apply
from cpsudoku.logic.state import State
from cpsudoku.logic.techniques import forcing, nested, plusrules
from cpsudoku.logic.techniques.chains import Graph, cycles, forcing_chain_paths
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
        same_graph_searches(compiled, python, lambda on: _pure(monkeypatch, on))


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


@pytest.fixture(scope="module")
def nested_grid() -> State:
    """SE 10.4: its grid after three steps has dynamic and nested chains."""
    solver = Solver(parse_one(NESTED[1][0]))
    state = solver.start()
    for number in range(1, 4):
        solver.advance(state, number)
    return state


@pytest.fixture(scope="module")
def dry_grids(nested_grid) -> list[tuple[list[int], list[int]]]:
    """(source, grid) where an assumption's singles run out, for every assumption of
    the nested grid, as the Python propagation leaves them."""
    grids = []

    class Recording(forcing.Chaining):
        def _asked(self, source, cand):
            grids.append((source[:], cand[:]))
            return super()._asked(source, cand)
    with pytest.MonkeyPatch.context() as mp:
        _pure(mp, True)
        chaining = Recording(nested_grid, True, True, plus=True)
        for lit in Graph(nested_grid, True).ons:
            chaining.run(lit, True)
            chaining.run(lit, False)
    return grids


def _x_wing_grid() -> tuple[State, list[int]]:
    """1 struck out of rows 1 and 5 but at columns 1 and 5: an X-wing, and nothing
    the plus rules ask before it."""
    state = State.start(parse_one("." * 81))
    cand = state.cand[:]
    for r in (0, 4):
        for c in range(9):
            if c not in (0, 4):
                cand[r * 9 + c] &= ~1
    return state, cand


def test_the_plus_rules_are_the_python_rules(nested_grid, dry_grids):
    layout = nested_grid.layout
    state, cand = _x_wing_grid()
    grids = dry_grids + [(state.cand, cand)]
    fired = set()
    for source, cand in grids:
        expected = plusrules.first_rule(layout, source, cand)
        assert plusrules.compiled_first_rule(layout, source, cand) == expected
        fired |= {rule for rule in plusrules.RULES if expected and rule(layout, source, cand)
                  == expected}
    assert fired == set(plusrules.RULES)


def test_the_plus_propagation_is_the_python_one(monkeypatch, nested_grid):
    def consequences():
        chaining = forcing.Chaining(nested_grid, True, True, plus=True)
        return [(list(cons.on.items()), list(cons.off.items()), cons.conflict, cons.by_rule,
                 cons.causes) for lit in Graph(nested_grid, True).ons
                for cons in (chaining.run(lit, True), chaining.run(lit, False))]
    compiled = consequences()
    _pure(monkeypatch, True)
    assert consequences() == compiled
    assert any(by_rule for *_, by_rule, _causes in compiled)


def test_the_chains_of_the_grids_an_assumption_leaves_are_the_same(nested_grid, dry_grids):
    layout = nested_grid.layout
    total = 0
    for _source, cand in dry_grids[::3]:
        compiled = sorted(nested._compiled_chains(layout, cand), key=lambda t: t[:2])
        assert compiled == sorted(nested._searched_chains(layout, cand), key=lambda t: t[:2])
        total += len(compiled)
    assert total > 100


def test_an_inner_chain_reads_as_its_step(nested_grid, dry_grids):
    """The nested levels show a static chain from its path, not from its step."""
    for _source, cand in dry_grids[:40]:
        state = nested._grid(nested_grid.layout, cand)
        for chain in (cycles(state, True, True, 7.0, "Bidirectional Cycle")
                      + forcing_chain_paths(state, True, 7.0, "Forcing Chain")):
            names = [literal_text(lit, on, state.size) for lit, on in chain.path]
            assert chain.step().chain == [path_branch(names)]
