"""The child process that runs a solver which does not stop in time: answers in
order, killed at the deadline (and replaced), errors named, gone with its parent."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cpsudoku.backends.solver_process import Deadline, run_in_child
from cpsudoku.errors import BackendError

HERE = Path(__file__).parent
pytestmark = pytest.mark.process  # every test starts solver children (or their parent)
PRELOAD = ("test_solver_process",)  # this module: the jobs below run in the child


def count_to(payload, send):
    for i in range(payload):
        send(i)
    return "done"


def sleep_then_say(payload, send):
    send(os.getpid())
    time.sleep(payload)
    return "woke"


def fail(payload, send):
    raise ValueError(f"no {payload}")


def running(pid: int) -> bool:
    """Alive and not a zombie (an orphan's exit is reaped by init, maybe late)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().rsplit(")", 1)[1].split()[0] == "Z")


@pytest.fixture(autouse=True)
def importable_here(monkeypatch):
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")]))


def test_messages_in_order_then_the_return_value():
    assert list(run_in_child(PRELOAD, "test_solver_process:count_to", 3, None)) == \
        [0, 1, 2, "done"]


@pytest.mark.timing
def test_killed_at_the_deadline_and_replaced():
    list(run_in_child(PRELOAD, "test_solver_process:count_to", 0, None))  # child is up
    started = time.monotonic()
    seen = []
    with pytest.raises(Deadline):
        for message in run_in_child(PRELOAD, "test_solver_process:sleep_then_say", 30,
                                    started + 0.3):
            seen.append(message)
    elapsed = time.monotonic() - started
    assert elapsed < 0.3 * 1.1 + 0.25, f"returned after {elapsed:.2f} s"
    killed = seen[0]
    with pytest.raises(ProcessLookupError):
        os.kill(killed, 0)  # the child that overran is gone (and reaped)
    # A fresh child answers the next job.
    assert list(run_in_child(PRELOAD, "test_solver_process:count_to", 1, None)) == [0, "done"]


def test_a_failing_job_is_a_backend_error_and_the_child_goes_on():
    with pytest.raises(BackendError, match="ValueError: no luck"):
        list(run_in_child(PRELOAD, "test_solver_process:fail", "luck", None))
    assert list(run_in_child(PRELOAD, "test_solver_process:count_to", 1, None)) == [0, "done"]


@pytest.mark.timing
def test_the_child_ends_when_its_parent_is_killed(tmp_path):
    script = (
        "import sys, time\n"
        "from cpsudoku.backends.solver_process import run_in_child\n"
        "for pid in run_in_child(('test_solver_process',), "
        "'test_solver_process:sleep_then_say', 60, None):\n"
        "    print(pid, flush=True)\n"
        "    time.sleep(60)\n")
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        child = int(parent.stdout.readline())
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        end = time.monotonic() + 10
        while time.monotonic() < end:
            if not running(child):
                return
            time.sleep(0.1)
        pytest.fail("the child outlived its parent by 10 s")
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()


def test_threads_solving_at_once_have_their_own_children():
    import threading
    answers: dict[int, list] = {}

    def job(n: int) -> None:
        answers[n] = list(run_in_child(PRELOAD, "test_solver_process:count_to", n, None))

    threads = [threading.Thread(target=job, args=(n,)) for n in (3, 5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == {3: [0, 1, 2, "done"], 5: [0, 1, 2, 3, 4, "done"]}
