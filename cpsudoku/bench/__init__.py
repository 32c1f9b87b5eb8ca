"""Benchmark a backend over the public puzzle sets, each answer verified.

    python -m cpsudoku.bench --backend native --sets norvig_top95,royle_17clue --limit 1000

For every set: puzzles, solved, correct (the answer matches the set's solution
line), mean / median / max milliseconds per puzzle and puzzles per second;
with the reference on, the Norvig-style solver (`bench.norvig`) runs on the
same puzzles in the same process and the speed-up factor is shown.

Two timing modes: `api` times `cpsudoku.api.solve` per puzzle (model building,
conflict check and lowering included); `direct` prepares every model first and
times only the backend's `search`.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import CpsudokuError, UsageError
from ..symbols import value_of

DEFAULT_SETS = ("norvig_top95", "norvig_hardest", "forum_hardest_1106", "magictour_top1465",
                "royle_17clue", "gecode_16x16")
SUBFOLDERS = ("classic", "sizes", "variants")
REFERENCE_MAX_SIZE = 16  # the reference has no time limit; 25x25 minimal puzzles defeat it


class DataError(CpsudokuError):
    """The data folder or a set is missing, or a set's file is malformed."""


# --- data -------------------------------------------------------------------------

def find_data_dir(explicit: str | Path | None = None) -> Path:
    """The puzzle data folder: `explicit`, else ../shared/data relative to the
    current directory or to the repository root."""
    if explicit is not None:
        path = Path(explicit)
        if not path.is_dir():
            raise DataError(f"data folder {path} does not exist")
        return path
    repo_root = Path(__file__).resolve().parents[2]
    tried = []
    for base in (Path.cwd(), repo_root):
        path = (base / ".." / "shared" / "data").resolve()
        tried.append(str(path))
        if path.is_dir():
            return path
    raise DataError("puzzle data not found (looked in " + ", ".join(tried)
                    + "); give its folder with --data DIR")


def set_names(data_dir: Path) -> list[str]:
    """Every set with solutions: NAME.txt with NAME.sol, or a Kaggle-style NAME.csv."""
    names = set()
    for sub in SUBFOLDERS:
        folder = data_dir / sub
        if folder.is_dir():
            names.update(p.stem for p in folder.glob("*.sol"))
            names.update(p.stem for p in folder.glob("*.csv"))
    return sorted(names)


def load_set(data_dir: Path, name: str, limit: int | None = None) -> list[tuple[str, str, int]]:
    """(puzzle line, solution line, capped solution count) triples of a set."""
    for sub in SUBFOLDERS:
        folder = data_dir / sub
        sol = folder / f"{name}.sol"
        if sol.is_file() and (folder / f"{name}.txt").is_file():
            puzzles = _lines(folder / f"{name}.txt")
            answers = [_answer(sol, k, line) for k, line in enumerate(_lines(sol), 1)]
            if len(puzzles) != len(answers):
                raise DataError(f"{name}: {len(puzzles)} puzzles but {len(answers)} "
                                f"solution lines")
            rows = [(p, a, n) for p, (a, n) in zip(puzzles, answers)]
            return rows[:limit] if limit else rows
        table = folder / f"{name}.csv"
        if table.is_file():
            rows = []
            with table.open(newline="") as f:
                for k, rec in enumerate(csv.DictReader(f), 2):
                    try:
                        rows.append((rec["puzzle"], rec["solution"], int(rec.get("nsol") or 1)))
                    except (KeyError, TypeError, ValueError):
                        raise DataError(f"{table}:{k}: expected the columns puzzle, "
                                        f"solution and an optional nsol") from None
                    if limit and len(rows) >= limit:
                        break
            return rows
    raise DataError(f"no data set {name!r} in {data_dir}; choose from: "
                    + ", ".join(set_names(data_dir)))


def _answer(path: Path, number: int, line: str) -> tuple[str, int]:
    """A solution line `SOLUTION,COUNT` (the count capped as the set records it)."""
    solution, _, count = line.partition(",")
    if not count.strip().isdigit():
        raise DataError(f"{path}: solution line {number}: expected SOLUTION,COUNT, "
                        f"not {line[:40]!r}")
    return solution, int(count)


def _lines(path: Path) -> list[str]:
    with path.open() as f:
        return [s for s in (raw.strip() for raw in f) if s and not s.startswith("#")]


def puzzle_of(line: str):
    from ..puzzle import Puzzle
    return Puzzle.from_values([value_of(ch) for ch in line])


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


def _correct(line: str, expected: str, nsol: int, values, status: str | None) -> bool:
    from ..check import is_solution
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
                    time_limit: float | None = None, options: dict | None = None,
                    clock=time.perf_counter) -> Figures:
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
        prepared = [lower_for(build_model(puzzle_of(p)), engine.native_kinds) for p, _, _ in rows]
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
            correct = _correct(line, expected, nsol, result.solution,
                               result.status.value if count else None)
            fig.times.append(elapsed)
            fig.solved += int(result.status.solved)
            fig.correct += int(correct)
    except KeyboardInterrupt:  # keep what finished; `run` reports it and stops
        fig.interrupted = True
        fig.puzzles = len(fig.times)
    return fig


def measure_reference(rows, clock=time.perf_counter) -> Figures:
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
            if got == expected.upper() or (nsol != 1 and _correct(
                    line, expected, nsol, [value_of(ch) for ch in got], None)):
                fig.correct += 1
    return fig


