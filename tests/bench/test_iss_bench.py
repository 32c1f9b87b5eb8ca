"""The side-by-side benchmark against the Interactive Sudoku Solver, on a few cheap
examples: without ISS (its column says why it is missing), and with ISS when a checkout
is named by $CPSUDOKU_ISS_CHECKOUT and Node is installed."""

from __future__ import annotations

import io
import os
import shutil

import pytest

from cpsudoku.bench import iss as bench

CHEAP = "Classic sudoku"  # and, by --name, nothing else: the table stays small


def run(checkout, name=CHEAP, limit=None):
    out = io.StringIO()
    code = bench.run(checkout, ["native"], time_limit=20, name=name, limit=limit, out=out)
    return code, out.getvalue()


def test_without_iss_cpsudoku_still_runs_and_says_why():
    code, text = run(None, name=None, limit=3)
    lines = text.splitlines()
    assert code == 0
    assert lines[1].split()[:4] == ["puzzle", "cpsudoku", "native", "ISS"]
    classic = next(line for line in lines if line.startswith("Classic sudoku"))
    assert classic.split()[2:4] == ["yes", "ok"] and classic.endswith("missing")
    assert "ISS column missing: no ISS checkout given (--iss PATH)" in text
    start = lines[1].index("cpsudoku")  # the columns after the puzzle's name
    rows = [line[start:].split() for line in lines[2:5]]
    expressible = sum(row[0] == "yes" for row in rows)
    right = sum(row[0] == "yes" and row[1] == "ok" for row in rows)
    assert lines[-2].startswith(f"expressible {expressible}/3; native right {right}/{expressible}")
    code, text = run("/nonexistent/iss")
    assert "is not an ISS checkout" in text


def test_summary_line_form():
    ok = bench.Answer("unique", True, 0.002)
    rows = [bench.Row("a", None, {"native": ok}, bench.Answer("unique", True, 0.004)),
            bench.Row("b", None, {"native": bench.Answer("timeout", False)},
                      bench.Answer("unique", True, 0.001)),
            bench.Row("c", "ISS type 'NFA' ...", {}, bench.Answer("unique", True, 0.1))]
    assert bench.summary(rows, ["native"], 60) == (
        "expressible 2/3; native right 1/2 (1 timeout at 60 s), median time ratio to ISS "
        "0.50, max 0.5; ISS right 3/3")


def test_quick_answers_keep_their_best_time_of_the_repeats():
    times = iter([0.004, 0.002, 0.003, 2.5, 0.1])
    calls = []

    def attempt(status="unique"):
        calls.append(status)
        return bench.Answer(status, True, next(times))

    assert bench.best_of(3, attempt).seconds == 0.002  # three tries, the best kept
    assert bench.best_of(3, attempt).seconds == 2.5  # a slow answer is timed once
    assert len(calls) == 4
    flaky = iter([bench.Answer("unique", True, 0.01), bench.Answer("timeout", False, 0.001)])
    assert bench.best_of(2, lambda: next(flaky)).seconds == 0.01  # another answer's time is not its
    assert bench.best_of(1, lambda: bench.Answer("unique", True, 0.001)).seconds == 0.001


def test_repeat_is_checked():
    with pytest.raises(bench.UsageError, match="--repeat"):
        bench.run(None, ["native"], repeat=0, out=io.StringIO())


def test_recorded_solutions():
    assert bench.recorded_solution("15" * 8, 4) is None  # a value above 4
    assert bench.recorded_solution("1234" * 4, 4) == (1, 2, 3, 4) * 4
    assert bench.recorded_solution("ABCD" * 4, 4) is None
    assert bench.recorded_solution("P" * 256, 16) == (16,) * 256


@pytest.mark.process
@pytest.mark.skipif(not os.environ.get(bench.CHECKOUT_ENV),
                    reason=f"no ISS checkout named by ${bench.CHECKOUT_ENV}")
@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_with_iss_in_node():
    code, text = run(os.environ[bench.CHECKOUT_ENV], name="thermo")
    assert code == 0
    thermo = next(line for line in text.splitlines() if line.startswith("Thermo "))
    assert thermo.split()[1:3] == ["yes", "ok"] and thermo.split()[4] == "ok"
    assert "ISS right 2/2" in text and "median time ratio to ISS" in text  # and Odd/Even Thermo


@pytest.mark.process
@pytest.mark.skipif(not os.environ.get(bench.CHECKOUT_ENV),
                    reason=f"no ISS checkout named by ${bench.CHECKOUT_ENV}")
@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.parametrize("name, iss_cell", [
    ("0-indexed: Sums and indexing", "missed"),  # ISS reports one, and accepts the other
    ("Sandwich snipe 18", "ok,"),  # both find two
])
def test_a_second_solution_is_checked_by_iss_itself(name, iss_cell):
    out = io.StringIO()
    code = bench.run(os.environ[bench.CHECKOUT_ENV], ["native"], time_limit=20, which="all",
                     name=name, out=out, repeat=1)
    row = next(line for line in out.getvalue().splitlines() if line.startswith(name))
    cells = row[len(name):].split()
    assert cells[:3] == ["yes", "ok,", "multiple"] and cells[4] == iss_cell
    assert code == 0


def test_a_cell_shows_a_confirmed_second_solution():
    assert bench.Answer("multiple", True, 0.0072).cell() == "ok, multiple 7.2ms"
    assert bench.Answer("multiple", False, 0.0072).cell() == "multiple 7.2ms"
    assert bench.Answer("unique", True, 0.0072).cell() == "ok 7.2ms"
