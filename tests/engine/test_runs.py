"""Runs in regions found while solving (`RegionRuns`: chaos arrows and counts): the
native engine's own pass against the constraint's automaton and its definition."""

from __future__ import annotations

import itertools
import random

import pytest

from cpsudoku import Puzzle
from cpsudoku.engine import vkernel
from cpsudoku.engine.plan import compile_model
from cpsudoku.grid.constraints import RegionRuns, Regular
from cpsudoku.grid.geometry import boxed
from cpsudoku.model import build_model

pytestmark = pytest.mark.unit

needs_vkernel = pytest.mark.skipif(not vkernel.available(), reason="the C kernel is not built")

GRID = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)  # a solved 4x4 grid, fixed


def random_runs(rng: random.Random) -> RegionRuns:
    arms = tuple(rng.randint(1, 3) for _ in range(rng.randint(0, 3)))
    near = frozenset(a for a in range(len(arms)) if rng.random() < 0.4)
    labels = tuple(range(16, 17 + sum(arms)))  # the start, then the arms
    return RegionRuns((rng.randrange(16),) + labels, size=4, arms=arms,
                      offset=rng.choice((0, 0, 1)), near=near)


def kernel_solutions(con: RegionRuns, domains: list[int], as_automaton: bool):
    plan = compile_model(build_model(Puzzle(boxed(4, (2, 2)), GRID)))
    peers = tuple(plan.peers) + ((),) * (len(domains) - 16)  # the labels have no peers
    k = vkernel._vkernel.VKernel(plan.size, plan.units, peers, plan.intersections,
                                 nvars=len(domains))
    if as_automaton:
        vkernel.add(k, Regular(con.cells, automaton=con.automaton), plan.structure)
    else:
        k.add_runs(con.cells, con.offset, 0, 0, con.arms,
                   tuple(int(a in con.near) for a in range(len(con.arms))))
    sols, exhausted, timed_out, stats = k.solve(domains, 1 << 20)
    assert exhausted and not timed_out
    return sorted(tuple(s[16:]) for s in sols), stats["nodes"]


@needs_vkernel
@pytest.mark.parametrize("seed", range(40))
def test_the_pass_agrees_with_the_automaton_and_the_definition(seed):
    """Same solutions as the automaton's forward-backward pass, the same number of
    nodes (both remove exactly the values no solution has), and exactly the
    assignments the definition accepts."""
    rng = random.Random(seed)
    con = random_runs(rng)
    nlabels = len(con.cells) - 1
    domains = [1 << (v - 1) for v in GRID]
    domains[con.cells[0]] = 0b1111  # the digit is free
    label_domains = [rng.choice((0b1111, 0b0011, 0b0101, 0b1110, 0b0001, 0b0110))
                     for _ in range(nlabels)]
    domains += label_domains
    runs, runs_nodes = kernel_solutions(con, domains, as_automaton=False)
    automaton, automaton_nodes = kernel_solutions(con, domains, as_automaton=True)
    assert runs == automaton
    assert runs_nodes == automaton_nodes
    expected = sorted(
        (digit,) + labels
        for digit in range(1, 5)
        for labels in itertools.product(*[[v for v in range(1, 5) if m >> (v - 1) & 1]
                                          for m in label_domains])
        if con.holds((digit,) + labels))
    assert [(GRID[con.cells[0]],) + s for s in runs] == [
        s for s in expected if s[0] == GRID[con.cells[0]]]


def test_a_run_stops_at_the_first_other_label_and_counts_the_start():
    con = RegionRuns((0, 1, 2, 3, 4, 5), size=4, arms=(2, 2))
    # start label 1; arm one: 1, 2 (run 1); arm two: 1, 1 (run 2): 1 + 1 + 2 cells
    assert con.holds((4, 1, 1, 2, 1, 1))
    assert not con.holds((3, 1, 1, 2, 1, 1))
    assert con.holds((1, 1, 2, 1, 2, 1))  # past the end of a run nothing counts
    offset = RegionRuns((0, 1, 2, 3, 4, 5), size=4, arms=(2, 2), offset=1)
    assert offset.holds((3, 1, 1, 2, 1, 1))  # the start left out
    near = RegionRuns((0, 1, 2, 3), size=4, arms=(1, 1), near=frozenset({0, 1}))
    assert not near.holds((1, 2, 1, 1))  # no near arm shares the start's region
    assert near.holds((2, 2, 2, 1))


def test_runs_refuse_cells_that_do_not_fit_their_arms():
    with pytest.raises(ValueError, match="a digit, a start and the arms' cells"):
        RegionRuns((0, 1, 2), size=4, arms=(2,))
