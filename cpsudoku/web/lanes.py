"""A lane: a fixed set of warm worker processes, each running one job at a time, every
job with a deadline.

A job still running a moment after its deadline, or whose request was withdrawn (its
client left), has its process killed, and a fresh process takes the place at once: a
search that does not look at the clock cannot hold a worker, or memory, for longer than
its request allows. The processes are the solver child of `backends.solver_process`
(plain subprocesses in their own session, ending with the server even when it is killed
outright), not a multiprocessing pool: a pool cannot stop one job, and its forkserver
and resource tracker outlive a server stopped by a signal.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import Any

from ..backends.solver_process import Deadline, SolverProcess
from ..errors import BackendError

# Past the request's time limit (which the engines watch) before the kill: with the
# kill and the answer, a killed job is still answered within half a second of its limit.
GRACE_S = 0.3
QUEUE_POLL_S = 0.05  # how often a queued request looks whether it was withdrawn


class Withdrawn(Exception):
    """The request was withdrawn (its client left, or the server is stopping)."""


class TimedOut(Exception):
    """The deadline passed, waiting for a worker or running: the worker was killed."""


class WorkerDied(Exception):
    """The worker ended on its own (killed from outside, out of memory)."""


class Ticket:
    """One request's claim on a lane: its deadline, and the way to withdraw it."""

    def __init__(self, time_limit: float):
        self.time_limit = time_limit
        self.deadline = time.monotonic() + time_limit
        self.withdrawn = False
        self._worker: SolverProcess | None = None
        self._lock = threading.Lock()

    def left(self) -> float:
        return self.deadline - time.monotonic()

    def withdraw(self) -> None:
        """Stop the request now: its worker, if it has one, is killed."""
        with self._lock:
            self.withdrawn = True
            worker = self._worker
        if worker is not None:
            worker.process.kill()  # the thread waiting on it sees its pipe close

    def hold(self, worker: SolverProcess | None) -> bool:
        with self._lock:
            if self.withdrawn:
                return False
            self._worker = worker
            return True


class Lane:
    """`size` warm processes importing `preload`; `nice` lowers their CPU priority."""

    def __init__(self, name: str, size: int, preload: tuple[str, ...], nice: int = 0):
        self.name, self.size, self.preload, self.nice = name, size, preload, nice
        self._idle: list[SolverProcess] = []
        self._every: set[SolverProcess] = set()
        self._ready = threading.Condition()
        self._closed = False

    def start(self, warm: Callable[[SolverProcess], None] | None = None) -> None:
        """Start every process; with `warm`, wait until each has run it."""
        with self._ready:
            self._closed = False
            while len(self._every) < self.size:
                self._add()
            workers = list(self._idle)
        if warm is not None:
            for worker in workers:
                warm(worker)

    def pids(self) -> list[int]:
        with self._ready:
            return [w.process.pid for w in self._every]

    def run(self, ticket: Ticket, function: str, payload: Callable[[float], Any]) -> Any:
        """Run `function(payload(seconds left))` in a free worker; its last message."""
        worker = self._take(ticket)
        try:
            *_, last = worker.run(function, payload(ticket.left()), ticket.deadline + GRACE_S)
        except Deadline:
            self._replace(worker)
            raise TimedOut from None
        except (BackendError, OSError):  # its pipe closed: killed, by us or from outside
            self._replace(worker)
            raise (Withdrawn if ticket.withdrawn else WorkerDied) from None
        ticket.hold(None)
        self._give_back(worker)
        return last

    def close(self) -> None:
        """Kill every process now (busy or not)."""
        with self._ready:
            self._closed = True
            workers = list(self._every)
            self._every.clear()
            self._idle.clear()
            self._ready.notify_all()
        for worker in workers:
            worker.process.kill()
        for worker in workers:
            worker.process.wait()

    def _add(self) -> None:
        worker = SolverProcess(self.preload)
        if self.nice:
            try:
                os.setpriority(os.PRIO_PROCESS, worker.process.pid, self.nice)
            except OSError:
                pass  # it then shares the CPU evenly: slower light answers, not wrong ones
        self._every.add(worker)
        self._idle.append(worker)
        self._ready.notify()

    def _take(self, ticket: Ticket) -> SolverProcess:
        with self._ready:
            while True:
                if self._closed or ticket.withdrawn:
                    raise Withdrawn
                if ticket.left() <= 0:
                    raise TimedOut
                if self._idle:
                    # A warm worker first: a fresh one may still be importing, which
                    # would eat into this request's time.
                    warm = [w for w in self._idle if w.ready]
                    worker = warm[-1] if warm else self._idle[-1]
                    self._idle.remove(worker)
                    break
                self._ready.wait(min(ticket.left(), QUEUE_POLL_S))
        if not ticket.hold(worker):
            self._give_back(worker)
            raise Withdrawn
        return worker

    def _give_back(self, worker: SolverProcess) -> None:
        with self._ready:
            if worker in self._every:
                self._idle.append(worker)
                self._ready.notify()

    def _replace(self, worker: SolverProcess) -> None:
        worker.process.kill()
        worker.process.wait()
        worker.to_child.close()
        worker.from_child.close()
        with self._ready:
            if worker in self._every:
                self._every.discard(worker)
                if not self._closed:
                    self._add()
