"""The per-puzzle time limit over the whole of a puzzle's work: reading it, building its
rules, lowering its model and searching.

The search has always checked its own deadline; the stages before it ran unbounded,
so a hostile puzzle could spend minutes in them whatever `-t` said. Now the work on a
puzzle runs inside `limit(seconds)`, which opens one `Deadline`; the Python loops of
those stages call `check()` as they go (one context-variable read and one clock read),
and `stage(name)` names the stage in progress, so that running out says where. The
search is handed the same deadline (`started()`), so the time read, built and searched
adds up to the one limit.

A context variable rather than a global: the play server's threads and any program
embedding the API each keep their own deadline; with no limit set, `check()` does
nothing.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from ..errors import TimeLimitError


@dataclass
class Deadline:
    seconds: float
    started: float
    stage: str = "reading"
    hit: TimeLimitError | None = None  # set once the limit is passed (an error may be wrapped)
    # Reading a file of many puzzles at once: each puzzle read starts the time afresh
    # (`puzzle_read`), so that the limit stays one puzzle's however many the file holds.
    each_puzzle: bool = False

    @property
    def ends(self) -> float:
        return self.started + self.seconds

    def error(self) -> TimeLimitError:
        return TimeLimitError(f"time limit of {self.seconds:g} s reached while {self.stage}",
                              self.stage)


_current: ContextVar[Deadline | None] = ContextVar("cpsudoku_deadline", default=None)


@contextmanager
def limit(seconds: float | None, stage: str = "reading",
          each_puzzle: bool = False) -> Iterator[Deadline | None]:
    """The puzzle's work within `seconds` (None: no limit). Inside a limit already open
    (a batch task opened it before reading the puzzle, the API then solves it), the
    outer one goes on: the time spent so far counts. `each_puzzle`: the limit is per
    puzzle of a source read whole, restarted as each is read."""
    outer = _current.get()
    if outer is not None or seconds is None:
        yield outer
        return
    opened = Deadline(seconds, time.monotonic(), stage, each_puzzle=each_puzzle)
    token = _current.set(opened)
    try:
        yield opened
    finally:
        _current.reset(token)


@contextmanager
def stage(name: str) -> Iterator[None]:
    """Name the stage in progress ("building the rules"), for the message on running out."""
    current = _current.get()
    if current is None:
        yield
        return
    before, current.stage = current.stage, name
    try:
        yield
    finally:
        current.stage = before


def check() -> None:
    """Raise TimeLimitError, naming the stage, once the open limit has passed."""
    current = _current.get()
    if current is not None and time.monotonic() > current.started + current.seconds:
        current.hit = current.hit or current.error()
        raise current.hit


def puzzle_read() -> None:
    """A puzzle is read and checked: within a limit per puzzle of a source read whole,
    the next one's time starts now."""
    current = _current.get()
    if current is not None and current.each_puzzle:
        current.started = time.monotonic()


def started() -> float | None:
    """When the open limit started (the search's deadline counts from there), or None."""
    current = _current.get()
    return None if current is None else current.started


def current() -> Deadline | None:
    return _current.get()
