"""Running a comparison: every puzzle on every chosen backend, one puzzle a batch item
(each puzzle's runs one after another in one worker, judged there), gathered in input
order; a resumed run judges the rows it kept again."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass
from typing import ClassVar

from .. import batch
from ..api import solve
from ..batch import BatchOptions, Record
from ..batch.tasks import PuzzleTask
from ..grid.puzzle import Puzzle
from ..grid.symbols import value_of
from ..result import Result, Status
from .files import signals_held
from .report import Compared, Disagreement, Report, Row, judge, run_names, summarise

COMPARED = "compared"  # the status of a puzzle every run answered

# (backend class, grid size) pairs this process has warmed up: one-time costs (loading
# OR-Tools, compiling the native propagation for a geometry) are paid once per worker,
# untimed, rather than billed to the first puzzle it times.
_WARM: set[tuple[type, int]] = set()


@dataclass(frozen=True)
class CompareTask(PuzzleTask):
    """`compare`: `record.data` is a `cpsudoku.compare.report.Compared`."""

    backends: tuple[str, ...] = ("native",)
    time_limit: float | None = None
    max_solutions: int = 2
    presolve: bool = False

    fmt: str = "line"  # only the message of a failed puzzle is shown; no text is written
    columns: ClassVar[tuple[str, ...]] = ("index", "source", "status", "message")
    one_limit: ClassVar[bool] = False  # each backend has the whole limit for its solve

    def prepare(self) -> None:
        """An unknown or missing backend fails before any work."""
        from .. import backends as registry
        for name in self.backends:
            registry.get(name)
        super().prepare()

    def record(self, index: int, puzzle) -> Record:
        self._warm_up(puzzle)
        compared = compare_puzzle(index + 1, puzzle, run_names(self.backends, self.presolve),
                                  time_limit=self.time_limit,
                                  max_solutions=self.max_solutions)
        return Record(index, "", COMPARED, data=compared)

    def _warm_up(self, puzzle) -> None:
        from .. import backends as registry
        from ..api import solve
        for name in self.backends:
            key = (type(registry.get(name)), puzzle.size)
            if key not in _WARM:
                solve(puzzle, name, time_limit=1.0)  # briefly: a hard puzzle is not waited for
                _WARM.add(key)


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
        with closing(batch.run(items, task, options or BatchOptions(), start=start,
                         skip=False)) as records:
            for record in records:
                with signals_held():  # the report and the files hold the same puzzles
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
        first = puzzle.geometry.first  # the rows write the digits
        results = {row.backend: Result(Status(row.status),
                                       [tuple(value_of(ch, first) or 0 for ch in row.solution)]
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
               result.solution_lines()[0] if result.solution else "", presolved)
