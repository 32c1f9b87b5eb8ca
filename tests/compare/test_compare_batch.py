"""compare on the batch layer: worker processes and a Dask cluster write what one process
writes (apart from timings), and a signal keeps every finished puzzle's rows."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cpsudoku.cli import app
from cpsudoku.compare import CSV_FIELDS
from cpsudoku.errors import ExitCode

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()
BACKENDS = "native,cpsat"
MANY = "." * 81  # many solutions
CONTRADICTORY = "11" + "." * 79
TIMINGS = ("time_s", "mean_ms", "median_ms", "p95_ms", "max_ms")


@pytest.fixture(scope="module")
def puzzles(tmp_path_factory) -> Path:
    """Hard puzzles, one with many solutions, one without, and a bad line in between."""
    from conftest import read_set
    lines = [p for p, _, _ in read_set("norvig_top95", 8)]
    lines[4:4] = [MANY, "12345", CONTRADICTORY]
    path = tmp_path_factory.mktemp("compare") / "set.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


def _compare(puzzles: Path, folder: Path, *extra: str) -> dict:
    folder.mkdir(exist_ok=True)
    csv_path, json_path = folder / "rows.csv", folder / "rows.json"
    result = runner.invoke(app, ["compare", str(puzzles), "--backends", BACKENDS,
                                 "--presolve", "-t", "20", "--csv", str(csv_path),
                                 "--json", str(json_path), *extra])
    return {"code": result.exit_code, "stderr": result.stderr,
            "stdout": _untimed_table(result.stdout),
            "csv": _untimed_csv(csv_path.read_text()),
            "json": _untimed_json(json_path.read_text())}


def _untimed_csv(text: str) -> tuple[str, list[dict]]:
    return text.splitlines()[0], [dict(r, time_s=None) for r in csv.DictReader(io.StringIO(text))]


def _untimed_json(text: str) -> str:
    """The file's own text with every timing blanked: its layout is compared too."""
    return re.sub(rf'"({"|".join(TIMINGS)})": [0-9.e+-]+', r'"\1": T', text)


def _untimed_table(text: str) -> list[str]:
    """The tables' words with every number blanked: times differ, and with them the
    widths of the columns and where the caption folds."""
    return re.sub(r"─+", "─", re.sub(r"\d+(\.\d+)?", "N", text)).split()


@pytest.fixture(scope="module")
def serial(puzzles, tmp_path_factory) -> dict:
    return _compare(puzzles, tmp_path_factory.mktemp("serial"), "--jobs", "1")


def test_one_process_reports_every_puzzle_and_names_the_bad_one(serial):
    assert serial["code"] == ExitCode.BAD_INPUT  # bad input outranks agreement
    assert "set.txt:6:" in serial["stderr"] and "5 cells" in serial["stderr"]
    header, rows = serial["csv"]
    assert header == ",".join(CSV_FIELDS)
    assert len(rows) == 10 * 3  # 10 puzzles read, 3 runs each (cpsat twice)
    assert [r["index"] for r in rows[::3]] == ["1", "2", "3", "4", "5", "7", "8", "9",
                                               "10", "11"]
    assert {r["status"] for r in rows if r["index"] == "5"} == {"multiple"}
    assert {r["status"] for r in rows if r["index"] == "7"} == {"unsolvable"}
    data = json.loads(serial["json"].replace(": T", ": 0"))
    assert data["disagreements"] == [] and data["interrupted"] is False
    assert serial["stdout"][-2:] == ["no", "disagreement"]


@pytest.mark.process
@pytest.mark.parametrize("extra", [["--jobs", "2"], ["--dask", "local:2"]],
                         ids=["jobs2", "dask-local"])
def test_workers_write_what_one_process_writes(puzzles, serial, tmp_path, extra):
    if extra[0] == "--dask":
        pytest.importorskip("distributed")
    assert _compare(puzzles, tmp_path / "out", *extra) == serial


@pytest.mark.process
@pytest.mark.timing
@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)],
                         ids=["SIGINT", "SIGTERM"])
