"""The benchmark command: its tables, its answer checking and its error paths.

Timings are printed, never asserted; what is asserted is that every answer is
checked against the set's solutions, so a wrong one shows and fails the run.
"""

import io
import re

import pytest
from typer.testing import CliRunner

import cpsudoku.bench.solve as bench_module
from cpsudoku.bench.solve import run
from cpsudoku.cli import app

INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
INKALA_SOLUTION = ("812753649943682175675491283154237896369845721287169534"
                   "521974368438526917796318452")


def bench(*args):
    """`cpsudoku bench ARGS` through typer's test runner."""
    return CliRunner().invoke(app, ["bench", *args])


def make_data(tmp_path, solution=INKALA_SOLUTION, count="1"):
    classic = tmp_path / "classic"
    classic.mkdir()
    (classic / "mini.txt").write_text(f"# one puzzle\n{INKALA}\n")
    (classic / "mini.sol").write_text(f"{solution},{count}\n")
    return tmp_path


def test_a_set_is_measured_with_the_reference_beside_it(bundled_data):
    result = bench("--sets", "norvig_hardest", "--limit", "3", "--data", str(bundled_data))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "norvig_hardest: first solution, timed through api, times in ms" in out
    native = next(line for line in out.splitlines() if "native" in line)
    reference = next(line for line in out.splitlines() if "reference" in line)
    assert native.split()[1:4] == ["3", "3", "3"]
    assert reference.split()[1:4] == ["3", "3", "3"]
    assert re.search(r"\d+\.\dx", native)  # the speed-up over the reference


def test_direct_mode_and_counting(data_dir):
    reports = run("serg_benchmark", limit=5, data=data_dir, reference=False, mode="direct",
                  count=True, console=_quiet())
    fig = reports[0].backend
    assert fig.correct == 5 and len(fig.times) == 5  # all `multiple`, as the set records


def test_a_wrong_recorded_solution_fails_the_run(tmp_path):
    wrong = INKALA_SOLUTION[:-2] + INKALA_SOLUTION[-1] + INKALA_SOLUTION[-2]
    data = make_data(tmp_path, solution=wrong)
    result = bench("--sets", "mini", "--data", str(data), "--no-reference")
    assert result.exit_code == 1
    row = next(line for line in result.stdout.splitlines() if "native" in line)
    assert row.split()[1:4] == ["1", "1", "0"]  # solved, not correct


def test_the_right_solution_passes(tmp_path):
    data = make_data(tmp_path)
    assert bench("--sets", "mini", "--data", str(data)).exit_code == 0


@pytest.mark.timing
def test_a_puzzle_that_runs_out_of_time_counts_as_unsolved(data_dir):
    reports = run("gecode_25x25", limit=1, data=data_dir, time_limit=0.05, reference=False,
                  console=_quiet())
    fig = reports[0].backend
    assert (fig.puzzles, fig.solved, fig.correct) == (1, 0, 0)


def test_list_names_the_sets(data_dir):
    result = bench("--list", "--data", str(data_dir))
    assert result.exit_code == 0
    names = result.stdout.split()
    assert {"norvig_top95", "gecode_25x25", "kaggle_rohanrao_10k"} <= set(names)


@pytest.mark.parametrize("args, code, message", [
    (["--sets", "nope"], 5, "no data set 'nope'"),
    (["--sets", ","], 2, "no data set given"),
    (["--limit", "0"], 2, "--limit must be more than 0, not 0"),
    (["--time-limit", "-1"], 2, "--time-limit must be more than 0, not -1"),
    (["--time-limit", "soon"], 2, "'soon' is not a valid float"),
    (["--mode", "fast"], 2, "'fast' is not one of 'api', 'direct'"),
    (["--backend", "nope", "--sets", "mini"], 6, "unknown backend 'nope'"),
    (["--backend", "natve", "--sets", "mini"], 6, "did you mean 'native'?"),
    (["--frobnicate"], 2, "No such option: --frobnicate"),
])
def test_errors_are_one_line_with_their_exit_code(tmp_path, args, code, message):
    data = make_data(tmp_path)
    result = bench(*args, "--data", str(data))
    assert result.exit_code == code
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("cpsudoku: error: ") and message in result.stderr


