"""The native engine on regions found while solving (chaos construction): its pass
never removes a value of a solution, and the compiled and Python engines find the
same solutions as cpsat on ISS's chaos puzzles."""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest

from cpsudoku import backends, solve
from cpsudoku.bench.iss import expressed, load_puzzles
from cpsudoku.engine import vkernel
from cpsudoku.engine.general import GeneralSearch
from cpsudoku.engine.plan import compile_model
from cpsudoku.engine.regions import anchors, relabel
from cpsudoku.grid.constraints import Regions
from cpsudoku.model import build_model, single

needs_vkernel = pytest.mark.skipif(not vkernel.available(), reason="the C kernel is not built")


def chaos_puzzle(name: str):
    [entry] = [e for e in load_puzzles("all") if e["name"] == name]
    puzzle, why = expressed(entry)
    assert puzzle is not None, why
    return puzzle


def full_solution(puzzle):
    """Digits and auxiliary variables of the puzzle's only solution, by cpsat."""
    try:
        backends.get("cpsat")
    except Exception as exc:  # noqa: BLE001 - a missing library is a skip
        pytest.skip(f"cpsat is not usable here: {exc}")
    result = solve(puzzle, "cpsat", max_solutions=2, time_limit=60)
    assert result.status.value == "unique"
    return result.solution + result.variables[0]


@pytest.mark.parametrize("seed", range(12))
def test_propagation_keeps_the_solution(seed):
    """Fix a random part of the solution: propagation must neither fail nor remove
    any of the solution's values (the pass is sound)."""
    puzzle = chaos_puzzle("Chaos Construction: cell count [harder]")
    solution = full_solution(puzzle)
    model = build_model(puzzle)
    rng = random.Random(seed)
    domains = list(model.all_domains)
    for i in rng.sample(range(len(domains)), rng.randrange(len(domains) // 2)):
        domains[i] = single(solution[i])
    ncells = len(model.domains)
    fixed = dataclasses.replace(model, domains=tuple(domains[:ncells]),
                                aux_domains=tuple(domains[ncells:]))
    state = GeneralSearch(compile_model(fixed)).initial()
    assert state is not None
    cands, grid, _ = state
    for i, value in enumerate(solution):
        assert (cands[i] or grid[i]) >> (value - 1) & 1, f"variable {i} lost {value}"


@pytest.mark.parametrize("name, kernel", [
    ("Chaos Construction: cell count", "c"), ("Chaos Construction: cell count", "python"),
    ("Chaos Construction: cell count [harder]", "c"), ("Chaos Construction: 6x6", "c")])
def test_native_finds_the_only_solution_and_its_regions(name, kernel):
    if kernel == "c" and not vkernel.available():
        pytest.skip("the C kernel is not built")
    puzzle = chaos_puzzle(name)
    expected = full_solution(puzzle)
    result = solve(puzzle, "native", max_solutions=2, time_limit=120, kernel=kernel)
    assert result.status.value == "unique"
    labels = len(puzzle.givens)
    assert result.solution + result.variables[0][:labels] == expected[:2 * labels]
    assert result.stats["kernel"] == kernel


@needs_vkernel
def test_the_kernel_refuses_regions_without_their_width():
    plan = compile_model(build_model(chaos_puzzle("Chaos Construction: cell count")))
    s = plan.structure
    kernel = vkernel._vkernel.VKernel(s.size, s.units, s.peers, s.intersections, nvars=s.nvars)
    for con in s.others:
        if not isinstance(con, Regions):
            vkernel.add(kernel, con, s)
    with pytest.raises(ValueError, match="regions need the grid's width"):
        kernel.add_regions(next(con.cells for con in s.others if isinstance(con, Regions)),
                           s.size + 1, (), ())


@needs_vkernel
@pytest.mark.parametrize("past_the_grid,why", [(None, "pairs of cells"),
                                               (0, "same-region cell beyond the grid")])
def test_the_kernel_refuses_malformed_same_region_pairs(past_the_grid, why):
    plan = compile_model(build_model(chaos_puzzle("Chaos Construction: cell count")))
    s = plan.structure
    # no anchors, then one cell without its pair, or a pair with a cell past the grid
    pairs = (0,) if past_the_grid is None else (0, s.size * s.size + past_the_grid)
    kernel = vkernel._vkernel.VKernel(s.size, s.units, s.peers, s.intersections, nvars=s.nvars)
    with pytest.raises(ValueError, match=why):
        kernel.add_regions(next(con.cells for con in s.others if isinstance(con, Regions)),
                           s.size, (), pairs)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8, 9, 12, 16])
def test_anchors_are_in_distinct_regions(n):
    """Cells N or more steps apart cannot share a connected region of N cells."""
    found = anchors(n)
    assert found[0] == 0
    for a, b in itertools.combinations(found, 2):
        assert abs(a // n - b // n) + abs(a % n - b % n) >= n
    if n >= 4:
        assert len(found) == 3


def test_relabel_numbers_regions_by_their_first_cells():
    con = Regions(tuple(range(32)), width=4, label="chaos regions")
    digits = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)
    anchored = (1, 1, 3, 3, 1, 1, 3, 3, 4, 4, 2, 2, 4, 4, 2, 2)  # anchors' regions first
    out = relabel(digits + anchored, con)
    assert out[16:] == (1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4)
    assert con.holds(out) and not con.holds(digits + anchored)
