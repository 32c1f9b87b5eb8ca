"""The play server under load, on a real socket: heavy requests (ratings of a 25x25 and
of a 9x9) end within their time limit, while light requests (check, parse, a 9x9
solve, a new puzzle) keep answering within about a second; a request whose client
leaves has its worker killed at once."""

from __future__ import annotations

import json
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import pytest

pytest.importorskip("uvicorn", reason="the play server needs uvicorn (pip install uvicorn)")
pytest.importorskip("fastapi", reason="the play server needs fastapi (pip install fastapi)")

from server_kit import BIG, INKALA, alive, post, wait_until  # noqa: E402

from cpsudoku.web.server import running  # noqa: E402
from cpsudoku.web.workers import Workers  # noqa: E402

pytestmark = [pytest.mark.process, pytest.mark.timing]
HEAVY_LIMIT = 3.0
LIGHT_WITHIN = 1.5  # seconds: about a second, with room for a loaded test machine


def light_requests(api: str) -> list[tuple[str, dict]]:
    return [(api + "check", {"puzzle": INKALA, "candidates": True}),
            (api + "parse", {"puzzle": INKALA}),
            (api + "solve", {"puzzle": INKALA, "max_solutions": 2}),
            (api + "generate", {"size": 9, "seed": 11}),
            (api + "check", {"puzzle": INKALA, "solution": True})] * 4


def test_light_requests_answer_while_heavy_ones_run():
    work = Workers()
    with running(workers=work) as url, ThreadPoolExecutor(8) as pool:
        api = url + "api/"
        heavy_before = set(work.heavy.pids())
        heavy = [pool.submit(post, api + "rate", {"puzzle": BIG, "time_limit": HEAVY_LIMIT}),
                 pool.submit(post, api + "rate", {"puzzle": BIG, "time_limit": HEAVY_LIMIT}),
                 pool.submit(post, api + "rate", {"puzzle": INKALA,
                                                  "time_limit": HEAVY_LIMIT})]
        time.sleep(0.5)  # the heavy ones have their workers
        light = [pool.submit(post, path, body) for path, body in light_requests(api)]
        answered = [f.result() for f in light]
        assert [status for status, _, _ in answered] == [200] * len(answered)
        slowest = max(seconds for _, _, seconds in answered)
        assert slowest < LIGHT_WITHIN, f"a light request took {slowest:.2f} s"
        for future in heavy:
            status, data, seconds = future.result()
            assert status == 422 and data["exit_code"] == 4, data
            assert "time limit" in data["error"] and seconds < HEAVY_LIMIT + 1.0, seconds
        # The ratings stopped on their own clock: the lane has its three workers, alive.
        assert len(work.heavy.pids()) == 3 and all(alive(p) for p in work.heavy.pids())
        assert heavy_before


def test_a_request_whose_client_leaves_is_stopped():
    work = Workers()
    with running(workers=work) as url:
        before = set(work.heavy.pids())
        body = json.dumps({"puzzle": BIG, "time_limit": 60}).encode()
        address = urlsplit(url)
        client = socket.create_connection((address.hostname, address.port))
        client.sendall(b"POST /api/hint HTTP/1.1\r\nHost: x\r\ncontent-type: application/json"
                       b"\r\ncontent-length: %d\r\n\r\n%s" % (len(body), body))
        time.sleep(1.0)  # the hint is running
        left_at = time.monotonic()
        client.close()
        assert wait_until(lambda: before - set(work.heavy.pids()), 2.0)
        stopped = time.monotonic() - left_at
        (killed,) = before - set(work.heavy.pids())
        assert not alive(killed) and stopped < 1.0, stopped
        # The lane is whole again and answers.
        status, data, _ = post(url + "api/hint", {"puzzle": INKALA, "time_limit": 20})
        assert status == 200 and data["step"]


def test_heavy_requests_beyond_the_workers_wait_within_their_limit():
    work = Workers(quick=1, heavy=1)
    with running(workers=work) as url, ThreadPoolExecutor(3) as pool:
        api = url + "api/rate"
        first = pool.submit(post, api, {"puzzle": BIG, "time_limit": 2})
        time.sleep(0.3)
        # Queued behind the first for its whole limit: a timeout, not a wait without end.
        status, data, seconds = post(api, {"puzzle": BIG, "time_limit": 1})
        assert status == 422 and data["exit_code"] == 4 and seconds < 1.5
        assert first.result()[0] == 422


def test_the_server_stops_at_once_while_busy():
    work = Workers(quick=1, heavy=1)
    done = threading.Event()
    with running(workers=work) as url:
        pids = work.pids()
        threading.Thread(target=lambda: (post(url + "api/hint", {"puzzle": BIG}, 30),
                                         done.set()), daemon=True).start()
        time.sleep(0.5)
        leaving = time.monotonic()
    assert time.monotonic() - leaving < 2.0
    assert not any(alive(pid) for pid in pids)
