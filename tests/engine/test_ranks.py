"""Full rank (`FullRank`): the native engine's own pass and branching hint against the
automata that restate the rule (`pieces`, which the Python engine and every other
backend read) and against the definition."""

from __future__ import annotations

import random

import pytest

from cpsudoku import Puzzle, boxed, solve
from cpsudoku.engine import vkernel
from cpsudoku.engine.plan import compile_model
from cpsudoku.grid.ranks import TIES, FullRank, reading_cells
from cpsudoku.model import build_model
from cpsudoku.rules.full_rank import FullRanks
from cpsudoku.rules.outside import OutsideClue, line_cells

pytestmark = pytest.mark.unit

needs_vkernel = pytest.mark.skipif(not vkernel.available(), reason="the C kernel is not built")

FOUR = boxed(4)
PLACES = [(line, index, side) for line in ("row", "column") for side in ("start", "end")
          for index in range(1, 5)]
GRIDS = solve(Puzzle(FOUR, (0,) * 16), "native", max_solutions=300).solutions


def random_rule(rng: random.Random, ties: str) -> FullRanks:
    """One to four clues read off a random grid (their true ranks), one of them now and
    then moved by one: clues that hold, and some that do not."""
    grid = rng.choice(GRIDS)
    readings = {place: tuple(grid[(r - 1) * 4 + c - 1] for r, c in line_cells(*place, FOUR))
                for place in PLACES}
    clues = []
    for place in rng.sample(PLACES, rng.randint(1, 4)):
        rank = 1 + sum(other < readings[place] for other in readings.values())
        if rng.random() < 0.2:
            rank = min(16, max(1, rank + rng.choice((-1, 1))))
        if all(rank != c.value for c in clues):
            clues.append(OutsideClue(rank, *place))
    return FullRanks(clues, ties=ties)


def every_solution(puzzle: Puzzle, kernel: str) -> tuple[set, dict]:
    result = solve(puzzle, "native", max_solutions=300, kernel=kernel)
    assert result.status.value != "timeout"
    return {tuple(s) for s in result.solutions}, result.stats


@needs_vkernel
@pytest.mark.parametrize("ties", TIES)
@pytest.mark.parametrize("seed", range(20))
def test_the_pass_finds_what_the_automata_find(seed, ties):
    """Every solution of random clues (one to four, any ties rule) on an empty 4x4 grid:
    the C pass and the Python engine's automata agree, and each solution meets the
    definition (`FullRank.holds`)."""
    rng = random.Random(seed * 7 + TIES.index(ties))
    rule = random_rule(rng, ties)
    puzzle = Puzzle(FOUR, (0,) * 16, (rule,))
    [whole] = [c for c in rule.constraints(FOUR) if isinstance(c, FullRank)]
    by_pass, stats = every_solution(puzzle, "c")
    by_automata, _ = every_solution(puzzle, "python")
    assert stats.get("kernel", "c") == "c"  # (none when the givens' domains fail at once)
    assert by_pass == by_automata, rule
    assert all(whole.check(s) for s in by_pass)


@needs_vkernel
def test_clues_that_share_a_rank_fall_back_to_the_automata():
    # two readings both ranked 15 tie, which only "any" allows: the kernel's pass
    # orders clued readings, so such clues are searched through their automata
    rule = FullRanks([OutsideClue(15, "row", 4, "start"), OutsideClue(15, "row", 1, "end")],
                     ties="any")
    puzzle = Puzzle(FOUR, (0,) * 16, (rule,))
    [whole] = [c for c in rule.constraints(FOUR) if isinstance(c, FullRank)]
    assert vkernel.applicable(compile_model(build_model(puzzle))) is not None
    found, _ = every_solution(puzzle, "auto")
    assert found and all(s[12:16] == s[3::-1] for s in found)  # row 4 reads as row 1 back
    assert found == every_solution(puzzle, "python")[0]
    assert all(whole.check(s) for s in found)


@needs_vkernel
def test_the_hint_and_the_pass_solve_a_six_clue_snipe_quickly():
    # ISS's "Full rank - 6 clue snipe": no digit given; through the automata alone
    # native passed a minute on it
    from cpsudoku.formats import iss
    puzzle = iss.from_string(".FullRank~R5~17~.FullRank~R4~1~.FullRank~C2~32~.FullRank~C3~28~"
                             ".FullRank~C4~23~.FullRank~R1~34~.")
    result = solve(puzzle, "native", max_solutions=2, time_limit=30)
    assert result.status.value == "unique"
    assert "".join(map(str, result.solution)) == (
        "987624153654381972231975648179842536568793214423156789845267391396518427712439865")
    assert result.stats["nodes"] < 2_000


@needs_vkernel
@pytest.mark.parametrize("damage", ["cell off the grid", "a reading short", "clue twice"])
def test_the_kernel_refuses_damaged_full_rank_data(damage):
    """The readings' cells come as data from `grid/ranks`; the kernel checks them."""
    plan = compile_model(build_model(Puzzle(FOUR, (0,) * 16)))
    con = FullRank(tuple(range(16)), clues=((0, 1), (5, 9)), size=4)
    clues = [list(clue) for clue in con.clues]
    readings = [at for r in range(16) for at in reading_cells(r, 4)]
    if damage == "cell off the grid":
        readings[-1] = 16
    elif damage == "a reading short":
        readings.pop()
    else:
        clues[1][0] = 0  # the second clue's reading is the first's
    kernel = vkernel._vkernel.VKernel(plan.size, plan.units, plan.peers, plan.intersections)
    with pytest.raises(ValueError, match="full-rank|full rank"):
        kernel.add_ranks(con.cells, 0, clues, readings)
