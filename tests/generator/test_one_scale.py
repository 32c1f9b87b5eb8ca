"""`generate --difficulty` and `rate` speak of one scale: a puzzle made for a band is
rated in that band."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from cpsudoku.cli import app


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard", "fiendish", "diabolical"])
def test_a_generated_puzzle_is_rated_in_its_band(difficulty):
    runner = CliRunner()
    made = runner.invoke(app, ["generate", "-d", difficulty, "--seed", "1", "-f", "line"])
    assert made.exit_code == 0, made.output
    rated = runner.invoke(app, ["rate", "-", "-f", "jsonl"], input=made.output)
    assert rated.exit_code == 0, rated.output
    [record] = [json.loads(line) for line in rated.output.splitlines()]
    assert record["level"] == difficulty
