"""A step-by-step record of a search: placements with reasons, guesses, contradictions."""

from __future__ import annotations

from dataclasses import dataclass

from .geometry import cell_name
from .symbols import symbol


@dataclass(frozen=True)
class TraceEvent:
    kind: str  # "place", "guess", "contradiction", "backtrack", "solution"
    depth: int
    cell: int | None = None
    value: int | None = None
    reason: str = ""  # "given", "naked single", "hidden single in row 3", ...
    candidates: tuple[int, ...] = ()  # for a guess: the values it chose among

    def describe(self, size: int) -> str:
        where = cell_name(self.cell, size) if self.cell is not None else ""
        indent = "  " * self.depth
        if self.kind == "place":
            return f"{indent}{where} = {symbol(self.value)}  ({self.reason})"
        if self.kind == "guess":
            among = ",".join(symbol(v) for v in self.candidates)
            return f"{indent}guess {where} = {symbol(self.value)}  (among {among})"
        if self.kind == "contradiction":
            return f"{indent}contradiction: {self.reason}"
        if self.kind == "backtrack":
            return f"{indent}backtrack: undo guess {where} = {symbol(self.value)}"
        if self.kind == "solution":
            return f"{indent}solution found"
        return f"{indent}{self.kind} {where} {self.reason}".rstrip()


def render_trace(events, size: int) -> str:
    return "\n".join(e.describe(size) for e in events)
