"""SIGTERM and Ctrl-C on every path, with real processes and real signals: a one-process
batch stops at once with 143, whole records kept; worker processes and the play page's
pool never print a traceback."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytestmark = [pytest.mark.process, pytest.mark.timing]

INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
STOP_WITHIN = 3.0  # seconds, a busy 2-core machine included


def start(*args, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "cpsudoku", *map(str, args)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, **kw)  # its own group, as a shell's job


def signalled(proc: subprocess.Popen, sig: int, after: float) -> tuple[float, str, str]:
    """Signal `after` seconds past the first record (the work has begun: a loaded
    machine may take seconds just to start Python), return (seconds to stop, out, err)."""
    first = proc.stdout.readline()
    assert first, f"nothing written before the signal: {proc.communicate(timeout=30)[1]}"
    time.sleep(after)
    sent = time.monotonic()
    os.killpg(proc.pid, sig)  # the whole group, as `timeout` and Ctrl-C do
    out, err = proc.communicate(timeout=30)
    return time.monotonic() - sent, first + out, err


@pytest.fixture
def slow_then_easy(tmp_path) -> Path:
    # an easy puzzle first (written at once), then hard ones that take seconds each
    path = tmp_path / "batch.txt"
    path.write_text(EASY + "\n" + (INKALA + "\n") * 20)
    return path


@pytest.mark.parametrize("command", [["rate"], ["solve", "-b", "naive", "-t", "20"]],
                         ids=["rate", "solve-naive"])
def test_sigterm_stops_a_one_process_batch_at_once(command, slow_then_easy):
    proc = start(*command, slow_then_easy, "-f", "jsonl")
    took, out, err = signalled(proc, signal.SIGTERM, 1.5)
    assert proc.returncode == 143, err
    assert took < STOP_WITHIN
    assert "Traceback" not in err and "Terminated:" not in err
    records = [json.loads(line) for line in out.splitlines()]  # every line whole
    assert records and records[0]["puzzle"] == EASY


@pytest.mark.parametrize("sig,code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)],
                         ids=["sigterm", "ctrl-c"])
def test_workers_stop_quietly(sig, code, slow_then_easy):
    proc = start("rate", slow_then_easy, "-j", "2", "-f", "jsonl")
    took, out, err = signalled(proc, sig, 1.5)
    assert proc.returncode == code, err
    assert "Traceback" not in err, err
    assert all(json.loads(line) for line in out.splitlines())


def test_ctrl_c_stops_the_play_page_quietly():
    proc = start("play", "--port", "0")
    line = proc.stdout.readline()  # "cpsudoku play: serving on http://127.0.0.1:PORT/ ..."
    url = line.split("serving on ")[1].split()[0]
    request = urllib.request.Request(url + "api/solve", data=json.dumps(
        {"puzzle": INKALA}).encode(), headers={"content-type": "application/json"})
    assert urllib.request.urlopen(request, timeout=30).status == 200  # the pool is up
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert "Traceback" not in err, err
