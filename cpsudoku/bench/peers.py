"""The native engine side by side with its peers, per puzzle, every answer checked.

    cpsudoku bench --peers --sets royle_17clue,forum_hardest_1106 --limit 1000

Per set, in one run on the same puzzles: the C kernel and the pure-Python
engine (both `cpsudoku.api.solve`, counting to 2 so that uniqueness is proven),
the Norvig-style reference (`bench.norvig`, first solution) and hodoku-py's
backtracker (`SudokuGenerator.solve_string`, which also counts to 2; 9x9 only,
and only when `hodoku-py` is installed). Times are CPU seconds of this process
(`time.process_time`), so that a busy machine blurs them less; on an idle one
they equal elapsed time. The last column is each solver's time relative to
the kernel's.
"""

from __future__ import annotations

import time

from .datasets import REFERENCE_MAX_SIZE, find_data_dir, load_set
from .solve import (
    DEFAULT_TIME_LIMIT,
    BenchInterrupted,
    Figures,
    SetReport,
    is_correct,
    measure_backend,
    measure_reference,
)

PEER_SETS = ("royle_17clue", "forum_hardest_1106", "norvig_top95", "magictour_top1465",
             "gecode_25x25")


def hodoku_solver():
    """hodoku-py's solve function, or None when it is not installed."""
    try:
        from hodoku.generator.generator import SudokuGenerator
    except ImportError:
        return None
    return SudokuGenerator()


CLOCK = time.process_time


def measure_hodoku(rows) -> Figures | None:
    gen = hodoku_solver()
    if gen is None or not rows or len(rows[0][0]) != 81:
        return None
    fig = Figures("hodoku-py", puzzles=len(rows))
    clock = CLOCK
    gen.solve_string(rows[0][0])  # warm up, as for the others
    for line, expected, nsol in rows:
        text = line.replace(".", "0")
        t0 = clock()
        gen.solve_string(text)
        fig.times.append(clock() - t0)
        count = gen.get_solution_count()
        if count:
            fig.solved += 1
            got = gen.get_solution_as_string()
            counted = count == 1 if nsol == 1 else count > 1
            if counted and (got == expected or (nsol != 1 and is_correct(
                    line, expected, nsol, [int(ch) for ch in got], None))):
                fig.correct += 1
    return fig


def measure_peers(rows, *, time_limit: float | None = DEFAULT_TIME_LIMIT,
                  python: bool = True) -> list[Figures]:
    """Every solver's figures on one set; the kernel's first."""
    figures = []
    for label, kernel in (("native (C kernel)", "c"), ("native (Python)", "python")):
        if kernel == "python" and not python:
            continue
        fig = measure_backend(rows, "native", count=True, time_limit=time_limit,
                              options={"kernel": kernel}, clock=CLOCK)
        fig.solver = label
        figures.append(fig)
        if fig.interrupted:
            return figures
    if rows and len(rows[0][0]) <= REFERENCE_MAX_SIZE ** 2:
        figures.append(measure_reference(rows, clock=CLOCK))
    hodoku = measure_hodoku(rows)
    if hodoku is not None:
        figures.append(hodoku)
    return figures


def run_peers(sets=PEER_SETS, *, limit: int | None = None, time_limit: float | None =
              DEFAULT_TIME_LIMIT, data=None, python: bool = True, console=None) -> list[SetReport]:
    """Measure every set, printing one table per set as it finishes."""
    from ..errors import UsageError

    data_dir = find_data_dir(data)
    if isinstance(sets, str):
        sets = [s.strip() for s in sets.split(",") if s.strip()]
    if not sets:
        raise UsageError("no data set given (--sets NAME[,NAME...]; --list shows them)")
    loaded = [(name, load_set(data_dir, name, limit)) for name in sets]
    if console is None:
        from rich.console import Console
        console = Console(width=max(Console().width, 110))
    reports = []
    for name, rows in loaded:
        figures = measure_peers(rows, time_limit=time_limit, python=python)
        report = SetReport(name, figures[0])
        reports.append(report)
        console.print(peers_table(name, figures))
        if any(f.interrupted for f in figures):
            raise BenchInterrupted(reports)
    return reports


def peers_table(name: str, figures: list[Figures]):
    from rich.table import Table
    table = Table(title=f"{name}: the native engine and its peers, same puzzles, same run "
                        f"(CPU time per puzzle)", title_justify="left")
    for col in ("solver", "puzzles", "solved", "correct", "mean ms", "median ms", "max ms",
                "total s", "time / kernel's"):
        table.add_column(col, justify="left" if col == "solver" else "right")
    base = figures[0].total
    for fig in figures:
        table.add_row(fig.solver, str(fig.puzzles), str(fig.solved), str(fig.correct),
                      f"{fig.ms('mean'):.3f}", f"{fig.ms('median'):.3f}",
                      f"{fig.ms('max'):.1f}", f"{fig.total:.2f}",
                      f"{fig.total / base:.1f}x" if base else "")
    return table
