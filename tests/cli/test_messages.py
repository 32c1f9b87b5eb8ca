"""Messages a user meets: misspelt names get a "did you mean", each error is said once,
and options name what they want."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from cpsudoku.cli import app
from cpsudoku.errors import ExitCode

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def run(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


@pytest.mark.parametrize("args,wanted", [
    (["solve", EXAMPLES / "inkala.txt", "--rules", "diagnal"], "did you mean 'diagonal'?"),
    (["generate", "-d", "hardd"], "did you mean 'hard'?"),
    (["solve", EXAMPLES / "inkala.txt", "-b", "natve"], "did you mean 'native'?"),
])
def test_a_misspelt_name_gets_the_closest(args, wanted):
    done = run(*args)
    assert done.exit_code != 0 and wanted in done.stderr, done.output


def test_a_size_without_boxes_points_to_jigsaw():
    done = run("generate", "--size", "7")
    assert done.exit_code == ExitCode.USAGE and "--jigsaw" in done.stderr


def test_a_bad_puzzle_is_said_once():
    done = run("solve", EXAMPLES / "inkala.txt", "--box", "2x3")
    assert done.exit_code == ExitCode.BAD_INPUT
    assert done.stdout == "" and done.stderr.count("81 cells") == 1


@pytest.mark.parametrize("command", ["solve", "count", "rate", "explain"])
def test_a_zero_time_limit_says_what_it_must_be(command):
    done = run(command, EXAMPLES / "six.txt", "-t", "0")
    assert done.exit_code == ExitCode.USAGE
    assert "positive number of seconds" in done.stderr and "not 0" in done.stderr
