"""Full rank: the lowering against the rule as ISS states it, on every 4x4 grid; ISS's
full-rank puzzles on the backends; refusals, files and ISS strings."""

from __future__ import annotations

import pytest

from cpsudoku import boxed, is_solution, solve
from cpsudoku.bench.iss import load_puzzles, recorded_solution
from cpsudoku.errors import BackendError, CpsudokuError, ModelError
from cpsudoku.formats import iss, puzzlefile
from cpsudoku.grid.puzzle import Puzzle
from cpsudoku.grid.ranks import FullRank
from cpsudoku.logic import explain
from cpsudoku.rules.full_rank import EDGES, TIES, FullRanks, smaller_readings
from cpsudoku.rules.outside import OutsideClue, line_cells

FOUR = boxed(4)


def readings(grid, n: int) -> dict[tuple, tuple[int, ...]]:
    """Every row and column read from both ends, by (line, index, side)."""
    return {(line, i, side): tuple(grid[(r - 1) * n + c - 1]
                                   for r, c in line_cells(line, i, side, boxed(n)))
            for line, side in EDGES for i in range(1, n + 1)}


def rank_holds(grid, n: int, place: tuple, rank: int, ties: str) -> bool:
    """The rule as ISS states it: the reading's rank is one more than the readings
    smaller than it; "only-unclued" and "none" forbid a reading equal to a clued one,
    "none" any two equal readings."""
    all_readings = readings(grid, n)
    reading = all_readings[place]
    ok = 1 + sum(other < reading for other in all_readings.values()) == rank
    if ties != "any":
        ok = ok and list(all_readings.values()).count(reading) == 1
    if ties == "none":
        ok = ok and len(set(all_readings.values())) == len(all_readings)
    return ok


@pytest.fixture(scope="module")
def every_4x4_grid():
    grids = solve(Puzzle(FOUR, (0,) * 16), "native", max_solutions=1000).solutions
    assert len(grids) == 288
    return grids


@pytest.mark.parametrize("ties", TIES)
def test_lowering_means_the_rank_on_every_4x4_grid(every_4x4_grid, ties):
    tied = [g for g in every_4x4_grid if len(set(readings(g, 4).values())) < 16]
    assert tied  # the grids include readings that tie
    for line, side in EDGES:
        for index in range(1, 5):
            for rank in range(1, 17):
                rule = FullRanks([OutsideClue(rank, line, index, side)], ties=ties)
                cons = rule.constraints(FOUR)
                [whole] = [c for c in cons if isinstance(c, FullRank)]
                pieces = [p for c in cons for p in c.pieces]
                assert whole not in pieces
                for grid in every_4x4_grid:
                    meant = rank_holds(grid, 4, (line, index, side), rank, ties)
                    assert whole.check(grid) == meant, ("whole", ties, line, index, side, rank)
                    assert all(p.check(grid) for p in pieces) == meant, (
                        "pieces", ties, line, index, side, rank)


def test_no_ties_holds_without_clues(every_4x4_grid):
    [whole] = FullRanks([], ties="none").constraints(FOUR)
    pieces = whole.pieces
    assert len(pieces) == 3 * 16 - 4  # the pairs of readings that could be equal
    for grid in every_4x4_grid:
        distinct = len(set(readings(grid, 4).values())) == 16
        assert whole.check(grid) == distinct
        assert all(c.check(grid) for c in pieces) == distinct


def test_automata_stay_small_and_shared():
    # a rank among 3 other readings: place in a block, readings below, comparison
    assert smaller_readings(9, 5, 2, False).states < 400
    assert smaller_readings(16, 1, 1, True).states < 1000
    assert smaller_readings(9, 5, 2, False) is smaller_readings(9, 5, 2, False)


# --- ISS's full-rank puzzles -----------------------------------------------------------

def iss_puzzles():
    for entry in load_puzzles("all", name="full rank"):
        puzzle, why = None, None
        try:
            puzzle = iss.from_string(entry["input"], source=entry["name"])
        except CpsudokuError as exc:
            why = str(exc)
        yield entry, puzzle, why


ISS = list(iss_puzzles())
SMALL = [(e, p) for e, p, _ in ISS if p is not None and p.size == 4]


def test_every_iss_full_rank_puzzle_is_read_the_0_based_one_too():
    assert len(ISS) == 11
    assert [(e["name"], why) for e, p, why in ISS if p is None] == []
    [zero] = [p for e, p, _ in ISS if e["name"] == "0-indexed: 4x4 Full Rank"]
    assert zero.geometry.digits == range(0, 4)


@pytest.mark.parametrize("entry, puzzle", [(e, p) for e, p, _ in ISS if p is not None],
                         ids=lambda x: x["name"] if isinstance(x, dict) else "")
