"""What the command line writes: JSON that is JSON for any number of puzzles, labels,
statuses in one wording, set-up apart from search time, terminal conventions (version,
-h, backend names, closed pipes, Ctrl-C) and the formats of count and check."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cpsudoku import backends
from cpsudoku.backends.base import Backend
from cpsudoku.cli import app
from cpsudoku.errors import ExitCode
from cpsudoku.formats import write as render
from cpsudoku.formats.read import parse
from cpsudoku.result import Outcome, Status, finish

ROOT = Path(__file__).resolve().parents[2]
INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
INKALA_SOLUTION = ("812753649943682175675491283154237896369845721287169534"
                   "521974368438526917796318452")
OPEN = INKALA.replace("8", ".", 1)  # several solutions
runner = CliRunner()


def run(*args, input=None):
    return runner.invoke(app, list(args), input=input)


# --- -f json over one or several puzzles ----------------------------------------------

@pytest.mark.parametrize("count", [1, 2, 3])
def test_json_is_one_object_for_one_puzzle_and_an_array_for_several(count):
    result = run("solve", "-", "-f", "json", input="\n".join([INKALA] * count) + "\n")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    if count == 1:
        assert data["solutions"] == [INKALA_SOLUTION]
    else:
        assert [r["index"] for r in data] == list(range(count))
        assert all(r["solutions"] == [INKALA_SOLUTION] for r in data)


def test_json_stream_writes_as_results_come():
    written = []
    stream = render.JsonStream(written.append)
    stream.add('{"a": 1}')
    assert written == []  # one object so far: it may be the only one
    stream.add('{"b": 2}')
    assert json.loads("".join(written) + "]") == [{"a": 1}, {"b": 2}]  # both already out
    stream.close()
    assert json.loads("".join(written)) == [{"a": 1}, {"b": 2}]


# --- statuses, labels, times ------------------------------------------------------------

class _RunsOutAfterOne(Backend):
    """Finds the puzzle's solution, then reports that time ran out looking for another."""

    name = "slow-proof"
    description = "one solution, then the time limit"

    def search(self, model, request):
        found = backends.get("native").search(model, request).solutions[:1]
        return Outcome(found, exhausted=False, timed_out=True, stats={"nodes": 1})


@pytest.fixture
def slow_proof():
    backends.register("slow-proof", _RunsOutAfterOne)
    yield "slow-proof"
    backends.unregister("slow-proof")


def test_unproven_is_its_own_status_and_exit_code(slow_proof):
    result = run("solve", INKALA, "-b", slow_proof, "-n", "2", "-f", "jsonl")
    assert result.exit_code == ExitCode.TIMEOUT
    record = json.loads(result.stdout)
    assert record["status"] == "unproven" and record["solutions"] == [INKALA_SOLUTION]
    counted = run("count", INKALA, "-b", slow_proof)
    assert counted.exit_code == ExitCode.TIMEOUT
    assert "solved, not proven unique: time ran out" in counted.stdout
    first_only = run("solve", INKALA, "-b", slow_proof, "-n", "1", "-f", "jsonl")
    assert json.loads(first_only.stdout)["status"] == "solved"  # uniqueness not asked


@pytest.mark.parametrize("found, limit, exhausted, timed_out, status", [
    (1, 2, True, False, Status.UNIQUE),
    (1, 2, False, True, Status.UNPROVEN),
    (1, 1, False, False, Status.SOLVED),
    (1, 1, False, True, Status.SOLVED),
    (2, 2, False, False, Status.MULTIPLE),
    (2, 3, False, True, Status.MULTIPLE),
    (0, 2, False, True, Status.TIMEOUT),
    (0, 2, True, False, Status.UNSOLVABLE),
])
def test_the_one_place_statuses_are_decided(found, limit, exhausted, timed_out, status):
    outcome = Outcome([tuple(range(found + 1))] * found, exhausted, timed_out)
    assert finish(outcome, backend="x", max_solutions=limit, elapsed=0.1).status is status


def test_setup_and_search_times_add_up_to_the_total():
    result = run("solve", INKALA, "-f", "jsonl", "-b", "cpsat")
    stats = json.loads(result.stdout)["stats"]
    record = json.loads(result.stdout)
    assert stats["setup_s"] > 0 and stats["search_s"] > 0
    assert abs(stats["setup_s"] + stats["search_s"] - record["time_s"]) < 1e-5
    line = run("solve", INKALA, "--stats", "-f", "line").stdout.splitlines()[-1]
    assert line.startswith("# native") and "setup " in line and "search " in line


def test_every_puzzle_of_a_batch_is_labelled_with_its_source_line(tmp_path):
    path = tmp_path / "two.txt"
    path.write_text(f"# two\n{INKALA}\n{OPEN}\n")
    result = run("solve", str(path), "-n", "2")
    labels = [line for line in result.stdout.splitlines() if line.startswith(str(path))]
    assert labels == [f"{path}:2: unique solution", f"{path}:3: not unique: at least 2 solutions"]


def test_pretty_tells_givens_from_found_digits_on_a_terminal_only():
    puzzle = parse(INKALA)[0]
    result = finish(Outcome([tuple(int(c) for c in INKALA_SOLUTION)], True), backend="native",
                    max_solutions=1, elapsed=0.1, puzzle=puzzle)
    styled = render.render_result(result, "pretty", color=True)
    assert "\x1b[1m8\x1b[0m" in styled  # r1c1, a given, bold
    assert "\x1b[36m1\x1b[0m" in styled  # r1c2, found, coloured
    plain = render.render_result(result, "pretty")
    assert "\x1b" not in plain
    assert parse(plain.split("\n", 1)[1])[0].givens == result.solution  # reads back


