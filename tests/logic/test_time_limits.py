"""explain's time limit is kept inside a step too: the chain, forcing-chain and nested
searches read the solver's deadline (as rate's), so a step that would run for seconds
stops with it and the command ends with the timeout status."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from cpsudoku.cli import app
from cpsudoku.engine.clock import OutOfTime
from cpsudoku.errors import ExitCode
from cpsudoku.formats.read import parse_one
from cpsudoku.logic import explain
from cpsudoku.logic.solver import Solver
from cpsudoku.logic.techniques import chains, nested
from cpsudoku.logic.techniques.forcing import ForcingSearch

# SE 11.1: its third step is a nested forcing chain whose search alone runs for seconds
HARD = "98.7..6..5..9..7......4....6..8..5....9..3.....8..7.2.1.......7.6..791.....1...65"
LIMIT = 1.0
ALLOWED = 1.5  # past the limit, for the step under way to notice it and the output
runner = CliRunner()


@pytest.fixture(scope="module")
def open_grid():
    """The hard puzzle's grid after its first step: chains everywhere, and no step soon."""
    solver = Solver(parse_one(HARD))
    state = solver.start()
    solver.advance(state, 1)
    return state


def test_searches_stop_once_the_deadline_has_passed(open_grid, monkeypatch):
    state = open_grid
    state.deadline = time.monotonic() - 1
    try:
        with pytest.raises(OutOfTime):
            chains.forcing_chain_paths(state, True, 7.0, "Forcing Chain")
        with pytest.raises(OutOfTime):
            chains.cycles(state, True, True, 7.0, "Bidirectional Cycle")
        with pytest.raises(OutOfTime):
            ForcingSearch(state, 8.5, True, True, True, False, "Dynamic ").inner_found()
        # an inner search, on an assumption's grid, stops with the outer deadline too
        monkeypatch.setattr(nested, "_MEMO", {})
        rules = nested.rules_of(4, state.deadline)
        with pytest.raises(OutOfTime):
            rules(state.layout, state.cand[:], state.cand[:])
        assert nested._MEMO == {}  # nothing half-searched is remembered
    finally:
        state.deadline = None
    # without a deadline the same searches run to their end
    assert chains.forcing_chain_paths(state, True, 7.0, "Forcing Chain") is not None


@pytest.mark.timing
def test_explain_stops_within_a_step_at_its_time_limit():
    started = time.monotonic()
    done = runner.invoke(app, ["explain", HARD, "-t", str(LIMIT)])
    elapsed = time.monotonic() - started
    assert done.exit_code == ExitCode.TIMEOUT, done.output
    assert "internal error" not in done.output
    assert "stopped (time limit)" in done.stdout
    assert elapsed < LIMIT + ALLOWED, elapsed


@pytest.mark.timing
def test_explain_json_says_timeout():
    done = runner.invoke(app, ["explain", HARD, "-t", str(LIMIT), "-f", "json"])
    assert done.exit_code == ExitCode.TIMEOUT, done.output
    record = json.loads(done.stdout)
    assert record["status"] == "timeout" and record["solved"] is False


@pytest.mark.timing
def test_the_api_explain_and_rate_stop_at_their_limit():
    from cpsudoku.logic import RatingTimeout, rate

    started = time.monotonic()
    done = explain(HARD, time_limit=LIMIT)
    assert not done.solved and time.monotonic() - started < LIMIT + ALLOWED
    started = time.monotonic()
    with pytest.raises(RatingTimeout):
        rate(HARD, time_limit=LIMIT)
    assert time.monotonic() - started < LIMIT + ALLOWED


@pytest.mark.process
@pytest.mark.timing
def test_the_command_ends_soon_after_its_limit():
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "cpsudoku", "explain", HARD, "-t", str(LIMIT)],
                          capture_output=True, text=True, timeout=60)
    elapsed = time.monotonic() - started
    assert done.returncode == ExitCode.TIMEOUT, done.stderr
    assert "internal error" not in done.stderr and "stopped (time limit)" in done.stdout
    # start-up included; a busy shared machine may take a second more to start Python
    assert elapsed < LIMIT + ALLOWED + 1.5, elapsed
