"""f-puzzles arrows with several lines from one circle: each line is an arrow of its own,
summing to the circle alone (as f-puzzles, SudokuPad and Rangsk's solver read them), on
every backend and through the f-puzzles and ISS writers."""

from __future__ import annotations

import pytest
from conftest import usable

from cpsudoku import backends, count, is_solution, solve
from cpsudoku import rules as R
from cpsudoku.errors import BackendError, ModelError
from cpsudoku.formats import iss
from cpsudoku.formats.fpuzzles import from_fpuzzles
from cpsudoku.formats.fpuzzles_write import link, to_fpuzzles
from cpsudoku.formats.read import parse
from cpsudoku.grid.puzzle import Puzzle

N = 4
GIVENS = "2000001000000000"
# A circle at r2c2 with two lines: r3c3 alone, and r2c3-r2c4. Read as two arrows, r3c3
# equals the circle and r2c3 + r2c4 does too: one solution. Read as one sum over both
# lines the same grid has none.
ARROW = {"cells": ["R2C2"], "lines": [["R2C2", "R3C3"], ["R2C2", "R2C3", "R2C4"]]}
SOLUTION = tuple(int(d) for d in "2143431212343421")


def fp(**keys) -> dict:
    grid = [[{"value": int(GIVENS[r * N + c]), "given": True} if GIVENS[r * N + c] != "0"
             else {} for c in range(N)] for r in range(N)]
    return {"size": N, "grid": grid, "arrow": [ARROW], **keys}


def declines(backend: str, puzzle: Puzzle) -> bool:
    """Whether the backend refuses the puzzle's rules on the lowered model (dlx: exact
    cover has no sums), as the variant tests decide it."""
    from cpsudoku.model import build_model, lower_for
    model, engine = build_model(puzzle), backends.get(backend)
    if model.aux_domains and not engine.auxiliary:
        return True
    try:
        lower_for(model, engine.native_kinds, backend)
    except BackendError as exc:
        assert "cannot be expressed" in str(exc)
        return True
    return False


def test_each_line_is_an_arrow_to_the_same_circle():
    puzzle = from_fpuzzles(fp())
    [arrows] = [r for r in puzzle.rules if isinstance(r, R.Arrows)]
    assert [(a.circle, a.lines) for a in arrows.elements] == [
        (((2, 2),), (((3, 3),),)), (((2, 2),), (((2, 3), (2, 4)),))]


def test_the_two_readings_differ_on_this_puzzle():
    puzzle = from_fpuzzles(fp())
    [arrows] = [r for r in puzzle.rules if isinstance(r, R.Arrows)]
    one_sum = R.Arrows([R.Arrow(((2, 2),), tuple(a.lines[0] for a in arrows.elements))])
    summed = Puzzle(puzzle.geometry, puzzle.givens,
                    tuple(one_sum if r is arrows else r for r in puzzle.rules))
    assert count(summed, "native").solutions == []
    assert count(puzzle, "native").solutions == [SOLUTION]


@pytest.mark.cross
@pytest.mark.parametrize("backend", backends.names())
def test_every_backend_finds_the_one_solution(backend):
    puzzle = from_fpuzzles(fp())
    if declines(usable(backend), puzzle):
        with pytest.raises(BackendError, match="cannot be expressed"):
            solve(puzzle, backend, max_solutions=2)
        return
    result = solve(puzzle, backend, max_solutions=2, time_limit=60)
    assert result.status.value == "unique", result.status
    assert result.solution == SOLUTION
    assert is_solution(puzzle, result.solution)


def test_the_f_puzzles_writer_keeps_the_lines_of_one_circle_together():
    puzzle = from_fpuzzles(fp())
    written = to_fpuzzles(puzzle)
    assert written["arrow"] == [ARROW]
    for back in (from_fpuzzles(written), parse(link(puzzle))[0]):
        assert solve(back, "native", max_solutions=2).solutions == [SOLUTION]


def test_the_iss_writer_writes_each_line_as_an_arrow():
    text = iss.dumps(from_fpuzzles(fp()))
    assert text.count(".Arrow~") == 2
    assert ".Arrow~R2C2~R3C3" in text and ".Arrow~R2C2~R2C3~R2C4" in text
    assert solve(iss.from_string(text), "native", max_solutions=2).solutions == [SOLUTION]


def test_a_pill_with_two_lines_is_two_arrows_from_the_pill():
    pill = {"cells": ["R1C1", "R1C2"], "lines": [["R1C2", "R2C3"], ["R1C1", "R2C1", "R3C1"]]}
    puzzle = from_fpuzzles({"size": 9, "grid": [[{}] * 9 for _ in range(9)], "arrow": [pill]})
    [arrows] = [r for r in puzzle.rules if isinstance(r, R.Arrows)]
    assert [a.lines for a in arrows.elements] == [(((2, 3),),), (((2, 1), (3, 1)),)]
    assert all(a.circle == ((1, 1), (1, 2)) for a in arrows.elements)
    assert to_fpuzzles(puzzle)["arrow"] == [pill]


def test_one_sum_over_several_lines_is_refused_by_both_writers():
    # cpsudoku's own arrow may sum several lines together: f-puzzles would read each line
    # as an arrow of its own, a different puzzle
    puzzle = from_fpuzzles(fp(arrow=[]))
    summed = Puzzle(puzzle.geometry, puzzle.givens,
                    (R.Arrows([R.Arrow.of("r2c2", lines=[["r3c3"], ["r2c3", "r2c4"]])]),))
    with pytest.raises(ModelError, match="f-puzzles has no form for one sum over several"):
        to_fpuzzles(summed)
    with pytest.raises(ModelError, match="summing several lines from one circle has no ISS"):
        iss.dumps(summed)


def test_a_circle_without_a_line_is_still_refused():
    with pytest.raises(ModelError, match="arrow 1 at r2c2 needs a circle and at least one"):
        from_fpuzzles(fp(arrow=[{"cells": ["R2C2"], "lines": [["R2C2"]]}])).constraints()