def test_a_signal_keeps_every_finished_puzzle_with_workers(tmp_path, sig, code):
    """Ctrl-C (to the whole process group, as in a terminal) or SIGTERM to a --jobs 2
    run: both files end in order and hold the same whole puzzles."""
    from conftest import read_set
    lines = [p for p, _, _ in read_set("magictour_top1465", 400)]
    path = tmp_path / "set.txt"
    path.write_text("\n".join(lines) + "\n")
    csv_path, json_path = tmp_path / "rows.csv", tmp_path / "rows.json"
    proc = subprocess.Popen([sys.executable, "-m", "cpsudoku", "compare", str(path),
                             "--backends", "native,dlx", "--jobs", "2", "--csv",
                             str(csv_path), "--json", str(json_path)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if csv_path.exists() and csv_path.read_bytes().count(b"\n") >= 1 + 2 * 20:
            break
        time.sleep(0.02)
    if sig == signal.SIGINT:
        os.killpg(proc.pid, sig)
    else:
        proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == code, err
    rows = list(csv.DictReader(csv_path.read_text().splitlines()))
    assert 40 <= len(rows) < 800 and len(rows) % 2 == 0  # whole puzzles only
    assert [int(r["index"]) for r in rows[::2]] == list(range(1, len(rows) // 2 + 1))
    data = json.loads(json_path.read_text())
    assert data["interrupted"] is True
    assert [r["solution"] for r in data["rows"]] == [r["solution"] for r in rows]
    assert data["summary"][0]["puzzles"] == len(rows) // 2
    assert f"after {len(rows) // 2} puzzle(s)" in err.decode()
    assert b"no disagreement" in out


# --- resume ----------------------------------------------------------------------------

@pytest.mark.process
@pytest.mark.timing
def test_resume_after_sigkill_writes_what_a_whole_run_writes(puzzles, serial, tmp_path):
    """A --jobs 2 run killed mid-way, then --resume: the same files, table and exit status
    as one whole run (the puzzles read back are judged again, the bad line named again)."""
    folder = tmp_path / "out"
    folder.mkdir()
    csv_path = folder / "rows.csv"
    proc = subprocess.Popen([sys.executable, "-m", "cpsudoku", "compare", str(puzzles),
                             "--backends", BACKENDS, "--presolve", "-t", "20", "--csv",
                             str(csv_path), "--json", str(folder / "rows.json"), "-j", "2"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if csv_path.exists() and csv_path.read_bytes().count(b"\n") >= 1 + 3 * 2:
            break
        time.sleep(0.005)
    proc.kill()
    proc.wait()
    kept = csv_path.read_bytes().count(b"\n") - 1
    assert kept < 30, "the run ended before the kill: nothing left to resume"
    with open(csv_path, "ab") as handle:
        handle.write(b"9,torn")  # as if the kill came mid-line
    assert _compare(puzzles, folder, "--resume", "-j", "2") == serial



@pytest.fixture
def broken():
    from cpsudoku import backends
    from cpsudoku.backends.base import Backend
    from cpsudoku.result import Outcome

    class WrongGrid(Backend):
        name = "broken"
        description = "test only: a wrong solution"

        def search(self, model, request):
            return Outcome([tuple(min(d) for d in model.domains)], exhausted=True)

    backends.register("broken", WrongGrid)
    yield "broken"
    backends.unregister("broken")


def test_resume_judges_the_puzzles_read_back_again(broken, puzzles, tmp_path):
    """A disagreement among the puzzles already in the CSV is still found, listed and
    worth exit 7 after --resume; a CSV of other backends is refused."""
    path = tmp_path / "set.txt"
    path.write_text("".join(puzzles.read_text().splitlines(keepends=True)[:3]))
    csv_path = tmp_path / "rows.csv"
    args = ["compare", str(path), "--backends", f"native,{broken}", "--csv", str(csv_path)]
    whole = runner.invoke(app, args)
    assert whole.exit_code == ExitCode.DISAGREEMENT
    lines = csv_path.read_text().splitlines(keepends=True)
    csv_path.write_text("".join(lines[:1 + 2 * 2]))  # puzzles 1 and 2 kept
    resumed = runner.invoke(app, [*args, "--resume"])
    assert resumed.exit_code == ExitCode.DISAGREEMENT
    assert len(csv_path.read_text().splitlines()) == 1 + 3 * 2
    assert _untimed_table(resumed.stdout) == _untimed_table(whole.stdout)
    other = runner.invoke(app, ["compare", str(path), "--backends", "native", "--csv",
                                str(csv_path), "--resume"])
    assert other.exit_code == ExitCode.BAD_INPUT and "cannot resume" in other.stderr
    assert len(csv_path.read_text().splitlines()) == 1 + 3 * 2  # a refused file is left as it was
