"""Multi-grid boards on every backend: a published samurai solved to its recorded, only
solution, and a small board's solutions counted alike everywhere, the cells outside every
sub-grid left out of the answers and the counts."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from conftest import usable

from cpsudoku import backends, count, is_solution, solve
from cpsudoku.formats.puzzlefile import load

pytestmark = pytest.mark.cross

ROOT = Path(__file__).resolve().parents[2]
SAMURAI = load((ROOT / "examples" / "samurai.toml").read_text(encoding="utf-8"))[0]

# Two 4x4 grids sharing one 2x2 box; the first filled, the second free: the second
# grid's rows, columns and boxes around the shared box can be completed 12 ways.
SMALL = load('''
grids = [[1, 1], [3, 3]]
size = 4
grid = """
1234--
3412--
2143..
4321..
--....
--....
"""
''')[0]


def _nearly_solved():
    """The samurai's solution less the board's first and last rows: each blank is the
    only one of its sub-grid column, so the solution stays the only one."""
    values = list(SAMURAI.meta["solution"])
    width = SAMURAI.geometry.width
    for cell in [*range(width), *range(len(values) - width, len(values))]:
        values[cell] = 0
    return replace(SAMURAI, givens=tuple(values))


@pytest.mark.parametrize("backend", backends.names())
def test_a_published_samurai_is_unique_on_every_backend(backend):
    # plain backtracking (naive) is the baseline that shows what propagation buys: the
    # published puzzle is beyond it, a nearly solved board is not
    puzzle = _nearly_solved() if backend == "naive" else SAMURAI
    result = solve(puzzle, usable(backend), max_solutions=2, time_limit=120)
    assert result.status.value == "unique"
    assert result.solution == SAMURAI.meta["solution"]
    assert all(result.solution[c] == 0 for c in SAMURAI.geometry.absent)
    assert is_solution(SAMURAI, result.solution)


@pytest.mark.parametrize("backend", backends.names())
def test_a_small_board_counts_the_same_on_every_backend(backend):
    result = count(SMALL, usable(backend), limit=100, time_limit=60)
    assert result.status.value == "multiple"
    assert len(result.solutions) == 12
    assert len(set(result.solutions)) == 12
    assert all(is_solution(SMALL, s) for s in result.solutions)
