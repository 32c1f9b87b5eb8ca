"""The compiled search for variants (`_vkernel`): it agrees with the Python engine
and with CP-SAT on every example variant, on ISS's examples and on random variant
models built over a solved grid; it refuses bad structures; it stops at a deadline."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cpsudoku import Puzzle, solve
from cpsudoku.engine import fast, vkernel
from cpsudoku.engine.plan import compile_model
from cpsudoku.errors import BackendError
from cpsudoku.formats.read import parse
from cpsudoku.grid.automaton import Automaton
from cpsudoku.grid.constraints import (
    KINDS,
    AllDifferent,
    Allowed,
    AnyOf,
    InSet,
    Less,
    Regular,
    SameCount,
    SameSet,
    Sandwich,
    Sum,
    XSum,
)
from cpsudoku.grid.geometry import boxed
from cpsudoku.model import build_model, lower_for
from cpsudoku.result import Status
from cpsudoku.rules.outside_automata import sandwich, x_sum

ROOT = Path(__file__).resolve().parents[2]
VARIANTS = sorted((ROOT / "examples" / "variants").glob("*.toml")) + sorted(
    (ROOT / "examples" / "variants").glob("*.json"))
needs_vkernel = pytest.mark.skipif(not vkernel.available(),
                                   reason="the C kernel for variants is not built")
BOXES = {4: (2, 2), 6: (2, 3), 9: (3, 3)}


def solutions_three_ways(puzzle: Puzzle, limit: int = 3, time_limit: float | None = None):
    """Up to `limit` solutions from the C kernel, the Python engine and CP-SAT."""
    c = solve(puzzle, "native", max_solutions=limit, kernel="c", time_limit=time_limit)
    py = solve(puzzle, "native", max_solutions=limit, kernel="python", time_limit=time_limit)
    sat = solve(puzzle, "cpsat", max_solutions=limit, time_limit=time_limit)
    return c, py, sat


RANDOM_MODEL_SECONDS = 20.0  # per engine and random model


def assert_agree(puzzle: Puzzle, limit: int = 3, found=None):
    """The three ways agree (`found`: their results, when solved already)."""
    c, py, sat = found or solutions_three_ways(puzzle, limit)
    assert c.stats["kernel"] == "c" and py.stats["kernel"] == "python"
    assert c.status == py.status == sat.status
    assert len(c.solutions) == len(py.solutions) == len(sat.solutions)
    constraints = build_model(puzzle).constraints
    for found in c.solutions:
        assert all(con.check(found) for con in constraints)
    if len(c.solutions) < limit:  # every solution found: the same sets
        assert sorted(c.solutions) == sorted(py.solutions) == sorted(sat.solutions)
    return c


@pytest.mark.cross
@needs_vkernel
@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: p.name)
def test_every_example_variant_agrees_with_python_and_cpsat(path):
    puzzle = parse(path.read_text(encoding="utf-8"), source=str(path))[0]
    if puzzle.variables.count:
        pytest.skip("regions found while solving: the native engine searches digits only")
    plan = compile_model(lower_for(build_model(puzzle), KINDS))  # as the native backend does
    c = assert_agree(puzzle)
    if plan.structure.others:
        assert vkernel.applicable(plan) is None
    assert c.status is Status.UNIQUE


def _iss_examples_with_other_constraints():
    from cpsudoku.bench.iss import expressed, load_puzzles, recorded_for

    out = []
    for entry in load_puzzles("examples"):
        puzzle, why = expressed(entry)
        if puzzle is None:
            continue
        model = build_model(puzzle)
        if not model.aux_domains and compile_model(model).structure.others:
            out.append(pytest.param(puzzle, recorded_for(entry["solution"], puzzle.geometry),
                                    id=entry["name"][:30]))
    return out


@needs_vkernel
@pytest.mark.parametrize("puzzle, expected", _iss_examples_with_other_constraints())
def test_iss_examples_unique_with_their_recorded_solution(puzzle, expected):
    result = solve(puzzle, "native", max_solutions=2, time_limit=60)
    assert result.stats["kernel"] == "c"
    assert result.status is Status.UNIQUE and result.solution == expected


# --- random variant models over a solved grid ------------------------------

@dataclass(frozen=True)
class Extra:
    """A rule made of ready constraints (what a variant rule yields)."""

    cons: tuple
    name: str = "extra"

    def constraints(self, geometry):
        return self.cons


def solved_grid(size: int, rng: random.Random) -> tuple[int, ...]:
    plan = compile_model(build_model(Puzzle(boxed(size, BOXES[size]), (0,) * size * size)))

    def pick(cell, mask):
        bits = [1 << i for i in range(size) if mask >> i & 1]
        return rng.choice(bits)

    return fast.solve(plan, pick=pick)[0][0]


def neighbours(cell: int, n: int) -> list[int]:
    r, c = divmod(cell, n)
    return [(r + dr) * n + c + dc for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
            if 0 <= r + dr < n and 0 <= c + dc < n]


def path(n: int, rng: random.Random, length: int) -> tuple[int, ...]:
    cells = [rng.randrange(n * n)]
    while len(cells) < length:
        options = [c for c in neighbours(cells[-1], n) if c not in cells]
        if not options:
            break
        cells.append(rng.choice(options))
    return tuple(cells)


def differ_automaton(n: int, gap: int) -> Automaton:
    """Adjacent values differ by at least `gap` (German whispers when n = 9, gap = 5)."""
    return Automaton.build(0, lambda last, v: v if last == 0 or abs(v - last) >= gap else None,
                           lambda s: True, range(1, n + 1))


def random_constraints(sol, n: int, rng: random.Random, count: int,
                       kinds=("cage", "sum", "less", "table", "regular", "holds",
                              "either", "same", "count", "sandwich", "xsum")) -> tuple:
    """Constraints the solution satisfies: cages, weighted sums, thermometers,
    dot tables, automata, same-value sets, same counts, sandwiches, x-sums and
    either/or of them, each on random cells."""
    out: list = []
    for _ in range(count):
        kind = rng.choice(kinds)
        cells = path(n, rng, rng.randint(2, min(5, n)))
        values = [sol[c] for c in cells]
        if kind == "cage" and len(set(values)) == len(values):
            out.append(AllDifferent(cells))
            out.append(Sum(cells, total=sum(values)))
        elif kind == "sum":
            weights = tuple(rng.choice((-2, -1, 1, 1, 2, 10)) for _ in cells)
            out.append(Sum(cells, total=sum(w * v for w, v in zip(weights, values)),
                           coeffs=weights))
        elif kind == "less" and len(set(values)) == len(values):
            out.append(Less(tuple(sorted(cells, key=lambda c: sol[c]))))
        elif kind == "table":
            a, b = cells[:2]
            gap = abs(sol[a] - sol[b])
            out.append(Allowed((a, b), tuple((x, y) for x in range(1, n + 1)
                                             for y in range(1, n + 1) if abs(x - y) == gap)))
        elif kind == "regular":
            gap = min(abs(x - y) for x, y in zip(values, values[1:]))
            out.append(Regular(cells, automaton=differ_automaton(n, gap)))
        elif kind == "holds":  # a value the line must hold: its sweep for required values
            out.append(Regular(cells, automaton=holds_automaton(n, rng.choice(values))))
        elif kind == "either":
            out.append(either(sol, n, rng))
        elif kind == "same":  # cells of one row, and the cells of another holding their digits
            k = len(cells)
            row, other = rng.sample(range(n), 2)
            first = tuple(rng.sample(range(row * n, row * n + n), k))
            where = {sol[c]: c for c in range(other * n, other * n + n)}
            second = tuple(where[sol[c]] for c in first)
            out.append(SameSet(first + tuple(rng.sample(second, k)), values=range(1, n + 1)))
        elif kind == "count":  # any cells, and as many others holding a value as often
            value = rng.choice(values)
            held = [c for c in range(n * n) if sol[c] == value]
            rest = [c for c in range(n * n) if sol[c] != value]
            times = values.count(value)
            second = rng.sample(held, times) + rng.sample(rest, len(cells) - times)
            rng.shuffle(second)
            out.append(SameCount(cells + tuple(second), values=range(1, n + 1), value=value))
        elif kind == "sandwich":  # a row or column, either way, and its sum between 1 and n
            line = rng.choice(lines(n))[::rng.choice((1, -1))]
            ends = [k for k, c in enumerate(line) if sol[c] in (1, n)]
            total = sum(sol[c] for c in line[ends[0] + 1:ends[1]])
            out.append(Sandwich(line, automaton=sandwich(range(1, n + 1), total), total=total))
        elif kind == "xsum" and n <= 6:  # a row or column, either way: its first X digits'
            # sum (on 9x9 the Python engine's pass over its automaton takes minutes)
            line = rng.choice(lines(n))[::rng.choice((1, -1))]
            total = sum(sol[c] for c in line[:sol[line[0]]])
            out.append(XSum(line, automaton=x_sum(range(1, n + 1), total), total=total))
    return tuple(out)


def lines(n: int) -> list[tuple[int, ...]]:
    return ([tuple(range(r * n, r * n + n)) for r in range(n)]
            + [tuple(range(c, n * n, n)) for c in range(n)])


PLAIN = ("cage", "sum", "less", "table", "regular", "holds", "same", "count", "sandwich",
         "xsum")  # no either/or


def either(sol, n: int, rng: random.Random) -> AnyOf:
    """Either/or of two or three alternatives, at least one of which the solution
    satisfies: random constraints as above, a given (right or wrong), all-different
    cells, a sum off by one."""
    alternatives = []
    for _ in range(rng.randint(2, 3)):
        kind = rng.choice(("rules", "given", "distinct", "sum"))
        cells = path(n, rng, rng.randint(2, min(4, n)))
        if kind == "given":
            cell = cells[0]
            alternatives.append((InSet((cell,), values=frozenset({rng.randint(1, n)})),))
        elif kind == "distinct":
            alternatives.append((AllDifferent(cells),))
        elif kind == "sum":
            alternatives.append((Sum(cells, total=sum(sol[c] for c in cells) + 1),))
        else:
            group = random_constraints(sol, n, rng, 2, PLAIN)
            alternatives.append(group or (AllDifferent(cells[:1]),))
    alternatives.insert(rng.randrange(len(alternatives) + 1),
                        random_constraints(sol, n, rng, 2, PLAIN)
                        or (InSet((0,), frozenset({sol[0]})),))
    union = tuple(sorted({c for group in alternatives for con in group for c in con.cells}))
    return AnyOf(union, alternatives=tuple(alternatives))


def holds_automaton(n: int, value: int, among: int | None = None, total: int | None = None,
                    length: int = 0):
    """Words holding `value` among their first `among` letters (all, by default); with
    `total`, also adding up to it, and with `length`, of that many letters (the letters
    read and their running sums take the states past 64)."""
    def step(state, v):
        read, seen, partial = state
        partial += v if total is not None else 0
        if total is not None and partial > total:
            return None
        seen = seen or (v == value and (among is None or read < among))
        return min(read + 1, length or among or 0), seen, partial  # finitely many states

    return Automaton.build((0, False, 0), step,
                           lambda s: s[1] and (total is None or s[2] == total), range(1, n + 1))


@needs_vkernel
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32 - 1), size=st.sampled_from((4, 6, 9)),
       count=st.integers(1, 10), clue_share=st.floats(0.0, 0.5))
def test_random_variant_models_agree_with_python_and_cpsat(seed, size, count, clue_share):
    rng = random.Random(seed)
    sol = solved_grid(size, rng)
    givens = tuple(v if rng.random() < clue_share else 0 for v in sol)
    extra = random_constraints(sol, size, rng, count)
    puzzle = Puzzle(boxed(size, BOXES[size]), givens, rules=(Extra(extra),) if extra else ())
    if not compile_model(build_model(puzzle)).structure.others:
        return
    # the pure-Python reference engine can search for minutes on a rare draw: bounded,
    # and a model one of the three cannot finish in time tells nothing either way
    found = solutions_three_ways(puzzle, time_limit=RANDOM_MODEL_SECONDS)
    assume(not any(r.stats.get("timed_out") for r in found))
    c = assert_agree(puzzle, found=found)
    assert c.solutions  # the grid they were built on is one


class Calls:
    """A stand-in kernel that records the calls made on it."""

    def __init__(self):
        self.calls = []

    def __getattr__(self, name):
        return lambda *args, **kwargs: self.calls.append((name, args, kwargs))


@needs_vkernel
def test_a_sum_groups_cells_that_must_differ_and_share_a_weight():
    plan = compile_model(build_model(Puzzle(boxed(9, (3, 3)), (0,) * 81)))
    # r1c1 and r1c2 share a row and a box; r5c5 is no peer of them; r2c1 has its own weight
    con = Sum((0, 40, 1, 9), total=20, coeffs=(1, 1, 1, 2))
    cells, weights, sizes = vkernel.distinct_groups(con, plan.structure)
    assert (cells, weights, sizes) == ((0, 1, 40, 9), (1, 1, 1, 2), (2, 1, 1))
    kernel = Calls()
    vkernel.add(kernel, con, plan.structure)
    assert kernel.calls == [("add_sum", (cells, weights, 20, sizes), {})]


@needs_vkernel
@pytest.mark.parametrize("seed", range(4))
def test_automata_of_more_than_64_states_agree(seed):
    """The cells read and their running total along a line: hundreds of states,
    beyond one word of state bits."""
    rng = random.Random(seed)
    sol = solved_grid(9, rng)
    line = path(9, rng, 9)
    total = sum(sol[c] for c in line)
    running = Automaton.build(
        (0, 0), lambda st, v: (st[0] + 1, st[1] + v) if st[1] + v <= total else None,
        lambda st: st == (len(line), total), range(1, 10))
    assert running.states > 64
    givens = tuple(v if rng.random() < 0.3 else 0 for v in sol)
    puzzle = Puzzle(boxed(9, (3, 3)), givens,
                    rules=(Extra((Regular(line, automaton=running),)),))
    assert assert_agree(puzzle).solutions


@needs_vkernel
@pytest.mark.parametrize("wide", [False, True], ids=["one word of states", "many words"])
def test_a_value_a_line_must_hold_leaves_the_cells_that_see_its_places(wide):
    """Two lines in box 1 that must each hold a 5 in cells of their own: the first's
    places for it (r1c1, r2c2) see every other cell of the box, which lose it, so the
    second (r1c3, r3c1) has none left: proved without a guess."""
    if wide:
        first = Regular((0, 10, 40, 80),
                        automaton=holds_automaton(9, 5, among=2, total=20, length=4))
        assert first.automaton.states > 64
    else:
        first = Regular((0, 10), automaton=holds_automaton(9, 5))
    second = Regular((2, 18), automaton=holds_automaton(9, 5))
    puzzle = Puzzle(boxed(9, (3, 3)), (0,) * 81, rules=(Extra((first, second)),))
    plan = compile_model(build_model(puzzle))
    sols, exhausted, timed_out, stats = vkernel.solve(plan, 2, None, True)
    assert sols == [] and exhausted and not timed_out
    assert stats["guesses"] == 0


@needs_vkernel
@pytest.mark.parametrize("name, most", [
    ("Look-and-Say 3", 5_000),             # 67,911 nodes before required values
    ("Heat up - global entropy", 2_000),   # 6,831
    ("Hailstone - little killer", 20_000),  # 199,051 before sums crossing units
    ("Sandwich snipe 18", 12_000),         # 106,229 before sandwiches kept their digits,
                                           # 10,598 before their own pass
    ("Con-Set-Cutive", 2_000),             # 257 with its same-value sets' own pass
])
def test_iss_puzzles_the_kernel_used_to_search_long(name, most):
    from cpsudoku.bench.iss import expressed, load_puzzles

    puzzle = expressed(load_puzzles("all", name=name)[0])[0]
    result = solve(puzzle, "native", max_solutions=2, time_limit=60)
    assert result.stats["kernel"] == "c" and not result.stats["timed_out"]
    assert result.stats["nodes"] <= most


@needs_vkernel
def test_an_unsatisfiable_variant_says_so_in_both_engines():
    sol = solved_grid(4, random.Random(3))
    cage = (0, 1)
    bad_total = Sum(cage, total=sol[0] + sol[1] + 100)
    puzzle = Puzzle(boxed(4, (2, 2)), (0,) * 16, rules=(Extra((bad_total,)),))
    c, py, sat = solutions_three_ways(puzzle)
    assert c.status is py.status is sat.status is Status.UNSOLVABLE


# --- choices, deadline and the boundary ------------------------------------

def barbed_cross():
    from cpsudoku.bench.iss import expressed, load_puzzles

    return expressed(load_puzzles("examples", name="Barbed Cross")[0])[0]


@needs_vkernel
@pytest.mark.parametrize("choice", sorted(vkernel.CHOICES))
def test_every_branching_choice_finds_the_same_solutions(choice):
    path_ = ROOT / "examples" / "variants" / "killer.toml"
    puzzle = parse(path_.read_text(encoding="utf-8"), source=str(path_))[0]
    plan = compile_model(build_model(puzzle))
    sols, exhausted, timed_out, stats = vkernel.solve(plan, 3, None, True, choice)
    assert exhausted and not timed_out and len(sols) == 1
    assert sols == solve(puzzle, "native", kernel="python").solutions
    assert stats["nodes"] >= 1 and stats["passes"] >= 1


@needs_vkernel
def test_branching_on_a_value_s_two_places_shrinks_a_skyscraper_search():
    from cpsudoku.bench.iss import expressed, load_puzzles

    puzzle = expressed(load_puzzles("all", name="Skyscraper - all 5")[0])[0]
    model = build_model(puzzle)
    plan = compile_model(model)
    cell = vkernel.solve(plan, 2, None, True, "conflicts", model.constraints)
    places = vkernel.solve(plan, 2, None, True, "conflicts-places", model.constraints)
    assert cell[0] == places[0] and len(places[0]) == 1 and places[1]
    assert places[3]["nodes"] * 10 < cell[3]["nodes"]  # 56 against 2,664


@needs_vkernel
def test_an_automaton_beyond_the_kernel_s_states_is_refused_by_name(monkeypatch):
    line = (0, 1, 2, 3)
    plan = compile_model(build_model(Puzzle(boxed(4, (2, 2)), (0,) * 16, rules=(
        Extra((Regular(line, automaton=differ_automaton(4, 1), label="a long line"),)),))))
    assert vkernel._refusal(plan) is None
    monkeypatch.setattr(vkernel, "MAX_STATES", 2)
    assert "more than 2 states (a long line)" in vkernel._refusal(plan)
    # the native backend says so before any search (its Python engine would need gigabytes)
    with pytest.raises(BackendError, match="cannot search an automaton of more than 2"):
        solve(Puzzle(boxed(4, (2, 2)), (0,) * 16, rules=(
            Extra((Regular((0, 1, 2, 3), automaton=differ_automaton(4, 1),
                           label="a long line"),)),)), "native")


@needs_vkernel
def test_a_deadline_already_past_stops_the_search():
    plan = compile_model(build_model(barbed_cross()))
    sols, exhausted, timed_out, _ = vkernel.solve(plan, 2, time.monotonic() - 1)
    assert timed_out and not exhausted and len(sols) < 2


@needs_vkernel
def test_the_native_backend_takes_it_unless_told_python():
    path_ = ROOT / "examples" / "variants" / "little-killer.toml"
    puzzle = parse(path_.read_text(encoding="utf-8"), source=str(path_))[0]
    assert solve(puzzle, "native", max_solutions=2).stats["kernel"] == "c"
    assert solve(puzzle, "native", max_solutions=2, kernel="python").stats["kernel"] == "python"


def good_parts(size: int = 4):
    plan = compile_model(build_model(Puzzle(boxed(size, BOXES[size]), (0,) * size * size)))
    return plan, (plan.size, plan.units, plan.peers, plan.intersections)


EITHER = "either"  # stands for an either/or over cells 0 and 1, with one alternative open


@needs_vkernel
@pytest.mark.parametrize("method, args, kwargs, message", [
    ("add_same_set", ((0, 1),), {"within": EITHER}, "must be a sum, cage"),
    ("add_sum", ((0, 2), (1, 1), 3), {"within": EITHER}, "over the OR's cells"),
    ("add_sum", ((0, 1), (1,), 3), {"within": EITHER}, "one weight per cell"),
    ("add_same_set", ((0, 1, 2),), {}, "two groups of as many cells"),
    ("add_sandwich", ((0, 1, 2), (), 0), {}, "holds every value once"),
    ("add_sandwich", ((0, 1, 2, 3), (1,), 0), {}, "holds a crust"),
    ("add_sum", ((0, 99), (1, 1), 3), {}, "out of range"),
    ("add_sum", ((0, 1), (1,), 3), {}, "one weight per cell"),
    ("add_sum", ((0, 1), (1, 1, 1), 3), {}, "one weight per cell \\(and its groups\\)"),
    ("add_sum", ((0, 1, 2), (1, 1, 1), 3, (1, 1)), {}, "do not add up"),
    ("add_sum", ((0, 1), (1, 2), 3, (2,)), {}, "a group with two weights"),
    ("add_table", ((0, 1), (1, 2, 3)), {}, "whole rows"),
    ("add_cage", ((0, 1), (1 << 9,), 3), {}, "beyond the grid"),
    ("add_automaton", ((0, 1), 2, 5, (), ()), {}, "malformed automaton"),
    ("add_automaton", ((0, 1), 2, 0, (7,), ()), {}, "accepting state out of range"),
    ("add_automaton", ((0, 1), 2, 0, (1,), (0, 1, 9)), {}, "transition's state out of range"),
    ("add_sum", ((0, 1), (1, 1), 3), {"within": 0}, "not an either/or"),
])
def test_bad_constraints_are_refused_by_name(method, args, kwargs, message):
    _, parts = good_parts()
    k = vkernel._vkernel.VKernel(*parts)
    if kwargs.get("within") == EITHER:
        either = k.add_either((0, 1))
        k.add_alternative(either)
        kwargs = {"within": either}
    elif "within" in kwargs:
        k.add_less((0, 1))
    with pytest.raises(ValueError, match=message):
        getattr(k, method)(*args, **kwargs)


@needs_vkernel
@pytest.mark.parametrize("call, message", [
    (lambda k: k.add_sum((0, 1), (1, 1)), "missing argument 'total'"),
    (lambda k: k.add_sum((0, 1), (1, 1), "3"), "total must be an integer"),
    (lambda k: k.add_less((0, 1), size=2), "unexpected keyword argument 'size'"),
    (lambda k: k.add_less((0, 1), cells=(0, 1)), "multiple values for argument 'cells'"),
])
def test_bad_arguments_of_a_constraint_are_refused_by_name(call, message):
    _, parts = good_parts()
    with pytest.raises(TypeError, match=message):
        call(vkernel._vkernel.VKernel(*parts))


@needs_vkernel
def test_constraints_are_checked_whole_before_the_first_search():
    plan, parts = good_parts()
    k = vkernel._vkernel.VKernel(*parts)
    k.add_either((0, 1))
    with pytest.raises(ValueError, match="an OR without alternatives"):
        k.solve(plan.domains)
    k = vkernel._vkernel.VKernel(*parts)
    k.add_less((0, 1))
    k.solve(plan.domains)
    with pytest.raises(ValueError, match="before it first searches"):
        k.add_less((1, 2))
    a = vkernel._vkernel.VKernel(*parts)
    assert a.add_less((0, 1)) == 0 and a.add_sum((2, 3), (1, 1), 5) == 1
    refused = vkernel._vkernel.VKernel(*parts)
    with pytest.raises(ValueError):
        refused.add_sum((0, 1), (1,), 3)
    assert refused.add_less((0, 1)) == 0  # the refused one left no trace


@needs_vkernel
def test_bad_domains_and_arguments_are_refused():
    plan, parts = good_parts()
    k = vkernel._vkernel.VKernel(*parts)
    with pytest.raises(ValueError, match="16 cells"):
        k.solve([15] * 3)
    with pytest.raises(ValueError, match="values beyond"):
        k.solve([1 << 7] * 16)
    with pytest.raises(ValueError, match="max_solutions"):
        k.solve(plan.domains, 0)
    with pytest.raises(ValueError, match="choice"):
        k.solve(plan.domains, 1, None, 0, 7)
    sols, exhausted, timed_out, _ = k.solve(plan.domains, 3)
    assert len(sols) == 3 and not exhausted and not timed_out
