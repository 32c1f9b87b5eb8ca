"""rate and generate on the batch layer: the same output with two workers (or Dask) as
with one, csv read back, resume after an interruption gives the uninterrupted output."""

from __future__ import annotations

import csv
import io
import itertools
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cpsudoku.batch import BatchOptions, run
from cpsudoku.batch.rating import RATE_COLUMNS, RateTask
from cpsudoku.cli import app
from cpsudoku.errors import ExitCode
from cpsudoku.formats.read import parse_one
from cpsudoku.formats.sources import iter_entries
from cpsudoku.generator import generate_many
from cpsudoku.logic import rate

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()
UNSOLVABLE = "12345678." + "........9" + "." * 63  # r1c9 can hold nothing


def royle(data_dir: Path, count: int, start: int = 0) -> list[str]:
    with open(data_dir / "classic" / "royle_17clue.txt") as handle:
        return [line.strip() for line in itertools.islice(handle, start, start + count)]


def rows(text: str) -> list[dict]:
    """csv rows with the timing (all that differs between runs) blanked."""
    return [dict(r, time_s=None) for r in csv.DictReader(io.StringIO(text))]


def records(text: str, timing: str = "time_s") -> list[dict]:
    out = [json.loads(line) for line in text.splitlines()]
    for record in out:
        record.pop(timing, None)
    return out


