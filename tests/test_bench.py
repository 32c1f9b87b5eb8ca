"""The benchmark command: its tables, its answer checking and its error paths.

Timings are printed, never asserted; what is asserted is that every answer is
checked against the set's solutions, so a wrong one shows and fails the run.
"""

import io
import re

import pytest
from typer.testing import CliRunner

from cpsudoku.bench import main, run
from cpsudoku.cli import app

INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
INKALA_SOLUTION = ("812753649943682175675491283154237896369845721287169534"
                   "521974368438526917796318452")


def make_data(tmp_path, solution=INKALA_SOLUTION, count="1"):
    classic = tmp_path / "classic"
    classic.mkdir()
    (classic / "mini.txt").write_text(f"# one puzzle\n{INKALA}\n")
    (classic / "mini.sol").write_text(f"{solution},{count}\n")
    return tmp_path


def test_a_set_is_measured_with_the_reference_beside_it(data_dir, capsys):
    assert main(["--sets", "norvig_hardest", "--limit", "3", "--data", str(data_dir)]) == 0
    out = capsys.readouterr().out
    assert "norvig_hardest (first solution, timed through api)" in out
    native = next(line for line in out.splitlines() if "native" in line)
    reference = next(line for line in out.splitlines() if "reference" in line)
    assert [c.strip() for c in native.split("│")[2:5]] == ["3", "3", "3"]
    assert [c.strip() for c in reference.split("│")[2:5]] == ["3", "3", "3"]
    assert re.search(r"\d+\.\dx", native)  # the speed-up over the reference


def test_direct_mode_and_counting(data_dir):
    reports = run("serg_benchmark", limit=5, data=data_dir, reference=False, mode="direct",
                  count=True, console=_quiet())
    fig = reports[0].backend
    assert fig.correct == 5 and len(fig.times) == 5  # all `multiple`, as the set records


def test_a_wrong_recorded_solution_fails_the_run(tmp_path, capsys):
    wrong = INKALA_SOLUTION[:-2] + INKALA_SOLUTION[-1] + INKALA_SOLUTION[-2]
    data = make_data(tmp_path, solution=wrong)
    assert main(["--sets", "mini", "--data", str(data), "--no-reference"]) == 1
    row = next(line for line in capsys.readouterr().out.splitlines() if "native" in line)
    assert [cell.strip() for cell in row.split("│")[2:5]] == ["1", "1", "0"]  # solved, not correct


def test_the_right_solution_passes(tmp_path):
    data = make_data(tmp_path)
    assert main(["--sets", "mini", "--data", str(data)]) == 0


def test_a_puzzle_that_runs_out_of_time_counts_as_unsolved(data_dir):
    reports = run("gecode_25x25", limit=1, data=data_dir, time_limit=0.05, reference=False,
                  console=_quiet())
    fig = reports[0].backend
    assert (fig.puzzles, fig.solved, fig.correct) == (1, 0, 0)


def test_list_names_the_sets(data_dir, capsys):
    assert main(["--list", "--data", str(data_dir)]) == 0
    names = capsys.readouterr().out.split()
    assert {"norvig_top95", "gecode_25x25", "kaggle_rohanrao_10k"} <= set(names)


@pytest.mark.parametrize("args, code, message", [
    (["--sets", "nope"], 5, "no data set 'nope'"),
    (["--sets", ","], 2, "no data set given"),
    (["--limit", "0"], 2, "argument --limit: must be more than 0, not 0"),
    (["--time-limit", "-1"], 2, "argument --time-limit: must be more than 0, not -1"),
    (["--time-limit", "soon"], 2, "argument --time-limit: not a number: 'soon'"),
    (["--backend", "nope", "--sets", "mini"], 6, "unknown backend 'nope'"),
    (["--frobnicate"], 2, "unrecognized arguments: --frobnicate"),
])
def test_errors_are_one_line_with_their_exit_code(tmp_path, capsys, args, code, message):
    data = make_data(tmp_path)
    try:
        got = main(args + ["--data", str(data)], prog="cpsudoku bench")
    except SystemExit as exc:  # argparse's own checks exit instead of returning
        got = exc.code
    err = capsys.readouterr().err
    assert got == code
    assert err.count("\n") == 1 and err.startswith("cpsudoku bench: error: ") and message in err


def test_malformed_data_files_are_named(tmp_path, capsys):
    data = make_data(tmp_path, count="many")
    assert main(["--sets", "mini", "--data", str(data)]) == 5
    err = capsys.readouterr().err
    assert "mini.sol: solution line 1: expected SOLUTION,COUNT" in err
    assert main(["--data", str(tmp_path / "missing")]) == 5
    assert "data folder" in capsys.readouterr().err


def test_the_cli_runs_the_benchmark(tmp_path):
    data = make_data(tmp_path)
    result = CliRunner().invoke(app, ["bench", "--sets", "mini", "--data", str(data),
                                      "--no-reference"])
    assert result.exit_code == 0, result.output
    assert "mini (first solution" in result.output


def test_an_interrupted_run_reports_what_finished(data_dir, capsys, interrupting_backend):
    interrupting_backend.stop_at = 4  # warm-up, puzzles 1 and 2, then Ctrl-C on puzzle 3
    code = main(["--sets", "norvig_hardest,norvig_top95", "--backend", "interrupted",
                 "--data", str(data_dir)], prog="cpsudoku bench")
    captured = capsys.readouterr()
    assert code == 130
    assert "norvig_hardest (first solution, timed through api), interrupted after 2" in captured.out
    assert "norvig_top95" not in captured.out  # the run stops at the interruption
    row = next(line for line in captured.out.splitlines() if "interrupted │" in line)
    assert [cell.strip() for cell in row.split("│")[2:5]] == ["2", "2", "2"]
    assert captured.err == ("cpsudoku bench: interrupted in norvig_hardest after 2 puzzle(s); "
                            "the tables above cover what finished\n")


def _quiet():
    from rich.console import Console
    return Console(file=io.StringIO())
