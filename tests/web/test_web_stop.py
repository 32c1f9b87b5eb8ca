"""Stopping `cpsudoku play` (a real process): SIGTERM and SIGINT end every process the
server started at once, even with a worker busy, quietly, with exit status 143 and 130;
a server killed outright (SIGKILL) takes its workers with it soon after."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("uvicorn", reason="the play server needs uvicorn (pip install uvicorn)")
pytest.importorskip("fastapi", reason="the play server needs fastapi (pip install fastapi)")
if not Path("/proc/self/stat").exists():
    pytest.skip("the server's processes are read from /proc", allow_module_level=True)

from server_kit import BIG, alive, descendants, post, wait_until  # noqa: E402

pytestmark = [pytest.mark.process, pytest.mark.timing]


def busy_server() -> tuple[subprocess.Popen, set[int]]:
    """`cpsudoku play`, warm, with a 25x25 hint running; and the processes it started."""
    proc = subprocess.Popen([sys.executable, "-m", "cpsudoku", "play"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    url = proc.stdout.readline().split("serving on ")[1].split()[0]
    with urllib.request.urlopen(url + "api/features", timeout=60):
        pass  # answered: the workers are up

    def hint() -> None:
        try:
            post(url + "api/hint", {"puzzle": BIG, "time_limit": 60}, timeout=30)
        except OSError:
            pass  # the server went away: that is the point
    threading.Thread(target=hint, daemon=True).start()
    time.sleep(0.7)
    started = descendants(proc.pid)
    assert len(started) >= 5, started  # two quick workers and three heavy ones
    return proc, started


@pytest.mark.parametrize("sig, status", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_stops_every_process_at_once(sig, status):
    proc, started = busy_server()
    sent = time.monotonic()
    proc.send_signal(sig)
    assert proc.wait(timeout=5) == status
    assert time.monotonic() - sent < 1.0
    err = proc.stderr.read()
    assert "Traceback" not in err and "graceful" not in err, err
    assert wait_until(lambda: not any(alive(pid) for pid in started), 2.0), \
        [pid for pid in started if alive(pid)]


def test_workers_end_with_a_server_killed_outright():
    proc, started = busy_server()
    proc.kill()
    proc.wait(timeout=5)
    assert wait_until(lambda: not any(alive(pid) for pid in started), 2.0), \
        [pid for pid in started if alive(pid)]
