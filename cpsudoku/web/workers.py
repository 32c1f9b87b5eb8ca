"""Where the jobs run. Solving, hints, ratings and generation go to worker processes:
a solver holding the GIL (or a C extension that does not release it) cannot then stall
the event loop that serves the page. Cheap jobs (parse, conflicts) run in threads of
their own, so they never wait behind a queue of solves."""

from __future__ import annotations

import multiprocessing
import os
import signal
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import anyio

from ..errors import BackendError, CpsudokuError, ModelError, ParseError, UsageError
from . import jobs

# Each error class the CLI turns into an exit code becomes one HTTP status here.
HTTP_STATUS: dict[type[CpsudokuError], int] = {
    UsageError: 400,
    BackendError: 400,
    ParseError: 422,
    ModelError: 422,
    CpsudokuError: 422,
}


def http_status(exc: CpsudokuError) -> int:
    return next(HTTP_STATUS[cls] for cls in type(exc).__mro__ if cls in HTTP_STATUS)


class JobError(Exception):
    """A user error raised in a job, carried back as its HTTP status, the CLI's line and
    exit code (exception objects with their own constructor arguments do not survive
    pickling)."""

    def __init__(self, status: int, message: str, exit_code: int | None):
        super().__init__(message)
        self.status, self.message, self.exit_code = status, message, exit_code


def run(name: str, body):
    """Run jobs.NAME(body) and return ("ok", result) or ("error", status, message, code)."""
    try:
        return ("ok", getattr(jobs, name)(body))
    except jobs.Unavailable as exc:
        return ("error", 501, str(exc), None)
    except CpsudokuError as exc:
        return ("error", http_status(exc), str(exc), exc.exit_code)


def _unpack(answer):
    if answer[0] == "ok":
        return answer[1]
    raise JobError(*answer[1:])


def _leave_signals_to_the_server() -> None:
    """Ctrl-C reaches the whole process group; the server alone decides what stops (a
    worker took it as KeyboardInterrupt and printed a traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Workers:
    def __init__(self, processes: int | None = None):
        self.processes = processes or max(2, os.cpu_count() or 2)
        self._pool: ProcessPoolExecutor | None = None
        self._light = anyio.CapacityLimiter(8)

    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # forkserver: workers start from a clean process, not a copy of this threaded one.
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(["cpsudoku.web.jobs"])
            self._pool = ProcessPoolExecutor(self.processes, mp_context=context,
                                             initializer=_leave_signals_to_the_server)
        return self._pool

    def warm(self) -> None:
        """Start every worker now rather than on the first request."""
        pool = self.pool()
        for future in [pool.submit(run, "ready", None) for _ in range(self.processes)]:
            future.result()

    async def heavy(self, name: str, body):
        import asyncio
        loop = asyncio.get_running_loop()
        pool = self.pool()
        try:
            answer = await loop.run_in_executor(pool, run, name, body)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): later requests get a fresh pool.
            if self._pool is pool:
                self._pool = None
            raise JobError(503, f"the {name} worker stopped unexpectedly; try again",
                           None) from None
        return _unpack(answer)

    async def light(self, name: str, body):
        return _unpack(await anyio.to_thread.run_sync(run, name, body, limiter=self._light))

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
