"""A grid typed on the command line may be longer than a file name can be (every
one-line 16x16 and 25x25 puzzle): it is read as a grid, never an OS error."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from cpsudoku.cli import app
from cpsudoku.formats.sources import is_path, read_puzzles

# A 16x16 with its first row given (256 characters, one more than a file name may hold)
ROW = "123456789ABCDEFG"
LINE_16 = ROW + "." * 240
LINE_25 = "." * 625


def run(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def test_a_long_grid_is_no_path():
    assert not is_path(LINE_16) and not is_path(LINE_25) and not is_path("a\0b")
    assert len(read_puzzles(LINE_16)) == 1 and read_puzzles(LINE_25)[0].size == 25


@pytest.mark.parametrize("command", ["solve", "count", "rate", "explain", "hint", "check",
                                     "convert"])
def test_every_command_reads_a_long_inline_grid(command):
    extra = ["-t", "20"] if command in ("rate", "explain", "hint") else []
    done = run(command, LINE_16, *extra)
    assert "internal error" not in done.output and "File name too long" not in done.output
    assert done.exit_code in (0, 1), done.output  # count: a 16x16 this open has several


def test_a_long_name_that_is_no_grid_is_a_missing_file():
    done = run("solve", "x" * 300)
    assert done.exit_code == 5 and "no such file" in done.stderr
