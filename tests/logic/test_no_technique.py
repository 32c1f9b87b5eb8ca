"""When no technique applies, the logical solver stops: it never takes a value from the
solution. explain ends unfinished (status stuck), rate puts the puzzle beyond the scale,
hint says so; each exits 9."""

from __future__ import annotations

import csv
import io
import json

import pytest
from conftest import with_two_solutions
from typer.testing import CliRunner

from cpsudoku import explain, hint, parse_one, rate, solve
from cpsudoku.batch.rating import logic_exit_code
from cpsudoku.cli import app
from cpsudoku.errors import ExitCode
from cpsudoku.logic import Rating
from cpsudoku.logic.api import HINT_STUCK
from cpsudoku.logic.state import bit_values
from cpsudoku.result import Status

# An X-Sum from ISS's examples: one solution, which no technique reaches from the start
# (the rules remove candidates, then nothing applies to an empty grid).
XSUM = (".XSum~C2~27~27.XSum~C4~11~11.XSum~C6~21~.XSum~C7~16~16.XSum~R2~8~8.XSum~R4~17~17"
        ".XSum~R6~30~30.XSum~R8~28~28.")
# A classic grid with a deadly rectangle blanked: two solutions, so with --allow-multiple
# nothing tells them apart and the solver stops at once.
TUTORIAL = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
runner = CliRunner()


@pytest.fixture(scope="module", autouse=True)
def without_the_engine_steps():
    """The techniques below the rule contradictions only: with the engine's
    contradictions the X-Sum is explained to the end (see the last test), and a
    unique puzzle they cannot finish takes minutes to show; what is tested here is
    what the solver does when nothing applies."""
    from cpsudoku.logic.techniques import rulecontradiction
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(rulecontradiction, "prober", lambda layout: None)
        yield


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def two_solutions() -> str:
    return with_two_solutions(TUTORIAL)


@pytest.fixture(scope="module")
def xsum():
    puzzle = parse_one(XSUM)
    found = solve(puzzle, max_solutions=2)
    assert found.status is Status.UNIQUE
    return puzzle, found.solution, explain(puzzle)


@pytest.fixture(scope="module")
def xsum_file(tmp_path_factory):
    """The CLI reads an ISS puzzle from a file (inline text names a grid)."""
    path = tmp_path_factory.mktemp("xsum") / "x-sum.txt"
    path.write_text(XSUM + "\n")
    return path


def test_explain_stops_with_every_step_sound(xsum):
    puzzle, solution, done = xsum
    assert not done.solved and done.stuck and done.status == "stuck"
    assert done.steps, "the rules still remove candidates before it stops"
    for step in done.steps:
        assert all(solution[c] == v for c, v in step.placements), step.text
        assert all(solution[c] != v for c, v in step.eliminations), step.text
        assert step.technique != "Guess"
    # the pencil marks left still hold the solution, and something is left to find
    left = [c for c, v in enumerate(done.grid) if not v]
    assert left and all(solution[c] in bit_values(done.candidates[c]) for c in left)
    assert all(v in (0, solution[c]) for c, v in enumerate(done.grid))


def test_explain_cli_ends_with_the_candidate_grid_and_exit_9(xsum, xsum_file):
    _puzzle, _solution, done = xsum
    result = run("explain", xsum_file)
    assert result.exit_code == ExitCode.NO_LOGIC, result.output
    lines = result.stdout.splitlines()
    hardest = max(s.rating for s in done.steps)
    left = sum(1 for v in done.grid if not v)
    stop = f"stopped: no technique applies ({left} cells left) after {len(done.steps)} " \
           f"steps; hardest step {hardest:.1f}"
    assert stop in lines, result.stdout
    grid = lines[lines.index(stop) + 1:]
    assert len(grid) == 11 and sum(line.count("|") for line in grid) == 18  # 9 rows, 2 rules
    assert "solution" not in result.stdout


def test_rate_puts_it_beyond_the_scale(xsum, xsum_file):
    puzzle, _solution, done = xsum
    r = rate(puzzle)
    assert r.beyond and r.status == "beyond" and r.er is None
    assert r.level == "beyond the scale" and r.steps == len(done.steps)
    assert r.hardest == max(s.rating for s in done.steps)
    assert r.ed == done.steps[0].rating  # the first step was made: ED holds
    placed = [i for i, s in enumerate(done.steps) if s.placements]
    if placed:  # EP once a placement was made, else none
        assert r.ep == max(s.rating for s in done.steps[:placed[0] + 1])
    else:
        assert r.ep is None
    result = run("rate", xsum_file, "-f", "jsonl")
    assert result.exit_code == ExitCode.NO_LOGIC, result.output
    record = json.loads(result.stdout)
    assert record["status"] == "beyond" and record["er"] is None
    assert record["level"] == "beyond the scale" and "guesses" not in record
    assert record["message"] == (f"no technique applies after {r.steps} steps; hardest step "
                                 f"{r.hardest:.1f}")


def test_hint_from_where_it_stopped_says_so(xsum):
    puzzle, _solution, done = xsum
    marks = [v if v else set(bit_values(m)) for v, m in zip(done.grid, done.candidates)]
    h = hint(puzzle, marks)
    assert h.step is None and h.stuck and h.wrong == []
    assert h.as_dict() == {"step": None, "wrong": [], "stuck": True}


