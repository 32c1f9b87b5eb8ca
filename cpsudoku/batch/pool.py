"""Where chunks run: in this process, or in a pool of worker processes that survives
the death of any one of them (the orchestrator learns which chunk it was holding)."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from collections import deque
from dataclasses import dataclass
from multiprocessing.connection import wait
from typing import Any, Protocol

from ..backends.orphans import exit_with
from .records import Record, Task

# What an executor hands back for a chunk: its first index, its records (None when it
# failed), the seconds it took in the worker, and why it failed.
Done = tuple[int, list[Record] | None, float, str | None]


class Executor(Protocol):
    slots: int  # chunks it can run at once
    target_s: float  # how long a chunk should take: long enough to amortise the hand-off

    def submit(self, start: int, chunk: list) -> None: ...

    def collect(self) -> Done: ...

    def close(self, abort: bool = False) -> None: ...


def run_chunk(task: Task, chunk: list) -> tuple[list[Record] | None, float, str | None]:
    """Run one chunk; a task's exception becomes the chunk's failure, not the worker's."""
    began = time.perf_counter()
    try:
        records = task(chunk)
    except Exception as exc:  # a bug in the task: the orchestrator isolates the item
        return None, time.perf_counter() - began, f"{type(exc).__name__}: {exc}"
    return records, time.perf_counter() - began, None


class Serial:
    """Chunks of one item, run in this process when collected: `--jobs 1`."""

    slots = 1
    target_s = 0.0  # one item a chunk: each result is written as soon as it exists

    def __init__(self, task: Task):
        self.task = task
        self.queue: deque[tuple[int, list]] = deque()

    def submit(self, start: int, chunk: list) -> None:
        self.queue.append((start, chunk))

    def collect(self) -> Done:
        start, chunk = self.queue.popleft()
        return (start, *run_chunk(self.task, chunk))

    def close(self, abort: bool = False) -> None:
        self.queue.clear()


@dataclass
class _Worker:
    process: Any
    conn: Any
    job: tuple[int, list] | None = None


def _serve(conn, task, parent: int) -> None:
    """A worker's life: load the engine once, then run chunks until told to stop or
    until the parent is gone."""
    # Ctrl-C reaches the whole process group: the parent alone decides what stops.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # SIGTERM to the group (`timeout`, a service manager): end quietly, not with the
    # parent's handler inherited by the fork (its exception printed a traceback here).
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # Forked workers hold each other's pipe ends, so no EOF tells them that a SIGKILLed
    # parent is gone. At once on Linux: a pool lasts no longer than its batch's thread.
    exit_with(parent, at_once=True)
    prepare = getattr(task, "prepare", None)
    if prepare is not None:
        prepare()
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        start, chunk = job
        conn.send((start, *run_chunk(task, chunk)))


def _death(process) -> str:
    process.join(1)
    code = process.exitcode
    if code is not None and code < 0:
        try:
            return f"its worker process died (killed by {signal.Signals(-code).name})"
        except ValueError:
            return f"its worker process died (signal {-code})"
    return f"its worker process died (exit status {code})"


class Pool:
    """`jobs` worker processes, one chunk each at a time; a dead worker is replaced and
    its chunk reported failed."""

    target_s = 0.25

    def __init__(self, task: Task, jobs: int):
        self.task = task
        self.context = multiprocessing.get_context()
        self.slots = jobs
        self.waiting: deque[tuple[int, list]] = deque()
        self.workers = [self._start() for _ in range(jobs)]

    def _start(self) -> _Worker:
        parent, child = self.context.Pipe()
        process = self.context.Process(target=_serve, args=(child, self.task, os.getpid()),
                                       daemon=True,
                                       name="cpsudoku-batch-worker")
        process.start()
        child.close()
        return _Worker(process, parent)

    def submit(self, start: int, chunk: list) -> None:
        self.waiting.append((start, chunk))
        self._assign()

    def _assign(self) -> None:
        for worker in self.workers:
            if not self.waiting:
                return
            if worker.job is None:
                worker.job = self.waiting.popleft()
                try:
                    worker.conn.send(worker.job)
                except (BrokenPipeError, OSError):
                    pass  # it died idle: collect() sees it and reports the chunk

    def collect(self) -> Done:
        while True:
            busy = [w for w in self.workers if w.job is not None]
            if not busy:
                raise RuntimeError("collect() with no chunk running")
            ready = set(wait([w.conn for w in busy] + [w.process.sentinel for w in busy]))
            for worker in busy:
                if worker.conn not in ready and worker.process.sentinel not in ready:
                    continue
                done = self._receive(worker)
                self._assign()
                return done

    def _receive(self, worker: _Worker) -> Done:
        assert worker.job is not None
        start = worker.job[0]
        try:
            if worker.conn.poll():
                done = worker.conn.recv()
                worker.job = None
                return done
        except (EOFError, OSError):
            pass
        # The worker is gone with the chunk: replace it, report the chunk failed.
        reason = _death(worker.process)
        worker.conn.close()
        self.workers[self.workers.index(worker)] = self._start()
        return start, None, 0.0, reason

    def close(self, abort: bool = False) -> None:
        for worker in self.workers:
            if not abort:
                try:
                    worker.conn.send(None)
                except OSError:
                    pass
        deadline = time.monotonic() + (0 if abort else 2)
        for worker in self.workers:
            worker.process.join(max(0.0, deadline - time.monotonic()))
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join(1)
            worker.conn.close()
        self.workers = []


def cores() -> int:
    """The cores this process may use (its affinity, not the machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1
