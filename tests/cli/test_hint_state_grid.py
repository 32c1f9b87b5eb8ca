"""`hint --state` takes the candidate grid `explain --grid-at` prints, as printed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cpsudoku.cli import app
from cpsudoku.errors import ExitCode

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()
FOUR = "1...3..2...3..2."


def run(*args, stdin: str | None = None):
    return runner.invoke(app, [str(a) for a in args], input=stdin)


def printed(output: str) -> tuple[str, list[str]]:
    """The one candidate grid in explain's pretty output, and the steps' first lines."""
    lines = output.splitlines()[1:]  # the first line names the puzzle
    grid = [line for line in lines if line and not line.startswith(" ")
            and not line.startswith("solved in ")]
    steps = [line.split("] ", 1)[1] for line in lines
             if line.lstrip()[:1].isdigit() and "] " in line]
    return "\n".join(grid) + "\n", steps


@pytest.mark.parametrize("puzzle,at", [
    (FOUR, 0),
    (ROOT / "examples/six.txt", 3),
    (ROOT / "examples/inkala.txt", 5),
    (ROOT / "examples/sixteen.txt", 4),
    (ROOT / "examples/variants/killer.toml", 2),
    (ROOT / "examples/variants/jigsaw.toml", 6),
])
def test_the_grid_explain_prints_is_a_state_hint_reads(tmp_path, puzzle, at):
    shown = run("explain", puzzle, "--grid-at", at)
    assert shown.exit_code == 0, shown.output
    grid, steps = printed(shown.stdout)
    assert grid.count("\n") >= 4 and "|" in grid
    path = tmp_path / "grid.txt"
    path.write_text(grid)
    result = run("hint", puzzle, "--state", path)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == steps[at]
    # the same text on standard input, and typed inline
    assert run("hint", puzzle, "--state", "-", stdin=grid).stdout == result.stdout
    assert run("hint", puzzle, "--state", grid).stdout == result.stdout


def test_a_line_and_a_dotted_grid_still_serve_as_states(tmp_path):
    line = (ROOT / "examples/inkala.txt").read_text().split()[0]
    assert len(line) == 81
    first = run("hint", line).stdout
    assert run("hint", line, "--state", line).stdout == first
    path = tmp_path / "rows.txt"
    path.write_text("\n".join(line[r * 9:r * 9 + 9] for r in range(9)) + "\n")
    assert run("hint", line, "--state", path).stdout == first


def test_a_grid_cut_short_is_told_in_the_puzzles_terms(tmp_path):
    puzzle = ROOT / "examples/inkala.txt"
    grid, _ = printed(run("explain", puzzle, "--grid-at", 5).stdout)
    lines = grid.splitlines()
    path = tmp_path / "grid.txt"
    path.write_text("\n".join(lines[:2] + lines[3:]))
    result = run("hint", puzzle, "--state", path)
    assert result.exit_code == ExitCode.BAD_INPUT
    assert "the state has 72 cell tokens; the 9x9 puzzle needs 81" in result.stderr
    result = run("hint", ROOT / "examples/six.txt", "--state", grid)
    assert result.exit_code == ExitCode.BAD_INPUT
    assert "state:1:" in result.stderr and "the 6x6 puzzle needs 36" in result.stderr
    assert "81 cell tokens" in result.stderr


@pytest.mark.process
def test_explain_output_piped_into_hint():
    puzzle = str(ROOT / "examples/variants/killer.toml")
    cli = [sys.executable, "-m", "cpsudoku"]
    shown = subprocess.run(cli + ["explain", puzzle, "--grid-at", "3"], capture_output=True,
                           text=True, check=True, timeout=120)
    grid, steps = printed(shown.stdout)
    hinted = subprocess.run(cli + ["hint", puzzle, "--state", "-"], input=grid,
                            capture_output=True, text=True, timeout=120)
    assert hinted.returncode == 0, hinted.stderr
    assert hinted.stdout.splitlines()[0] == steps[3]
