"""Batch tasks over puzzles: a chunk of puzzle entries in, one rendered record per
puzzle out. They run in workers, so they hold only picklable settings.

`PuzzleTask` does what every such command shares (parsing each entry in the worker,
the record of a bad puzzle or of a dead worker, csv rows, the exit status); a command
adds `record(index, puzzle)`. `SolveTask` is the one of `solve` and `count`."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..errors import CpsudokuError, ExitCode
from ..formats.sources import BadPuzzle, Entry
from ..grid import deadline
from ..result import Result, Status
from .records import ERROR, INTERNAL_ERROR, INVALID, Record, csv_text

# CSV columns (documented in the README): a header, then one row per puzzle.
SOLVE_COLUMNS = ("index", "source", "puzzle", "status", "solutions", "solution", "backend",
                 "time_s", "nodes", "backtracks", "message", "variant")
COUNT_COLUMNS = ("index", "source", "puzzle", "status", "count", "verdict", "backend",
                 "time_s", "nodes", "backtracks", "message", "variant")

# Which exit status wins when puzzles of a batch ask for different ones: an item that
# failed outright first, then bad input, then a backend that cannot take the puzzle (or
# an option it cannot honour), then each command's own order. A puzzle that got no
# answer must never leave the batch looking successful.
_FIRST = (INTERNAL_ERROR, ExitCode.BAD_INPUT, ExitCode.BACKEND, ExitCode.USAGE)
_STATUSES = frozenset(s.value for s in Status)


@dataclass(frozen=True)
class PuzzleTask:
    """A batch command over puzzles; subclasses add `record` (and `columns` for csv)."""

    fmt: str = "jsonl"
    size: int | None = None
    box: tuple[int, int] | None = None
    rules: str | None = None  # extra variant rules by name, as --rules gives them
    color: bool = False  # terminal styles: the output is a terminal (workers cannot tell)

    columns: ClassVar[tuple[str, ...]] = ("index", "source", "status", "message")
    # The time limit spans the puzzle's reading and its record; False: it bounds the
    # reading only, and the record's own solves each take a whole limit (compare).
    one_limit: ClassVar[bool] = True
    # Keys every jsonl record of the command has, given empty in a failure's record.
    empty: ClassVar[dict] = {}

    @property
    def header(self) -> str | None:
        """The first line of the output file, if the format has one."""
        return csv_text(self.columns) if self.fmt == "csv" else None

    def prepare(self) -> None:
        """Check the settings once, before any puzzle: a bad option is one error for
        the command, not one per puzzle."""
        self.extra_rules()

    def record(self, index: int, puzzle) -> Record:
        raise NotImplementedError

    def __call__(self, chunk: list[tuple[int, Any]]) -> list[Record]:
        extra = self.extra_rules()
        return [self._one(index, item, extra) for index, item in chunk]

    def failed(self, index: int, item, message: str) -> Record:
        where = _where(index, item)
        return self.failure(index, where, ERROR, f"{where}: {message}", INTERNAL_ERROR)

    def exit_code(self, codes: set[int], statuses: set[str]) -> int:
        """The batch's exit status: an item that failed outright, then bad input, then a
        refusing backend, then the highest code an item asked for."""
        for code in _FIRST:
            if code in codes:
                return code
        return max(codes, default=ExitCode.OK)

    def csv_row(self, values: dict) -> str:
        return csv_text([values.get(column) for column in self.columns])

    def failure(self, index: int, where: str, status: str, message: str,
                code: int) -> Record:
        """The record of a puzzle that has no result: bad input, or a worker that died."""
        if self.fmt == "csv":
            text = self.csv_row({"index": index, "source": where, "status": status,
                                 "message": message})
        elif self.fmt in ("json", "jsonl"):
            text = json.dumps({"index": index, "status": status, **self.empty,
                               "source": where, "error": message},
                              indent=2 if self.fmt == "json" else None)
        elif self.fmt == "line":
            text = f"# {status}: {message}"
        else:  # pretty: the message goes to stderr alone (on a terminal it showed twice)
            text = ""
        return Record(index, text, status, message, code)

    def extra_rules(self) -> list:
        if not self.rules:
            return []
        from ..rules import by_names
        return by_names(self.rules)

    def load(self, index: int, item, extra: list):
        """The item's puzzle with the extra rules, or the `Record` of why there is none."""
        loaded = item.load(self.size, self.box) if isinstance(item, Entry) else item
        if isinstance(loaded, BadPuzzle):
            return self.failure(index, loaded.source, INVALID, loaded.message,
                                ExitCode.BAD_INPUT)
        try:
            return loaded.with_rules(extra) if extra else loaded
        except CpsudokuError as exc:  # e.g. a rule that does not fit this puzzle
            where = loaded.source or f"#{index + 1}"
            return self.failure(index, where, INVALID, _located(where, exc), exc.exit_code)

    def _one(self, index: int, item, extra: list) -> Record:
        # The time limit bounds the puzzle's whole work, reading it included: it opens
        # here, and the solve inside goes on with it (see `cpsudoku.grid.deadline`).
        with deadline.limit(getattr(self, "time_limit", None)) as limit:
            puzzle = self.load(index, item, extra)
            if isinstance(puzzle, Record):
                return self._timed_out(index, puzzle, limit, _where(index, item))
            if self.one_limit:
                return self._record(index, puzzle, limit)
        return self._record(index, puzzle, None)

    def _record(self, index: int, puzzle, limit) -> Record:
        try:
            return self.record(index, puzzle)
        except CpsudokuError as exc:  # e.g. a rule that does not fit this puzzle
            where = puzzle.source or f"#{index + 1}"
            record = self.failure(index, where, INVALID, _located(where, exc),
                                  exc.exit_code)
            return self._timed_out(index, record, limit, where)

    def _timed_out(self, index: int, record: Record, limit, where: str) -> Record:
        """A failure the time limit caused (the reader reports it as bad input, which
        it is not) as the puzzle's timeout; any other record as it is."""
        if limit is None or limit.hit is None or not record.message:
            return record
        return self.failure(index, where, "timeout", record.message, ExitCode.TIMEOUT)


