"""Value counts implied by counting automata (`engine.counts`, the variant kernel's
COUNT constraint): which automata count, the groups of peers, the kernel's checks,
agreement with the Python engine and CP-SAT on random counting models, and the
search they save on ISS's counting puzzles."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_vkernel import Extra, assert_agree, good_parts, needs_vkernel, solved_grid

from cpsudoku import Puzzle, solve
from cpsudoku.engine import vkernel
from cpsudoku.engine.counts import counted_value, implied_counts, peer_groups
from cpsudoku.engine.plan import compile_model
from cpsudoku.grid.automaton import Automaton
from cpsudoku.grid.constraints import Regular
from cpsudoku.grid.geometry import boxed
from cpsudoku.model import build_model
from cpsudoku.result import Status

BOXES = {4: (2, 2), 6: (2, 3), 9: (3, 3)}


def counter(n: int, value: int, allowed) -> Automaton:
    """Value `value` appears k times, k in `allowed` (a counting circle's automaton)."""
    top = max(allowed)
    return Automaton.build(0, lambda k, v: (k + 1 if k < top else None) if v == value else k,
                           lambda k: k in allowed, range(1, n + 1))


def at_least(n: int, value: int) -> Automaton:
    """Value `value` appears at least once (a quadruple's digit)."""
    return Automaton.build(False, lambda seen, v: seen or v == value, bool, range(1, n + 1))


def test_a_counting_automaton_gives_its_value_and_counts():
    assert counted_value(counter(9, 3, {0, 3}), 9, 6) == (3, 0b1001)
    assert counted_value(counter(9, 1, {0, 1}), 9, 6) == (1, 0b11)
    # saturated: every count from one up to the cells
    assert counted_value(at_least(9, 2), 9, 4) == (2, 0b11110)


@pytest.mark.parametrize("automaton", [
    Automaton.build(0, lambda k, v: (k + (v == 4)) % 2, lambda k: k == 0, range(1, 10)),  # parity
    Automaton.build(0, lambda t, v: t + v if t + v <= 20 else None, lambda t: t == 20,
                    range(1, 10)),  # a running total
    Automaton(0, frozenset({0}), ((0, 1, 0), (0, 1, 1), (1, 1, 1))),  # nondeterministic
    Automaton.build(0, lambda k, v: k, lambda k: True, range(1, 10)),  # counts nothing
], ids=["parity", "total", "nondeterministic", "nothing"])
def test_other_automata_are_not_counters(automaton):
    assert counted_value(automaton, 9, 6) is None


def test_peer_groups_cover_the_cells_once_with_peers_only():
    plan = compile_model(build_model(Puzzle(boxed(9, (3, 3)), (0,) * 81)))
    cells = (0, 4, 8, 15, 11, 19, 25, 32, 33, 30, 36, 37, 47, 48, 50, 61, 69, 80, 76, 55)
    groups = peer_groups(cells, plan.structure)
    assert sorted(c for g in groups for c in g) == sorted(cells)
    for g in groups:
        assert all(b in plan.peers[a] for a, b in itertools.combinations(g, 2))
    assert len(groups[0]) == 4  # the largest share of one unit comes first


def test_two_or_more_counted_values_over_one_set_of_cells_join():
    plan = compile_model(build_model(Puzzle(boxed(4, (2, 2)), (0,) * 16)))
    cells = (0, 5, 10, 15)
    cons = [Regular(cells, automaton=counter(4, v, {0, v})) for v in (1, 2)]
    lone = Regular((1, 2), automaton=counter(4, 3, {0, 1}))
    (joined_cells, data, automata), = implied_counts(plan.structure, cons + [lone])
    assert sorted(joined_cells) == sorted(cells)
    assert automata == tuple(cons)  # what the joint count stands for: not the lone one
    every = (2 << 4) - 1
    assert data[:4] == (0b11, 0b101, every, every)
    assert data[4] == len(data) - 5 and sum(data[5:]) == 4


@needs_vkernel
@pytest.mark.parametrize("cells, counts, groups, message", [
    ((0, 15), (3, 3, 3, 3), (2,), "not all peers"),  # r1c1 and r4c4 share no unit
    ((0, 1), (3, 3, 3), (), "a count set per value"),
    ((0, 1), (1 << 5, 3, 3, 3), (2,), "beyond its cells"),
    ((0, 1), (3, 3, 3, 3), (1,), "do not add up"),
    ((0, 0), (3, 3, 3, 3), (1, 1), "listed twice"),
])
def test_bad_counts_are_refused_by_name(cells, counts, groups, message):
    _, parts = good_parts()
    with pytest.raises(ValueError, match=message):
        vkernel._vkernel.VKernel(*parts).add_count(cells, counts, groups)


def random_counts(sol, n: int, rng: random.Random) -> tuple:
    """Counting circles the solution satisfies: on random cells, each value's
    count among them as its automaton (as circles count: 0 or the value itself
    when the solution allows, else the solution's own count)."""
    cells = tuple(rng.sample(range(n * n), rng.randint(2, min(2 * n, 12))))
    out = []
    for v in range(1, n + 1):
        found = sum(sol[c] == v for c in cells)
        allowed = {0, found} if rng.random() < 0.5 else {found, found + 1}
        out.append(Regular(cells, automaton=counter(n, v, allowed)))
    return tuple(out)


@needs_vkernel
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32 - 1), size=st.sampled_from((4, 6, 9)),
       clue_share=st.floats(0.0, 0.2))
def test_random_counting_models_agree_with_python_and_cpsat(seed, size, clue_share):
    # A 9x9 grid needs a third of its clues: with fewer, the Python engine
    # (the reference here) may search for minutes (seeds 127, 169 and 180 of
    # 200 took over 10 s with 2-10% clues; none over 0.5 s with 30-50%).
    clue_share += 0.3 if size == 9 else 0.2
    rng = random.Random(seed)
    sol = solved_grid(size, rng)
    givens = tuple(v if rng.random() < clue_share else 0 for v in sol)
    puzzle = Puzzle(boxed(size, BOXES[size]), givens,
                    rules=(Extra(random_counts(sol, size, rng)),))
    assert implied_counts(compile_model(build_model(puzzle)).structure,
                          build_model(puzzle).constraints)
    assert assert_agree(puzzle).solutions  # the grid they were built on is one


@needs_vkernel
@pytest.mark.parametrize("name, most_nodes", [
    ("Clockwork", 100),  # 31,213 nodes with the automata alone
    ("Quadruple X", 100),  # 8,844
    ("Bubble Tornado", 2000),  # over 20 s
    ("Santorini", 500),  # 5.9 s
])
def test_iss_counting_puzzles_need_little_search(name, most_nodes):
    from cpsudoku.bench.iss import expressed, load_puzzles, recorded_for

    entry = next(e for e in load_puzzles("all", name=name) if e["name"] == name)
    puzzle = expressed(entry)[0]
    result = solve(puzzle, "native", max_solutions=2, time_limit=60)
    assert result.status is Status.UNIQUE
    assert result.solution == recorded_for(entry["solution"], puzzle.geometry)
    assert result.stats["kernel"] == "c" and result.stats["nodes"] <= most_nodes
