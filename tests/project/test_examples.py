"""Every example puzzle solves to a unique, valid solution on two independent
backends, and every example script runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cpsudoku import is_solution, solve
from cpsudoku.formats.sources import read_puzzles

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GRIDS = sorted([*EXAMPLES.glob("*.txt"), *EXAMPLES.glob("*.toml")])
SCRIPTS = sorted(EXAMPLES.glob("*.py"))


@pytest.mark.parametrize("path", GRIDS, ids=lambda p: p.name)
def test_example_grid_is_unique_on_two_backends(path):
    for puzzle in read_puzzles(str(path)):
        native = solve(puzzle, "native", max_solutions=2)
        cpsat = solve(puzzle, "cpsat", max_solutions=2, time_limit=60)
        assert native.status.value == cpsat.status.value == "unique"
        assert native.solution == cpsat.solution
        assert is_solution(puzzle, native.solution)
        if puzzle.meta.get("solution"):
            assert native.solution == puzzle.meta["solution"]


@pytest.mark.process
@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_example_script_runs(path):
    done = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                          timeout=300, cwd=EXAMPLES.parent)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()
