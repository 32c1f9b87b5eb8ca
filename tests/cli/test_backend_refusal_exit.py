"""A puzzle that got no answer never leaves a command looking successful: a backend that
cannot take a puzzle's rules exits 6 in solve and count as in compare, and the option a
message names is one the user can type."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from cpsudoku.cli import app
from cpsudoku.errors import ExitCode

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
KILLER = EXAMPLES / "variants" / "killer.toml"


def run(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


@pytest.mark.parametrize("command", ["solve", "count"])
@pytest.mark.parametrize("fmt", ["pretty", "line", "jsonl", "csv"])
def test_a_backend_that_refuses_the_rules_exits_6(command, fmt):
    done = run(command, KILLER, "-b", "dlx", "-f", fmt)
    assert done.exit_code == ExitCode.BACKEND, done.output
    assert "cannot be expressed for backend 'dlx'" in done.stderr


def test_a_refusal_outranks_the_puzzles_that_were_answered():
    done = run("solve", KILLER, EXAMPLES / "inkala.txt", "-b", "dlx", "-f", "line")
    assert done.exit_code == ExitCode.BACKEND
    assert "812753649943682175675491283154237896369845721287169534521974368438526917796318452" \
        in done.stdout


def test_counts_line_names_the_puzzle_once():
    done = run("count", KILLER, "-b", "dlx")
    line = done.stdout.strip()
    assert line.count(str(KILLER)) == 1, line


@pytest.mark.parametrize("typed", ["-n", "--max-solutions", "--limit", "-l"])
def test_count_with_no_solutions_names_its_own_option(typed):
    done = run("count", EXAMPLES / "inkala.txt", typed, "0")
    assert done.exit_code == ExitCode.USAGE
    assert "--max-solutions (-n) must be at least 1, not 0" in done.stderr
