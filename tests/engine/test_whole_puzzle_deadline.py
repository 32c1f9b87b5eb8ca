"""The per-puzzle time limit over reading, building and lowering (`cpsudoku.grid.deadline`),
and the house analysis that once grew with the square of the regions."""

from __future__ import annotations

import random
import time

import pytest

from cpsudoku import parse_one, solve
from cpsudoku.engine.plan import MAX_INTERSECTIONS, intersections_of
from cpsudoku.errors import ExitCode, TimeLimitError
from cpsudoku.grid import deadline
from cpsudoku.grid.constraints import AllDifferent
from cpsudoku.result import Status

INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."


def test_no_limit_no_check():
    deadline.check()  # nothing open: nothing to run out
    with deadline.limit(None) as opened:
        assert opened is None and deadline.started() is None
        deadline.check()


def test_running_out_names_the_stage_and_is_a_timeout():
    with deadline.limit(0.001, "reading the puzzle") as opened:
        assert opened is not None and deadline.started() == opened.started
        time.sleep(0.01)
        with deadline.stage("building the model"), pytest.raises(TimeLimitError) as info:
            deadline.check()
        assert opened.stage == "reading the puzzle"  # the stage is restored on leaving
    assert str(info.value) == "time limit of 0.001 s reached while building the model"
    assert info.value.exit_code == ExitCode.TIMEOUT and opened.hit is info.value
    deadline.check()  # closed with its block


def test_an_inner_limit_goes_on_with_the_outer_one():
    with deadline.limit(30) as outer, deadline.limit(0.001) as inner:
        assert inner is outer
        time.sleep(0.01)
        deadline.check()  # 30 s, from the outer start


def test_reading_each_puzzle_of_a_file_starts_its_time_afresh():
    with deadline.limit(0.05, "reading the input", each_puzzle=True) as opened:
        for _ in range(4):
            time.sleep(0.02)
            parse_one(INKALA)  # each puzzle read restarts the clock
            deadline.check()
        assert opened.hit is None


class SlowRule:
    """A rule whose constraints take their time (the building stage)."""

    name = "slow"

    def constraints(self, geometry):
        time.sleep(0.05)
        return ()


def test_building_past_the_limit_is_a_timeout_result_naming_the_stage():
    puzzle = parse_one(INKALA).with_rules([SlowRule(), SlowRule(), SlowRule()])
    result = solve(puzzle, time_limit=0.02)
    assert result.status is Status.TIMEOUT and not result.solutions
    assert result.reason == "time limit of 0.02 s reached while building the model"
    assert result.as_dict()["reason"] == result.reason
    assert solve(parse_one(INKALA), time_limit=5).status is Status.SOLVED


def naive_intersections(units):
    out = []
    sets = [frozenset(u) for u in units]
    for a in range(len(units)):
        for b in range(a + 1, len(units)):
            shared = sets[a] & sets[b]
            if len(shared) >= 2:
                out.append((tuple(sorted(shared)), tuple(c for c in units[a] if c not in shared),
                            tuple(c for c in units[b] if c not in shared)))
    return tuple(out)


def test_intersections_are_those_of_every_pair_in_the_same_order():
    puzzle = parse_one(INKALA)
    units = [c.cells for c in puzzle.constraints() if isinstance(c, AllDifferent)]
    rng = random.Random(5)
    units += [tuple(rng.sample(range(81), 9)) for _ in range(40)]
    assert intersections_of(units) == naive_intersections(units)
    assert len(intersections_of(units[:27])) == 54  # rows and columns against boxes


def test_thousands_of_regions_take_no_time_and_keep_the_grids_own():
    rng = random.Random(6)
    units = [c.cells for c in parse_one(INKALA).constraints() if isinstance(c, AllDifferent)]
    units += [tuple(rng.sample(range(81), 9)) for _ in range(5000)]
    started = time.monotonic()
    found = intersections_of(units)
    assert time.monotonic() - started < 2
    assert len(found) == MAX_INTERSECTIONS
    assert set(intersections_of(units[:27])) <= set(found)  # the grid's own are kept
