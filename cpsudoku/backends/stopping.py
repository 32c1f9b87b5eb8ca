"""Running a solver library's blocking call so that Ctrl-C and a time limit stop it.

A solver written in C++ or Java holds the main thread while it searches, and
Python runs its SIGINT handler (KeyboardInterrupt) only once that call returns;
some solvers also take SIGINT for themselves and report "stopped" as if time
had run out. So the call runs in a worker thread while the main thread waits,
where a KeyboardInterrupt arrives at once: the solver is then asked to stop,
and the interrupt goes on up, so that the batch stops and marks nothing.
The same waiting loop asks the solver to stop when the deadline passes, for
solvers whose own time limit does not count set-up or is coarse.

A time limit counts from the call of `solve`, and importing a solver library
(OR-Tools: half a second, seconds on a busy machine) is part of it:
`load_library` imports in a worker thread and gives up waiting at the deadline
(the import goes on; the next puzzle finds it done or waits for the rest).
"""

from __future__ import annotations

import os
import select
import signal
import threading
import time
from collections.abc import Callable
from importlib import import_module
from types import ModuleType
from typing import TypeVar

T = TypeVar("T")

POLL_S = 0.01  # how often the waiting thread looks at the clock


def run_stoppable(work: Callable[[], T], stop: Callable[[], object],
                  deadline: float | None = None) -> tuple[T, bool]:
    """(work's result, whether `stop` was called for the deadline). A Ctrl-C calls
    `stop`, waits for `work` to return and raises KeyboardInterrupt."""
    if threading.current_thread() is not threading.main_thread():
        return work(), False  # signals reach the main thread only; nothing to wait for
    box: dict[str, object] = {}
    # Waited for through an Event, not Thread.join: a join interrupted by Ctrl-C can
    # report the thread finished while it still runs (CPython gh-90882), and a
    # solver thread still running at interpreter exit aborts the process.
    finished = threading.Event()

    def target() -> None:
        _main_thread_takes_signals()
        try:
            box["value"] = work()
        except BaseException as exc:  # re-raised in the caller's thread
            box["error"] = exc
        finally:
            finished.set()

    thread = threading.Thread(target=target, name="cpsudoku-solver", daemon=True)
    stopped = False
    thread.start()
    try:
        while not finished.is_set():
            wait = POLL_S
            if deadline is not None and not stopped:
                left = deadline - time.monotonic()
                if left <= 0:
                    stop()
                    stopped = True
                else:
                    wait = min(wait, left)
            finished.wait(wait)
    except KeyboardInterrupt:
        stop()
        finished.wait()
        raise
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["value"], stopped  # type: ignore[return-value]


def _main_thread_takes_signals() -> None:
    """Block SIGINT and SIGTERM in a worker thread: the kernel then delivers them to
    the main thread, where Python handles them, never inside a solver's C++ code."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})


def call_watched(work: Callable[[], T], stop: Callable[[], object],
                 deadline: float | None) -> T:
    """work() in this thread, for a solver that must search in the caller's thread
    (python-sat's crashes on a signal in any other): a watcher thread calls `stop`
    at the deadline, or as soon as SIGINT arrives (Python's C-level handler writes
    it to the wakeup pipe at once; the KeyboardInterrupt itself is raised when
    `work` returns)."""
    if threading.current_thread() is not threading.main_thread():
        return work()  # no signal comes here; only the deadline is watched then
    read_end, write_end = os.pipe()
    wake_read, wake_write = os.pipe()  # wakes the watcher when `work` returns
    os.set_blocking(write_end, False)
    old = signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)

    def watch() -> None:
        _main_thread_takes_signals()
        while True:
            wait = None if deadline is None else max(deadline - time.monotonic(), 0.0)
            ready, _, _ = select.select([read_end, wake_read], [], [], wait)
            if wake_read in ready:
                return
            if ready or (deadline is not None and time.monotonic() >= deadline):
                stop()
                return

    watcher = threading.Thread(target=watch, daemon=True, name="cpsudoku-watch")
    watcher.start()
    try:
        return work()
    finally:
        os.write(wake_write, b"x")
        watcher.join()
        signal.set_wakeup_fd(old)
        for fd in (read_end, write_end, wake_read, wake_write):
            os.close(fd)


_IMPORTS: dict[str, threading.Event] = {}
_IMPORT_ERRORS: dict[str, BaseException] = {}


def load_library(name: str, deadline: float | None) -> ModuleType | None:
    """The module `name`, or None if the deadline passed while it was being imported.
    The import runs in a worker thread that the main thread waits for."""
    import sys
    module = sys.modules.get(name)
    if module is not None and name not in _IMPORTS:
        return module
    if threading.current_thread() is not threading.main_thread():
        return import_module(name)
    # Even with no deadline: a Ctrl-C inside an extension module's initialisation
    # turns into ImportError ("initialization failed"), in the waiting loop it stays
    # a KeyboardInterrupt.
    finished = _IMPORTS.get(name)
    if finished is None:
        finished = _IMPORTS[name] = threading.Event()
        done = finished

        def target() -> None:
            _main_thread_takes_signals()
            try:
                import_module(name)
            except BaseException as exc:  # raised again in the caller's thread
                _IMPORT_ERRORS[name] = exc
            finally:
                done.set()

        threading.Thread(target=target, daemon=True, name=f"cpsudoku-import-{name}").start()
    while not finished.is_set():
        wait = POLL_S * 10
        if deadline is not None:
            wait = min(wait, deadline - time.monotonic())
            if wait <= 0:
                return None
        finished.wait(wait)
    _IMPORTS.pop(name, None)
    error = _IMPORT_ERRORS.pop(name, None)
    if error is not None:
        raise error
    return import_module(name)
