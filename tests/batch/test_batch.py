"""The batch layer: input order and content equal to a serial run whatever the workers,
a worker dying on one puzzle, bad lines in the middle of a file, resumable output after
SIGINT, SIGTERM and SIGKILL (in subprocesses), csv read back, a Dask LocalCluster run."""

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
from conftest import data_file
from typer.testing import CliRunner

from cpsudoku.batch import BatchOptions, Record, SolveTask, run
from cpsudoku.batch.resume import records_done
from cpsudoku.cli import app
from cpsudoku.errors import CpsudokuError, ExitCode, UsageError
from cpsudoku.formats.sources import BadPuzzle, iter_entries, iter_puzzles, read_puzzles

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def royle(data_dir: Path, count: int) -> list[str]:
    with open(data_dir / "classic" / "royle_17clue.txt") as handle:
        return [line.strip() for line in itertools.islice(handle, count)]


def without_times(text: str) -> list[dict]:
    """jsonl records with the timings (all that differs between runs) removed."""
    records = [json.loads(line) for line in text.splitlines()]
    for record in records:
        record.pop("time_s", None)
        for key in ("setup_s", "search_s"):
            record.get("stats", {}).pop(key, None)
    return records


def entries(path: Path) -> list:
    return list(iter_entries(str(path)))


# --- lazy input ----------------------------------------------------------------------

@pytest.mark.parametrize("name", ["classic/norvig_top95.txt", "sizes/gecode_16x16.txt",
                                  "variants/constraintsolver_jl_killer_9x9.jsonl"])
def test_lazy_reader_gives_what_the_whole_file_parser_gives(name):
    path = str(data_file(name))
    assert list(iter_puzzles([path])) == read_puzzles(path)


def test_gzipped_line_file_is_streamed(tmp_path):
    import gzip
    path = tmp_path / "top95.txt.gz"
    path.write_bytes(gzip.compress(data_file("classic/norvig_top95.txt").read_bytes()))
    assert all(e.text for e in iter_entries(str(path)))  # line by line, parsed later
    assert list(iter_puzzles([str(path)])) == read_puzzles(str(path))


def test_examples_read_lazily_as_whole(tmp_path):
    for path in sorted((ROOT / "examples").rglob("*")):
        if path.suffix in (".txt", ".toml", ".json") and path.is_file():
            assert list(iter_puzzles([str(path)])) == read_puzzles(str(path)), path


def test_bad_lines_in_the_middle_spoil_only_themselves(tmp_path, data_dir):
    lines = royle(data_dir, 6)
    lines[2] = lines[2][:40] + "x" + lines[2][41:]  # an unexpected character
    lines[4] = lines[4][:80]  # a short line
    path = tmp_path / "set.txt"
    path.write_text("# a comment\n" + "\n".join(lines) + "\n")
    got = list(iter_puzzles([str(path)]))
    assert [type(p).__name__ for p in got] == ["Puzzle", "Puzzle", "BadPuzzle", "Puzzle",
                                               "BadPuzzle", "Puzzle"]
    bad = got[2]
    assert isinstance(bad, BadPuzzle)
    assert bad.source == f"{path}:4"
    assert bad.message.startswith(f"{path}:4:41: unexpected character 'x'")
    assert got[4].message.startswith(f"{path}:6: 80 cells")
    assert got[3].source == f"{path}:5" and got[3].line() == lines[3]


def test_input_is_read_lazily():
    """The batch pulls items only as far as its bounded window: never the whole input."""
    pulled = 0

    def endless():
        nonlocal pulled
        for n in itertools.count():
            pulled += 1
            yield n

    task = Echo()
    records = run(endless(), task, BatchOptions(jobs=1))
    first = list(itertools.islice(records, 50))
    records.close()
    assert [r.text for r in first] == [str(n) for n in range(50)]
    assert pulled <= 60


# --- tasks for the layer's own tests (top level: workers must import them) -------------

