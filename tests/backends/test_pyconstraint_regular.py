"""The python-constraint backend's propagators for `Regular` (an automaton along cells)
and `Less` (an increasing chain), and the one constraint that holds them all.

Held to brute force: the words the library's search finds with it are exactly
the accepted words over the domains; forward checking leaves each free cell
exactly the values some accepted completion gives it; on 4x4 grids with
automata along rows and columns the backend finds exactly the grids brute
force keeps; an increasing chain keeps exactly the values of some increasing
run; and a line whose accepted words are far too many for a table
(the examples that used to be declined) is searched, not refused.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from cpsudoku import Puzzle, parse, solve
from cpsudoku.backends import Request, get
from cpsudoku.errors import BackendError
from cpsudoku.grid.automaton import Automaton
from cpsudoku.grid.constraints import Allowed, Less, Regular
from cpsudoku.model import Model, build_model

pytestmark = pytest.mark.unit

pc = pytest.importorskip("constraint", reason="python-constraint2 is not installed")
library = pytest.importorskip("cpsudoku.backends._pyconstraint_library")

ROOT = Path(__file__).resolve().parents[2]
VALUES = range(1, 5)


def total_of(target: int) -> Automaton:
    """Words summing to `target` (a sum line's language)."""
    return Automaton.build(0, lambda s, v: s + v if s + v <= target else None,
                           lambda s: s == target, VALUES)


def seen_from_start(count: int) -> Automaton:
    """Words with `count` new maxima read from the start (a skyscraper clue)."""
    return Automaton.build((0, 0), lambda s, v: (max(s[0], v), s[1] + (v > s[0]))
                           if s[1] + (v > s[0]) <= count else None,
                           lambda s: s[1] == count, VALUES)


def a_two_then_a_four() -> Automaton:
    """Nondeterministic: a 2 somewhere, a 4 somewhere after it."""
    moves = [(0, v, 0) for v in VALUES] + [(0, 2, 1)] + [(1, v, 1) for v in VALUES] \
        + [(1, 4, 2)] + [(2, v, 2) for v in VALUES]
    return Automaton(0, frozenset({2}), tuple(moves))


AUTOMATA = {"sum of 9": total_of(9), "two seen": seen_from_start(2),
            "a 2 then a 4": a_two_then_a_four()}


def random_domains(rng: random.Random, length: int) -> list[list[int]]:
    return [sorted(rng.sample(list(VALUES), rng.randint(1, 4))) for _ in range(length)]


def library_solutions(automaton: Automaton, variables, domains) -> set[tuple[int, ...]]:
    problem = pc.Problem(pc.BacktrackingSolver())
    for var, dom in domains.items():
        problem.addVariable(var, dom)
    problem.addConstraint(library.Regular(automaton), list(variables))
    return {tuple(found[v] for v in sorted(domains)) for found in problem.getSolutionIter()}


@pytest.mark.parametrize("name", list(AUTOMATA))
def test_the_search_finds_exactly_the_accepted_words(name):
    automaton = AUTOMATA[name]
    rng = random.Random(name)
    for _ in range(30):
        doms = random_domains(rng, 5)
        expected = {w for w in itertools.product(*doms) if automaton.accepts(w)}
        assert library_solutions(automaton, range(5), dict(enumerate(doms))) == expected


def test_a_cell_met_twice_along_the_line_holds_one_value():
    automaton = seen_from_start(2)
    rng = random.Random(3)
    cells = (0, 1, 2, 0)  # the line comes back to its first cell
    for _ in range(30):
        doms = random_domains(rng, 3)
        expected = {w for w in itertools.product(*doms)
                    if automaton.accepts([w[c] for c in cells])}
        assert library_solutions(automaton, cells, dict(enumerate(doms))) == expected


def test_a_cell_met_twice_keeps_the_values_it_can_take_at_both_places():
    # (x, y, x) with two maxima seen: x may not be 4 at the start (nothing would
    # follow it), though a 4 fits at the end (1, 1, 4).
    constraint = library.Regular(seen_from_start(2))
    domains = {i: pc.Domain(list(VALUES)) for i in range(2)}
    assert constraint([0, 1, 0], domains, {}, forwardcheck=True)
    assert sorted(domains[0]) == [1, 2, 3]


@pytest.mark.parametrize("name", list(AUTOMATA))
def test_forward_checking_leaves_each_free_cell_its_supported_values(name):
    automaton = AUTOMATA[name]
    constraint = library.Regular(automaton)
    rng = random.Random(name + " forward")
    for _ in range(40):
        doms = random_domains(rng, 5)
        domains = {i: pc.Domain(d) for i, d in enumerate(doms)}
        assigned = {i: rng.choice(doms[i]) for i in rng.sample(range(5), rng.randint(1, 3))}
        completions = [w for w in itertools.product(*doms) if automaton.accepts(w)
                       and all(w[i] == v for i, v in assigned.items())]
        for dom in domains.values():
            dom.pushState()
        holds = constraint(list(range(5)), domains, assigned, forwardcheck=True)
        assert holds == bool(completions)
        if completions:
            for i in set(range(5)) - set(assigned):
                assert sorted(domains[i]) == sorted({w[i] for w in completions}), (doms, i)
        for dom in domains.values():
            dom.popState()
        assert [sorted(domains[i]) for i in range(5)] == doms  # hidden values come back


def test_without_forward_checking_only_a_dead_line_fails():
    automaton = total_of(9)
    constraint = library.Regular(automaton)
    domains = {i: pc.Domain([1, 2, 3, 4]) for i in range(3)}
    assert constraint([0, 1, 2], domains, {0: 1, 1: 4})  # 1 + 4 + 4
    assert sorted(domains[2]) == [1, 2, 3, 4]  # nothing hidden
    assert not constraint([0, 1, 2], domains, {0: 1, 1: 3})  # would need a 5


def test_pre_processing_removes_unsupported_values_for_good():
    constraint = library.Regular(total_of(11))
    domains = {i: pc.Domain([1, 2, 3, 4]) for i in range(3)}
    constraint.preProcess([0, 1, 2], domains, [], {})
    assert [sorted(domains[i]) for i in range(3)] == [[3, 4]] * 3
    for dom in domains.values():
        dom.pushState()
        dom.popState()
    assert [sorted(domains[i]) for i in range(3)] == [[3, 4]] * 3
    impossible = library.Regular(total_of(13))  # over 3 * 4
    impossible.preProcess([0, 1, 2], domains, [], {})
    assert all(not dom for dom in domains.values())


# --- the backend on 4x4 grids ------------------------------------------------------

BLANK_4 = Puzzle.from_values([0] * 16)


def all_4x4_grids() -> list[tuple[int, ...]]:
    rows = list(itertools.permutations(VALUES))
    grids = []

    def extend(grid):
        if len(grid) == 16:
            grids.append(tuple(grid))
            return
        for row in rows:
            candidate = grid + list(row)
            r = len(grid) // 4
            cols_ok = all(len({candidate[i * 4 + c] for i in range(r + 1)}) == r + 1
                          for c in range(4))
            box_ok = r % 2 == 0 or all(
                len({candidate[(r - 1) * 4 + c] for c in cols}
                    | {candidate[r * 4 + c] for c in cols}) == 4 for cols in ((0, 1), (2, 3)))
            if cols_ok and box_ok:
                extend(candidate)

    extend([])
    return grids


def lines_of_4x4():
    rows = [tuple(r * 4 + c for c in range(4)) for r in range(4)]
    cols = [tuple(r * 4 + c for r in range(4)) for c in range(4)]
    return rows + cols + [tuple(reversed(line)) for line in rows + cols]


def assert_backend_finds_what_brute_force_keeps(grids, extra) -> set[tuple[int, ...]]:
    """Every 4x4 grid that meets the extra constraints, and no other, found once."""
    base = build_model(BLANK_4)
    model = Model(BLANK_4, base.domains, base.constraints + tuple(extra))
    expected = {g for g in grids if all(con.check(g) for con in extra)}
    outcome = get("python-constraint").search(model, Request(max_solutions=10**6))
    assert outcome.exhausted
    assert len(outcome.solutions) == len(set(outcome.solutions))
    assert set(outcome.solutions) == expected, [c.cells for c in extra]
    return expected


def test_the_backend_finds_exactly_the_grids_brute_force_keeps():
    grids = all_4x4_grids()
    assert len(grids) == 288
    rng = random.Random(7)
    for _ in range(12):
        witness = rng.choice(grids)
        extra = []
        for cells in rng.sample(lines_of_4x4(), rng.randint(1, 4)):
            seen = sum(1 for i, c in enumerate(cells)
                       if all(witness[c] > witness[d] for d in cells[:i]))
            extra.append(Regular(cells, automaton=seen_from_start(seen), label="skyscraper"))
        assert witness in assert_backend_finds_what_brute_force_keeps(grids, extra)


@pytest.mark.parametrize("accepting", [True, False])
def test_a_line_of_no_cells_holds_if_the_empty_word_is_accepted(accepting):
    automaton = Automaton(0, frozenset({0} if accepting else {1}), ((0, 1, 1),))
    base = build_model(BLANK_4)
    model = Model(BLANK_4, base.domains, base.constraints + (Regular((), automaton=automaton),))
    outcome = get("python-constraint").search(model, Request(max_solutions=10**6))
    assert outcome.exhausted and len(outcome.solutions) == (288 if accepting else 0)


@pytest.mark.parametrize("stem", ["x-sums", "sandwich", "value-indexing"])
def test_lines_too_long_to_list_as_tables_are_searched(stem):
    path = ROOT / "examples" / "variants" / f"{stem}.toml"
    [puzzle] = parse(path.read_text(encoding="utf-8"), source=path.name)
    model = build_model(puzzle)
    refused = []
    for con in model.constraints:
        if isinstance(con, Regular):
            try:
                con.decompose(model.domains)
            except BackendError:
                refused.append(con)
    assert refused, "no line of this example is too long for a table any more"
    result = solve(puzzle, "python-constraint", max_solutions=2, time_limit=60)
    assert result.status.value == "unique"
    assert result.solution == puzzle.meta["solution"]


def test_a_constraint_on_one_cell_holds_inside_the_one_over_every_variable():
    # The library's pre-processing filters a one-cell constraint's domain and then
    # removes the constraint from the solver's lists, where it is not.
    pick = Allowed((5,), ((2,), (3,)))
    assert len(assert_backend_finds_what_brute_force_keeps(all_4x4_grids(), [pick])) == 144


# --- increasing chains (thermometers, greater-than signs) ---------------------------

def test_an_increasing_chain_keeps_exactly_the_values_of_some_increasing_run():
    constraint = library.Increasing()
    rng = random.Random(5)
    values = list(range(1, 8))
    for _ in range(60):
        doms = [sorted(rng.sample(values, rng.randint(1, 5))) for _ in range(4)]
        domains = {i: pc.Domain(d) for i, d in enumerate(doms)}
        assigned = {i: rng.choice(doms[i]) for i in rng.sample(range(4), rng.randint(0, 2))}
        runs = [w for w in itertools.product(*doms) if all(a < b for a, b in zip(w, w[1:]))
                and all(w[i] == v for i, v in assigned.items())]
        for dom in domains.values():
            dom.pushState()
        assert constraint(list(range(4)), domains, assigned, forwardcheck=True) == bool(runs)
        if runs:
            for i in set(range(4)) - set(assigned):
                assert sorted(domains[i]) == sorted({w[i] for w in runs}), (doms, assigned)
        for dom in domains.values():
            dom.popState()


def test_an_increasing_chain_is_pre_processed_for_good_or_empties_its_cells():
    constraint = library.Increasing()
    domains = {i: pc.Domain([1, 2, 3, 4]) for i in range(3)}
    constraint.preProcess([0, 1, 2], domains, [], {})
    assert [sorted(domains[i]) for i in range(3)] == [[1, 2], [2, 3], [3, 4]]
    longer = {i: pc.Domain([1, 2, 3, 4]) for i in range(5)}
    constraint.preProcess(list(range(5)), longer, [], {})
    assert all(not dom for dom in longer.values())


def test_the_backend_on_thermometers_finds_exactly_the_grids_brute_force_keeps():
    grids = all_4x4_grids()
    rng = random.Random(9)
    for _ in range(12):
        witness = rng.choice(grids)
        extra = []
        for cells in rng.sample(lines_of_4x4(), 3):
            run = cells[:rng.randint(2, 4)]
            if all(witness[a] < witness[b] for a, b in zip(run, run[1:])):
                extra.append(Less(tuple(run), label="thermometer"))
        assert witness in assert_backend_finds_what_brute_force_keeps(grids, extra)
