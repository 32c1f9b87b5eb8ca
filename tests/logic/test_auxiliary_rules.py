"""Rules with unknowns beside the digits (a chaos construction's region labels): the
logical solver reasons on the other rules, soundly, when those determine the digits, and
refuses the puzzle by name when they do not; never an internal error. Every other example
variant is explained to the puzzle's own solution."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cpsudoku import solve
from cpsudoku.cli import app
from cpsudoku.errors import CpsudokuError, ExitCode, ModelError
from cpsudoku.formats.sources import read_puzzles
from cpsudoku.logic import explain
from cpsudoku.logic.solver import Solver

VARIANTS = Path(__file__).resolve().parents[2] / "examples" / "variants"
# their digits have several solutions without the region rules: refused
REFUSED = ["same-regions.toml", "chaos.toml"]
# its digits follow from the rows, columns, givens and whispers alone: explained
EXPLAINED = "distinct-region-counts.toml"
runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def one_error_line(result) -> str:
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    return lines[0]


def solution_of(path: Path) -> str:
    puzzle = read_puzzles(path)[0]
    solution = solve(puzzle).solution
    assert solution is not None
    return "".join(map(str, solution[:puzzle.geometry.ncells]))


@pytest.mark.parametrize("command", ["explain", "rate", "hint"])
@pytest.mark.parametrize("name", REFUSED)
def test_chaos_labels_the_digits_need_are_refused_by_name(command, name):
    result = run(command, VARIANTS / name)
    assert result.exit_code == ExitCode.BAD_INPUT, result.output
    line = one_error_line(result)
    assert "internal error" not in result.output
    assert "the logical solver reads the cells' digits only" in line
    assert "region labels" in line and "(chaos, chaos-" in line
    assert "the digits have several solutions" in line


@pytest.mark.parametrize("name", REFUSED)
def test_rate_records_the_refusal(name):
    result = run("rate", VARIANTS / name, "-f", "jsonl")
    assert result.exit_code == ExitCode.BAD_INPUT, result.output
    record = json.loads(result.stdout)
    assert record["status"] == "invalid" and "region labels" in record["error"]


def test_the_api_refuses_with_a_model_error():
    puzzle = read_puzzles(VARIANTS / "chaos.toml")[0]
    with pytest.raises(ModelError, match="chaos construction's region labels"):
        explain(puzzle)


def test_digits_that_follow_without_the_labels_are_explained_soundly():
    path = VARIANTS / EXPLAINED
    result = run("explain", path, "-f", "json")
    assert result.exit_code == ExitCode.OK, result.output
    record = json.loads(result.stdout)
    assert record["status"] == "solved" and record["steps"]
    # replay the steps on their own: each placement is the solution's, the grid completes
    puzzle = read_puzzles(path)[0]
    grid = list(puzzle.givens)
    for step in record["steps"]:
        for placement in step["placements"]:
            cell, value = _cell_value(placement, puzzle.size)
            assert grid[cell] == 0
            grid[cell] = value
    assert "".join(map(str, grid)) == solution_of(path)


def _cell_value(placement: str, size: int) -> tuple[int, int]:
    """A placement as the JSON writes it, "r2c1=4": (cell index, value)."""
    cell, value = placement.split("=")
    row, col = cell[1:].split("c")
    return (int(row) - 1) * size + int(col) - 1, int(value)


def test_rate_and_hint_on_digits_that_follow_without_the_labels():
    path = VARIANTS / EXPLAINED
    rated = run("rate", path, "-f", "jsonl")
    assert rated.exit_code == ExitCode.OK, rated.output
    assert json.loads(rated.stdout)["status"] == "rated"
    hinted = run("hint", path)
    assert hinted.exit_code == ExitCode.OK, hinted.output
    assert "internal error" not in hinted.output and hinted.stdout.strip()
    done = explain(read_puzzles(path)[0])
    assert done.solved and "".join(map(str, done.grid)) == solution_of(path)
    # from a player's grid: its first step's placement made, the next step follows
    puzzle = read_puzzles(path)[0]
    cell, value = done.steps[0].placements[0]
    grid = list(puzzle.givens)
    grid[cell] = value
    hinted = run("hint", path, "--state", "".join(str(v) if v else "." for v in grid))
    assert hinted.exit_code == ExitCode.OK, hinted.output
    assert "wrong" not in hinted.stdout and hinted.stdout.strip()


def test_a_grid_without_boxes_counts_each_row_once():
    solver = Solver(read_puzzles(VARIANTS / EXPLAINED)[0])
    houses = solver.layout.houses
    assert len(houses) == 2 * solver.puzzle.size
    assert len({frozenset(h.cells) for h in houses}) == len(houses)
    assert {h.kind for h in houses} == {"row", "col"}
    assert not solver.layout.is_classic()


def _variant_files() -> list[Path]:
    return sorted(p for p in VARIANTS.iterdir() if p.suffix in (".toml", ".json"))


@pytest.mark.cross
@pytest.mark.slow
@pytest.mark.parametrize("path", _variant_files(), ids=lambda p: p.name)
def test_every_example_variant_is_explained_soundly_or_refused(path):
    """No internal error on any example: each is refused by name or explained, every
    step by a technique, to the grid the native solver finds."""
    try:
        puzzles = read_puzzles(path)
        for puzzle in puzzles:
            done = explain(puzzle)
            assert done.solved and not done.stuck, path.name
            solution = solve(puzzle).solution
            assert solution is not None
            assert tuple(done.grid) == tuple(solution[:len(done.grid)]), path.name
    except CpsudokuError as exc:
        assert exc.exit_code == ExitCode.BAD_INPUT and "logical solver" in str(exc), exc