def run(sets=DEFAULT_SETS, backend: str = "native", *, limit: int | None = None,
        reference: bool = True, time_limit: float | None = None, data: str | Path | None = None,
        mode: str = "api", count: bool = False, console=None) -> list[SetReport]:
    """Benchmark `backend` on each set, printing one table per set as it finishes."""
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
        console = Console(width=max(Console().width, 100))  # keep the columns readable
    reports = []
    for name, rows in loaded:
        fig = measure_backend(rows, backend, mode=mode, count=count, time_limit=time_limit)
        ref = None
        if reference and rows and not fig.interrupted and len(rows[0][0]) <= REFERENCE_MAX_SIZE ** 2:
            ref = measure_reference(rows)
        report = SetReport(name, fig, ref)
        reports.append(report)
        console.print(table_of(report, mode=mode, count=count))
        if fig.interrupted:
            raise BenchInterrupted(reports)
    return reports


class BenchInterrupted(KeyboardInterrupt):
    """Ctrl-C during a run; `reports` holds every set measured so far, the last one
    up to the puzzle that was interrupted (its table is already printed)."""

    def __init__(self, reports):
        super().__init__()
        self.reports = reports


def table_of(report: SetReport, *, mode: str = "api", count: bool = False):
    from rich.table import Table
    what = "count to 2" if count else "first solution"
    title = f"{report.name} ({what}, timed through {mode})"
    if report.backend.interrupted:
        title += f", interrupted after {report.backend.puzzles} puzzle(s)"
    table = Table(title=title, title_justify="left")
    for col in ("solver", "puzzles", "solved", "correct", "mean ms", "median ms", "max ms",
                "puzzles/s", "speed-up"):
        table.add_column(col, justify="left" if col == "solver" else "right")
    rows = [report.backend] + ([report.reference] if report.reference else [])
    for fig in rows:
        speed = ""
        if fig is report.backend and report.speedup is not None:
            speed = f"{report.speedup:.1f}x"
        elif fig is report.reference:
            speed = "1.0x"
        table.add_row(fig.solver, str(fig.puzzles), str(fig.solved), str(fig.correct),
                      f"{fig.ms('mean'):.3f}", f"{fig.ms('median'):.3f}", f"{fig.ms('max'):.1f}",
                      f"{fig.per_second:,.0f}", speed)
    return table


# --- command line -----------------------------------------------------------------

DEFAULT_TIME_LIMIT = 60.0  # seconds per puzzle, so that a run always ends


def _positive(kind):
    def convert(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if not value > 0:
            raise argparse.ArgumentTypeError(f"must be more than 0, not {text}")
        return value
    return convert


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, as everywhere in cpsudoku (argparse adds usage)
        self.exit(2, f"{self.prog}: error: {message}\n")


def main(argv=None, prog: str = "python -m cpsudoku.bench") -> int:
    parser = _Parser(prog=prog, description=__doc__.split("\n")[0])
    parser.add_argument("--backend", default="native", help="backend to measure (default: native)")
    parser.add_argument("--sets", default=",".join(DEFAULT_SETS),
                        help="comma-separated data sets (default: %(default)s)")
    parser.add_argument("--limit", type=_positive(int), default=None,
                        help="first K puzzles of each set")
    parser.add_argument("--reference", action=argparse.BooleanOptionalAction, default=True,
                        help="also run the Norvig-style reference solver (default: on)")
    parser.add_argument("--time-limit", type=_positive(float), default=DEFAULT_TIME_LIMIT,
                        help="seconds per puzzle; a puzzle that runs out counts as unsolved "
                             "(default: %(default)g)")
    parser.add_argument("--mode", choices=("api", "direct"), default="api",
                        help="time cpsudoku.api.solve, or only the backend's search on "
                             "prepared models")
    parser.add_argument("--count", action="store_true",
                        help="count solutions up to 2 and check unique/multiple as well")
    parser.add_argument("--data", default=None,
                        help="puzzle data folder (default: ../shared/data)")
    parser.add_argument("--list", action="store_true", help="list the available sets and exit")
    parser.add_argument("--peers", action="store_true", help="native's C kernel, Python engine, "
                        "the reference and hodoku-py side by side (see bench.peers)")
    args = parser.parse_args(argv)
    try:
        if args.list:
            print("\n".join(set_names(find_data_dir(args.data))))
            return 0
        if args.peers:
            from .peers import PEER_SETS, run_peers
            sets = PEER_SETS if args.sets == ",".join(DEFAULT_SETS) else args.sets
            reports = run_peers(sets, limit=args.limit, time_limit=args.time_limit,
                                data=args.data)
        else:
            reports = run(args.sets, args.backend, limit=args.limit, reference=args.reference,
                          time_limit=args.time_limit, data=args.data, mode=args.mode,
                          count=args.count)
    except CpsudokuError as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return getattr(exc, "exit_code", 5)
    except BenchInterrupted as stop:
        last = stop.reports[-1]
        print(f"{prog}: interrupted in {last.name} after {last.backend.puzzles} puzzle(s); "
              f"the tables above cover what finished", file=sys.stderr)
        return 130
    return 0 if all(r.backend.correct == r.backend.puzzles for r in reports) else 1
