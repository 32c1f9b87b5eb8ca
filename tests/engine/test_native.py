"""The native engine: answers, counting, sizes, propagators, trace, deadline."""

from __future__ import annotations

import itertools
import random

import pytest
from conftest import blanked, random_grid, read_set
from hypothesis import given, settings
from hypothesis import strategies as st

from cpsudoku import backends, is_solution, solve
from cpsudoku.backends.base import Request
from cpsudoku.backends.native import reduce_domains
from cpsudoku.engine.clock import OutOfTime
from cpsudoku.grid.constraints import Allowed, Less, Sum
from cpsudoku.grid.geometry import boxed
from cpsudoku.grid.puzzle import Puzzle
from cpsudoku.grid.symbols import line
from cpsudoku.model import build_model

INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
INKALA_SOLUTION = ("812753649943682175675491283"
                   "154237896369845721287169534"
                   "521974368438526917796318452")


def grid_of(text: str) -> Puzzle:
    from cpsudoku.bench.datasets import puzzle_of
    return puzzle_of(text)


class Extra:
    """A rule made of given constraints, for hand-made models."""

    name = "extra"

    def __init__(self, constraints):
        self.items = tuple(constraints)

    def constraints(self, geometry):
        return self.items


# --- answers and counting -------------------------------------------------------------

def test_inkala_unique_with_known_solution():
    result = solve(grid_of(INKALA), "native", max_solutions=2)
    assert result.status.value == "unique"
    assert line(result.solution) == INKALA_SOLUTION
    assert {"nodes", "guesses", "backtracks", "propagations"} <= set(result.stats)


def test_empty_4x4_has_288_solutions():
    result = solve(Puzzle(boxed(4), (0,) * 16), "native", max_solutions=1000)
    assert result.status.value == "multiple"
    assert len(result.solutions) == 288 == len(set(result.solutions))
    assert all(is_solution(result.puzzle, s) for s in result.solutions)


def test_max_solutions_caps_the_count():
    result = solve(Puzzle(boxed(4), (0,) * 16), "native", max_solutions=7)
    assert len(result.solutions) == 7


def test_serg_benchmark_slice_reports_multiple():
    for puzzle, _, nsol in read_set("serg_benchmark", 100):
        assert nsol == 2
        assert solve(grid_of(puzzle), "native", max_solutions=2).status.value == "multiple"