class Echo:
    """Writes each item back; dies or raises on the items it is told to."""

    def __init__(self, die_on=(), raise_on=()):
        self.die_on, self.raise_on = set(die_on), set(raise_on)

    def __call__(self, chunk):
        out = []
        for index, item in chunk:
            if item in self.die_on:
                os.kill(os.getpid(), signal.SIGKILL)
            if item in self.raise_on:
                raise ValueError(f"cannot take {item}")
            out.append(Record(index, str(item), "ok"))
        return out

    def failed(self, index, item, message):
        return Record(index, f"failed {item}: {message}", "error", message, 70)


@pytest.mark.parametrize("jobs", [1, pytest.param(2, marks=pytest.mark.process),
                                  pytest.param("dask", marks=pytest.mark.process)])
def test_a_worker_dying_on_one_item_fails_that_item_only(jobs):
    if jobs == 1:
        task = Echo(raise_on={37})  # in-process: an exception stands for the death
    else:
        task = Echo(die_on={37})
    if jobs == "dask":
        pytest.importorskip("distributed")
        options = BatchOptions(dask="local:2", chunk=16)
    else:
        options = BatchOptions(jobs=jobs, chunk=16)
    records = list(run(range(120), task, options))
    assert [r.index for r in records] == list(range(120))
    assert [r.text for r in records if r.index != 37] == [str(n) for n in range(120) if n != 37]
    failed = records[37]
    assert failed.status == "error" and failed.code == 70
    expected = {1: "ValueError: cannot take 37", 2: "SIGKILL", "dask": "its Dask worker died"}
    assert expected[jobs] in failed.message


@pytest.mark.process
def test_start_skips_items_already_done():
    records = list(run(range(10), Echo(), BatchOptions(jobs=2, chunk=3), start=7))
    assert [(r.index, r.text) for r in records] == [(7, "7"), (8, "8"), (9, "9")]


def test_negative_jobs_is_a_usage_error():
    with pytest.raises(UsageError, match="--jobs"):
        list(run(range(3), Echo(), BatchOptions(jobs=-1)))


# --- solve and count: parallel equals serial --------------------------------------------

@pytest.mark.process
@pytest.mark.parametrize("command,fmt", [("solve", "jsonl"), ("solve", "line"),
                                         ("solve", "csv"), ("count", "jsonl"),
                                         ("count", "line")])
def test_two_workers_write_what_one_writes(data_dir, tmp_path, command, fmt):
    path = tmp_path / "set.txt"
    lines = royle(data_dir, 300)
    lines[150] = lines[150][:-1] + "?"
    path.write_text("\n".join(lines) + "\n")
    task = SolveTask(fmt, command=command, max_solutions=2)

    def texts(options):
        return [r.text for r in run(iter_entries(str(path)), task, options)]

    serial, parallel = texts(BatchOptions(jobs=1)), texts(BatchOptions(jobs=2))
    if fmt == "jsonl":
        assert without_times("\n".join(parallel)) == without_times("\n".join(serial))
    elif fmt == "csv":
        def rows(texts):
            return [dict(r, time_s=None) for r in csv.DictReader(
                io.StringIO("\n".join([task.header or "", *texts])))]
        assert rows(parallel) == rows(serial)
    else:
        assert parallel == serial
    assert len(serial) == 300


@pytest.mark.process
def test_dask_local_cluster_solves_like_one_process(data_dir, tmp_path):
    pytest.importorskip("distributed")
    path = tmp_path / "set.txt"
    path.write_text("\n".join(royle(data_dir, 200)) + "\n")
    task = SolveTask("jsonl")
    serial = [r.text for r in run(iter_entries(str(path)), task, BatchOptions(jobs=1))]
    on_dask = [r.text for r in run(iter_entries(str(path)), task,
                                   BatchOptions(dask="local:2"))]
    assert without_times("\n".join(on_dask)) == without_times("\n".join(serial))