def _where(index: int, item) -> str:
    """Where an item of the input is: its file and line, or its place in the batch."""
    return item.where if isinstance(item, Entry) else (
        getattr(item, "source", None) or f"#{index + 1}")


def _located(where: str, exc: CpsudokuError) -> str:
    """The error with where it happened in front, once (the logical solver's own
    errors already name the puzzle)."""
    text = str(exc)
    return text if text.startswith(f"{where}: ") else f"{where}: {text}"


@dataclass(frozen=True)
class SolveTask(PuzzleTask):
    """`solve` (command "solve") or `count` (command "count")."""

    command: str = "solve"
    backend: str = "native"
    max_solutions: int = 1
    time_limit: float | None = None
    presolve: bool = False
    options: dict = field(default_factory=dict)
    trace: bool = False
    stats: bool = False

    empty: ClassVar[dict] = {"solutions": []}

    @property
    def columns(self) -> tuple[str, ...]:  # type: ignore[override]
        return SOLVE_COLUMNS if self.command == "solve" else COUNT_COLUMNS

    def prepare(self) -> None:
        """Load the engine and check the request once, before any puzzle."""
        from .. import backends
        from ..backends.base import Request
        engine = backends.get(self.backend)
        engine.check_request(Request(self.max_solutions, self.time_limit, self.trace,
                                     dict(self.options)))
        super().prepare()

    def record(self, index: int, puzzle) -> Record:
        from ..api import solve
        result = solve(puzzle, self.backend, max_solutions=self.max_solutions,
                       time_limit=self.time_limit, trace=self.trace, presolve=self.presolve,
                       **self.options)
        if self.command == "count":
            return self._count_record(index, result)
        from ..result import exit_code_for
        return Record(index, self._solve_text(index, result), result.status.value,
                      code=exit_code_for([result.status]))

    def exit_code(self, codes: set[int], statuses: set[str]) -> int:
        """A failed item, bad input or a refusing backend first; then the statuses'
        `exit_code_for`."""
        if any(code in codes for code in _FIRST):
            return super().exit_code(codes, statuses)
        from ..result import exit_code_for
        return exit_code_for((Status(s) for s in statuses if s in _STATUSES),
                             counting=self.command == "count")

    def failure(self, index: int, where: str, status: str, message: str,
                code: int) -> Record:
        if self.command == "count" and self.fmt == "line":  # count's "label: verdict"
            said = message.removeprefix(f"{where}: ")  # the line names the puzzle once
            return Record(index, f"{where}: {status} ({said})", status, message, code)
        return super().failure(index, where, status, message, code)

    # --- rendering: the same text whichever worker produced it --------------------

    def _solve_text(self, index: int, result: Result) -> str:
        from ..formats.write import render_result
        if self.fmt == "csv":
            return self._csv(result, index, solutions=len(result.solutions),
                             solution=result.solution_lines()[0] if result.solutions else "")
        return render_result(result, self.fmt, index=index, stats=self.stats,
                             trace=self.trace, color=self.color, limit=self.max_solutions)

    def _count_record(self, index: int, result: Result) -> Record:
        from ..formats.write import render_result, verdict
        from ..result import exit_code_for
        limit = self.max_solutions
        said = verdict(result, limit)
        code = exit_code_for([result.status], counting=True)
        if self.fmt == "csv":
            text = self._csv(result, index, count=len(result.solutions), verdict=said)
        elif self.fmt == "line":
            puzzle: Any = result.puzzle
            text = f"{puzzle.source or f'#{index + 1}'}: {said}"
        else:
            text = render_result(result, self.fmt, index=index, color=self.color,
                                 extra={"count": len(result.solutions), "verdict": said},
                                 limit=limit)
        return Record(index, text, result.status.value, code=code)

    def _csv(self, result: Result, index: int, **extra) -> str:
        from ..formats.write import csv_puzzle_fields
        record = result.as_dict(index)
        if result.puzzle is not None:
            record.update(csv_puzzle_fields(result.puzzle))
        stats = record.get("stats", {})
        return self.csv_row({**record, **extra, "nodes": stats.get("nodes"),
                             "backtracks": stats.get("backtracks"),
                             "message": record.get("reason")})