def test_unsolvable_although_no_given_conflicts():
    # Inkala's puzzle has one solution; one more wrong given that clashes with no
    # other given leaves none, and only the search can tell.
    for cell, ch in enumerate(INKALA):
        if ch != ".":
            continue
        puzzle = grid_of(INKALA)
        peers_values = {puzzle.givens[p] for p in range(81)
                        if p // 9 == cell // 9 or p % 9 == cell % 9
                        or (p // 27, p % 9 // 3) == (cell // 27, cell % 9 // 3)}
        wrong = next(v for v in range(1, 10)
                     if v != int(INKALA_SOLUTION[cell]) and v not in peers_values)
        givens = list(puzzle.givens)
        givens[cell] = wrong
        bad = Puzzle(boxed(9), tuple(givens))
        result = solve(bad, "native", max_solutions=2)
        assert result.status.value == "unsolvable"
        assert result.reason is None  # proved by search, not by the givens
        outcome = backends.get("native").search(build_model(bad), Request(2))
        assert outcome.exhausted and not outcome.solutions
        break


@pytest.mark.parametrize("size", [4, 6, 8, 9, 12])
def test_generated_puzzles_of_each_size(size):
    rng = random.Random(size)
    for _ in range(5):
        grid = random_grid(size, rng)
        puzzle = blanked(grid, size, 0.55, rng)
        result = solve(puzzle, "native", max_solutions=2)
        assert result.status.solved
        assert all(is_solution(puzzle, s) for s in result.solutions)
        if result.status.value == "unique":
            assert list(result.solution) == grid


def test_16x16_puzzles():
    for puzzle, solution, _ in read_set("gecode_16x16", 10):
        result = solve(grid_of(puzzle), "native", max_solutions=2)
        assert result.status.value == "unique" and line(result.solution) == solution


# --- trace --------------------------------------------------------------------------------

def replay(events) -> dict[int, int]:
    """Placements in force at the end: a backtrack at depth d undoes everything deeper."""
    grid: dict[int, tuple[int, int]] = {}
    for e in events:
        if e.kind == "place":
            grid[e.cell] = (e.value, e.depth)
        elif e.kind == "guess":
            grid[e.cell] = (e.value, e.depth + 1)
        elif e.kind == "backtrack":
            grid = {c: vd for c, vd in grid.items() if vd[1] <= e.depth}
    return {c: v for c, (v, _) in grid.items()}


def test_trace_reasons_guesses_and_replay():
    result = solve(grid_of(INKALA), "native", trace=True)
    events = result.trace
    kinds = {e.kind for e in events}
    assert {"place", "guess", "contradiction", "backtrack", "solution"} <= kinds
    reasons = {e.reason for e in events if e.kind == "place"}
    assert "given" in reasons and "naked single" in reasons
    assert any(r.startswith("hidden single in ") for r in reasons)
    hidden = [r for r in reasons if r.startswith("hidden")]
    assert any(r.split()[-2] in ("row", "column", "box") for r in hidden)
    guesses = [e for e in events if e.kind == "guess"]
    assert guesses and all(len(g.candidates) >= 2 and g.value in g.candidates for g in guesses)
    assert all(e.reason for e in events if e.kind == "contradiction")
    assert events[-1].kind == "solution"
    placed = replay(events)
    assert len(placed) == 81
    assert "".join(str(placed[c]) for c in range(81)) == INKALA_SOLUTION == line(result.solution)


def test_trace_does_not_change_the_answer():
    plain = solve(grid_of(INKALA), "native", max_solutions=2)
    traced = solve(grid_of(INKALA), "native", max_solutions=2, trace=True)
    assert traced.status == plain.status and traced.solutions == plain.solutions
    assert plain.trace is None


# --- deadline -------------------------------------------------------------------------------

@pytest.mark.timing
def test_tiny_time_limit_on_a_hard_25x25_times_out():
    puzzle, _, _ = read_set("gecode_25x25")[0]
    result = solve(grid_of(puzzle), "native", time_limit=0.05)
    assert result.status.value == "timeout"
    assert result.stats["timed_out"] is True


# --- propagation only ---------------------------------------------------------------------

@pytest.mark.unit
def test_reduce_domains_solves_an_easy_puzzle():
    puzzle, solution, _ = read_set("norvig_easy50", 1)[0]
    reduced = reduce_domains(build_model(grid_of(puzzle)))
    assert reduced is not None
    assert "".join(str(next(iter(d))) for d in reduced) == solution


@pytest.mark.unit
def test_reduce_domains_keeps_the_solution_and_narrows():
    model = build_model(grid_of(INKALA))
    reduced = reduce_domains(model)
    assert all(r <= d for r, d in zip(reduced, model.domains))
    assert all(int(v) in r for v, r in zip(INKALA_SOLUTION, reduced))
    assert sum(map(len, reduced)) < sum(map(len, model.domains))


@pytest.mark.unit
def test_reduce_domains_reports_a_contradiction():
    # r1c1=1, r1c2=2, r2c3=3, r4c4=3: no given clashes and every cell keeps a
    # candidate, but r1c3 and r1c4 are both left with 4 only.
    givens = [0] * 16
    givens[0], givens[1], givens[6], givens[15] = 1, 2, 3, 3
    puzzle = Puzzle(boxed(4), tuple(givens))
    from cpsudoku.model import find_conflicts
    assert not find_conflicts(build_model(puzzle))
    assert reduce_domains(build_model(puzzle)) is None
    table = Puzzle(boxed(4), (1,) + (0,) * 15, (Extra([Allowed((1, 2), ((1, 2), (1, 3)))]),))
    assert reduce_domains(build_model(table)) is None  # r1c2 cannot be 1 beside the given 1


# --- sum / less / allowed against brute force ---------------------------------------------

@pytest.fixture(scope="module")
def all_4x4_grids():
    """Every complete 4x4 grid, enumerated by the naive backend (not the native engine)."""
    result = solve(Puzzle(boxed(4), (0,) * 16), "naive", max_solutions=1000)
    assert len(result.solutions) == 288
    return result.solutions


def random_constraints(rng: random.Random, kind: str):
    cells = rng.sample(range(16), rng.randint(2, 4))
    if kind == "sum":
        coeffs = tuple(rng.choice((1, 1, 2, -1)) for _ in cells)
        grid = [rng.randint(1, 4) for _ in cells]
        total = sum(w * v for w, v in zip(coeffs, grid))
        return Sum(tuple(cells), total=total, coeffs=coeffs)
    if kind == "cage":
        box = rng.choice(boxed(4).regions)
        cells = rng.sample(box, rng.randint(2, 3))
        return Sum(tuple(cells), total=rng.randint(3, 7))
    if kind == "less":
        return Less(tuple(cells[:3]))
    tuples = tuple(t for t in itertools.product(range(1, 5), repeat=2) if rng.random() < 0.4)
    return Allowed(tuple(cells[:2]), tuples)


@pytest.mark.unit
@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("kind", ["sum", "cage", "less", "allowed"])
def test_propagators_match_brute_force(all_4x4_grids, kind, seed):
    rng = random.Random(seed * 31 + len(kind))
    cons = [random_constraints(rng, kind) for _ in range(2)]
    givens = [0] * 16
    givens[rng.randrange(16)] = rng.randint(1, 4)
    puzzle = Puzzle(boxed(4), tuple(givens), (Extra(cons),))
    expected = {g for g in all_4x4_grids if is_solution(puzzle, g)}
    for trace in (False, True):
        result = solve(puzzle, "native", max_solutions=1000, trace=trace)
        assert set(result.solutions) == expected
        assert len(result.solutions) == len(expected)
        assert result.status.value == ("unsolvable" if not expected else
                                      "unique" if len(expected) == 1 else "multiple")
    reduced = reduce_domains(build_model(puzzle))
    if expected:  # propagation never loses a solution
        assert all(g[c] in reduced[c] for g in expected for c in range(16))


# --- property: blanked random grids ---------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(size=st.sampled_from([4, 6, 9]), seed=st.integers(0, 10**6),
       fraction=st.floats(0.2, 0.8))
def test_blanked_random_grids(size, seed, fraction):
    rng = random.Random(seed)
    grid = random_grid(size, rng)
    puzzle = blanked(grid, size, fraction, rng)
    result = solve(puzzle, "native", max_solutions=2)
    assert result.status.solved
    for s in result.solutions:
        assert is_solution(puzzle, s)
        assert all(g in (0, v) for g, v in zip(puzzle.givens, s))
    if result.status.value == "unique":
        assert list(result.solution) == grid


@pytest.mark.parametrize("setting", [False, True, 0, 2, "auto", "never", "always", "5"])
def test_locked_candidates_option_keeps_the_answer(setting):
    result = solve(grid_of(INKALA), "native", max_solutions=2, locked_candidates=setting)
    assert result.status.value == "unique" and line(result.solution) == INKALA_SOLUTION


@pytest.mark.unit
def test_locked_candidates_option_rejects_nonsense():
    from cpsudoku.errors import BackendError
    with pytest.raises(BackendError, match="locked_candidates"):
        solve(grid_of(INKALA), "native", locked_candidates="sometimes")


# --- pairs, dual branching (from 16x16) and probing (from 25x25) --------------------

BIG_GRID_OPTIONS = [dict(pairs=True, probing=False), dict(pairs=False, probing=True),
                    dict(pairs=True, probing=True)]


@pytest.mark.parametrize("options", BIG_GRID_OPTIONS)
@pytest.mark.parametrize("size", [4, 6, 9, 12, 16])
@pytest.mark.parametrize("fraction", [0.6, 0.8])
def test_big_grid_reasoning_keeps_answers_and_counts(size, fraction, options):
    rng = random.Random(size * 10 + int(fraction * 10))
    for _ in range(4):
        puzzle = blanked(random_grid(size, rng), size, fraction, rng)
        with_it = solve(puzzle, "native", max_solutions=3, **options)
        without = solve(puzzle, "native", max_solutions=3, pairs=False, probing=False)
        assert with_it.status == without.status
        if with_it.status.value == "unique":
            assert with_it.solution == without.solution
        assert all(is_solution(puzzle, s) for s in with_it.solutions)
        assert len(set(with_it.solutions)) == len(with_it.solutions)


@pytest.mark.parametrize("options", BIG_GRID_OPTIONS)
def test_big_grid_reasoning_counts_every_solution_of_the_empty_4x4(options):
    result = solve(Puzzle(boxed(4), (0,) * 16), "native", max_solutions=1000, **options)
    assert len(result.solutions) == 288 == len(set(result.solutions))


def test_big_grid_reasoning_on_classic_sets():
    for name in ("norvig_top95", "forum_hardest_1106"):
        for puzzle, solution, _ in read_set(name, 15):
            result = solve(grid_of(puzzle), "native", max_solutions=2, pairs="on",
                           probing="on")
            assert result.status.value == "unique" and line(result.solution) == solution


@pytest.mark.unit
def test_probing_proves_a_wrong_given_unsolvable():
    puzzle = grid_of(INKALA)
    givens = list(puzzle.givens)
    givens[1] = 4  # r1c2 is 1 in the only solution; 4 clashes with no given
    result = solve(Puzzle(boxed(9), tuple(givens)), "native", max_solutions=2,
                   pairs=True, probing=True)
    assert result.status.value == "unsolvable"


@pytest.mark.unit
def test_naked_and_hidden_pairs_narrow_a_unit():
    from cpsudoku.engine.fast import make_propagate, unit_bits
    from cpsudoku.engine.plan import compile_model, mask_of
    from cpsudoku.engine.subsets import make_pairs

    plan = compile_model(build_model(Puzzle(boxed(9), (0,) * 81)))
    propagate = make_propagate(plan, False)
    pairs = make_pairs(plan, unit_bits(plan))
    cands = [plan.full] * 81
    cands[0] = cands[1] = mask_of((1, 2))  # naked pair in row 1 (and box 1)
    for c in range(2, 7):  # 8 and 9 can only go in r1c8 and r1c9 within row 1
        cands[c] &= ~mask_of((8, 9))
    assert pairs(cands, [0] * 81, [0] * len(plan.units), propagate) >= 0
    assert all(not cands[c] & mask_of((1, 2)) for c in range(2, 9))  # naked pair
    assert all(not cands[c] & mask_of((1, 2)) for c in (9, 10, 11, 18, 19, 20))  # box too
    assert cands[7] == cands[8] == mask_of((8, 9))  # hidden pair


@pytest.mark.slow
def test_a_minimal_25x25_puzzle_is_solved():
    puzzle, _, _ = read_set("gecode_25x25")[6]
    result = solve(grid_of(puzzle), "native", time_limit=300)
    assert result.status.solved
    assert is_solution(result.puzzle, result.solution)


@pytest.mark.unit
@pytest.mark.parametrize("name", ["pairs", "probing"])
def test_big_grid_options_reject_nonsense(name):
    from cpsudoku.errors import BackendError
    with pytest.raises(BackendError, match=name):
        solve(grid_of(INKALA), "native", **{name: "sometimes"})


def test_generated_code_is_compiled_in_slices_within_the_deadline():
    """A first big grid's locked-candidate code is compiled slice by slice, the
    deadline checked before each: once it has passed, compiling stops and the
    search reports a timeout instead of overrunning."""
    import dataclasses
    import time

    from cpsudoku.engine import fast
    from cpsudoku.engine.plan import Plan, compile_model

    shared = compile_model(build_model(Puzzle(boxed(16), (0,) * 256)))
    plan = Plan(dataclasses.replace(shared.structure, compiled={}), shared.domains)
    with pytest.raises(OutOfTime):
        fast.make_propagate(plan, True, deadline=time.monotonic() - 1)
    assert ("propagate", True) not in plan.compiled
    solutions, exhausted, timed_out, stats = fast.solve(plan, 1, time.monotonic() - 1, True)
    assert (solutions, exhausted, timed_out, stats["nodes"]) == ([], False, True, 0)
    chunks = -(-len(plan.intersections) // fast.LOCKED_CHUNK)
    assert chunks > 1
    propagate = fast.make_propagate(plan, True, deadline=time.monotonic() + 60)
    assert sum(key[0] == "locked" for key in plan.compiled) == chunks
    solutions, exhausted, timed_out, _ = fast.solve(plan, 1, None, True)
    assert len(solutions) == 1 and not timed_out and propagate is plan.compiled["propagate", True]
    assert is_solution(Puzzle(boxed(16), (0,) * 256), solutions[0])
