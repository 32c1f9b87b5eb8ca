"""Time limits and idle connections on a real socket: a solve past its limit is a
`timeout` result (200), heavy requests answer within half a second of their limit, a
job that ignores the clock is killed in time, a 25x25 gets a check and a hint quickly,
and connections that ask nothing are closed."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit

import pytest

pytest.importorskip("fastapi", reason="the play server needs fastapi (pip install fastapi)")

from server_kit import BIG, INKALA, alive, post  # noqa: E402

from cpsudoku import solve  # noqa: E402
from cpsudoku.formats.read import parse_one  # noqa: E402
from cpsudoku.web.lanes import GRACE_S, Ticket, TimedOut  # noqa: E402
from cpsudoku.web.server import KEEP_ALIVE_S, REQUEST_HEADERS_S, running  # noqa: E402
from cpsudoku.web.workers import Workers  # noqa: E402

pytestmark = [pytest.mark.process, pytest.mark.timing]
HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
HARDEST = "98.76.5..7...4.96...39.....8...7.6...2...9.1..........5..4....6.78...4......8...5"
BOUND = 0.5  # docs/play.md: every answer within half a second of its time limit
# Room for a loaded test machine (2 shared cores, other test suites running): the
# scheduler may start the answering thread late. Measured idle, the answers come within
# the bound itself.
LOADED_MARGIN = 0.25


def test_a_solve_past_its_limit_is_a_timeout_result():
    with running(workers=Workers(quick=1, heavy=1)) as url, ThreadPoolExecutor(2) as pool:
        api = url + "api/solve"
        # naive cannot prove a 9x9 unique in 2 s; a second naive solve waits behind it
        # for its whole limit.
        first = pool.submit(post, api, {"puzzle": INKALA, "backend": "naive",
                                        "max_solutions": 2, "time_limit": 2})
        time.sleep(0.3)
        status, data, seconds = post(api, {"puzzle": INKALA, "backend": "naive",
                                           "max_solutions": 2, "time_limit": 1})
        assert status == 200 and data["status"] == "timeout", data
        assert data["stats"]["timed_out"] is True and data["backend"] == "naive"
        assert seconds < 1 + BOUND + LOADED_MARGIN, seconds
        status, data, _ = first.result()
        assert status == 200 and data["status"] in ("unproven", "timeout"), data
        # Past the documented maximum: refused by the request's validation.
        status, data, _ = post(api, {"puzzle": INKALA, "time_limit": 61})
        assert status == 422 and "time_limit" in data["error"]


def one_entry(text: str) -> list[int]:
    """The givens and one entry: a check must search for the solution to judge it."""
    grid = list(parse_one(text).givens)
    grid[grid.index(0)] = 1
    return grid


def test_heavy_requests_answer_within_half_a_second_of_their_limit():
    limit = 5.0
    heavy = [("rate", {"puzzle": HARDEST}), ("rate", {"puzzle": BIG}),
             ("solve", {"puzzle": BIG, "backend": "naive", "max_solutions": 2}),
             ("solve", {"puzzle": BIG, "max_solutions": 2}),
             ("hint", {"puzzle": HARDEST}),
             ("check", {"puzzle": BIG, "grid": one_entry(BIG), "solution": True})]
    with running() as url, ThreadPoolExecutor(len(heavy)) as pool:
        asked = [pool.submit(post, url + "api/" + path, {**body, "time_limit": limit})
                 for path, body in heavy]
        for (path, _), future in zip(heavy, asked):
            status, data, seconds = future.result()
            assert seconds <= limit + BOUND + LOADED_MARGIN, (path, seconds, data)
            assert status in (200, 422), (path, status, data)


def test_a_job_that_ignores_the_clock_is_killed_in_time(monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(HERE))  # the workers can import server_kit
    work = Workers(quick=1, heavy=1)
    work.start()
    try:
        before = work.heavy.pids()
        ticket = Ticket(1.0)
        with pytest.raises(TimedOut):
            work.heavy.run(ticket, "server_kit:stall", lambda left: 30)
        late = -ticket.left()
        assert late <= GRACE_S + 0.1 + LOADED_MARGIN and GRACE_S + 0.1 <= BOUND, late
        assert not alive(before[0]) and len(work.heavy.pids()) == 1
    finally:
        work.close()


def test_a_25x25_gets_a_check_and_a_hint_quickly():
    puzzle = parse_one(BIG)
    solution = solve(puzzle, time_limit=60).solution
    with running() as url:
        api = url + "api/"
        grid = list(puzzle.givens)
        status, data, seconds = post(api + "check", {"puzzle": BIG, "grid": grid,
                                                     "solution": True})
        assert status == 200 and data["wrong"] == [] and seconds < 1.0, (data, seconds)
        if solution is not None:  # entries that lead to the solution: none wrong, at once
            blanks = [i for i, v in enumerate(grid) if not v]
            for i in blanks[:20]:
                grid[i] = solution[i]
            status, data, seconds = post(api + "check", {"puzzle": BIG, "grid": grid,
                                                         "solution": True})
            assert status == 200 and data["wrong"] == [] and seconds < 2.0, (data, seconds)
        # A step that holds without the solution, after a fifth of the limit spent
        # looking for it.
        status, data, seconds = post(api + "hint", {"puzzle": BIG, "grid": grid,
                                                    "time_limit": 5})
        assert status == 200 and data["step"]["placements"], data
        assert seconds < 5 * 0.2 + 1.5, seconds


def _closed_within(sock: socket.socket, seconds: float, trickle: bytes = b"") -> float | None:
    """Seconds until the server closed `sock` (sending `trickle` a byte a second), or None."""
    started = time.monotonic()
    sock.settimeout(1.0)
    sent = 0
    while time.monotonic() - started < seconds:
        try:
            if sent < len(trickle):
                sock.send(trickle[sent:sent + 1])
                sent += 1
            if sock.recv(4096) == b"":
                return time.monotonic() - started
        except TimeoutError:
            continue
        except OSError:
            return time.monotonic() - started
    return None


def test_connections_that_ask_nothing_are_closed():
    proc = subprocess.Popen([sys.executable, "-m", "cpsudoku", "play"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        url = proc.stdout.readline().split("serving on ")[1].split()[0]
        assert post(url + "api/parse", {"puzzle": INKALA})[0] == 200  # accepting now
        address = urlsplit(url)
        where = (address.hostname, address.port)
        silent = socket.create_connection(where)
        slow = socket.create_connection(where)
        slow.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        idle = socket.create_connection(where)
        idle.sendall(b"GET /api/features HTTP/1.1\r\nHost: x\r\n\r\n")
        results: dict[str, float | None] = {}
        ends = [("silent", silent, REQUEST_HEADERS_S, b""),
                ("slow", slow, REQUEST_HEADERS_S, b"X-Slow: " + b"a" * 60),
                ("idle", idle, KEEP_ALIVE_S, b"")]

        def watch(name, sock, limit, trickle):
            results[name] = _closed_within(sock, limit + 5, trickle)
        threads = [threading.Thread(target=watch, args=end) for end in ends]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        for name, _, limit, _ in ends:
            assert results[name] is not None and results[name] <= limit + 1.5, results
        # The server still answers.
        assert post(url + "api/parse", {"puzzle": INKALA})[0] == 200
    finally:
        proc.terminate()
        proc.wait(timeout=10)
