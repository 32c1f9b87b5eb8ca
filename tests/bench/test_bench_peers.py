"""bench --peers: the kernel, the Python engine, the reference and hodoku-py side by side."""

from __future__ import annotations

import io

import pytest
from conftest import read_set
from rich.console import Console
from typer.testing import CliRunner

from cpsudoku.bench.peers import hodoku_solver, measure_peers, run_peers
from cpsudoku.cli import app


def test_every_peer_measured_on_the_same_puzzles():
    rows = read_set("norvig_hardest", 4)
    figures = measure_peers(rows, time_limit=30)
    names = [f.solver for f in figures]
    expected = ["native (C kernel)", "native (Python)", "reference"]
    if hodoku_solver() is not None:
        expected.append("hodoku-py")
    assert names == expected
    for fig in figures:
        assert fig.puzzles == fig.solved == fig.correct == 4, fig.solver
        assert len(fig.times) == 4 and all(t >= 0 for t in fig.times)


@pytest.mark.timing
def test_big_grids_leave_out_the_9x9_only_peers():
    rows = read_set("gecode_25x25", 1)
    figures = measure_peers(rows[:1], time_limit=0.2, python=False)
    assert [f.solver for f in figures] == ["native (C kernel)"]


def test_peers_table_printed_per_set(bundled_data):
    out = io.StringIO()
    reports = run_peers("norvig_hardest", limit=2, data=bundled_data,
                        console=Console(file=out, width=140))
    text = out.getvalue()
    assert "norvig_hardest" in text and "native (C kernel)" in text and "reference" in text
    assert reports[0].backend.correct == 2


def test_peers_option_of_the_command(bundled_data):
    result = CliRunner().invoke(app, ["bench", "--peers", "--sets", "norvig_hardest",
                                      "--limit", "2", "--data", str(bundled_data)])
    assert result.exit_code == 0, result.output
    assert "time / kernel's" in result.output


@pytest.mark.parametrize("sets", ["", " , "])
def test_peers_needs_a_set(bundled_data, sets):
    from cpsudoku.errors import UsageError
    with pytest.raises(UsageError):
        run_peers(sets, data=bundled_data, console=Console(file=io.StringIO()))