def test_without_dask_the_option_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import fails as if absent
    result = runner.invoke(app, ["solve", str(ROOT / "examples" / "inkala.txt"),
                                 "--dask", "local:2"])
    assert result.exit_code == ExitCode.BACKEND
    assert result.stderr.strip() == ("cpsudoku: error: --dask needs Dask distributed: "
                                     "pip install 'cpsudoku[dask]'")


# --- the command line: csv, bad input, resume --------------------------------------------

def test_csv_output_parses_back_to_the_jsonl_records(data_dir, tmp_path):
    path = tmp_path / "set.txt"
    path.write_text("\n".join(royle(data_dir, 20)) + "\n")
    as_csv = runner.invoke(app, ["solve", str(path), "-f", "csv", "-n", "2"])
    as_jsonl = runner.invoke(app, ["solve", str(path), "-f", "jsonl", "-n", "2"])
    assert as_csv.exit_code == as_jsonl.exit_code == 0, as_csv.output
    rows = list(csv.DictReader(io.StringIO(as_csv.stdout)))
    records = [json.loads(line) for line in as_jsonl.stdout.splitlines()]
    assert len(rows) == len(records) == 20
    for row, record in zip(rows, records):
        assert int(row["index"]) == record["index"]
        assert row["source"] == record["source"] and row["puzzle"] == record["puzzle"]
        assert row["status"] == record["status"] == "unique"
        assert row["solution"] == record["solutions"][0]
        assert int(row["solutions"]) == 1 and row["backend"] == "native"
        assert int(row["nodes"]) == record["stats"]["nodes"]
        assert float(row["time_s"]) >= 0 and row["message"] == ""


def test_count_csv_has_count_and_verdict(tmp_path):
    path = tmp_path / "two.txt"
    inkala = (ROOT / "examples" / "inkala.txt").read_text().split()[-1]
    path.write_text(inkala + "\n" + "." * 81 + "\n")
    result = runner.invoke(app, ["count", str(path), "-f", "csv"])
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [(r["status"], r["count"], r["verdict"]) for r in rows] == [
        ("unique", "1", "unique solution"), ("multiple", "2", "not unique: at least 2 solutions")]
    assert result.exit_code == ExitCode.NOT_UNIQUE


@pytest.mark.process
@pytest.mark.parametrize("fmt", ["jsonl", "csv", "line"])
def test_a_bad_line_is_an_invalid_record_and_the_batch_goes_on(data_dir, tmp_path, fmt):
    lines = royle(data_dir, 511)
    lines[500] = lines[500][:30] + "/" + lines[500][31:]
    path = tmp_path / "set.txt"
    path.write_text("\n".join(lines) + "\n")
    result = runner.invoke(app, ["solve", str(path), "-f", fmt, "-j", "2"])
    assert result.exit_code == ExitCode.BAD_INPUT
    assert result.stderr.strip() == (f"cpsudoku: error: {path}:501:31: unexpected character "
                                     f"'/'; expected a digit 1-9, a letter A-P or a blank "
                                     f"(. 0 - _ *)")
    out = result.stdout.splitlines()
    if fmt == "jsonl":
        records = [json.loads(line) for line in out]
        assert len(records) == 511 and records[500]["status"] == "invalid"
        assert records[500]["source"] == f"{path}:501"
        assert "unexpected character" in records[500]["error"]
        assert {r["status"] for i, r in enumerate(records) if i != 500} == {"solved"}
    elif fmt == "csv":
        rows = list(csv.DictReader(io.StringIO(result.stdout)))
        assert len(rows) == 511 and rows[500]["status"] == "invalid"
        assert "unexpected character" in rows[500]["message"]
    else:
        assert len(out) == 511 and out[500].startswith(f"# invalid: {path}:501:31:")


