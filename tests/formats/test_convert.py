"""convert: every example through every puzzle format and back to the same puzzle, or a
refusal that names the rule; the command line's own checks."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from cpsudoku.cli import app
from cpsudoku.errors import CpsudokuError, ExitCode
from cpsudoku.formats.puzzle_out import PUZZLE_FORMATS, render_puzzle, render_puzzles
from cpsudoku.formats.read import parse

ROOT = Path(__file__).parents[2]
VARIANTS = sorted(p for p in (ROOT / "examples" / "variants").iterdir()
                  if p.suffix in (".toml", ".json"))
CLASSIC = [ROOT / "examples" / name for name in ("inkala.txt", "six.txt", "sixteen.txt")]
RULE_FORMATS = ("toml", "json", "fpuzzles", "link", "iss", "iss-link")


def meaning(puzzle):
    """What a puzzle asks, whatever its rules are called or its cells listed in: givens,
    regions, and each constraint's kind, cells and parameters (labels aside; the cells of
    an all-different or a plain sum in any order)."""
    def key(con):
        params = {k: v for k, v in vars(con).items()
                  if k not in ("label", "cells") and not k.startswith("_")}  # caches aside
        cells = con.cells
        if con.kind == "alldifferent" or (con.kind == "sum" and con.coeffs is None):
            cells = tuple(sorted(cells))
        return con.kind, cells, repr(sorted(params.items()))
    return (puzzle.givens, puzzle.geometry.region_of, sorted(map(key, puzzle.constraints())))


@pytest.mark.parametrize("fmt", PUZZLE_FORMATS)
@pytest.mark.parametrize("path", CLASSIC, ids=lambda p: p.name)
def test_classic_puzzles_survive_every_format(path, fmt):
    puzzle = parse(path.read_text())[0]
    assert meaning(parse(render_puzzle(puzzle, fmt))[0]) == meaning(puzzle)


@pytest.mark.cross
@pytest.mark.parametrize("fmt", RULE_FORMATS)
@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: p.name)
def test_variants_survive_each_format_that_holds_them(path, fmt):
    puzzle = parse(path.read_text(), source=str(path))[0]
    try:
        text = render_puzzle(puzzle, fmt)
    except CpsudokuError as exc:  # refused: the message names the rule it cannot hold
        assert any(word in str(exc) for word in ("no form", "no ISS form", "has no")), exc
        return
    assert meaning(parse(text)[0]) == meaning(puzzle)


# Examples every format of the test below holds, of different shapes: another size,
# jigsaw regions, clues outside the grid, candidates given in cells.
SEVERAL = ("killer-6x6.toml", "jigsaw.toml", "sandwich.toml", "given-candidates.toml")


def test_several_puzzles_read_back_as_all_of_them():
    folder = ROOT / "examples" / "variants"
    puzzles = [parse((folder / name).read_text())[0] for name in SEVERAL]
    for fmt in ("toml", "json", "iss", "link"):
        back = parse(render_puzzles(puzzles, fmt))
        assert [meaning(p) for p in back] == [meaning(p) for p in puzzles], fmt


def test_the_command_converts_and_refuses_clearly(tmp_path):
    runner = CliRunner()
    killer = str(ROOT / "examples" / "variants" / "killer.toml")
    done = runner.invoke(app, ["convert", killer, "-f", "iss", "-o", str(tmp_path / "k.txt")])
    assert done.exit_code == 0, done.output
    assert meaning(parse((tmp_path / "k.txt").read_text())[0]) == \
        meaning(parse(Path(killer).read_text())[0])
    typo = runner.invoke(app, ["convert", killer, "-f", "fpuzzle"])
    assert typo.exit_code == ExitCode.USAGE and "did you mean 'fpuzzles'" in typo.stderr
    lost = runner.invoke(app, ["convert", killer, "-f", "line"])
    assert lost.exit_code == ExitCode.BAD_INPUT and "cannot hold" in lost.stderr
    assert lost.stdout == ""
