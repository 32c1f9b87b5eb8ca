"""A solver that does not stop in time, run in a child process killed at the deadline.

Some solver libraries have phases that neither their own time limit nor an
interrupt reaches (HiGHS computes an analytic centre at the root of its
branch and bound with an inner solver that has neither: seconds on a 25x25).
Such a solver runs here in a child process that stays up between puzzles (its
library imported once): the parent waits for its answers until the deadline,
then kills it and starts a fresh one for the next puzzle. A Ctrl-C reaches
only the parent (the child has its own session) and kills the child at once.

A job is `function(payload, send)`, named "module:function"; `send(message)`
hands a picklable message to the parent as soon as it exists (a solution
found while counting), and the function's return value is the last message.
"""

from __future__ import annotations

import atexit
import os
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from importlib import import_module
from multiprocessing.connection import Connection
from typing import Any

from ..errors import BackendError
from .orphans import exit_with

_READY, _MESSAGE, _RETURN, _ERROR = "ready", "message", "return", "error"


class Deadline(Exception):
    """The deadline passed before the child answered: it has been killed, or it was
    still starting (then it goes on starting, for the next job)."""


class SolverProcess:
    """One child process that imports `preload` and then runs jobs one at a time."""

    def __init__(self, preload: tuple[str, ...]):
        self.preload = preload
        self.owner = os.getpid()  # a forked copy of this object is not its parent
        self.ready = False
        code = f"from {__name__} import serve; serve({list(preload)!r})"
        self.process = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, start_new_session=True)
        assert self.process.stdin is not None and self.process.stdout is not None
        # The connections own the pipes from here on (each closes its own descriptor).
        self.to_child = Connection(os.dup(self.process.stdin.fileno()), readable=False)
        self.from_child = Connection(os.dup(self.process.stdout.fileno()), writable=False)
        self.process.stdin.close()
        self.process.stdout.close()

    def alive(self) -> bool:
        return self.owner == os.getpid() and self.process.poll() is None

    def run(self, function: str, payload: Any, deadline: float | None) -> Iterator[Any]:
        """The job's messages as they come, its return value last; Deadline when the
        deadline passes first (the child is then killed)."""
        if not self.ready:
            self._receive(deadline, kill_late=False)  # "ready": its imports are done
            self.ready = True
        self.to_child.send((function, payload))
        while True:
            kind, value = self._receive(deadline)
            if kind == _RETURN:
                yield value
                return
            yield value

    def _receive(self, deadline: float | None, kill_late: bool = True) -> tuple[str, Any]:
        try:
            wait = None if deadline is None else max(deadline - time.monotonic(), 0.0)
            answered = self.from_child.poll(wait)
            if answered:
                kind, value = self.from_child.recv()
        except (EOFError, OSError) as exc:
            self.kill()
            raise BackendError(f"the solver's process ended unexpectedly "
                               f"(exit status {self.process.poll()})") from exc
        except BaseException:  # Ctrl-C while waiting: the child must not go on
            self.kill()
            raise
        if not answered:
            if kill_late:
                self.kill()
            raise Deadline
        if kind == _ERROR:
            raise BackendError(f"the solver's process failed: {value}")
        return kind, value

    def kill(self) -> None:
        if self.owner != os.getpid():
            return
        self.process.kill()
        self.process.wait()
        self.to_child.close()
        self.from_child.close()


# One child per preload and thread: threads solving at once never share a pipe.
_CHILDREN: dict[tuple[tuple[str, ...], int], SolverProcess] = {}


def run_in_child(preload: tuple[str, ...], function: str, payload: Any,
                 deadline: float | None) -> Iterator[Any]:
    """Run a job in this thread's child for `preload`, started when none is up;
    when the deadline kills it, a new one is started at once to be ready sooner."""
    key = (preload, threading.get_ident())
    child = _CHILDREN.get(key)
    if child is None or not child.alive():
        child = _CHILDREN[key] = SolverProcess(preload)
    try:
        yield from child.run(function, payload, deadline)
    except Deadline:
        if not child.alive():
            _CHILDREN[key] = SolverProcess(preload)
        raise


def search_in_child(preload: tuple[str, ...], function: str, payload: Any,
                    deadline: float | None) -> tuple[list[tuple[int, ...]], dict | None]:
    """A search job whose messages are solutions (grids, as tuples) and whose return
    value says how it ended: (the solutions, that value or None when killed at the
    deadline; the solutions sent before still stand)."""
    solutions: list[tuple[int, ...]] = []
    try:
        for message in run_in_child(preload, function, payload, deadline):
            if not isinstance(message, tuple):
                return solutions, message
            solutions.append(message)
    except Deadline:
        pass
    return solutions, None


@atexit.register
def _kill_children() -> None:
    for child in list(_CHILDREN.values()):
        if child.alive():
            child.kill()


def serve(preload: list[str]) -> None:
    """The child's loop: import, say ready, run jobs until the parent closes the pipe."""
    # The channel is fd 1's pipe; fd 1 itself goes to /dev/null so that a library
    # printing to stdout cannot corrupt it.
    to_parent = Connection(os.dup(1), readable=False)
    from_parent = Connection(os.dup(0), writable=False)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    # Not at once: PR_SET_PDEATHSIG fires when the *thread* that started the child ends,
    # and this child can outlive that thread (one of an application's thread pool).
    exit_with(os.getppid())
    for name in preload:
        import_module(name)
    to_parent.send((_READY, None))
    while True:
        try:
            function, payload = from_parent.recv()
        except EOFError:
            return
        module, _, attribute = function.partition(":")
        target: Callable[[Any, Callable[[Any], None]], Any] = getattr(import_module(module),
                                                                       attribute)
        try:
            result = target(payload, lambda message: to_parent.send((_MESSAGE, message)))
        except Exception:
            to_parent.send((_ERROR, traceback.format_exc(limit=3).strip().splitlines()[-1]))
            continue
        to_parent.send((_RETURN, result))
