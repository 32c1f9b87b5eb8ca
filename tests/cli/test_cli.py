"""The command line, end to end through typer's CliRunner: every command, every
format, every error path with its exit code and its one-line message."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cpsudoku import backends
from cpsudoku.backends.base import Backend
from cpsudoku.cli import app
from cpsudoku.errors import ExitCode
from cpsudoku.result import Outcome

ROOT = Path(__file__).resolve().parents[2]
INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
INKALA_SOLUTION = ("812753649943682175675491283154237896369845721287169534"
                   "521974368438526917796318452")
# Two equal givens in row 1.
CONTRADICTORY = "88" + INKALA[2:]
# No direct conflict, but r1c9 can hold nothing: row 1 has 1-8, column 9 has 9.
NO_SOLUTION = "12345678." + "........9" + "." * 63
# Gordon Royle's first 17-clue puzzle: hopeless for plain backtracking in a short time.
HARD_FOR_NAIVE = "000000010400000000020000000000050407008000300001090000300400200050100000000806000"
runner = CliRunner()


def run(*args, input=None):
    return runner.invoke(app, list(args), input=input)


def one_error_line(result) -> str:
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.output
    return lines[0]


# --- solve ------------------------------------------------------------------------

def test_readme_example_solves_inkala():
    result = run("solve", str(ROOT / "examples" / "inkala.txt"))
    assert result.exit_code == 0, result.output
    label, grid = result.stdout.split("\n", 1)
    assert label.endswith("inkala.txt:1: solved")  # the source line, then the verdict
    digits = "".join(ch for ch in grid if ch.isdigit())
    assert digits == INKALA_SOLUTION


@pytest.mark.parametrize("backend", ["native", "cpsat", "python-constraint"])
def test_solve_line_format_each_backend(backend):
    result = run("solve", INKALA, "--backend", backend, "--format", "line")
    assert result.exit_code == 0, result.output
    assert result.stdout.split() == [INKALA_SOLUTION]


def test_solve_jsonl_is_the_machine_interface():
    result = run("solve", INKALA, "--format", "jsonl", "--max-solutions", "2")
    assert result.exit_code == 0
    record = json.loads(result.stdout.strip())
    assert {"index", "status", "solutions", "backend", "time_s", "stats"} <= set(record)
    assert record["index"] == 0
    assert record["status"] == "unique"
    assert record["solutions"] == [INKALA_SOLUTION]
    assert record["backend"] == "native"
    assert record["stats"]["nodes"] >= 1


def test_solve_json_format():
    result = run("solve", INKALA, "--format", "json")
    assert result.exit_code == 0
    record = json.loads(result.stdout)
    assert record["status"] == "solved"
    assert record["solutions"] == [INKALA_SOLUTION]


def test_solve_stats_and_trace():
    result = run("solve", INKALA, "--stats", "--trace", "--format", "line")
    assert result.exit_code == 0, result.output
    assert "ms" in result.stdout and "nodes=" in result.stdout
    assert "single" in result.stdout  # placements carry their reason
    assert "guess" in result.stdout
    assert INKALA_SOLUTION in result.stdout


def test_solve_many_puzzles_from_stdin_keeps_order():
    text = f"# two puzzles\n{INKALA}\n{INKALA.replace('8', '.', 1)}\n"
    result = run("solve", "-", "--format", "jsonl", "-n", "2", input=text)
    assert result.exit_code == 0
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["index"] for r in records] == [0, 1]
    assert records[0]["status"] == "unique"
    assert records[1]["status"] == "multiple"


def test_solve_output_file(tmp_path):
    out = tmp_path / "out.txt"
    result = run("solve", INKALA, "--format", "line", "--output", str(out))
    assert result.exit_code == 0
    assert out.read_text().split() == [INKALA_SOLUTION]


def test_solve_6x6_with_box_option():
    grid = "1.....\n..3...\n......\n...5..\n.....6\n......"
    result = run("solve", "-", "--box", "2x3", "--format", "line", "-n", "1", input=grid)
    assert result.exit_code == 0, result.output
    assert len(result.stdout.strip()) == 36


# --- error paths --------------------------------------------------------------------

def test_contradictory_givens_named_before_search():
    result = run("solve", CONTRADICTORY, "--format", "jsonl")
    assert result.exit_code == ExitCode.UNSOLVABLE
    record = json.loads(result.stdout)
    assert record["status"] == "unsolvable"
    assert "r1c1" in record["reason"] and "r1c2" in record["reason"]


@pytest.mark.parametrize("backend", ["native", "cpsat", "python-constraint", "naive"])
def test_no_solution_exit_code(backend):
    result = run("solve", NO_SOLUTION, "--backend", backend, "--format", "line")
    assert result.exit_code == ExitCode.UNSOLVABLE


@pytest.mark.timing
def test_timeout_exit_code():
    result = run("solve", HARD_FOR_NAIVE, "--backend", "naive", "--time-limit", "0.3")
    assert result.exit_code == ExitCode.TIMEOUT
    assert "timeout" in result.stdout.lower()


def test_unknown_backend_lists_choices():
    result = run("solve", INKALA, "--backend", "gurobi")
    assert result.exit_code == ExitCode.BACKEND
    line = one_error_line(result)
    assert "gurobi" in line and "native" in line and "cpsat" in line


def test_trace_refused_by_backend_that_cannot():
    result = run("solve", INKALA, "--backend", "cpsat", "--trace")
    assert result.exit_code == ExitCode.BACKEND
    assert "trace" in one_error_line(result)


def test_workers_refused_by_native():
    result = run("solve", INKALA, "--workers", "2")
    assert result.exit_code == ExitCode.BACKEND
    assert "workers" in one_error_line(result)


def test_missing_file():
    result = run("solve", "no/such/file.txt")
    assert result.exit_code == ExitCode.BAD_INPUT
    assert "no/such/file.txt" in one_error_line(result)


def test_malformed_grid_names_line_and_column(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text(INKALA + "\n" + INKALA[:40] + "x" + INKALA[41:] + "\n")
    result = run("solve", str(bad))
    assert result.exit_code == ExitCode.BAD_INPUT
    line = one_error_line(result)
    assert "bad.txt:2:41" in line and "'x'" in line


def test_wrong_cell_count():
    result = run("solve", INKALA[:80])
    assert result.exit_code == ExitCode.BAD_INPUT
    assert "80" in one_error_line(result)


@pytest.mark.parametrize("args", [["--max-solutions", "0"], ["--time-limit", "-1"],
                                  ["--size", "99"], ["--box", "2y3"]])
def test_absurd_options(args):
    result = run("solve", INKALA, *args)
    assert result.exit_code in (ExitCode.USAGE, ExitCode.BAD_INPUT)
    one_error_line(result)


# --- count, check, backends ------------------------------------------------------------

def test_count_verdicts():
    unique = run("count", INKALA)
    assert unique.exit_code == 0 and "unique" in unique.stdout
    multiple = run("count", INKALA.replace("8", ".", 1), "--limit", "5")
    assert multiple.exit_code == ExitCode.NOT_UNIQUE
    assert "not unique: at least 5 solutions" in multiple.stdout
    none = run("count", NO_SOLUTION)
    assert none.exit_code == ExitCode.UNSOLVABLE and "no solution" in none.stdout


def test_count_jsonl():
    result = run("count", INKALA, "--format", "jsonl", "--backend", "cpsat")
    record = json.loads(result.stdout)
    assert record["count"] == 1 and record["verdict"] == "unique solution"


def test_check_valid_and_conflicting_grids():
    ok = run("check", INKALA_SOLUTION)
    assert ok.exit_code == 0 and "valid solution" in ok.stdout
    broken = INKALA_SOLUTION[1] + INKALA_SOLUTION[1:]  # r1c1 now repeats r1c2
    result = run("check", broken)
    assert result.exit_code == ExitCode.NOT_UNIQUE
    assert "r1c1 and r1c2 both hold 1 in row 1" in result.stdout


def test_check_partial_grid_and_original_givens():
    partial = run("check", INKALA)
    assert partial.exit_code == 0 and "no conflict so far" in partial.stdout
    # A complete, valid grid that is not a solution of Inkala's puzzle (digits relabelled).
    relabel = str.maketrans("123456789", "213456789")
    other = INKALA_SOLUTION.translate(relabel)
    result = run("check", other, "--puzzle", INKALA)
    assert result.exit_code == ExitCode.NOT_UNIQUE
    assert "was given as" in result.stdout


def test_backends_lists_all_four():
    result = run("backends")
    assert result.exit_code == 0
    for name in ("native", "naive", "python-constraint", "cpsat"):
        assert name in result.stdout


@pytest.mark.process
def test_help_and_native_solve_do_not_import_ortools():
    code = ("import sys; from cpsudoku.cli import app; from typer.testing import CliRunner; "
            f"r = CliRunner().invoke(app, {['solve', INKALA]!r}); "
            "assert r.exit_code == 0, r.output; "
            "r = CliRunner().invoke(app, ['--help']); assert r.exit_code == 0; "
            "print('ortools' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.process
def test_module_entry_point():
    out = subprocess.run([sys.executable, "-m", "cpsudoku", "solve", INKALA, "-f", "line"],
                         capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.split() == [INKALA_SOLUTION]
    bad = subprocess.run([sys.executable, "-m", "cpsudoku", "solve", "nope.txt"],
                         capture_output=True, text=True)
    assert bad.returncode == ExitCode.BAD_INPUT
    assert "Traceback" not in bad.stderr and len(bad.stderr.strip().splitlines()) == 1


# --- compare ---------------------------------------------------------------------------

class _WrongBackend(Backend):
    """Test-only: answers a grid that keeps the givens but breaks the rules."""

    name = "broken"
    description = "returns a wrong solution"

    def search(self, model, request):
        grid = tuple(next(iter(sorted(d))) for d in model.domains)
        return Outcome([grid], exhausted=True)


@pytest.fixture
def broken_backend():
    backends.register("broken", _WrongBackend)
    yield "broken"
    backends.unregister("broken")


def test_compare_agreement(tmp_path):
    csv_path, json_path = tmp_path / "rows.csv", tmp_path / "rows.json"
    puzzles = tmp_path / "p.txt"
    puzzles.write_text(f"{INKALA}\n{NO_SOLUTION}\n")
    result = run("compare", str(puzzles), "--backends", "native,cpsat,python-constraint",
                 "--time-limit", "20", "--csv", str(csv_path), "--json", str(json_path))
    assert result.exit_code == 0, result.output
    for name in ("native", "cpsat", "python-constraint"):
        assert name in result.stdout
    assert len(csv_path.read_text().strip().splitlines()) == 1 + 2 * 3
    rows = json.loads(json_path.read_text())
    assert len(rows if isinstance(rows, list) else rows["rows"]) == 6


def test_compare_reports_disagreement(broken_backend):
    result = run("compare", INKALA, "--backends", f"native,{broken_backend}")
    assert result.exit_code == ExitCode.DISAGREEMENT
    assert "broken" in result.stdout


def test_compare_unknown_backend():
    result = run("compare", INKALA, "--backends", "native,nope")
    assert result.exit_code == ExitCode.BACKEND
    assert "nope" in one_error_line(result)


def test_backend_specific_option():
    result = run("solve", INKALA, "-b", "python-constraint", "-O", "hidden_singles=false",
                 "-f", "line")
    assert result.exit_code == 0 and result.stdout.split() == [INKALA_SOLUTION]
    refused = run("solve", INKALA, "-O", "hidden_singles=false")
    assert refused.exit_code == ExitCode.BACKEND
    assert "hidden_singles" in one_error_line(refused)
    malformed = run("solve", INKALA, "-O", "workers")
    assert malformed.exit_code == ExitCode.USAGE
    assert "KEY=VALUE" in one_error_line(malformed)


def test_interrupted_compare_keeps_finished_rows(tmp_path, interrupting_backend):
    interrupting_backend.stop_at = 3  # warm-up, puzzle 1, then Ctrl-C on puzzle 2
    puzzles = tmp_path / "p.txt"
    puzzles.write_text(f"{INKALA}\n{INKALA}\n{INKALA}\n")
    csv_path = tmp_path / "rows.csv"
    result = run("compare", str(puzzles), "--backends", "native,interrupted",
                 "--csv", str(csv_path))
    assert result.exit_code == 130
    assert "interrupted after 1 puzzle" in result.stderr
    assert len(csv_path.read_text().strip().splitlines()) == 1 + 2  # header + puzzle 1 twice


def test_variants_lists_rules_and_elements():
    result = run("variants")
    assert result.exit_code == 0
    for name in ("diagonal", "anti-knight", "windoku", "non-consecutive", "cages",
                 "thermometers", "kropki", "regions"):
        assert name in result.stdout
    assert "[greater, smaller]" in result.stdout  # descriptions are text, not markup