def _cli(*args, **kw):
    return subprocess.Popen([sys.executable, "-m", "cpsudoku", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def _lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def _interrupt(args: list[str], out: Path, sig: int, at_least: int) -> int:
    """Start `cpsudoku ARGS` (writing to `out`), send `sig` once `at_least` lines are
    there; the lines it kept."""
    proc = _cli(*args, start_new_session=True)
    deadline = time.monotonic() + 120
    while _lines(out) < at_least and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.01)
    os.killpg(proc.pid, sig)  # the whole process group, as Ctrl-C in a terminal
    code = proc.wait(60)
    assert code == (130 if sig == signal.SIGINT else -sig), proc.stderr.read()
    return _lines(out)


# --- rate ------------------------------------------------------------------------------

@pytest.fixture
def rate_set(data_dir, tmp_path) -> Path:
    """Rateable puzzles, a line that cannot be read and a puzzle without a solution."""
    lines = royle(data_dir, 60)
    lines[20] = lines[20][:10] + "x" + lines[20][11:]
    lines[40] = UNSOLVABLE
    path = tmp_path / "set.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.process
@pytest.mark.parametrize("fmt", ["csv", "jsonl", "pretty"])
def test_rate_with_two_workers_writes_what_one_writes(rate_set, fmt):
    one = runner.invoke(app, ["rate", str(rate_set), "-f", fmt, "-j", "1"])
    two = runner.invoke(app, ["rate", str(rate_set), "-f", fmt, "-j", "2"])
    assert one.exit_code == two.exit_code == ExitCode.BAD_INPUT  # bad input ranks first
    assert two.stderr == one.stderr and "set.txt:21:11: unexpected character" in one.stderr
    if fmt == "csv":
        assert rows(two.stdout) == rows(one.stdout)
    elif fmt == "jsonl":
        assert records(two.stdout) == records(one.stdout)
    else:
        assert two.stdout == one.stdout
    # pretty: the bad line is named on stderr only (once); the others keep a line each
    assert len(one.stdout.splitlines()) == 60 + (fmt == "csv") - (fmt == "pretty")


def test_rate_csv_reads_back(rate_set):
    result = runner.invoke(app, ["rate", str(rate_set), "-f", "csv"])
    table = list(csv.DictReader(io.StringIO(result.stdout)))
    assert tuple(table[0]) == RATE_COLUMNS
    assert [r["index"] for r in table] == [str(i) for i in range(60)]
    assert {r["status"] for i, r in enumerate(table) if i not in (20, 40)} == {"rated"}
    assert table[20]["status"] == "invalid" and ":21:11:" in table[20]["message"]
    assert table[40]["status"] == "unsolvable" and table[40]["message"]
    for row in table[:3]:
        rating = rate(parse_one(row["puzzle"]))
        assert (float(row["er"]), float(row["ep"]), float(row["ed"]), row["level"]) == (
            rating.er, rating.ep, rating.ed, rating.level)
        assert dict(t.split(":") for t in row["techniques"].split(";")) == {
            k: str(v) for k, v in rating.techniques.items()}


@pytest.mark.process
def test_rate_exits_3_for_a_puzzle_without_solution_in_a_batch(data_dir):
    text = "\n".join([*royle(data_dir, 3), UNSOLVABLE]) + "\n"
    result = runner.invoke(app, ["rate", "-", "-f", "jsonl", "-j", "2"], input=text)
    assert result.exit_code == ExitCode.UNSOLVABLE
    last = json.loads(result.stdout.splitlines()[-1])
    assert last["status"] == "unsolvable" and "no solution" in last["error"]


@pytest.mark.process
def test_rate_on_a_dask_local_cluster_rates_like_one_process(rate_set):
    pytest.importorskip("distributed")
    task = RateTask("jsonl")
    serial = [r.text for r in run(iter_entries(str(rate_set)), task, BatchOptions(jobs=1))]
    on_dask = [r.text for r in run(iter_entries(str(rate_set)), task,
                                   BatchOptions(dask="local:2"))]
    assert records("\n".join(on_dask)) == records("\n".join(serial))


@pytest.mark.process
@pytest.mark.timing
def test_rate_resumes_after_ctrl_c(data_dir, tmp_path):
    path = tmp_path / "set.txt"
    path.write_text("\n".join(royle(data_dir, 600)) + "\n")
    reference = runner.invoke(app, ["rate", str(path), "-f", "csv"])
    assert reference.exit_code == 0
    out = tmp_path / "out.csv"
    args = ["rate", str(path), "-f", "csv", "-o", str(out), "-j", "2"]
    kept = _interrupt(args, out, signal.SIGINT, 30)
    assert 30 <= kept < 601
    again = runner.invoke(app, [*args, "--resume"])
    assert again.exit_code == 0, again.output
    assert rows(out.read_text()) == rows(reference.stdout)


# --- generate --------------------------------------------------------------------------

@pytest.mark.process
@pytest.mark.parametrize("fmt", ["line", "jsonl", "pretty", "toml"])
def test_generate_with_two_workers_makes_what_one_makes(fmt):
    args = ["generate", "-c", "6", "--seed", "11", "--size", "6", "-f", fmt]
    one = runner.invoke(app, [*args, "-j", "1"])
    two = runner.invoke(app, [*args, "-j", "2"])
    assert one.exit_code == two.exit_code == 0, two.output
    if fmt == "jsonl":
        assert records(two.stdout) == records(one.stdout)
        assert [r["puzzle"] for r in records(one.stdout)] == [
            m.puzzle.line() for m in generate_many(6, seed=11, size=6)]
    else:
        assert two.stdout == one.stdout


@pytest.mark.process
@pytest.mark.timing
def test_generate_target_missed_with_workers_is_still_one_line_and_exit_4():
    result = runner.invoke(app, ["generate", "-c", "3", "--seed", "1", "--clues", "17",
                                 "--time-limit", "0.3", "-j", "2"])
    assert result.exit_code == ExitCode.TIMEOUT
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "no puzzle with at most 17" in lines[0]
    assert result.stdout == ""


def test_generate_resume_needs_the_seed(tmp_path):
    result = runner.invoke(app, ["generate", "-c", "3", "-o", str(tmp_path / "o"),
                                 "--resume"])
    assert result.exit_code == ExitCode.USAGE
    assert "--resume needs the --seed" in result.stderr


def test_generate_resume_refuses_another_runs_file(tmp_path):
    out = tmp_path / "set.txt"
    assert runner.invoke(app, ["generate", "-c", "2", "--seed", "1", "-o",
                               str(out)]).exit_code == 0
    result = runner.invoke(app, ["generate", "-c", "4", "--seed", "2", "-o", str(out),
                                 "--resume"])
    assert result.exit_code == ExitCode.BAD_INPUT
    assert "header is not this command's" in result.stderr


@pytest.mark.process
@pytest.mark.timing
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL])
def test_generate_resumes_after_an_interruption(tmp_path, sig):
    """Interrupted in a run of 100,000, resumed as a run of a few more: the file is
    what one uninterrupted run of that many makes."""
    out = tmp_path / "set.txt"
    kept = _interrupt(["generate", "-c", "100000", "--seed", "3", "-o", str(out), "-j", "2"],
                      out, sig, 6)
    assert kept >= 6
    total = kept + 3  # the seed line is one of the lines: some puzzles are still to do
    again = runner.invoke(app, ["generate", "-c", str(total), "--seed", "3", "-o", str(out),
                                "--resume", "-j", "2"])
    assert again.exit_code == 0, again.output
    lines = out.read_text().splitlines()
    assert lines[0].startswith("# cpsudoku generate seed=3 ")
    assert lines[1:] == [m.puzzle.line() for m in generate_many(total, seed=3)]