def test_malformed_data_files_are_named(tmp_path):
    data = make_data(tmp_path, count="many")
    result = bench("--sets", "mini", "--data", str(data))
    assert result.exit_code == 5
    assert "mini.sol: solution line 1: expected SOLUTION,COUNT" in result.stderr
    result = bench("--data", str(tmp_path / "missing"))
    assert result.exit_code == 5 and "data folder" in result.stderr


def test_backend_names_match_in_any_case(tmp_path):
    result = bench("--sets", "mini", "--data", str(make_data(tmp_path)), "--no-reference",
                   "--backend", "NATIVE")
    assert result.exit_code == 0, result.output


def test_tables_fit_the_terminal_and_files_get_every_column(bundled_data):
    """An 80-column terminal shows every column; a narrower one drops columns instead of
    breaking apart and names what it left out; written to a file it keeps them all."""
    from rich.console import Console

    reports = run("norvig_hardest", limit=2, data=bundled_data, console=_quiet())
    for width in (60, 80, 200):
        console = Console(file=io.StringIO(), width=width)
        console.print(bench_module.table_of(reports[0], width=width))
        lines = console.file.getvalue().splitlines()
        assert max(len(line) for line in lines) <= width
        table_rows = [line for line in lines if "native" in line or "reference" in line]
        assert len(table_rows) == 2  # one line per solver: nothing folded
        if width < 80:
            assert "not shown for lack of width" in console.file.getvalue()
        else:
            assert "speed-up" in console.file.getvalue()
            assert "not shown" not in console.file.getvalue()
    wide = Console(file=io.StringIO(), width=120)
    wide.print(bench_module.table_of(reports[0]))
    assert "speed-up" in wide.file.getvalue() and "not shown" not in wide.file.getvalue()


def test_progress_is_shown_on_request(tmp_path):
    data = str(make_data(tmp_path))
    result = bench("--sets", "mini", "--data", data, "--progress")
    assert result.exit_code == 0 and "mini" in result.stderr  # the task's name on stderr
    quiet = bench("--sets", "mini", "--data", data, "--no-progress")
    assert quiet.stderr == ""


def test_the_cli_runs_the_benchmark(tmp_path):
    data = make_data(tmp_path)
    result = CliRunner().invoke(app, ["bench", "--sets", "mini", "--data", str(data),
                                      "--no-reference"])
    assert result.exit_code == 0, result.output
    assert "mini: first solution" in result.output


def test_an_interrupted_run_reports_what_finished(bundled_data, interrupting_backend):
    interrupting_backend.stop_at = 4  # warm-up, puzzles 1 and 2, then Ctrl-C on puzzle 3
    result = bench("--sets", "norvig_hardest,norvig_top95", "--backend", "interrupted",
                   "--data", str(bundled_data))
    assert result.exit_code == 130
    out = result.stdout
    words = " ".join(out.split())  # the title may wrap at the table's width
    assert "norvig_hardest: first solution, timed through api, times in ms, interrupted " \
        "after 2 puzzle(s)" in words
    assert "norvig_top95" not in out  # the run stops at the interruption
    # the row, not the title's wrapped tail ("interrupted after 2 puzzle(s)")
    row = next(line for line in out.splitlines()
               if line.startswith("interrupted ") and line.split()[1].isdigit())
    assert row.split()[1:4] == ["2", "2", "2"]
    assert result.stderr == ("cpsudoku bench: interrupted in norvig_hardest after 2 puzzle(s); "
                             "the tables above cover what finished\n")


def _quiet():
    from rich.console import Console
    return Console(file=io.StringIO())
