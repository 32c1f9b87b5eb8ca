"""Benchmark a backend over the public puzzle sets, each answer verified.

    cpsudoku bench --backend native --sets norvig_top95,royle_17clue --limit 1000
    (or python -m cpsudoku bench with the same options)

For every set: puzzles, solved, correct (the answer matches the set's solution
line), mean / median / max milliseconds per puzzle and puzzles per second;
with the reference on, the Norvig-style solver (`bench.norvig`) runs on the
same puzzles in the same process and the speed-up factor is shown.

Two timing modes: `api` times `cpsudoku.api.solve` per puzzle (model building,
conflict check and lowering included); `direct` prepares every model first and
times only the backend's `search`.
"""


from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import CpsudokuError, UsageError
from .datasets import (
    DEFAULT_SETS,
    REFERENCE_MAX_SIZE,
    find_data_dir,
    load_set,
    puzzle_of,
)

# --- measuring --------------------------------------------------------------------

@dataclass
class Figures:
    """One solver's results on one set."""

    solver: str
    puzzles: int = 0
    solved: int = 0
    correct: int = 0
    times: list[float] = field(default_factory=list)  # seconds per puzzle
    interrupted: bool = False  # stopped by Ctrl-C: the figures cover what finished

    @property
    def total(self) -> float:
        return sum(self.times)

    def ms(self, what: str) -> float:
        if not self.times:
            return 0.0
        if what == "mean":
            return 1000 * self.total / len(self.times)
        if what == "median":
            return 1000 * statistics.median(self.times)
        return 1000 * max(self.times)

    @property
    def per_second(self) -> float:
        return len(self.times) / self.total if self.total else 0.0

    def as_dict(self) -> dict:
        return {"solver": self.solver, "puzzles": self.puzzles, "solved": self.solved,
                "correct": self.correct, "mean_ms": round(self.ms("mean"), 4),
                "median_ms": round(self.ms("median"), 4), "max_ms": round(self.ms("max"), 4),
                "per_second": round(self.per_second, 2)}


@dataclass
class SetReport:
    name: str
    backend: Figures
    reference: Figures | None = None

    @property
    def speedup(self) -> float | None:
        if self.reference is None or not self.backend.total:
            return None
        return self.reference.total / self.backend.total


def is_correct(line: str, expected: str, nsol: int, values, status: str | None) -> bool:
    from ..grid.check import is_solution
    if values is None:
        return False
    got = "".join("123456789ABCDEFGHIJKLMNOP"[v - 1] for v in values)
    if nsol == 1:
        ok = got == expected.upper()
    else:  # several solutions: the set shows one of them, any valid one counts
        ok = is_solution(puzzle_of(line), values)
    if status is not None:  # counting: the verdict must match the set's count too
        ok = ok and status == ("unique" if nsol == 1 else "multiple")
    return ok


def measure_backend(rows, backend: str, *, mode: str = "api", count: bool = False,
                    time_limit: float | None = None,
                    progress: Callable[[], object] | None = None, options: dict | None = None,
                    clock=time.perf_counter) -> Figures:
    """Time `backend` on every row; `progress()` is called after each puzzle."""
    from ..api import solve
    from ..backends import get
    from ..backends.base import Request
    from ..model import build_model, lower_for
    from ..result import finish

    fig = Figures(backend, puzzles=len(rows))
    max_solutions = 2 if count else 1
    options = options or {}  # backend settings, e.g. {"kernel": "python"} for native
    engine = get(backend)
    if rows:  # warm up: the first solve of a geometry builds and caches its tables
        solve(puzzle_of(rows[0][0]), backend, max_solutions=max_solutions, time_limit=time_limit,
              **options)
    if mode == "direct":
        prepared = [lower_for(build_model(puzzle_of(p)), engine.native_kinds,
                              whole_when_too_big=engine.whole_when_too_big)
                    for p, _, _ in rows]
    try:
        for i, (line, expected, nsol) in enumerate(rows):
            if mode == "direct":
                model = prepared[i]
                t0 = clock()
                outcome = engine.search(model, Request(max_solutions, time_limit,
                                                       options=options))
                elapsed = clock() - t0
                result = finish(outcome, backend=backend, max_solutions=max_solutions,
                                elapsed=elapsed)
            else:
                puzzle = puzzle_of(line)
                t0 = clock()
                result = solve(puzzle, backend, max_solutions=max_solutions,
                               time_limit=time_limit, **options)
                elapsed = clock() - t0
            correct = is_correct(line, expected, nsol, result.solution,
                                 result.status.value if count else None)
            fig.times.append(elapsed)
            fig.solved += int(result.status.solved)
            fig.correct += int(correct)
            if progress is not None:
                progress()
    except KeyboardInterrupt:  # keep what finished; `run` reports it and stops
        fig.interrupted = True
        fig.puzzles = len(fig.times)
    return fig


