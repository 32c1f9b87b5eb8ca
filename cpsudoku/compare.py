"""Cross-validation: every puzzle on every chosen backend, timings side by side,
and every disagreement between them.

A disagreement is one of:

- `invalid`: a solution that breaks a rule, judged by the independent checker
  (`check.is_solution`), even when only one backend ran;
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

import csv
import itertools
import json
import math
import signal
import statistics
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import closing, contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .api import solve
from .batch import BatchOptions, Record
from .batch.comparing import COMPARED
from .check import conflicts, is_solution
from .errors import CpsudokuError
from .puzzle import Puzzle
from .result import Result, Status
from .symbols import line, value_of

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


def run_compare(puzzles: Iterable, backends: Sequence[str], *,
                time_limit: float | None, max_solutions: int = 2, presolve: bool = False,
                progress: Callable[..., object] | None = None,
                on_rows: Callable[[list[Row]], object] | None = None,
                on_error: Callable[[str], object] | None = None,
                options: BatchOptions | None = None, size: int | None = None,
                box: tuple[int, int] | None = None, rules: str | None = None,
                kept: Sequence[Row] = ()) -> Report:
    """Solve every puzzle with every backend (through `api.solve`) and compare.

    puzzles: `Puzzle`s, or `sources.Entry`s read lazily and parsed in the workers
    (with `size`, `box` and the extra `rules`). The batch layer runs each puzzle's
    backends one after another in one worker; `options` (default: this process)
    chooses the workers. Puzzles are gathered in input order.
    progress: called with no argument once per puzzle done.
    on_rows: called with a puzzle's rows as soon as it and every puzzle before it
    are done (`RowFiles.add` writes them out, so a killed run leaves them on disk).
    on_error: called with the message of a puzzle that could not be read or whose
    worker died; `Report.errors` keeps it with its exit status.
    kept: the rows of the puzzles an earlier run finished (`kept_rows`: resume). Those
    puzzles are not solved again; their rows are judged again in this process.
    """
    from .batch import run
    from .batch.comparing import CompareTask

    task = CompareTask(size=size, box=box, rules=rules, backends=tuple(backends),
                       time_limit=time_limit, max_solutions=max_solutions,
                       presolve=presolve)
    task.prepare()  # an unknown or missing backend fails before any work
    runs = run_names(backends, presolve)
    report = Report([run for run, _, _ in runs], [], [], [], [], time_limit, max_solutions,
                    presolve)
    items = iter(puzzles)
    start = kept[-1].index if kept else 0  # every puzzle before it was answered or unread

    def add(record) -> None:
        if record.data is None:  # no rows: a puzzle not read, or a worker that died
            report.errors.append((record.index + 1, record.message or "", record.code))
            if on_error is not None:
                on_error(record.message or "")
            return
        compared: Compared = record.data
        report.rows.extend(compared.rows)
        report.disagreements.extend(compared.disagreements)
        report.timeouts.extend(compared.timeouts)

    try:
        for record in _judged_again(itertools.islice(items, start), kept, task):
            add(record)
        with closing(run(items, task, options or BatchOptions(), start=start,
                         skip=False)) as records:
            for record in records:
                with _signals_held():  # the report and the files hold the same puzzles
                    add(record)
                    if on_rows is not None and record.data is not None:
                        on_rows(record.data.rows)
                if progress is not None:
                    progress()
    except KeyboardInterrupt:
        report.interrupted = True  # keep every finished puzzle: the caller reports and writes them
    report.summaries = [summarise(run, [r for r in report.rows if r.backend == run])
                        for run, _, _ in runs]
    return report


def compare_puzzle(index: int, puzzle: Puzzle, runs: list[tuple[str, str, bool]], *,
                   time_limit: float | None, max_solutions: int) -> Compared:
    """Puzzle number `index` (1-based) solved by every run, and judged."""
    source = puzzle.source or puzzle.name or ""
    results: dict[str, Result] = {}
    rows: list[Row] = []
    for run, backend, presolved in runs:
        result = solve(puzzle, backend, max_solutions=max_solutions, time_limit=time_limit,
                       presolve=presolved)
        results[run] = result
        rows.append(_row(index, source, run, presolved, result))
    timeouts = [(index, run) for run, result in results.items()
                if result.status.ran_out_of_time]
    return Compared(rows, [Disagreement(index, source, kind, message)
                           for kind, message in judge(puzzle, results)], timeouts)


def _judged_again(items: Iterable, kept: Sequence[Row], task) -> Iterator:
    """A record for each of the first items, from its kept rows: the rows hold each
    run's status and first solution, which is what the judging needs of them (a wrong
    second solution, or one reported twice, was judged when the rows were written)."""
    by_index: dict[int, list[Row]] = {}
    for row in kept:
        by_index.setdefault(row.index, []).append(row)
    extra = task.extra_rules()
    for index, item in enumerate(items):
        puzzle = task.load(index, item, extra)
        if not isinstance(puzzle, Puzzle):  # unreadable: named again, as a whole run does
            yield puzzle
            continue
        rows = by_index.get(index + 1, [])
        if not rows:  # read, yet without rows: its worker died in the run that wrote them
            yield task.failed(index, item, "no rows for it in the file resumed (its worker "
                                           "died in the run that wrote it)")
            continue
        results = {row.backend: Result(Status(row.status),
                                       [tuple(value_of(ch) or 0 for ch in row.solution)]
                                       if row.solution else [],
                                       row.backend, row.time_s, {}, puzzle)
                   for row in rows}
        timeouts = [(row.index, row.backend) for row in rows
                    if Status(row.status).ran_out_of_time]
        disagreements = [Disagreement(index + 1, rows[0].source, kind, message)
                         for kind, message in judge(puzzle, results)]
        yield Record(index, "", COMPARED, data=Compared(rows, disagreements, timeouts))


def _row(index: int, source: str, run: str, presolved: bool, result: Result) -> Row:
    nodes = result.stats.get("nodes")
    return Row(index, source, run, result.status.value, result.time_s,
               int(nodes) if nodes is not None else None,
               line(result.solution) if result.solution else "", presolved)


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


# --- output ---------------------------------------------------------------------------

# Both tables keep every number whole on an 80-column terminal: light borders,
# short headers explained in a caption, and no column narrower than its content.

def summary_table(report: Report):
    from rich import box
    from rich.table import Table

    title = f"{report.puzzles} puzzle(s), max {report.max_solutions} solution(s)"
    if report.time_limit:
        title += f", time limit {report.time_limit:g} s"
    cells = [[s.backend, str(s.solved), str(s.unsolvable), str(s.timeouts), _ms(s.mean_ms),
              _ms(s.median_ms), _ms(s.p95_ms), _ms(s.max_ms),
              "-" if s.mean_nodes is None else f"{s.mean_nodes:.0f}"]
             for s in report.summaries]
    headers = ["backend", "solved", "no sol", "t/o", "mean", "median", "p95", "max", "nodes"]
    table = Table(title=title, box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False,
                  caption="ms per puzzle; solved = answered in full; no sol = proven "
                          "unsolvable; t/o = time ran out first (status timeout, or "
                          "unproven: a solution found, uniqueness not proven); nodes = "
                          "mean per puzzle")
    for i, header in enumerate(headers):
        width = _widest([header] + [row[i] for row in cells])
        # A long run name ("python-constraint+presolve") folds before a number does.
        table.add_column(header, justify="left" if i == 0 else "right",
                         min_width=min(width, 17) if i == 0 else width, overflow="fold")
    for row in cells:
        table.add_row(*row)
    return table


def rows_table(report: Report):
    """One row per puzzle and run; sources and full solutions are in the CSV and JSON."""
    from rich import box
    from rich.table import Table

    cells = [[str(r.index), r.backend, r.status, _ms(r.time_s * 1000),
              "-" if r.nodes is None else str(r.nodes), r.solution or "-"]
             for r in report.rows]
    headers = ["#", "backend", "status", "ms", "nodes", "solution"]
    table = Table(title="per puzzle", box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for i, header in enumerate(headers[:-1]):
        width = _widest([header] + [row[i] for row in cells])
        table.add_column(header, justify="right" if i in (0, 3, 4) else "left",
                         min_width=min(width, 17) if i == 1 else width, overflow="fold")
    table.add_column("solution", no_wrap=True, overflow="ellipsis", min_width=8, max_width=40)
    for row in cells:
        table.add_row(*row)
    return table


def _ms(value: float) -> str:
    return f"{value:.1f}" if value < 100 else f"{value:.0f}"


def _widest(texts) -> int:
    return max((len(t) for t in texts), default=1)


def print_report(report: Report, console, *, rows: bool | None = None) -> None:
    """The summary table, the per-puzzle table (by default for up to 10 puzzles),
    the disagreements and the timeouts."""
    if rows is None:
        rows = report.puzzles <= 10
    if rows:
        console.print(rows_table(report))
    console.print(summary_table(report))
    if report.presolve:
        console.print("[dim]NAME+presolve: the same backend after the native propagation "
                      "reduced the candidates.[/dim]")
    if report.disagreements:
        console.print(f"[bold red]{len(report.disagreements)} disagreement(s):[/bold red]")
        for d in report.disagreements:
            where = f"puzzle {d.index}" + (f" ({d.source})" if d.source else "")
            console.print(f"  {where}: [red]{d.kind}[/red]: {d.message}", highlight=False)
    else:
        console.print("[green]no disagreement[/green]")
    if report.timeouts:
        shown = ", ".join(f"{run} on puzzle {i}" for i, run in report.timeouts[:10])
        more = f" and {len(report.timeouts) - 10} more" if len(report.timeouts) > 10 else ""
        console.print(f"time ran out (not disagreements; counted under t/o): {shown}{more}",
                      highlight=False)


CSV_FIELDS = ["index", "source", "backend", "presolve", "status", "time_s", "nodes", "solution"]


class RowFiles:
    """The per-puzzle rows in CSV and/or JSON, written and flushed as each puzzle
    finishes, so that a run stopped by any signal, even SIGKILL, leaves every row it
    finished on disk. The JSON file holds "settings", then "rows" (one row a line);
    `close` adds "summary", "disagreements", "timeouts" and "interrupted" and ends
    the object. A killed run's JSON lacks that end: its rows are still one per line."""

    def __init__(self, report_settings: dict, csv_path=None, json_path=None, *,
                 kept: Sequence[Row] = (), resume: bool = False):
        """resume: the CSV file holds `kept` (`kept_rows` cut it back to them): rows are
        added after them; the JSON file is written anew, starting with them."""
        self._csv_file = self._json_file = None
        self._rows = 0
        try:
            if csv_path is not None:
                self._csv_file = open(csv_path, "a" if resume else "w", newline="",
                                      encoding="utf-8")
                self._csv = csv.DictWriter(self._csv_file, fieldnames=CSV_FIELDS,
                                           extrasaction="ignore")
                if not self._csv_file.tell():
                    self._csv.writeheader()
                self._csv_file.flush()
            if json_path is not None:
                self._json_file = open(json_path, "w", encoding="utf-8")
                self._json_file.write('{\n  "settings": ' + json.dumps(report_settings)
                                      + ',\n  "rows": [')
                self._write_json(kept)
        except OSError as exc:
            self.close(None)
            raise CpsudokuError(f"cannot write {exc.filename}: {exc.strerror}") from None

    def add(self, rows: list[Row]) -> None:
        with _signals_held():  # a signal mid-write would leave the two files disagreeing
            self._write(rows)

    def _write(self, rows: Sequence[Row]) -> None:
        if self._csv_file is not None:
            for row in rows:
                self._csv.writerow(row.as_dict())
            self._csv_file.flush()
        self._write_json(rows)

    def _write_json(self, rows: Sequence[Row]) -> None:
        if self._json_file is not None:
            for row in rows:
                self._json_file.write(("\n    " if self._rows == 0 else ",\n    ")
                                      + json.dumps(row.as_dict()))
                self._rows += 1
            self._json_file.flush()

    def close(self, report: Report | None) -> None:
        """End the files; with the finished `report`, the JSON gets its summary."""
        if self._csv_file is not None:
            self._csv_file.close()
            self._csv_file = None
        if self._json_file is not None:
            tail = "\n  ]" if self._rows else "]"
            if report is not None:
                rest = as_dict(report)
                for key in ("summary", "disagreements", "timeouts", "interrupted"):
                    tail += f',\n  "{key}": ' + json.dumps(rest[key])
            self._json_file.write(tail + "\n}\n")
            self._json_file.close()
            self._json_file = None


