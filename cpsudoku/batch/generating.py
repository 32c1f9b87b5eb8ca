"""The batch task of `generate`: the items are puzzle numbers, and puzzle i of a run is
a pure function of (seed, i, options), so any worker can make any of them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..errors import CpsudokuError
from .records import ERROR, INTERNAL_ERROR, Record

MADE = "generated"  # the status of a puzzle made


@dataclass(frozen=True)
class GenerateTask:
    """`generate` over puzzle numbers; `opts` is `cpsudoku.generator.core.Options`."""

    fmt: str
    opts: Any
    seed: int
    many: bool = False  # several puzzles: TOML entries become [[puzzles]] items
    color: bool = False

    # A puzzle not made (a target missed in time) ends the run with that one error.
    stops_at_failure: ClassVar[bool] = True
    # One puzzle a line (after the seed line of `line`): these can be resumed.
    resumable: ClassVar[tuple[str, ...]] = ("line", "jsonl", "fpuzzles", "link", "iss")

    @property
    def header(self) -> str | None:
        """The seed line (how to make the same puzzles again) for formats with comments."""
        if self.fmt not in ("line", "pretty"):
            return None
        from ..generator.output import header
        return header(self.seed, self.opts.describe())

    def prepare(self) -> None:
        """Nothing left to check: `generator.core.options` checked the options."""

    def __call__(self, chunk: list[tuple[int, Any]]) -> list[Record]:
        return [self._one(index) for index, _ in chunk]

    def failed(self, index: int, item, message: str) -> Record:
        return Record(index, "", ERROR, f"puzzle {index + 1}: {message}", INTERNAL_ERROR)

    def exit_code(self, codes: set[int], statuses: set[str]) -> int:
        return max(codes, default=0)

    def _one(self, index: int) -> Record:
        from ..generator import core
        from ..generator.output import render
        try:
            made = core.make(self.opts, self.seed, index)
        except CpsudokuError as exc:  # a target missed in time, rules without a grid
            return Record(index, "", ERROR, str(exc), exc.exit_code)
        return Record(index, render(made, self.fmt, many=self.many), MADE)