@pytest.mark.parametrize("backend", ["native", "cpsat"])
def test_iss_puzzles_solve_to_their_recorded_solution(entry, puzzle, backend):
    result = solve(puzzle, backend, max_solutions=2, time_limit=60)
    assert result.status.value == "unique"
    g = puzzle.geometry
    assert result.solution == recorded_solution(entry["solution"], g.size, first=g.first,
                                                values=g.values)


@pytest.mark.cross
@pytest.mark.parametrize("backend", ["python-constraint", "sat", "mip", "choco", "naive"])
def test_the_4x4_puzzles_agree_on_every_backend(backend):
    for entry, puzzle in SMALL:
        try:
            result = solve(puzzle, backend, max_solutions=2, time_limit=60)
        except (BackendError, ModuleNotFoundError) as exc:
            pytest.skip(f"{backend} is not usable here: {exc}")
        assert result.status.value == "unique", entry["name"]
        g = puzzle.geometry
        assert result.solution == recorded_solution(entry["solution"], 4, first=g.first,
                                                    values=g.values), entry["name"]
        assert is_solution(puzzle, result.solution)


def test_tie_rules_change_the_answer():
    # ISS's pair "with ties" / "tied clues": the same clues, tied ranks allowed or not
    clues = ".Shape~4x4.FullRank~C1~10~.FullRank~C2~15~.FullRank~R4~5~"
    assert solve(iss.from_string(clues + ".FullRankTies~any"), max_solutions=2).status.value \
        == "unique"
    # without "any", the reading ranked 15 cannot tie: no grid fits
    assert solve(iss.from_string(clues), max_solutions=2).status.value == "unsolvable"


def test_the_logical_solver_reasons_with_a_clue():
    [puzzle] = puzzlefile.load((puzzlefile_path()).read_text(encoding="utf-8"))
    ex = explain(puzzle)
    assert ex.solved and not ex.stuck
    assert any(s.technique == "By Rule" and "full-rank clue 1 (10) above column 1" in s.text
               for s in ex.steps)


def puzzlefile_path():
    from pathlib import Path
    return Path(__file__).resolve().parents[2] / "examples" / "variants" / "full-ranks.toml"


# --- refusals, files and strings ---------------------------------------------------------

@pytest.mark.parametrize("data, message", [
    ({"full_ranks": [{"row": 1, "value": 37}]},
     "full-rank clue 1 (37) left of row 1: the clue 37 is outside 1..36 on 9x9"),
    ({"full_ranks": [{"row": 1, "value": 0}]}, "the clue 0 is outside 1..36"),
    ({"full_ranks": [{"column": 10, "value": 3}]}, "column 10 is outside the 9x9 grid"),
    ({"full_ranks": [{"row": 2, "side": "left", "value": 3}]},
     "full-rank clue 1 (3) left row 2: side must be start or end, not 'left'"),
    ({"full_ranks": [{"row": 2, "value": 3}, {"row": 2, "side": "start", "value": 4}]},
     "full-rank clue 2 (4) left of row 2: full-rank clue 1 (3) left of row 2 already "
     "stands there"),
    ({"full_rank_ties": "some"}, "full_rank_ties: 'some' is not one of only-unclued, any, none"),
    ({"full_ranks": [{"cells": ["r1c1"], "value": 3}]},
     "full-rank clue 1: unknown key 'cells'"),
])
def test_bad_clues_are_refused_by_name(data, message):
    with pytest.raises(ModelError) as err:
        solve(puzzlefile.from_dict(data), "native")
    assert message in str(err.value)


@pytest.mark.parametrize("ties", TIES)
def test_puzzle_file_and_iss_string_round_trip(ties):
    data = {"size": 4, "full_ranks": [{"column": 1, "side": "start", "value": 10},
                                      {"row": 3, "side": "end", "value": 5}],
            "full_rank_ties": ties}
    puzzle = puzzlefile.from_dict(data)
    [again] = puzzlefile.load(puzzlefile.dumps(puzzle))
    assert again.rules == puzzle.rules
    text = iss.dumps(puzzle)
    assert ".FullRank~C1~10~" in text and ".FullRank~R3~~5" in text
    assert (".FullRankTies~" + ties in text) == (ties != "only-unclued")
    assert iss.from_string(text).rules == puzzle.rules
    assert iss.dumps(iss.from_string(text)) == text


def test_iss_ties_take_one_argument():
    with pytest.raises(CpsudokuError, match=r"FullRankTies, column 1\): expects one of"):
        iss.from_string(".FullRankTies")


def test_f_puzzles_refuses_full_rank_by_name():
    from cpsudoku.formats.fpuzzles_write import to_fpuzzles
    puzzle = puzzlefile.from_dict({"full_ranks": [{"row": 1, "value": 3}]})
    with pytest.raises(ModelError, match="full ranks .*f-puzzles has no form for this rule"):
        to_fpuzzles(puzzle)
