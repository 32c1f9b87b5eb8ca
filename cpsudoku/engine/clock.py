"""The deadline checks of the engine and of every backend (the engine is the lowest
layer that searches, so both may import them from here)."""

from __future__ import annotations

import time


class OutOfTime(Exception):
    """A search's or a model builder's deadline passed; the search reports a timeout."""


def check_clock(deadline: float | None) -> None:
    """Raise OutOfTime once the deadline has passed (model builders call it as they go)."""
    if deadline is not None and time.monotonic() > deadline:
        raise OutOfTime
