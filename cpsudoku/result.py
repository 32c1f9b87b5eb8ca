"""What a solve returns, and the one place a finished search becomes a status.

Backends only report an `Outcome` (solutions found, whether the search space
was exhausted, whether time ran out, raw statistics); `finish` alone decides
the status, so that `unique`, `multiple`, `timeout` mean the same everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any

from .errors import ExitCode
from .grid.symbols import line

if TYPE_CHECKING:
    from .grid.puzzle import Puzzle


class Status(str, Enum):
    UNIQUE = "unique"  # exactly one solution, and the search proved there is no other
    MULTIPLE = "multiple"  # at least two solutions
    SOLVED = "solved"  # one solution found; uniqueness not asked (max_solutions=1)
    # One solution found, a second was asked for, and time ran out before the search
    # proved there is none: "unique" cannot be claimed, and nothing is wrong either.
    UNPROVEN = "unproven"
    UNSOLVABLE = "unsolvable"  # proven to have no solution
    TIMEOUT = "timeout"  # time ran out before any solution or proof

    @property
    def solved(self) -> bool:
        """A solution was found (whatever is known about others)."""
        return self in (Status.UNIQUE, Status.MULTIPLE, Status.SOLVED, Status.UNPROVEN)

    @property
    def ran_out_of_time(self) -> bool:
        """The time limit ended the search before it could answer in full."""
        return self in (Status.TIMEOUT, Status.UNPROVEN)


@dataclass
class Outcome:
    """A backend's raw report of one search."""

    solutions: list[tuple[int, ...]]
    exhausted: bool  # the whole search space was explored
    timed_out: bool = False
    stats: dict[str, int | float | bool] = field(default_factory=dict)
    trace: list | None = None
    # One-off costs inside the backend's search call that are not search (importing
    # its solver library, compiling propagation code for a new geometry, building
    # the solver's own model): reported as set-up, not as solving.
    setup_s: float = 0.0


@dataclass
class Result:
    status: Status
    solutions: list[tuple[int, ...]]
    backend: str
    time_s: float
    stats: dict[str, int | float | bool]
    puzzle: Puzzle | None = None  # the Puzzle solved
    # why unsolvable (conflicting givens), or in which stage time ran out, when known
    # before the search
    reason: str | None = None
    trace: list | None = None
    # Per solution, the values of its auxiliary variables (grid.variables: a chaos
    # construction's region labels), when the puzzle has any.
    variables: list[tuple[int, ...]] | None = None

    @property
    def solution(self) -> tuple[int, ...] | None:
        return self.solutions[0] if self.solutions else None

    def solution_lines(self) -> list[str]:
        """The solutions as lines of symbols, the digits from the puzzle's lowest."""
        if self.puzzle is not None:
            return [self.puzzle.geometry.line(s) for s in self.solutions]
        return [line(s) for s in self.solutions]

    def extra_cells(self) -> list[dict[str, int]]:
        """Per solution, the digit of each of the puzzle's extra cells (cells outside the
        grid, `Geometry.extra`), by name; empty for a puzzle without them."""
        geometry = self.puzzle.geometry if self.puzzle is not None else None
        if geometry is None or not geometry.extra or not self.variables:
            return []
        return [{name: geometry.first + v - 1 for name, v in zip(geometry.extra, values)}
                for values in self.variables]

    def as_dict(self, index: int | None = None) -> dict:
        """The machine interface (`--format jsonl`): keep these keys stable."""
        d: dict[str, Any] = {}
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
            if self.puzzle.meta.get("note"):  # the fields after a puzzle on its line
                d["note"] = self.puzzle.meta["note"]
        extra = self.extra_cells()
        if extra:
            d["extra_digits"] = extra  # ("extra_cells", the names, is a puzzle field)
        if self.reason:
            d["reason"] = self.reason
        return d