def kept_rows(path, runs: Sequence[str]) -> list[Row]:
    """The rows of the whole puzzles in the CSV file `path` written by a compare of
    `runs`, after cutting the file back to the last of them (a torn line, or a puzzle
    not every run of which was written, is dropped). Read a line at a time."""
    kept: list[Row] = []
    group: list[Row] = []
    end = 0  # the offset just after the last whole puzzle
    try:
        with open(path, "r+b") as handle:
            for number, raw in enumerate(iter(handle.readline, b""), 1):
                if not raw.endswith(b"\n"):
                    break  # torn: it was being written when the run stopped
                fields = next(csv.reader([raw.decode("utf-8", "replace")]), [])
                if number == 1:
                    if fields != CSV_FIELDS:
                        raise CpsudokuError(f"cannot resume {path}: it is not the CSV "
                                            f"file of a compare (its first line is not "
                                            f"{','.join(CSV_FIELDS)})")
                    end = handle.tell()
                    continue
                row = _read_row(path, number, fields)
                expected = runs[len(group)]
                if row.backend != expected or (group and row.index != group[0].index) \
                        or (not group and kept and row.index <= kept[-1].index):
                    raise CpsudokuError(f"cannot resume {path}: its line {number} is not "
                                        f"the row of {expected} expected there (resume "
                                        f"with the same backends and options)")
                group.append(row)
                if len(group) == len(runs):
                    kept.extend(group)
                    group = []
                    end = handle.tell()
            handle.truncate(end)
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise CpsudokuError(f"cannot resume {path}: {exc.strerror}") from None
    return kept


