"""Where each job runs, and for how long, so that a cheap answer never waits behind an
expensive one:

- threads of the server: parsing and conflict checks (work bounded by the body's size);
- the quick lane, warm processes: what takes milliseconds on a grid up to 9x9 (a solve
  with a quick backend, a check against the solution, a new puzzle without a
  difficulty target);
- the heavy lane, warm processes at a lower CPU priority: hints and ratings (a step
  may need a chain search of seconds), the other backends, generating to a difficulty
  (generate and rate until one falls in the band), and anything on a bigger grid.

Every process job has a time limit counted from its arrival: the engine is told what is
left of it, and a worker still busy a moment after it is killed and replaced, as is the
worker of a request whose client has gone (`lanes.py`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import anyio

from ..errors import BackendError, CpsudokuError, ExitCode, ModelError, ParseError, UsageError
from . import jobs
from .lanes import Lane, Ticket, TimedOut, Withdrawn, WorkerDied

JOB = f"{__name__}:job"
PRELOAD = (__name__,)
QUICK_SIZE = 9  # the largest grid whose requests go to the quick lane
QUICK_BACKENDS = frozenset({"native", "dlx"})  # milliseconds on any 9x9
HEAVY_NICE = 10
ANSWER_RESERVE_S = 0.15  # of a job's time, kept for reading the puzzle and answering
WITHDRAWN = 499  # the client closed the connection: nobody reads this answer

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


def run(name: str, body, limit: float | None = None):
    """Run jobs.NAME(body, limit) and return ("ok", result) or ("error", status, message,
    exit code)."""
    try:
        return ("ok", getattr(jobs, name)(body, limit))
    except jobs.Unavailable as exc:
        return ("error", 501, str(exc), None)
    except CpsudokuError as exc:
        return ("error", http_status(exc), str(exc), exc.exit_code)


def job(payload: tuple[str, Any, float | None], send) -> Any:
    """The worker processes' entry point (a solver_process job)."""
    return run(*payload)


def _unpack(answer):
    if answer[0] == "ok":
        return answer[1]
    raise JobError(*answer[1:])


def is_quick(name: str, body, size: int) -> bool:
    """Whether a process job belongs to the quick lane (see the module's docstring)."""
    if name in ("hint", "rate") or size > QUICK_SIZE:
        return False
    if name == "generate":
        return not body.difficulty
    return name != "solve" or body.backend in QUICK_BACKENDS


class Workers:
    def __init__(self, quick: int = 2, heavy: int = 3):
        self.quick = Lane("quick", quick, PRELOAD)
        self.heavy = Lane("heavy", heavy, PRELOAD, nice=HEAVY_NICE)
        # Requests waiting for a lane's worker wait in threads of that lane's own: a
        # queue of heavy requests never holds the threads light ones need.
        self._threads = {"light": 8, "quick": 64, "heavy": 32}
        self._limiters: dict[str, anyio.CapacityLimiter] = {}

    def start(self) -> None:
        """Start every worker now, and wait until each has imported what jobs need."""
        def warm(worker) -> None:
            list(worker.run(JOB, ("ready", None, None), None))
        self.quick.start(warm)
        self.heavy.start(warm)

    def pids(self) -> list[int]:
        """Every worker process's id (the processes this server started)."""
        return self.quick.pids() + self.heavy.pids()

    def _limiter(self, lane: str) -> anyio.CapacityLimiter:
        if lane not in self._limiters:
            self._limiters[lane] = anyio.CapacityLimiter(self._threads[lane])
        return self._limiters[lane]

    async def light(self, name: str, body, limit: float | None = None):
        return _unpack(await anyio.to_thread.run_sync(run, name, body, limit,
                                                      limiter=self._limiter("light")))

    async def process(self, name: str, body, time_limit: float,
                      gone: Callable[[], Awaitable[None]] | None = None):
        """Run a job in a worker process within `time_limit` seconds, stopped early when
        `gone()` returns (the client left). The lane follows from the puzzle's size,
        read here by the shared parser (a bad puzzle is answered without a worker)."""
        ticket = Ticket(time_limit)  # counted from here: reading the puzzle is part of it
        size = body.size if name == "generate" else \
            await self.light("size", body)
        lane = self.quick if is_quick(name, body, size) else self.heavy

        def call():
            # The engine is told what is left less what answering takes (parsing again in
            # the worker, sending the answer back), so that it stops in time on its own.
            return lane.run(ticket, JOB, lambda left: (name, body,
                                                       max(left - ANSWER_RESERVE_S, 0.05)))

        failure: Exception | None = None
        async with anyio.create_task_group() as group:
            if gone is not None:
                async def watch() -> None:
                    await gone()
                    ticket.withdraw()
                group.start_soon(watch)
            try:
                answer = await anyio.to_thread.run_sync(call, limiter=self._limiter(lane.name),
                                                        abandon_on_cancel=True)
            except (TimedOut, WorkerDied, Withdrawn) as exc:
                failure = exc
            group.cancel_scope.cancel()
        if isinstance(failure, TimedOut) and name == "solve":
            # A solve past its limit is a result, `timeout`, as the backends give it.
            return await self.light("timeout", body, ticket.time_limit - ticket.left())
        if isinstance(failure, TimedOut):
            raise JobError(422, f"{name}: not finished within the time limit "
                                f"({time_limit:g} s)", ExitCode.TIMEOUT)
        if isinstance(failure, WorkerDied):
            raise JobError(503, f"the {name} worker stopped unexpectedly; try again", None)
        if isinstance(failure, Withdrawn):
            raise JobError(WITHDRAWN, f"{name}: withdrawn", None)
        return _unpack(answer)

    def close(self) -> None:
        """Kill every worker at once, busy or not."""
        self.quick.close()
        self.heavy.close()
