"""rate, explain and hint refuse a puzzle without exactly one solution, in every format,
with the statuses and exit codes of solve and count; --allow-multiple goes on, marked.
rate has a time limit and a json format."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cpsudoku.cli import app
from cpsudoku.errors import ExitCode

INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
SEVERAL = "." + INKALA[1:]  # its first given removed: several solutions
EMPTY = "." * 81
EASY_PUZZLE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
NONE = "12345678." + "........9" + "." * 63
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def run(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


@pytest.mark.parametrize("command", ["rate", "explain", "hint"])
@pytest.mark.parametrize("puzzle", [SEVERAL, EMPTY], ids=["one-given-less", "empty"])
def test_several_solutions_are_refused_in_every_format(command, puzzle):
    formats = {"rate": ["pretty", "json", "jsonl", "csv"], "explain": ["pretty", "json",
                                                                    "jsonl"],
               "hint": ["pretty", "json", "jsonl"]}[command]
    for fmt in formats:
        done = run(command, puzzle, "-f", fmt)
        assert done.exit_code == ExitCode.NOT_UNIQUE, (fmt, done.output)
        assert "not unique" in done.output
        if fmt in ("json", "jsonl"):
            assert json.loads(done.stdout)["status"] == "multiple"
        if fmt == "csv":
            assert done.stdout.splitlines()[1].split(",")[3] == "multiple"


@pytest.mark.parametrize("command", ["rate", "explain", "hint"])
def test_no_solution_is_status_unsolvable(command):
    done = run(command, NONE, "-f", "jsonl")
    assert done.exit_code == ExitCode.UNSOLVABLE, done.output
    assert json.loads(done.stdout)["status"] == "unsolvable"


def two_solutions() -> str:
    """A solved grid with a rectangle's four corners blanked whose values can swap (two
    rows of one band, two columns of two boxes): two solutions, rated in an instant."""
    from cpsudoku import solve
    grid = solve(EASY_PUZZLE).solution
    for r1 in range(9):
        for r2 in range(r1 + 1, 3 * (r1 // 3) + 3):
            for c1 in range(9):
                for c2 in range(c1 + 1, 9):
                    if (c1 // 3 != c2 // 3 and grid[r1 * 9 + c1] == grid[r2 * 9 + c2]
                            and grid[r1 * 9 + c2] == grid[r2 * 9 + c1]):
                        cells = {r * 9 + c for r in (r1, r2) for c in (c1, c2)}
                        return "".join("." if i in cells else str(v)
                                       for i, v in enumerate(grid))
    raise AssertionError("no swappable rectangle")


def test_allow_multiple_goes_on_along_the_solutions_and_says_so():
    # No technique tells two solutions apart, and no step takes a value from one of
    # them: the solver stops where they differ, so the puzzle is beyond the scale.
    two = two_solutions()
    assert run("count", two).exit_code == ExitCode.NOT_UNIQUE
    assert run("rate", two).exit_code == ExitCode.NOT_UNIQUE
    done = run("rate", two, "--allow-multiple", "-f", "jsonl")
    assert done.exit_code == ExitCode.NO_LOGIC, done.output
    record = json.loads(done.stdout)
    assert record["status"] == "beyond" and record["unique"] is False and record["er"] is None
    assert "NOT UNIQUE" in run("rate", two, "--allow-multiple").stdout
    done = run("hint", EMPTY, "--allow-multiple")
    assert done.exit_code == ExitCode.NO_LOGIC and "no technique applies" in done.stdout


@pytest.mark.timing
def test_rate_stops_at_its_time_limit():
    started = time.monotonic()
    done = run("rate", INKALA, "-t", "0.5", "-f", "jsonl")
    assert time.monotonic() - started < 5
    assert done.exit_code == ExitCode.TIMEOUT, done.output
    assert json.loads(done.stdout)["status"] == "timeout"


def test_rate_json_is_one_document_a_puzzle_or_a_list():
    one = json.loads(run("rate", EXAMPLES / "six.txt", "-f", "json").stdout)
    assert one["status"] == "rated" and one["level"] == "easy"
    both = run("rate", EXAMPLES / "six.txt", EXAMPLES / "tutorial.txt", "-f", "json")
    assert [r["index"] for r in json.loads(both.stdout)] == [0, 1]


def test_a_zero_time_limit_is_named_plainly():
    done = run("rate", INKALA, "-t", "0")
    assert done.exit_code == ExitCode.USAGE
    assert "positive number of seconds" in done.output and "between 0" not in done.output
