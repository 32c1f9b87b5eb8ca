"""The batch tasks of `solve` and `count`: a chunk of puzzle entries in, one rendered
record per puzzle out. They run in workers, so they hold only picklable settings."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..errors import ExitCode
from ..result import Result, Status
from ..sources import BadPuzzle, Entry
from .records import ERROR, INTERNAL_ERROR, INVALID, Record, csv_text

# CSV columns (documented in the README): a header, then one row per puzzle.
SOLVE_COLUMNS = ("index", "source", "puzzle", "status", "solutions", "solution", "backend",
                 "time_s", "nodes", "backtracks", "message")
COUNT_COLUMNS = ("index", "source", "puzzle", "status", "count", "verdict", "backend",
                 "time_s", "nodes", "backtracks", "message")

# Which exit status wins when puzzles of a batch ask for different ones: an item that
# failed outright first, then bad input, then each command's own order.
_FIRST = (INTERNAL_ERROR, ExitCode.BAD_INPUT)
_STATUSES = frozenset(s.value for s in Status)


@dataclass(frozen=True)
class SolveTask:
    """`solve` (command "solve") or `count` (command "count") over puzzle entries."""

    command: str
    fmt: str
    backend: str = "native"
    max_solutions: int = 1
    time_limit: float | None = None
    presolve: bool = False
    options: dict = field(default_factory=dict)
    size: int | None = None
    box: tuple[int, int] | None = None
    rules: str | None = None
    trace: bool = False
    stats: bool = False

    @property
    def columns(self) -> tuple[str, ...]:
        return SOLVE_COLUMNS if self.command == "solve" else COUNT_COLUMNS

    @property
    def header(self) -> str | None:
        """The first line of the output file, if the format has one."""
        return csv_text(self.columns) if self.fmt == "csv" else None

    def prepare(self) -> None:
        """Load the engine and check the settings once, before any puzzle: a bad option
        is one error for the command, not one per puzzle."""
        from .. import backends
        from ..backends.base import Request
        engine = backends.get(self.backend)
        engine.check_request(Request(self.max_solutions, self.time_limit, self.trace,
                                     dict(self.options)))
        self._extra_rules()

    def _extra_rules(self) -> list:
        if not self.rules:
            return []
        from ..rules import by_names
        return by_names(self.rules)

    def __call__(self, chunk: list[tuple[int, Any]]) -> list[Record]:
        extra = self._extra_rules()
        return [self._one(index, item, extra) for index, item in chunk]

    def _one(self, index: int, item, extra: list) -> Record:
        from ..api import solve
        from ..errors import CpsudokuError
        loaded = item.load(self.size, self.box) if isinstance(item, Entry) else item
        if isinstance(loaded, BadPuzzle):
            return self._failure(index, loaded.source, INVALID, loaded.message,
                                 ExitCode.BAD_INPUT)
        try:
            puzzle = loaded.with_rules(extra) if extra else loaded
            result = solve(puzzle, self.backend, max_solutions=self.max_solutions,
                           time_limit=self.time_limit, trace=self.trace,
                           presolve=self.presolve, **self.options)
        except CpsudokuError as exc:  # e.g. a rule that does not fit this puzzle
            where = loaded.source or f"#{index + 1}"
            return self._failure(index, where, INVALID, f"{where}: {exc}", exc.exit_code)
        if self.command == "count":
            return self._count_record(index, result)
        return Record(index, self._solve_text(index, result), result.status.value)

    def failed(self, index: int, item, message: str) -> Record:
        where = _where(index, item)
        return self._failure(index, where, ERROR, f"{where}: {message}", INTERNAL_ERROR)

    def exit_code(self, codes: set[int], statuses: set[str]) -> int:
        """The batch's exit status: an item that failed outright, then bad input, then
        the command's own rule (solve: `exit_code_for`; count: the highest code)."""
        for code in _FIRST:
            if code in codes:
                return code
        if self.command == "solve":
            from ..result import exit_code_for
            return exit_code_for(Status(s) for s in statuses if s in _STATUSES)
        return max(codes, default=ExitCode.OK)

    # --- rendering: the same text whichever worker produced it --------------------

    def _solve_text(self, index: int, result: Result) -> str:
        from ..render import render_result
        puzzle: Any = result.puzzle
        if self.fmt == "csv":
            return self._csv(result.as_dict(index), solutions=len(result.solutions),
                             solution=result.solution_lines()[0] if result.solutions else "")
        if self.fmt in ("json", "jsonl") and self.trace and result.trace is not None:
            record = result.as_dict(index)
            record["trace"] = [e.describe(puzzle.size).strip() for e in result.trace]
            return json.dumps(record, indent=2 if self.fmt == "json" else None)
        text = render_result(result, self.fmt, index=index, stats=self.stats)
        if self.trace and result.trace is not None and self.fmt in ("pretty", "line"):
            from ..trace import render_trace
            text = render_trace(result.trace, puzzle.size).rstrip("\n") + "\n" + text
        return text

    def _count_record(self, index: int, result: Result) -> Record:
        limit = self.max_solutions
        found = len(result.solutions)
        verdict = {
            Status.UNIQUE: "unique",
            Status.MULTIPLE: f"multiple (at least {found})" if found >= limit
            else f"multiple ({found})",
            Status.SOLVED: "at least 1 (limit 1)" if limit == 1 else "at least 1 (time ran out)",
            Status.UNSOLVABLE: "none",
            Status.TIMEOUT: "unknown (time ran out)",
        }[result.status]
        code = {Status.MULTIPLE: ExitCode.NOT_UNIQUE, Status.UNSOLVABLE: ExitCode.UNSOLVABLE,
                Status.TIMEOUT: ExitCode.TIMEOUT}.get(result.status, ExitCode.OK)
        if result.status is Status.SOLVED and limit > 1:
            code = ExitCode.TIMEOUT
        if self.fmt == "csv":
            text = self._csv(result.as_dict(index), count=found, verdict=verdict)
        elif self.fmt in ("json", "jsonl"):
            record = result.as_dict(index)
            record["count"] = found
            record["verdict"] = verdict
            text = json.dumps(record, indent=2 if self.fmt == "json" else None)
        else:
            puzzle: Any = result.puzzle
            label = puzzle.source or f"#{index + 1}"
            extra = f"  ({result.reason})" if result.reason else ""
            text = f"{label}: {verdict}{extra}"
        return Record(index, text, result.status.value, code=code)

    def _csv(self, record: dict, **extra) -> str:
        stats = record.get("stats", {})
        row = {**record, **extra, "nodes": stats.get("nodes"),
               "backtracks": stats.get("backtracks"), "message": record.get("reason")}
        return csv_text([row.get(column) for column in self.columns])

    def _failure(self, index: int, where: str, status: str, message: str,
                 code: int) -> Record:
        """The record of a puzzle that has no result: bad input, or a worker that died."""
        if self.fmt == "csv":
            text = csv_text([{"index": index, "source": where, "status": status,
                              "message": message}.get(c) for c in self.columns])
        elif self.fmt in ("json", "jsonl"):
            text = json.dumps({"index": index, "status": status, "solutions": [],
                               "source": where, "error": message},
                              indent=2 if self.fmt == "json" else None)
        elif self.command == "count" and self.fmt == "line":
            text = f"{where}: {status} ({message})"
        elif self.fmt == "line":
            text = f"# {status}: {message}"
        else:
            text = f"{status} input: {message}" if status == INVALID else f"error: {message}"
        return Record(index, text, status, message, code)


def _where(index: int, item) -> str:
    if isinstance(item, Entry):
        return item.where
    return getattr(item, "source", None) or f"#{index + 1}"
