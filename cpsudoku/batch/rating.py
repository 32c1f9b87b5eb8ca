"""The batch task of `rate`: each puzzle rated on the Sudoku Explainer scale in a worker."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import ClassVar

from ..errors import ExitCode
from .records import Record
from .tasks import PuzzleTask

# CSV columns (documented in the README): a header, then one row per puzzle.
RATE_COLUMNS = ("index", "source", "puzzle", "status", "er", "ep", "ed", "level", "guesses",
                "time_s", "techniques", "message")
RATED = "rated"  # the status of a puzzle that got a rating


@dataclass(frozen=True)
class RateTask(PuzzleTask):
    """`rate`: formats pretty, jsonl and csv."""

    columns: ClassVar[tuple[str, ...]] = RATE_COLUMNS

    def record(self, index: int, puzzle) -> Record:
        from ..logic import Unsolvable, rate
        label = puzzle.source or f"#{index + 1}"
        try:
            r = rate(puzzle)
        except Unsolvable as exc:
            return Record(index, self._unsolvable(index, label, puzzle, str(exc)),
                          "unsolvable", code=ExitCode.UNSOLVABLE)
        if self.fmt == "jsonl":
            text = json.dumps({"index": index, "puzzle": puzzle.line(), **r.as_dict()})
        elif self.fmt == "csv":
            text = self.csv_row({"index": index, "source": label, "puzzle": puzzle.line(),
                                 "status": RATED, **r.as_dict(),
                                 "techniques": ";".join(f"{k}:{v}"
                                                        for k, v in r.techniques.items())})
        else:
            used = ", ".join(f"{k} x{v}" for k, v in r.techniques.items())
            guessed = f", {r.guesses} guesses" if r.guesses else ""
            text = (f"{label}: ER {r.er:.1f} EP {r.ep:.1f} ED {r.ed:.1f} ({r.level}"
                    f"{guessed}) {used}")
        return Record(index, text, RATED)

    def _unsolvable(self, index: int, label: str, puzzle, message: str) -> str:
        if self.fmt == "jsonl":
            return json.dumps({"index": index, "puzzle": puzzle.line(),
                               "status": "unsolvable", "error": message})
        if self.fmt == "csv":
            return self.csv_row({"index": index, "source": label, "puzzle": puzzle.line(),
                                 "status": "unsolvable", "level": "unsolvable",
                                 "message": message})
        return f"{label}: {message}"
