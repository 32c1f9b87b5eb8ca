"""What a comparison finds: one row per puzzle and run, the judging of the runs' answers
against each other, and each run's summary.

A disagreement is one of:

- `invalid`: a solution that breaks a rule, judged by the independent checker
  (`grid.check.is_solution`), even when only one backend ran;
- `status`: answers that cannot all be true (unique against multiple, solved
  against unsolvable). A timeout is not a disagreement: it is listed apart;
- `solution`: a backend proves a unique solution and another finds a different
  valid one, or proves a different unique one;
- `duplicate`: a backend reports the same solution twice as "multiple".

With `presolve=True`, each backend other than `native` (whose search already
propagates) runs twice, without and with the native propagation first, as two
runs named `NAME` and `NAME+presolve`: the summary shows what presolve changes,
and the answers of both must agree like those of any two backends.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

from ..grid.check import conflicts, is_solution
from ..grid.puzzle import Puzzle
from ..result import Result, Status

PRESOLVE_SUFFIX = "+presolve"


@dataclass
class Row:
    """One puzzle solved by one run (a backend, with or without presolve)."""

    index: int  # 1-based position of the puzzle in the input
    source: str
    backend: str  # the run's name: the backend, plus "+presolve" when presolved
    status: str
    time_s: float
    nodes: int | None
    solution: str  # the first solution found, "" if none
    presolve: bool = False

    def as_dict(self) -> dict:
        d = asdict(self)
        d["time_s"] = round(self.time_s, 6)
        return d


@dataclass
class Summary:
    backend: str
    puzzles: int
    solved: int  # answered in full: unique, multiple, or solved when one solution was asked
    unsolvable: int
    timeouts: int  # time ran out first: status timeout or unproven (as in Report.timeouts)
    mean_ms: float
    median_ms: float
    p95_ms: float
    max_ms: float
    mean_nodes: float | None


@dataclass
class Disagreement:
    index: int
    source: str
    kind: str  # invalid | status | solution | duplicate
    message: str


@dataclass
class Report:
    runs: list[str]
    rows: list[Row]
    summaries: list[Summary]
    disagreements: list[Disagreement]
    timeouts: list[tuple[int, str]]  # (puzzle index, run) pairs, shown but not disagreements
    time_limit: float | None = None
    max_solutions: int = 2
    presolve: bool = False
    interrupted: bool = False  # stopped by Ctrl-C: the rows are what finished
    # Puzzles without rows: (1-based index, message, exit status) of each that could not
    # be read or whose worker died.
    errors: list[tuple[int, str, int]] = field(default_factory=list)

    @property
    def puzzles(self) -> int:
        return len({row.index for row in self.rows})


def run_names(backends: Sequence[str], presolve: bool) -> list[tuple[str, str, bool]]:
    """(run name, backend, presolve) for every run, in display order."""
    runs = []
    for name in backends:
        runs.append((name, name, False))
        if presolve and name != "native":
            runs.append((name + PRESOLVE_SUFFIX, name, True))
    return runs


@dataclass
class Compared:
    """One puzzle answered by every run: what `run_compare` gathers per puzzle."""

    rows: list[Row]
    disagreements: list[Disagreement]
    timeouts: list[tuple[int, str]]


# What each status allows the truth to be: answers disagree when no truth fits them all.
# `solved` (one solution, uniqueness not asked) and `unproven` (not proven in time) fit
# unique or multiple.
_POSSIBLE = {
    Status.UNIQUE: {"unique"},
    Status.MULTIPLE: {"multiple"},
    Status.SOLVED: {"unique", "multiple"},
    Status.UNPROVEN: {"unique", "multiple"},
    Status.UNSOLVABLE: {"unsolvable"},
    Status.TIMEOUT: {"unique", "multiple", "unsolvable"},
}


def judge(puzzle: Puzzle, results: dict[str, Result]) -> list[tuple[str, str]]:
    """(kind, message) for each way the runs' answers on one puzzle cannot all be right."""
    found: list[tuple[str, str]] = []
    valid: dict[str, list[tuple[int, ...]]] = {}
    for run, result in results.items():
        valid[run] = []
        for k, values in enumerate(result.solutions, 1):
            if is_solution(puzzle, values):
                valid[run].append(values)
            else:
                found.append(("invalid", f"{run}: solution {k} {_why_invalid(puzzle, values)}"))
        if result.status is Status.MULTIPLE and len(set(result.solutions)) < len(result.solutions):
            found.append(("duplicate", f"{run}: reports the same solution twice"))

    possible = [_POSSIBLE[r.status] for r in results.values()]
    if possible and not set.intersection(*possible):
        found.append(("status", ", ".join(f"{run}: {r.status.value}"
                                          for run, r in results.items()
                                          if r.status is not Status.TIMEOUT)))

    # A proven unique solution must be the only one anybody found: the only valid
    # one, and the one every other "unique" answer names.
    for run, result in results.items():
        if result.status is not Status.UNIQUE or not result.solutions:
            continue
        unique = result.solutions[0]
        others = sorted(other for other, r in results.items() if other != run and any(
            s != unique for s in (r.solutions if r.status is Status.UNIQUE else valid[other])))
        if others:
            found.append(("solution", f"{run} proves a unique solution, but "
                                      f"{', '.join(others)} found another"))
            break  # one message per puzzle is enough to point at it
    return found


def _why_invalid(puzzle: Puzzle, values) -> str:
    n = puzzle.size
    if len(values) != n * n or not all(1 <= v <= n for v in values):
        return "is not a complete grid"
    changed = [puzzle.geometry.cell_name(c) for c, (g, v) in enumerate(zip(puzzle.givens, values))
               if g and g != v]
    if changed:
        return f"changes the given at {changed[0]}"
    broken = conflicts(puzzle, values)
    return f"breaks a rule: {broken[0].message}" if broken else "breaks a rule"


def summarise(run: str, rows: list[Row]) -> Summary:
    times = sorted(r.time_s * 1000 for r in rows)
    nodes = [r.nodes for r in rows if r.nodes is not None]
    statuses = [Status(r.status) for r in rows]
    return Summary(
        backend=run,
        puzzles=len(rows),
        # solved, no sol and t/o split the puzzles: `unproven` (a solution, then time
        # ran out before uniqueness was proven) counts as t/o, like the timeouts listed.
        solved=sum(s.solved and not s.ran_out_of_time for s in statuses),
        unsolvable=sum(s is Status.UNSOLVABLE for s in statuses),
        timeouts=sum(s.ran_out_of_time for s in statuses),
        mean_ms=statistics.fmean(times) if times else 0.0,
        median_ms=statistics.median(times) if times else 0.0,
        p95_ms=_percentile(times, 95),
        max_ms=times[-1] if times else 0.0,
        mean_nodes=statistics.fmean(nodes) if nodes else None,
    )


def _percentile(ordered: list[float], pct: float) -> float:
    """Nearest-rank percentile of an ordered list (0 for an empty one)."""
    if not ordered:
        return 0.0
    rank = max(1, math.ceil(pct / 100 * len(ordered)))
    return ordered[rank - 1]