def _read_row(path, number: int, fields: list[str]) -> Row:
    try:
        values = dict(zip(CSV_FIELDS, fields, strict=True))
        return Row(int(values["index"]), values["source"], values["backend"],
                   Status(values["status"]).value, float(values["time_s"]),
                   int(values["nodes"]) if values["nodes"] else None, values["solution"],
                   values["presolve"] == "True")
    except ValueError:
        raise CpsudokuError(f"cannot resume {path}: its line {number} is not a row of a "
                            f"compare") from None


@contextmanager
def _signals_held():
    """Ctrl-C and SIGTERM wait until the block ends (POSIX, main thread only)."""
    block = getattr(signal, "pthread_sigmask", None)
    if block is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = block(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        yield
    finally:
        block(signal.SIG_SETMASK, previous)


def settings_of(report: Report) -> dict:
    return {"backends": report.runs, "time_limit": report.time_limit,
            "max_solutions": report.max_solutions, "presolve": report.presolve}


def write_csv(report: Report, path) -> None:
    files = RowFiles(settings_of(report), csv_path=path)
    files.add(report.rows)
    files.close(report)


def as_dict(report: Report) -> dict:
    return {
        "settings": settings_of(report),
        "summary": [asdict(s) for s in report.summaries],
        "disagreements": [asdict(d) for d in report.disagreements],
        "timeouts": [{"index": i, "backend": run} for i, run in report.timeouts],
        "interrupted": report.interrupted,
        "rows": [r.as_dict() for r in report.rows],
    }


def write_json(report: Report, path) -> None:
    Path(path).write_text(json.dumps(as_dict(report), indent=2) + "\n")


def plot(report: Report, path, *, input_name: str = ""):
    """Solve times per run (log scale), saved to `path` at 150 dpi: a box per run, every
    puzzle as a point on small sets, and runs that ran out of time shown as censored
    (their true time is at least the one drawn) beside a line at the time limit."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise CpsudokuError("plotting needs matplotlib: pip install matplotlib "
                            "(or pip install cpsudoku[plot])") from None
    import random

    runs = report.runs
    by_run = [[r for r in report.rows if r.backend == run] for run in runs]
    fig = Figure(figsize=(max(5.0, 1.6 * len(runs)), 4.8), layout="constrained")
    ax = fig.add_subplot()
    times = [[r.time_s * 1000 for r in rows] or [float("nan")] for rows in by_run]
    ax.boxplot(times, showfliers=len(report.rows) > 50 * len(runs))
    jitter = random.Random(0)  # the same picture for the same rows
    censored_label = "time ran out (censored: at least this long)"
    for i, rows in enumerate(by_run, 1):
        finished = [r.time_s * 1000 for r in rows if not Status(r.status).ran_out_of_time]
        censored = [r.time_s * 1000 for r in rows if Status(r.status).ran_out_of_time]
        if len(rows) <= 50:  # few enough to show every puzzle
            ax.scatter([i + jitter.uniform(-0.15, 0.15) for _ in finished], finished, s=12,
                       alpha=0.6, color="tab:blue", zorder=3)
        if censored:
            ax.scatter([i + jitter.uniform(-0.15, 0.15) for _ in censored], censored, s=40,
                       marker="^", color="tab:red", zorder=4, label=censored_label)
            censored_label = "_nolegend_"
    if report.time_limit:
        ax.axhline(report.time_limit * 1000, color="tab:red", linestyle="--", linewidth=1,
                   label=f"time limit {report.time_limit:g} s")
    ax.set_xticks(range(1, len(runs) + 1), runs, rotation=20, ha="right")
    ax.set_yscale("log")
    ax.set_ylabel("time per puzzle (ms, log scale)")
    ax.grid(True, which="major", axis="y", alpha=0.4)
    ax.grid(True, which="minor", axis="y", alpha=0.15)
    limit = f"time limit {report.time_limit:g} s" if report.time_limit else "no time limit"
    title = f"{report.puzzles} puzzle(s), {limit}, max {report.max_solutions} solution(s)"
    ax.set_title(f"{input_name}\n{title}" if input_name else title, fontsize=10)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(loc="best", fontsize=8)
    try:
        fig.savefig(path, dpi=150)
    except (OSError, ValueError) as exc:
        raise CpsudokuError(f"cannot write the plot to {path}: {exc}") from None
    return fig
