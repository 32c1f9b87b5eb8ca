"""The batch benchmark runs end to end on a slice of royle_17clue: its tables are
printed (timings are never asserted) and its resume check compares real files."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytestmark = pytest.mark.process  # the benchmark runs as a process (and starts workers)


def bench(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cpsudoku.bench.batch", *args],
                          capture_output=True, text=True, timeout=300)


@pytest.mark.timing  # its resume check kills a run part way through
def test_throughput_and_resume_on_a_slice(data_dir):
    # 10,000 puzzles: long enough for the kill to fall after the first records.
    done = bench("--data", str(data_dir), "--limit", "10000", "--skip-dask",
                 "--parts", "throughput,resume")
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines() if line.startswith("--jobs")]
    assert [row[:2] for row in rows] == [["--jobs", "1"], ["--jobs", "2"]]
    assert "command: solve (10,000 puzzles" in done.stdout
    assert rows[0][-1] == "1.00x"
    assert "after --resume identical to a whole run: yes" in done.stdout


def test_rate_and_generate_are_timed(data_dir):
    for command, limit, what in (("rate", "20", "20 puzzles of"), ("generate", "10",
                                                                    "10 puzzles made")):
        done = bench("--data", str(data_dir), "--limit", limit, "--skip-dask",
                     "--command", command, "--parts", "throughput")
        assert done.returncode == 0, done.stderr
        assert f"command: {command} ({what}" in done.stdout


def test_a_missing_data_folder_is_one_line(tmp_path):
    done = bench("--data", str(tmp_path), "--parts", "throughput")
    assert done.returncode == 2
    assert "royle_17clue.txt: no such file" in done.stderr
    assert "Traceback" not in done.stderr
