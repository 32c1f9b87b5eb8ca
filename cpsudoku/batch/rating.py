"""The batch task of `rate`: each puzzle rated on the Sudoku Explainer scale in a worker."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import ClassVar

from ..errors import ExitCode
from ..formats.write import csv_puzzle_fields, puzzle_fields
from .records import Record
from .tasks import _FIRST, PuzzleTask

# CSV columns (documented in the README): a header, then one row per puzzle.
RATE_COLUMNS = ("index", "source", "puzzle", "status", "er", "ep", "ed", "level", "steps",
                "hardest", "time_s", "techniques", "message", "variant")
RATED = "rated"  # the status of a puzzle that got a rating
BEYOND = "beyond"  # the status of one the logical solver cannot finish: no ER

# Which exit status wins among the puzzles of `rate` (and `explain`): after a failed
# item, bad input and a refusing backend, a puzzle with no solution (the input is
# wrong), then one beyond the scale (a definite answer: no technique finishes it),
# then a timeout (no answer yet: more time may still rate it), then several solutions.
LOGIC_ORDER = (*_FIRST, ExitCode.UNSOLVABLE, ExitCode.NO_LOGIC, ExitCode.TIMEOUT,
               ExitCode.NOT_UNIQUE)


def logic_exit_code(codes: set[int]) -> int:
    """The exit status of a run of `rate` or `explain` over puzzles asking for `codes`."""
    return next((code for code in LOGIC_ORDER if code in codes), max(codes, default=0))


@dataclass(frozen=True)
class RateTask(PuzzleTask):
    """`rate`: formats pretty, json, jsonl and csv."""

    columns: ClassVar[tuple[str, ...]] = RATE_COLUMNS
    allow_multiple: bool = False  # rate a puzzle with several solutions along one of them
    deep: bool = False  # a variant puzzle may take the nested levels (9.0 and up) too
    time_limit: float | None = None  # seconds a puzzle

    def exit_code(self, codes: set[int], statuses: set[str]) -> int:
        return logic_exit_code(codes)

    def record(self, index: int, puzzle) -> Record:
        from ..logic import NotUnique, RatingTimeout, Unsolvable, rate
        label = puzzle.source or f"#{index + 1}"
        try:
            r = rate(puzzle, allow_multiple=self.allow_multiple, time_limit=self.time_limit,
                     deep=self.deep)
        except Unsolvable as exc:
            return Record(index, self._refused(index, label, puzzle, "unsolvable", str(exc)),
                          "unsolvable", code=ExitCode.UNSOLVABLE)
        except NotUnique as exc:
            return Record(index, self._refused(index, label, puzzle, "multiple", str(exc)),
                          "multiple", code=ExitCode.NOT_UNIQUE)
        except RatingTimeout as exc:
            return Record(index, self._refused(index, label, puzzle, "timeout", str(exc)),
                          "timeout", code=ExitCode.TIMEOUT)
        status = BEYOND if r.beyond else RATED
        stopped = (f"no technique applies after {r.steps} steps; hardest step "
                   f"{r.hardest:.1f}")
        message = {"message": stopped} if r.beyond else {}
        if self.fmt in ("json", "jsonl"):
            text = json.dumps({"index": index, "source": label, **puzzle_fields(puzzle),
                               "status": status, **r.as_dict(), **message},
                              indent=2 if self.fmt == "json" else None)
        elif self.fmt == "csv":
            text = self.csv_row({"index": index, "source": label,
                                 **csv_puzzle_fields(puzzle), "status": status, **r.as_dict(),
                                 "techniques": ";".join(f"{k}:{v}"
                                                        for k, v in r.techniques.items()),
                                 **message})
        else:
            used = ", ".join(f"{k} x{v}" for k, v in r.techniques.items())
            several = "" if r.unique else ", NOT UNIQUE: rated along one of its solutions"
            if r.beyond:
                text = f"{label}: {r.level} ({stopped}{several}) {used}"
            else:
                text = (f"{label}: ER {r.er:.1f} EP {r.ep:.1f} ED {r.ed:.1f} ({r.level}"
                        f"{several}) {used}")
        return Record(index, text, status, code=ExitCode.NO_LOGIC if r.beyond else 0)

    def _refused(self, index: int, label: str, puzzle, status: str, message: str) -> str:
        """The record of a puzzle that is not rated: `unsolvable` or `multiple`."""
        if self.fmt in ("json", "jsonl"):
            return json.dumps({"index": index, "source": label, **puzzle_fields(puzzle),
                               "status": status, "error": message},
                              indent=2 if self.fmt == "json" else None)
        if self.fmt == "csv":
            return self.csv_row({"index": index, "source": label,
                                 **csv_puzzle_fields(puzzle), "status": status,
                                 "level": status, "message": message})
        return message  # it names the puzzle
