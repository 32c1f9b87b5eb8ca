"""Multi-grid boards generated (`generate --layout`): unique, minimal, read back from
their TOML with '-' outside the sub-grids, symmetric where asked, and options that do
not apply refused by name."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from cpsudoku import count, generate
from cpsudoku.cli import app
from cpsudoku.errors import ExitCode, UsageError
from cpsudoku.formats.puzzlefile import load
from cpsudoku.generator.output import render
from cpsudoku.generator.removal import keeps_unique
from cpsudoku.generator.symmetry import is_symmetric


def test_a_samurai_is_unique_minimal_and_reads_back():
    made = generate(layout="samurai", seed=3)
    geometry = made.puzzle.geometry
    absent = set(geometry.absent)
    assert geometry.layout == "samurai" and len(absent) == 72
    assert all(made.puzzle.givens[c] == 0 and made.solution[c] == 0 for c in absent)
    assert all(made.solution[c] for c in range(geometry.ncells) if c not in absent)
    result = count(made.puzzle, limit=2)
    assert result.status.value == "unique" and result.solution == made.solution
    back = load(render(made, "toml"))[0]
    assert back.geometry == geometry and back.givens == made.puzzle.givens
    # minimal: no clue can go (a few tried, each with the search the removal runs)
    from cpsudoku.generator.core import _oracle
    oracle = _oracle(geometry, ())
    clues = [c for c, v in enumerate(made.puzzle.givens) if v]
    for cell in clues[:12]:
        assert not keeps_unique(oracle, made.puzzle.givens, (cell,), made.solution, None)


def test_a_symmetric_twodoku():
    made = generate(layout="twodoku", symmetry="rot180", seed=5)
    assert made.puzzle.geometry.layout == "twodoku"
    assert is_symmetric(made.puzzle.givens, "rot180", made.puzzle.geometry.size)
    assert count(made.puzzle, limit=2).status.value == "unique"


@pytest.mark.parametrize("kwargs, message", [
    ({"layout": "samuri"}, "did you mean 'samurai'"),
    ({"layout": "samurai", "killer": True}, "excludes --jigsaw, --killer"),
    ({"layout": "samurai", "size": 4}, "sub-grids are 9x9, not --size 4"),
    ({"layout": "samurai", "clues": -1}, "below 0"),
])
def test_options_that_do_not_apply_are_refused_by_name(kwargs, message):
    with pytest.raises(UsageError, match=message):
        generate(**kwargs)


def test_the_command_line_writes_toml_and_json_and_refuses_one_line():
    runner = CliRunner()
    done = runner.invoke(app, ["generate", "--layout", "twodoku", "-s", "1"])
    assert done.exit_code == 0 and 'layout = "twodoku"' in done.stdout
    done = runner.invoke(app, ["generate", "--layout", "twodoku", "-s", "1", "-f", "jsonl"])
    record = json.loads(done.stdout)
    assert "-" in record["puzzle"] and "-" in record["solution"] and "link" not in record
    done = runner.invoke(app, ["generate", "--layout", "twodoku", "-f", "line"])
    assert done.exit_code == ExitCode.USAGE
    assert "cannot hold a multi-grid board" in done.output
