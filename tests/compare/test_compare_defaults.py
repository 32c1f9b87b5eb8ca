"""`compare` without --backends runs every installed backend but naive, and names the
ones it leaves out; `--backends all` keeps its meaning."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from cpsudoku import backends
from cpsudoku.backends.base import Backend
from cpsudoku.cli import app
from cpsudoku.cli.compare import complete_backend_list

INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."


class Missing(Backend):
    name = "missing"
    description = "a backend whose library is not installed"
    distribution = "no-such-solver-library"


@pytest.fixture
def missing_backend():
    backends.register("missing", Missing)
    yield
    backends.unregister("missing")


def test_the_default_is_every_installed_backend_but_naive(missing_backend, tmp_path):
    json_path = tmp_path / "report.json"
    done = CliRunner().invoke(app, ["compare", INKALA, "-t", "5",
                                    "--json", str(json_path)])
    assert done.exit_code == 0, done.stdout + done.stderr
    ran = json.loads(json_path.read_text())["settings"]["backends"]
    assert "missing" not in ran and "naive" not in ran
    assert set(ran) == set(backends.installed()) - {"naive"}
    assert "left out: naive" in done.stderr
    assert "missing (not installed: pip install no-such-solver-library)" in done.stderr


def test_all_still_means_every_backend(missing_backend):
    done = CliRunner().invoke(app, ["compare", INKALA, "--backends", "all"])
    assert done.exit_code == 6
    assert "backend 'missing' is not available" in done.output


def test_backend_lists_complete_their_last_name():
    assert complete_backend_list("nat") == ["native"]
    assert complete_backend_list("native,cp") == ["native,cpsat"]
    assert "all" in complete_backend_list("") and "native,all" not in complete_backend_list(
        "native,")


def test_plot_without_matplotlib_fails_before_any_puzzle_is_run(monkeypatch, tmp_path):
    import sys

    from cpsudoku.errors import ExitCode

    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)  # as if not installed
    rows = tmp_path / "rows.csv"
    result = CliRunner().invoke(app, ["compare", INKALA,
                                      "--backends", "native", "--plot", str(tmp_path / "t.png"),
                                      "--csv", str(rows)])
    assert result.exit_code == ExitCode.BAD_INPUT, result.output
    assert "plotting needs matplotlib" in result.stderr
    assert not rows.exists() and result.stdout == ""  # nothing was run


def test_plot_into_a_missing_folder_fails_before_the_run(tmp_path):
    result = CliRunner().invoke(app, ["compare", INKALA,
                                      "--backends", "native",
                                      "--plot", str(tmp_path / "nowhere" / "t.png")])
    assert result.exit_code != 0 and "does not exist" in result.stderr
    assert result.stdout == ""