def test_a_missing_file_is_still_one_error_before_any_work(tmp_path):
    result = runner.invoke(app, ["solve", str(tmp_path / "nope.txt"), "-j", "2"])
    assert result.exit_code == ExitCode.BAD_INPUT
    assert result.stdout == ""
    assert result.stderr.strip() == f"cpsudoku: error: no such file: {tmp_path / 'nope.txt'}"


@pytest.mark.parametrize("args,message", [
    (["--resume"], "--resume needs --output FILE"),
    (["--resume", "-o", "OUT", "-f", "pretty"], "--resume needs a format with one record a line"),
    (["--dask", "local:many"], "--dask local:many: expected local:N"),
])
def test_resume_usage_errors(tmp_path, args, message):
    args = [str(tmp_path / "out") if a == "OUT" else a for a in args]
    result = runner.invoke(app, ["solve", str(ROOT / "examples" / "inkala.txt"), *args])
    assert result.exit_code == ExitCode.USAGE
    assert message in result.stderr


def test_resume_drops_a_torn_line_and_finishes_the_rest(data_dir, tmp_path):
    path = tmp_path / "set.txt"
    path.write_text("\n".join(royle(data_dir, 30)) + "\n")
    out = tmp_path / "out.jsonl"
    full = runner.invoke(app, ["solve", str(path), "-f", "jsonl", "-o", str(out)])
    assert full.exit_code == 0
    whole = out.read_text()
    cut = whole.splitlines(keepends=True)
    out.write_text("".join(cut[:12]) + cut[12][:25])  # record 12 torn mid-line
    again = runner.invoke(app, ["solve", str(path), "-f", "jsonl", "-o", str(out), "--resume"])
    assert again.exit_code == 0, again.output
    assert without_times(out.read_text()) == without_times(whole)


def test_records_done_checks_the_file_is_this_outputs(tmp_path):
    out = tmp_path / "out.jsonl"
    out.write_text('{"index": 0}\n{"index": 5}\n')
    with pytest.raises(CpsudokuError, match="line 2 is not record 1"):
        records_done(out, "jsonl")
    out = tmp_path / "out.csv"
    out.write_text("a,b\n1,2\n3,")
    with pytest.raises(CpsudokuError, match="header"):
        records_done(out, "csv", header="index,status")
    assert records_done(out, "csv", header="a,b") == 1
    assert out.read_text() == "a,b\n1,2\n"
    assert records_done(tmp_path / "absent.csv", "csv", header="a,b") == 0


def test_progress_on_stderr(data_dir, tmp_path):
    path = tmp_path / "set.txt"
    path.write_text("\n".join(royle(data_dir, 10)) + "\n")
    result = runner.invoke(app, ["solve", str(path), "-f", "line", "--progress"])
    assert result.exit_code == 0
    assert "10 puzzles" in result.stderr and "/s" in result.stderr
    assert len(result.stdout.splitlines()) == 10


# --- signals: every finished result kept, none written twice (subprocesses) -------------

