"""What a solve returns, and the one place a finished search becomes a status.

Backends only report an `Outcome` (solutions found, whether the search space
was exhausted, whether time ran out, raw statistics); `finish` alone decides
the status, so that `unique`, `multiple`, `timeout` mean the same everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from .errors import ExitCode
from .symbols import line


class Status(str, Enum):
    UNIQUE = "unique"  # exactly one solution, and the search proved there is no other
    MULTIPLE = "multiple"  # at least two solutions
    SOLVED = "solved"  # one solution found; uniqueness not asked (or not proven in time)
    UNSOLVABLE = "unsolvable"  # proven to have no solution
    TIMEOUT = "timeout"  # time ran out before any solution or proof

    @property
    def solved(self) -> bool:
        return self in (Status.UNIQUE, Status.MULTIPLE, Status.SOLVED)


@dataclass
class Outcome:
    """A backend's raw report of one search."""

    solutions: list[tuple[int, ...]]
    exhausted: bool  # the whole search space was explored
    timed_out: bool = False
    stats: dict[str, int] = field(default_factory=dict)
    trace: list | None = None


@dataclass
class Result:
    status: Status
    solutions: list[tuple[int, ...]]
    backend: str
    time_s: float
    stats: dict[str, int | float | bool]
    puzzle: object = None  # the Puzzle solved
    reason: str | None = None  # why unsolvable (conflicting givens), when known before search
    trace: list | None = None

    @property
    def solution(self) -> tuple[int, ...] | None:
        return self.solutions[0] if self.solutions else None

    def solution_lines(self) -> list[str]:
        return [line(s) for s in self.solutions]

    def as_dict(self, index: int | None = None) -> dict:
        """The machine interface (`--format jsonl`): keep these keys stable."""
        d = {}
        if index is not None:
            d["index"] = index
        d.update(
            status=self.status.value,
            solutions=self.solution_lines(),
            backend=self.backend,
            time_s=round(self.time_s, 6),
            stats=self.stats,
        )
        if self.puzzle is not None:
            d["puzzle"] = self.puzzle.line()
            if self.puzzle.source:
                d["source"] = self.puzzle.source
        if self.reason:
            d["reason"] = self.reason
        return d


def status_of(found: int, max_solutions: int, exhausted: bool, timed_out: bool) -> Status:
    if found >= 2:
        return Status.MULTIPLE
    if found == 1:
        # Unique only when the search was asked for a second solution and proved none exists.
        return Status.UNIQUE if exhausted and max_solutions >= 2 and not timed_out else Status.SOLVED
    if timed_out or not exhausted:
        return Status.TIMEOUT
    return Status.UNSOLVABLE


def finish(outcome: Outcome, *, backend: str, max_solutions: int, elapsed: float,
           puzzle=None) -> Result:
    sols = outcome.solutions[:max_solutions]
    status = status_of(len(sols), max_solutions, outcome.exhausted, outcome.timed_out)
    stats = dict(outcome.stats)
    stats["timed_out"] = outcome.timed_out
    return Result(status, sols, backend, elapsed, stats, puzzle, trace=outcome.trace)


def unsolvable_before_search(problems: list[str], *, backend: str, elapsed: float,
                             puzzle=None) -> Result:
    return Result(Status.UNSOLVABLE, [], backend, elapsed, {"timed_out": False}, puzzle,
                  reason="; ".join(problems))


def exit_code_for(statuses) -> int:
    """Worst status of a batch decides the exit code of `solve`."""
    statuses = list(statuses)
    if any(s is Status.UNSOLVABLE for s in statuses):
        return ExitCode.UNSOLVABLE
    if any(s is Status.TIMEOUT for s in statuses):
        return ExitCode.TIMEOUT
    return ExitCode.OK
