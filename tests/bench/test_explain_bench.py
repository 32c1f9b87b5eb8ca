"""The logical solver beside pencilmark (`cpsudoku.bench.explain`): cpsudoku's column on
a few cheap puzzles without pencilmark, Spearman's rho on known values, and the driver
script reading a puzzle when a Python with pencilmark is at hand ($CPSUDOKU_PENCILMARK_
PYTHON, else /tmp/pmvenv/bin/python); the last is skipped without one."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from cpsudoku.bench import explain as bench
from cpsudoku.bench import stats
from cpsudoku.formats import iss
from cpsudoku.formats.fpuzzles_write import to_fpuzzles

CLASSIC = "Classic sudoku"


def test_without_pencilmark_cpsudoku_still_runs_and_says_how_to_get_it(tmp_path):
    out = io.StringIO()
    rows_file = tmp_path / "rows.json"
    code = bench.run(None, 20, limit=3, json_out=rows_file, out=out)
    text = out.getvalue()
    lines = text.splitlines()
    assert code == 0
    assert lines[0].split() == ["puzzle", "cpsudoku", "pencilmark"]
    classic = next(line for line in lines if line.startswith(CLASSIC))
    assert classic.split()[2] == "explained" and classic.endswith("missing")
    table = next(line for line in lines if line.startswith("| cpsudoku |"))
    assert table.split("|")[2].strip() == "3"  # all three read
    assert not any(line.startswith("| pencilmark |") for line in lines)
    assert "pencilmark column missing: no --pencilmark-python given" in text
    made = sum(r["cpsudoku"]["steps"] for r in json.loads(rows_file.read_text()))
    assert f"cpsudoku steps without a reason: 0 of {made}" in text and made > 0
    assert "pip install pencilmark" in text
    rows = json.loads(rows_file.read_text())
    assert [r["name"] for r in rows][0] == CLASSIC and len(rows) == 3
    assert rows[0]["cpsudoku"]["status"] == "explained"
    assert rows[0]["cpsudoku"]["unsound"] == [] and rows[0]["cpsudoku"]["grid_right"]
    assert rows[0]["pencilmark"]["status"] == "missing"


def test_an_interpreter_without_pencilmark_is_named():
    import sys
    why = bench.pencilmark_missing(sys.executable + "-nonexistent")
    assert why is not None and "does not run" in why


def test_spearman_on_known_values():
    assert stats.spearman([1, 2, 3, 4, 5], [2, 4, 6, 8, 10]) == pytest.approx(1.0)
    assert stats.spearman([1, 2, 3, 4, 5], [5, 4, 3, 2, 1]) == pytest.approx(-1.0)
    # a textbook case: d = 0, -1, 1, 0, 0 gives 1 - 6 * 2 / (5 * 24) = 0.9
    assert stats.spearman([1, 2, 3, 4, 5], [1, 3, 2, 4, 5]) == pytest.approx(0.9)
    # ties take the mean of their ranks: x ranks 1, 2.5, 2.5, 4
    assert stats.ranks([1.0, 7.0, 7.0, 9.0]) == [1.0, 2.5, 2.5, 4.0]
    assert stats.spearman([1, 2, 2, 3], [1, 2, 3, 4]) == pytest.approx(0.9486833)
    assert stats.spearman([1.0], [2.0]) is None  # undefined: one pair
    assert stats.spearman([3, 3, 3], [1, 2, 3]) is None  # undefined: no spread


def test_steps_are_checked_against_the_solution():
    solution = [1, 2, 3, 4]
    steps = [("good", [(0, 1)], [(1, 3)]), ("bad", [(2, 4)], [(3, 4)])]
    bad = bench.check_steps(steps, solution, lambda c: f"c{c}")
    assert bad == ["bad: c2=4, c3<>4"]


def _pencilmark_python() -> str | None:
    for candidate in (os.environ.get("CPSUDOKU_PENCILMARK_PYTHON"), "/tmp/pmvenv/bin/python"):
        if candidate and Path(candidate).is_file() and bench.pencilmark_missing(
                candidate) is None:
            return candidate
    return None


def test_the_driver_reads_a_puzzle_in_pencilmarks_python():
    python = _pencilmark_python()
    if python is None:
        pytest.skip("no Python with pencilmark installed (set CPSUDOKU_PENCILMARK_PYTHON)")
    case = bench.load_cases(name=CLASSIC, limit=1)[0]
    form = to_fpuzzles(iss.from_string(case.text))
    answer = bench.call_driver(python, {"fpuzzles": form, "max_seconds": 20}, 60)
    assert answer is not None and answer["read"], answer
    assert answer["steps"] and answer["band"] != "Unknown"
    outcome = bench.explain_with_pencilmark(case, python, 20)
    assert outcome.status == "explained" and outcome.unsound == [] and outcome.grid_right
    # what pencilmark cannot read is kept with its reason, not raised
    unread = bench.call_driver(python, {"fpuzzles": {"size": 9, "grid": "no"},
                                        "max_seconds": 5}, 60)
    assert unread is not None and unread["read"] is False and unread["reason"]