def status_of(found: int, max_solutions: int, exhausted: bool, timed_out: bool) -> Status:
    if found >= 2:
        return Status.MULTIPLE
    if found == 1:
        # Unique only when the search was asked for a second solution and proved none exists.
        if max_solutions >= 2 and timed_out:
            return Status.UNPROVEN
        return Status.UNIQUE if exhausted and max_solutions >= 2 else Status.SOLVED
    if timed_out or not exhausted:
        return Status.TIMEOUT
    return Status.UNSOLVABLE


def timings(elapsed: float, setup_s: float) -> dict[str, float]:
    """`setup_s` (reading the model, lowering it, the backend's one-off costs) and
    `search_s` (the rest: the search itself), which add up to `time_s`."""
    setup_s = min(max(setup_s, 0.0), elapsed)
    return {"setup_s": _microseconds(setup_s), "search_s": _microseconds(elapsed - setup_s)}


def _microseconds(seconds: float) -> float:
    """A non-negative time rounded to the microsecond; round(x, 6) costs a
    microsecond a call, a noticeable share of an 80 us solve."""
    return int(seconds * 1e6 + 0.5) / 1e6


def finish(outcome: Outcome, *, backend: str, max_solutions: int, elapsed: float,
           puzzle=None, setup_s: float = 0.0) -> Result:
    """The Result of a search; `setup_s` is the caller's set-up time before the
    backend was called (the backend's own is in `outcome.setup_s`)."""
    sols = outcome.solutions[:max_solutions]
    status = status_of(len(sols), max_solutions, outcome.exhausted, outcome.timed_out)
    stats: dict[str, int | float | bool] = dict(outcome.stats)
    stats["timed_out"] = outcome.timed_out
    stats.update(timings(elapsed, setup_s + outcome.setup_s))
    variables = None
    if puzzle is not None and puzzle.variables.count:
        # backends that search auxiliary variables report them after the cells
        ncells = puzzle.geometry.ncells
        variables = [s[ncells:] for s in sols]
        sols = [s[:ncells] for s in sols]
    if puzzle is not None and puzzle.geometry.absent:  # a board's cells outside its grids
        sols = [blanked(s, puzzle.geometry.absent) for s in sols]
    return Result(status, sols, backend, elapsed, stats, puzzle, trace=outcome.trace,
                  variables=variables)


def blanked(values: tuple[int, ...], cells) -> tuple[int, ...]:
    """The values with these cells 0: a board's absent cells hold no digit."""
    out = list(values)
    for cell in cells:
        out[cell] = 0
    return tuple(out)


def unsolvable_before_search(problems: list[str], *, backend: str, elapsed: float,
                             puzzle=None) -> Result:
    stats: dict[str, int | float | bool] = {"timed_out": False, **timings(elapsed, elapsed)}
    return Result(Status.UNSOLVABLE, [], backend, elapsed, stats, puzzle,
                  reason="; ".join(problems))


def timed_out_before_search(reason: str, *, backend: str, elapsed: float,
                            puzzle=None) -> Result:
    """The time limit ran out before the search could start (reading, building or
    lowering the puzzle); `reason` says in which stage."""
    stats: dict[str, int | float | bool] = {"timed_out": True, **timings(elapsed, elapsed)}
    return Result(Status.TIMEOUT, [], backend, elapsed, stats, puzzle, reason=reason)


def exit_code_for(statuses, *, counting: bool = False) -> int:
    """The exit code of a batch: its worst status, in this order: a puzzle with no
    solution, then time running out (`timeout`, `unproven`), then (when counting) a
    puzzle with several solutions."""
    seen = set(statuses)
    if Status.UNSOLVABLE in seen:
        return ExitCode.UNSOLVABLE
    if any(s.ran_out_of_time for s in seen):
        return ExitCode.TIMEOUT
    if counting and Status.MULTIPLE in seen:
        return ExitCode.NOT_UNIQUE
    return ExitCode.OK