def measure_reference(rows, progress: Callable[[], object] | None = None,
                      clock=time.perf_counter) -> Figures:
    from . import norvig
    fig = Figures("reference", puzzles=len(rows))  # the Norvig-style solver
    if rows:
        norvig.solve(rows[0][0])  # warm up, as for the backend
    for line, expected, nsol in rows:
        t0 = clock()
        got = norvig.solve(line)
        fig.times.append(clock() - t0)
        if got is not None:
            fig.solved += 1
            if got == expected.upper() or (nsol != 1 and is_correct(
                    line, expected, nsol, puzzle_of(got).givens, None)):
                fig.correct += 1
        if progress is not None:
            progress()
    return fig


def run(sets=DEFAULT_SETS, backend: str = "native", *, limit: int | None = None,
        reference: bool = True, time_limit: float | None = None, data: str | Path | None = None,
        mode: str = "api", count: bool = False, console=None,
        progress=None) -> list[SetReport]:
    """Benchmark `backend` on each set, printing one table per set as it finishes.

    progress: a rich Progress (or None) that shows each set's advance, puzzle by
    puzzle, backend then reference."""
    if mode not in ("api", "direct"):
        raise CpsudokuError(f"mode must be api or direct, not {mode!r}")
    data_dir = find_data_dir(data)
    if isinstance(sets, str):
        sets = [s.strip() for s in sets.split(",") if s.strip()]
    if not sets:
        raise UsageError("no data set given (--sets NAME[,NAME...]; --list shows them)")
    loaded = [(name, load_set(data_dir, name, limit)) for name in sets]  # fail early on a bad name
    if console is None:
        from rich.console import Console
        console = Console()
        if not console.is_terminal:  # a file keeps every column, never folded
            console = Console(width=120)
    reports = []
    for name, rows in loaded:
        with_reference = bool(reference and rows and len(rows[0][0]) <= REFERENCE_MAX_SIZE ** 2)
        task = None
        if progress is not None:
            task = progress.add_task(name, total=len(rows) * (2 if with_reference else 1))
        tick = None if task is None else (lambda task=task: progress.advance(task))
        fig = measure_backend(rows, backend, mode=mode, count=count, time_limit=time_limit,
                              progress=tick)
        ref = None
        if with_reference and not fig.interrupted:
            ref = measure_reference(rows, progress=tick)
        report = SetReport(name, fig, ref)
        reports.append(report)
        console.print(table_of(report, mode=mode, count=count,
                               width=console.width if console.is_terminal else None))
        if fig.interrupted:
            raise BenchInterrupted(reports)
    return reports


class BenchInterrupted(KeyboardInterrupt):
    """Ctrl-C during a run; `reports` holds every set measured so far, the last one
    up to the puzzle that was interrupted (its table is already printed)."""

    def __init__(self, reports):
        super().__init__()
        self.reports = reports


# Columns in the order they are dropped when the table does not fit the terminal
# (the last ones go first); solver, puzzles, solved and correct always stay. Times are
# in ms (said in the title), so that every column fits 80 characters.
_COLUMNS = ("solver", "puzzles", "solved", "correct", "mean", "speed-up", "per s",
            "median", "max")
_ORDER = ("solver", "puzzles", "solved", "correct", "mean", "median", "max", "per s",
          "speed-up")


def table_of(report: SetReport, *, mode: str = "api", count: bool = False,
             width: int | None = None):
    """The set's table; with a `width` (a terminal's), the least useful columns are
    dropped until it fits, and the caption names them. Without one (a file), all."""
    from rich import box
    from rich.table import Table
    what = "count to 2" if count else "first solution"
    title = f"{report.name}: {what}, timed through {mode}, times in ms"
    if report.backend.interrupted:
        title += f", interrupted after {report.backend.puzzles} puzzle(s)"
    figures = [report.backend] + ([report.reference] if report.reference else [])
    cells = []
    for fig in figures:
        speed = ""
        if fig is report.backend and report.speedup is not None:
            speed = f"{report.speedup:.1f}x"
        elif fig is report.reference:
            speed = "1.0x"
        cells.append({"solver": fig.solver, "puzzles": str(fig.puzzles),
                      "solved": str(fig.solved), "correct": str(fig.correct),
                      "mean": f"{fig.ms('mean'):.3f}", "median": f"{fig.ms('median'):.3f}",
                      "max": f"{fig.ms('max'):.1f}", "per s": f"{fig.per_second:,.0f}",
                      "speed-up": speed})
    kept = list(_COLUMNS)

    def needed(columns) -> int:  # content plus a space each side per column
        return sum(2 + max(len(c), *(len(row[c]) for row in cells)) for c in columns)
    if width is not None:
        while len(kept) > 4 and needed(kept) > width:
            kept.pop()
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, show_edge=False,
                  collapse_padding=True,
                  pad_edge=False)
    for col in (c for c in _ORDER if c in kept):
        table.add_column(col, justify="left" if col == "solver" else "right", no_wrap=True)
    for row in cells:
        table.add_row(*(row[c] for c in _ORDER if c in kept))
    if len(kept) < len(_COLUMNS):
        dropped = [c for c in _ORDER if c not in kept]
        table.caption = f"not shown for lack of width: {', '.join(dropped)}"
    return table


# --- command line: cpsudoku.cli.bench declares the options --------------------------

DEFAULT_TIME_LIMIT = 60.0  # seconds per puzzle, so that a run always ends

