"""Running a solver library's blocking call so that Ctrl-C and a time limit stop it.

A solver written in C++ or Java holds the main thread while it searches, and
Python runs its SIGINT handler (KeyboardInterrupt) only once that call returns;
some solvers also take SIGINT for themselves and report "stopped" as if time
had run out. So the call runs in a helper thread while the main thread waits,
where a KeyboardInterrupt arrives at once: the solver is then asked to stop,
and the interrupt goes on up, so that the batch stops and marks nothing.
The same waiting loop asks the solver to stop when the deadline passes, for
solvers whose own time limit does not count set-up or is coarse.

A time limit counts from the call of `solve`, and importing a solver library
(OR-Tools: half a second, seconds on a busy machine) is part of it:
`load_library` imports in a helper thread and gives up waiting at the deadline
(the import goes on; the next puzzle finds it done or waits for the rest).
"""

from __future__ import annotations

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

    def target() -> None:
        try:
            box["value"] = work()
        except BaseException as exc:  # re-raised in the caller's thread
            box["error"] = exc

    thread = threading.Thread(target=target, name="cpsudoku-solver", daemon=True)
    stopped = False
    thread.start()
    try:
        while thread.is_alive():
            wait = POLL_S
            if deadline is not None and not stopped:
                left = deadline - time.monotonic()
                if left <= 0:
                    stop()
                    stopped = True
                else:
                    wait = min(wait, left)
            thread.join(wait)
    except KeyboardInterrupt:
        stop()
        thread.join()
        raise
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["value"], stopped  # type: ignore[return-value]


class OutOfTime(Exception):
    """The deadline passed while a solver's model was being built."""


def check_clock(deadline: float | None) -> None:
    """Raise OutOfTime once the deadline has passed (model builders call it as they go)."""
    if deadline is not None and time.monotonic() > deadline:
        raise OutOfTime


_IMPORTS: dict[str, threading.Thread] = {}
_IMPORT_ERRORS: dict[str, BaseException] = {}


def load_library(name: str, deadline: float | None) -> ModuleType | None:
    """The module `name`, or None if the deadline passed while it was being imported."""
    import sys
    module = sys.modules.get(name)
    if module is not None and name not in _IMPORTS:
        return module
    if deadline is None or threading.current_thread() is not threading.main_thread():
        return import_module(name)
    thread = _IMPORTS.get(name)
    if thread is None:
        def target() -> None:
            try:
                import_module(name)
            except BaseException as exc:  # raised again in the caller's thread
                _IMPORT_ERRORS[name] = exc

        thread = _IMPORTS[name] = threading.Thread(target=target, daemon=True,
                                                   name=f"cpsudoku-import-{name}")
        thread.start()
    while thread.is_alive():
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        thread.join(min(left, POLL_S * 10))
    _IMPORTS.pop(name, None)
    error = _IMPORT_ERRORS.pop(name, None)
    if error is not None:
        raise error
    return import_module(name)
