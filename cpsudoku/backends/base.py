"""The interface every backend implements.

A backend receives a `Model` already lowered to the constraint kinds it
declares in `native_kinds`, and a `Request`; it returns an `Outcome`. It never
decides a status: `result.finish` does.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import ClassVar

from ..errors import BackendError
from ..model import Model
from ..result import Outcome


@dataclass(frozen=True)
class Request:
    max_solutions: int = 1  # stop after this many solutions (2 answers "is it unique?")
    time_limit: float | None = None  # seconds, None = no limit
    trace: bool = False  # record a step-by-step trace (backends with supports_trace only)
    options: dict = field(default_factory=dict)  # backend-specific (e.g. cpsat workers)
    started: float = field(default_factory=time.monotonic)

    @property
    def deadline(self) -> float | None:
        return None if self.time_limit is None else self.started + self.time_limit


class Backend:
    name: ClassVar[str]
    description: ClassVar[str]
    distribution: ClassVar[str | None] = None  # the PyPI package it needs, for its version
    extra: ClassVar[str | None] = None  # the cpsudoku extra that installs it, if optional
    module: ClassVar[str | None] = None  # the solver library's import name
    native_kinds: ClassVar[frozenset[str]] = frozenset({"alldifferent"})
    # Kinds it also takes whole, but only when their decomposition is refused as too big
    # (its own propagator is slower than the table it would otherwise get).
    whole_when_too_big: ClassVar[frozenset[str]] = frozenset()
    supports_trace: ClassVar[bool] = False
    # True when a search on contradictory givens ends at once with no solution: the
    # API then names the conflicts only after a search that found none.
    finds_conflicts_fast: ClassVar[bool] = False
    option_names: ClassVar[frozenset[str]] = frozenset()
    # Whether it searches auxiliary variables (grid.variables) beside the cells, and
    # reports their values after the cells' in each solution.
    auxiliary: ClassVar[bool] = False

    def is_available(self) -> bool:
        if self.distribution is None:
            return True
        if self.module is not None:
            # find_spec reads no package metadata: importing importlib.metadata alone
            # costs tens of milliseconds, inside the time limit of the first solve.
            from importlib.util import find_spec
            return find_spec(self.module) is not None
        from importlib import metadata  # slow to import: only when asked
        try:
            metadata.version(self.distribution)
        except metadata.PackageNotFoundError:
            return False
        return True

    def version(self) -> str:
        if self.distribution is None:
            from .._version import __version__
            return __version__
        from importlib import metadata
        try:
            return metadata.version(self.distribution)
        except metadata.PackageNotFoundError:
            return "not installed"

    def install_command(self) -> str:
        """The command that makes this backend available."""
        if self.extra is not None:
            return f"pip install 'cpsudoku[{self.extra}]'"
        return f"pip install {self.distribution}"

    def check_request(self, request: Request) -> None:
        """Refuse, in one clear line, what this backend cannot do."""
        if request.trace and not self.supports_trace:
            raise BackendError(f"backend {self.name!r} cannot record a trace "
                               f"(only 'native' can)")
        unknown = set(request.options) - self.option_names
        if unknown:
            raise BackendError(f"backend {self.name!r} has no option "
                               f"{', '.join(sorted(unknown))}")

    def search(self, model: Model, request: Request) -> Outcome:  # pragma: no cover
        raise NotImplementedError


def out_of_time() -> Outcome:
    """The deadline passed before any search (importing, building the solver's model)."""
    return Outcome([], exhausted=False, timed_out=True, stats={"nodes": 0})


def nothing_to_search() -> Outcome:
    """No solution, seen before any search (an empty domain, a constraint no value meets)."""
    return Outcome([], exhausted=True, stats={"nodes": 0})
