"""A backend option with a bad value is one error line and exit 6, before any puzzle is
read, for solve and count, and from the Python API."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import cpsudoku
from cpsudoku.cli import app
from cpsudoku.errors import BackendError, ExitCode

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

BAD = [("native", "pairs=maybe"), ("native", "probing=2"), ("native", "locked_candidates=x"),
       ("native", "kernel=z"), ("cpsat", "workers=x"), ("python-constraint", "cages=x"),
       ("sat", "solver=foo")]


@pytest.mark.parametrize("command", ["solve", "count"])
@pytest.mark.parametrize("backend,option", BAD, ids=[f"{b}:{o}" for b, o in BAD])
def test_a_bad_option_value_stops_the_command_first(command, backend, option):
    if backend not in cpsudoku.backends.installed():
        pytest.skip(f"{backend} is not installed")
    done = CliRunner().invoke(app, [command, str(EXAMPLES / "inkala.txt"),
                                    str(EXAMPLES / "tutorial.txt"), "-b", backend, "-O", option])
    assert done.exit_code == ExitCode.BACKEND, done.output
    assert done.stdout == ""  # no puzzle was answered
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and option.split("=")[0] in lines[0], done.stderr


def test_the_api_refuses_a_bad_value_too():
    with pytest.raises(BackendError, match="pairs must be auto, true or false"):
        cpsudoku.solve("." * 81, pairs="maybe")