def test_several_solutions_along_one_stop_at_once_in_every_format():
    grid = two_solutions()
    result = run("explain", grid, "--allow-multiple", "-f", "json")
    assert result.exit_code == ExitCode.NO_LOGIC, result.output
    record = json.loads(result.stdout)
    assert record["status"] == "stuck" and record["solved"] is False and record["steps"] == []
    assert record["cells_left"] == 4 and len(record["candidates"]) == 4
    assert all(len(values) == 2 for values in record["candidates"].values())
    result = run("explain", grid, "--allow-multiple", "-f", "jsonl")
    assert result.exit_code == ExitCode.NO_LOGIC, result.output
    last = json.loads(result.stdout.splitlines()[-1])
    assert (last["status"], last["solved"], last["steps"], last["cells_left"]) == \
        ("stuck", False, 0, 4)
    result = run("explain", grid, "--allow-multiple")
    assert "stopped: no technique applies (4 cells left) after 0 steps; hardest step 0.0" \
        in result.stdout
    result = run("rate", grid, "--allow-multiple")
    assert result.exit_code == ExitCode.NO_LOGIC, result.output
    assert result.stdout.startswith("<argument>:1: beyond the scale (no technique applies "
                                    "after 0 steps; hardest step 0.0, NOT UNIQUE")
    result = run("rate", grid, "--allow-multiple", "-f", "csv")
    assert result.exit_code == ExitCode.NO_LOGIC, result.output
    row = next(csv.DictReader(io.StringIO(result.stdout)))
    assert (row["status"], row["er"], row["ep"], row["ed"], row["level"], row["steps"]) == \
        ("beyond", "", "", "", "beyond the scale", "0")
    assert "guesses" not in row
    result = run("hint", grid, "--allow-multiple")
    assert result.exit_code == ExitCode.NO_LOGIC and result.stdout.strip() == HINT_STUCK
    result = run("hint", grid, "--allow-multiple", "-f", "json")
    assert result.exit_code == ExitCode.NO_LOGIC
    record = json.loads(result.stdout)
    assert (record["status"], record["step"], record["message"]) == ("stuck", None, HINT_STUCK)


def test_exit_status_ranks_beyond_after_no_solution_and_before_a_timeout():
    NO, BEYOND, TIMEOUT, SEVERAL = (ExitCode.UNSOLVABLE, ExitCode.NO_LOGIC,
                                    ExitCode.TIMEOUT, ExitCode.NOT_UNIQUE)
    assert logic_exit_code({SEVERAL, TIMEOUT, BEYOND, NO}) == NO
    assert logic_exit_code({SEVERAL, TIMEOUT, BEYOND, 0}) == BEYOND
    assert logic_exit_code({SEVERAL, TIMEOUT}) == TIMEOUT
    assert logic_exit_code({ExitCode.BAD_INPUT, NO, BEYOND}) == ExitCode.BAD_INPUT
    assert logic_exit_code({0}) == logic_exit_code(set()) == 0


def test_a_puzzle_beyond_the_scale_is_in_no_generator_band(monkeypatch):
    from cpsudoku.generator import bands, core
    beyond = Rating(None, None, 1.0, "beyond the scale", {}, 0.0, steps=3, hardest=2.0)
    monkeypatch.setattr(bands, "rater", lambda: lambda puzzle: beyond)
    for difficulty in ("easy", "diabolical"):  # guarded while blanking, and after
        with pytest.raises(core.GenerationTimeout):
            core.generate(seed=3, difficulty=difficulty, time_limit=0.5)


def test_the_play_page_hint_says_stuck_and_reveals_nothing(monkeypatch):
    pytest.importorskip("pydantic")
    from cpsudoku import logic
    from cpsudoku.logic import Hint
    from cpsudoku.web import jobs
    from cpsudoku.web.schemas import HintIn, RateIn
    monkeypatch.setattr(logic, "hint", lambda *a, **k: Hint(None, [], stuck=True))
    got = jobs.hint(HintIn(puzzle=TUTORIAL))
    assert got == {"step": None, "words": None, "wrong": [], "status": "stuck",
                   "message": HINT_STUCK}
    beyond = Rating(None, None, 1.0, "beyond the scale", {"By Rule": 3}, 0.0, steps=3,
                    hardest=2.0)
    monkeypatch.setattr(logic, "rate", lambda *a, **k: beyond)
    got = jobs.rate(RateIn(puzzle=TUTORIAL))
    assert (got["er"], got["ep"], got["ed"], got["level"], got["steps"], got["hardest"]) == \
        (None, None, 1.0, "beyond the scale", 3, 2.0)


def test_the_engine_steps_finish_it(xsum):
    from cpsudoku.logic import probing
    from cpsudoku.logic.techniques import rulecontradiction
    puzzle, solution, _stuck = xsum
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(rulecontradiction, "prober", probing.prober)  # the real one, here
        done = explain(puzzle, time_limit=120)
    assert done.solved and done.grid == list(solution)
    assert any(s.technique.endswith("Rule Contradiction")
               or "no way of keeping the rule" in s.reason for s in done.steps)
    for step in done.steps:
        assert all(solution[c] == v for c, v in step.placements), step.text
        assert all(solution[c] != v for c, v in step.eliminations), step.text