def _cli(*args, **kw):
    return subprocess.Popen([sys.executable, "-m", "cpsudoku", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def _lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def _no_process_left(group: int) -> None:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    os.killpg(group, signal.SIGKILL)
    pytest.fail("a worker outlived its batch")


SIGNAL_SET = 40000  # the classic lane solves a few thousand puzzles in a blink


@pytest.fixture(scope="module")
def signal_set(data_dir, tmp_path_factory):
    """A set long enough to be interrupted, and its uninterrupted output."""
    folder = tmp_path_factory.mktemp("signals")
    path = folder / "set.txt"
    # Long enough that two quick workers are still busy when the signal lands.
    path.write_text("\n".join(royle(data_dir, SIGNAL_SET)) + "\n")
    reference = folder / "reference.jsonl"
    done = _cli("solve", str(path), "-f", "jsonl", "-o", str(reference), "-j", "2")
    assert done.wait(300) == 0, done.stderr.read()
    return path, reference


@pytest.mark.process
@pytest.mark.timing
@pytest.mark.parametrize("sig,code", [(signal.SIGINT, 130), (signal.SIGTERM, 143),
                                      (signal.SIGKILL, -signal.SIGKILL)])
def test_resume_after_a_signal_gives_the_uninterrupted_output(signal_set, tmp_path, sig, code):
    path, reference = signal_set
    out = tmp_path / "out.jsonl"
    args = ["solve", str(path), "-f", "jsonl", "-o", str(out), "-j", "2"]
    proc = _cli(*args, start_new_session=True)
    deadline = time.monotonic() + 120
    while _lines(out) < 50 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.01)
    if sig == signal.SIGINT:
        os.killpg(proc.pid, sig)  # Ctrl-C reaches the whole process group
    else:
        os.kill(proc.pid, sig)
    assert proc.wait(60) == code, proc.stderr.read()
    _no_process_left(proc.pid)  # the workers went with it
    kept = _lines(out)
    assert 50 <= kept < SIGNAL_SET
    again = _cli(*args, "--resume")
    assert again.wait(300) == 0, again.stderr.read()
    assert without_times(out.read_text()) == without_times(reference.read_text())


@pytest.mark.parametrize("keep", [0, 1, 4])
def test_csv_resume_writes_the_header_once(data_dir, tmp_path, keep):
    path = tmp_path / "set.txt"
    path.write_text("\n".join(royle(data_dir, 8)) + "\n")
    out = tmp_path / "out.csv"
    assert runner.invoke(app, ["count", str(path), "-f", "csv", "-o", str(out)]).exit_code == 0
    whole = out.read_text().splitlines(keepends=True)
    out.write_text("".join(whole[:keep]) + whole[keep][:10])  # torn inside line `keep`
    again = runner.invoke(app, ["count", str(path), "-f", "csv", "-o", str(out), "--resume"])
    assert again.exit_code == 0, again.output

    def rows(lines):
        return [dict(r, time_s=None) for r in csv.DictReader(io.StringIO("".join(lines)))]
    assert rows(out.read_text().splitlines(keepends=True)) == rows(whole)


@pytest.fixture
def slow_proof():
    """A backend that finds one solution, then runs out of time proving there is no other."""
    from cpsudoku import backends
    from cpsudoku.backends.base import Backend
    from cpsudoku.result import Outcome

    class RunsOutAfterOne(Backend):
        name = "slow-proof"
        description = "one solution, then the time limit"

        def search(self, model, request):
            found = backends.get("native").search(model, request).solutions[:1]
            return Outcome(found, exhausted=False, timed_out=True, stats={"nodes": 1})

    backends.register("slow-proof", RunsOutAfterOne)
    yield "slow-proof"
    backends.unregister("slow-proof")


@pytest.mark.parametrize("command", ["solve", "count"])
def test_unproven_in_csv_rows_and_the_exit_status(slow_proof, tmp_path, command):
    inkala = (ROOT / "examples" / "inkala.txt").read_text().split()[-1]
    path = tmp_path / "two.txt"
    path.write_text(inkala + "\n" + inkala + "\n")
    result = runner.invoke(app, [command, str(path), "-b", slow_proof, "-n" if command ==
                                 "solve" else "-l", "2", "-f", "csv"])
    assert result.exit_code == ExitCode.TIMEOUT, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [r["status"] for r in rows] == ["unproven", "unproven"]
    if command == "count":
        assert rows[0]["verdict"].startswith("solved, not proven unique")


def test_records_and_entries_cross_processes_whole():
    """Both pickle as plain tuples (for speed): every field must survive the trip."""
    import pickle

    from cpsudoku.formats.read import parse_one
    from cpsudoku.formats.sources import Entry

    record = Record(3, "text", "unique", "a message", 4, {"rows": [1, 2]})
    entry = Entry("file.txt", 7, "." * 81, parse_one("." * 81), "an error")
    for value in (record, entry):
        again = pickle.loads(pickle.dumps(value))
        assert again == value and type(again) is type(value)