# --- formats of count and check, and the numbers renderer -------------------------------

def test_count_output_file(tmp_path):
    out = tmp_path / "counts.jsonl"
    result = run("count", "-", "-f", "jsonl", "--output", str(out), input=f"{INKALA}\n{OPEN}\n")
    assert result.exit_code == ExitCode.NOT_UNIQUE and result.stdout == ""
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["count"], r["verdict"]) for r in records] == [
        (1, "unique solution"), (2, "not unique: at least 2 solutions")]


def test_solve_numbers_format_reads_back():
    result = run("solve", INKALA, "-f", "numbers")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("# ") and len(lines) == 10
    assert parse(result.stdout)[0].line() == INKALA_SOLUTION


@pytest.mark.parametrize("fmt", ["json", "jsonl", "text"])
def test_check_formats(fmt):
    clash = "88" + INKALA_SOLUTION[2:]
    result = run("check", "-", "-f", fmt, input=f"{INKALA_SOLUTION}\n{clash}\n")
    assert result.exit_code == ExitCode.NOT_UNIQUE  # conflicts found
    if fmt == "text":
        assert "<stdin>:1: valid solution" in result.stdout
        assert "<stdin>:2: " in result.stdout and "conflict" in result.stdout
        return
    records = (json.loads(result.stdout) if fmt == "json"
               else [json.loads(line) for line in result.stdout.splitlines()])
    assert [(r["valid"], r["complete"]) for r in records] == [(True, True), (False, False)]
    assert records[1]["conflicts"] and records[0]["source"] == "<stdin>:1"


# --- terminal conventions ---------------------------------------------------------------

def test_version_and_short_help():
    from cpsudoku._version import __version__
    assert run("--version").stdout.strip() == f"cpsudoku {__version__}"
    for args in (["-h"], ["solve", "-h"], ["bench", "-h"]):
        result = run(*args)
        assert result.exit_code == 0 and result.stdout.startswith("Usage:")


@pytest.mark.parametrize("name", ["CPSAT", "Native", "python-CONSTRAINT"])
def test_backend_names_in_any_case(name):
    result = run("solve", INKALA, "-b", name, "-f", "line")
    assert result.exit_code == 0 and result.stdout.split() == [INKALA_SOLUTION]


@pytest.mark.parametrize("command", [["solve", INKALA], ["compare", INKALA, "--backends"]])
def test_a_misspelt_backend_gets_a_suggestion(command):
    option = [] if command[0] == "compare" else ["-b"]
    result = run(*command, *option, "cpsta")
    assert result.exit_code == ExitCode.BACKEND
    from cpsudoku import backends
    assert result.stderr == ("cpsudoku: error: unknown backend 'cpsta'; did you mean 'cpsat'? "
                             f"(choose one of: {', '.join(backends.names())})\n")


def test_backend_completion():
    from cpsudoku.cli.app import complete_backend
    assert complete_backend("py") == ["python-constraint"]
    assert complete_backend("N") == ["native", "naive"]


def test_usage_errors_are_one_line():
    result = run("solve", INKALA, "--frobnicate")
    assert result.exit_code == ExitCode.USAGE
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cpsudoku: error: No such option")


def test_variants_lists_aliases():
    result = run("variants")
    row = next(line for line in result.stdout.splitlines() if "anti-knight" in line)
    assert "antiknight" in row


def test_ctrl_c_says_what_was_kept(tmp_path, interrupting_backend):
    interrupting_backend.stop_at = 3  # puzzles 1 and 2 solved, Ctrl-C during puzzle 3
    out = tmp_path / "out.json"
    result = run("solve", "-", "-b", "interrupted", "-f", "json", "-o", str(out),
                 input="\n".join([INKALA] * 4) + "\n")
    assert result.exit_code == 130
    assert result.stderr == (f"cpsudoku: interrupted; the 2 result(s) finished before are "
                             f"written to {out}\n")
    assert len(json.loads(out.read_text())) == 2  # a complete JSON array of what finished


@pytest.mark.process
def test_a_closed_pipe_ends_quietly_with_the_conventional_code(tmp_path):
    """`cpsudoku solve big.txt | head -1`: exit 141 (SIGPIPE's), nothing on stderr."""
    big = tmp_path / "big.txt"
    big.write_text(f"{INKALA}\n" * 3000)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "cpsudoku", "solve", str(big), "-f", "line"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert proc.stdout.readline().strip() == INKALA_SOLUTION.encode()
    proc.stdout.close()
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 141 and err == b""


@pytest.mark.parametrize(("puzzle", "lines", "verdict"), [
    (INKALA, 1, "unique solution"),
    (OPEN, 2, "not unique: at least 2 solutions"),
])
def test_line_output_says_what_a_search_for_two_solutions_found(puzzle, lines, verdict):
    result = CliRunner().invoke(app, ["solve", puzzle, "-n", "2", "-f", "line"])
    out = result.stdout.splitlines()
    assert len(out) == lines + 1 and out[-1].startswith("# ") and out[-1].endswith(verdict)
    assert [len(x) for x in out[:-1]] == [81] * lines
    bare = CliRunner().invoke(app, ["solve", puzzle, "-f", "line"]).stdout.splitlines()
    assert bare == out[:1]  # -n 1: the solution alone, ready for a pipe
