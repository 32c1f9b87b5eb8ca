"""Nothing a user gave is lost: an output file that is an input is refused before
anything is written, and a write that fails (a full disk) ends with one line naming
the file, its own exit code, and a file of whole records that --resume continues."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cpsudoku.cli import app
from cpsudoku.errors import ExitCode

ROOT = Path(__file__).resolve().parents[2]
INKALA = ROOT / "examples" / "inkala.txt"
TOP95 = ROOT / "tests" / "data" / "classic" / "norvig_top95.txt"

# Every command that writes an output file, with the arguments it needs beside it.
WRITERS = [
    ("solve", []), ("solve", ["-f", "jsonl", "--resume"]), ("count", []), ("rate", []),
    ("explain", []), ("check", []), ("convert", ["-f", "line"]),
]


def run(*args, input=None):
    return CliRunner().invoke(app, [str(a) for a in args], input=input)


@pytest.fixture
def puzzles(tmp_path) -> Path:
    path = tmp_path / "puzzles.txt"
    path.write_bytes(INKALA.read_bytes())
    return path


@pytest.mark.parametrize(("command", "extra"), WRITERS)
@pytest.mark.parametrize("how", ["same name", "symbolic link", "hard link"])
def test_an_output_that_is_an_input_is_refused_and_the_input_kept(puzzles, tmp_path,
                                                                   command, extra, how):
    before = puzzles.read_bytes()
    output = puzzles
    if how == "symbolic link":
        output = tmp_path / "link.txt"
        output.symlink_to(puzzles)
    elif how == "hard link":
        output = tmp_path / "second-name.txt"
        os.link(puzzles, output)
    done = run(command, puzzles, "-o", output, *extra)
    assert done.exit_code == ExitCode.USAGE, done.output
    assert f"--output {output} is the input {puzzles}" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert puzzles.read_bytes() == before


def test_check_refuses_an_output_that_is_its_original_puzzle(puzzles, tmp_path):
    grid = tmp_path / "grid.txt"
    grid.write_text("." * 81 + "\n")
    done = run("check", grid, "-p", puzzles, "-o", puzzles)
    assert done.exit_code == ExitCode.USAGE and "is the input" in done.stderr
    assert puzzles.read_bytes() == INKALA.read_bytes()


@pytest.mark.process
def test_an_output_that_is_standard_input_is_refused(puzzles):
    with open(puzzles, "rb") as stdin:
        done = subprocess.run([sys.executable, "-m", "cpsudoku", "solve", "-", "-o",
                               str(puzzles)], stdin=stdin, capture_output=True, text=True)
    assert done.returncode == ExitCode.USAGE, done.stderr
    assert "is standard input" in done.stderr
    assert puzzles.read_bytes() == INKALA.read_bytes()


def test_a_new_output_file_is_still_written(puzzles, tmp_path):
    output = tmp_path / "out.txt"
    done = run("solve", puzzles, "-f", "line", "-o", output)
    assert done.exit_code == 0, done.output
    assert output.read_text().strip().isdigit()


def _limited(max_bytes: int):
    """A child whose files may not grow past max_bytes: a write beyond fails with EFBIG
    (SIGXFSZ ignored), as a write to a full disk fails with ENOSPC, possibly after part
    of a record went out."""
    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (max_bytes, max_bytes))
    return limit


@pytest.mark.process
@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_a_failing_write_keeps_whole_records_and_resume_finishes(tmp_path, fmt):
    output = tmp_path / "out.txt"
    command = [sys.executable, "-m", "cpsudoku", "solve", str(TOP95), "-f", fmt,
               "-o", str(output)]
    # 1000 bytes is no whole number of records in either format: the last one is cut
    done = subprocess.run(command, capture_output=True, text=True,
                          preexec_fn=_limited(1000))
    assert done.returncode == ExitCode.OUTPUT, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"cpsudoku: error: cannot write {output}")
    assert "Traceback" not in done.stderr
    text = output.read_text()
    assert 0 < len(text) <= 1000 and text.endswith("\n")  # no torn last record
    kept = text.splitlines()
    resumed = subprocess.run(command + ["--resume"], capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stderr
    records = output.read_text().splitlines()
    assert len(records) == 95 + (fmt == "csv") and records[:len(kept)] == kept


@pytest.mark.process
def test_standard_output_that_cannot_be_written_is_one_line():
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "cpsudoku", "solve", str(TOP95),
                               "-f", "line"], stdout=full, stderr=subprocess.PIPE, text=True)
    assert done.returncode == ExitCode.OUTPUT
    assert done.stderr.strip() == ("cpsudoku: error: cannot write standard output: "
                                   "No space left on device")


def test_an_output_in_a_missing_folder_is_an_output_error(tmp_path):
    done = run("solve", INKALA, "-o", tmp_path / "no" / "such" / "out.txt")
    assert done.exit_code == ExitCode.OUTPUT
    assert "cannot write" in done.stderr and "No such file or directory" in done.stderr


def test_help_lists_every_exit_code():
    done = run("--help")
    text = " ".join(done.stdout.split())
    for code in ("0 every puzzle solved", "7 compare", "8 the output cannot be written",
                 "9 explain, hint: no technique applies", "70 internal error",
                 "130 interrupted", "141 the reader", "143 stopped"):
        assert code in text, code
