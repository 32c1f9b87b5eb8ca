"""A step-by-step record of a search: placements with reasons, eliminations, guesses,
contradictions.

Every deduction the traced search uses is recorded: placements (given, naked single,
hidden single, a constraint's single) and the eliminations of locked candidates
(pointing and claiming) and of sum, less and table constraints. Not shown one by
one: removing a placed value from the cells that see it (implied by the placement).
The traced search never uses pairs, dual branching or probing (untraced searches
may), so nothing they would deduce is missing.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..grid.geometry import cell_name
from ..grid.symbols import symbol


@dataclass(frozen=True)
class TraceEvent:
    kind: str  # "place", "eliminate", "guess", "contradiction", "backtrack", "solution"
    depth: int
    cell: int | None = None
    value: int | None = None
    reason: str = ""  # "given", "naked single", "hidden single in row 3", ...
    candidates: tuple[int, ...] = ()  # for a guess: the values it chose among
    eliminations: tuple[tuple[int, int], ...] = ()  # (cell, value) pairs removed

    def describe(self, width: int, first: int = 1) -> str:
        """The event in words, cells named in rows of `width`; values are shown as the
        digits (from `first`)."""
        where = cell_name(self.cell, width) if self.cell is not None else ""
        value = symbol(self.value, first) if self.value is not None else ""
        indent = "  " * self.depth
        if self.kind == "place":
            return f"{indent}{where} = {value}  ({self.reason})"
        if self.kind == "eliminate":
            return (f"{indent}{self.reason} => "
                    f"{eliminations_text(self.eliminations, width, first)}")
        if self.kind == "guess":
            among = ",".join(symbol(v, first) for v in self.candidates)
            return f"{indent}guess {where} = {value}  (among {among})"
        if self.kind == "contradiction":
            return f"{indent}contradiction: {self.reason}"
        if self.kind == "backtrack":
            return f"{indent}backtrack: undo guess {where} = {value}"
        if self.kind == "solution":
            return f"{indent}solution found"
        return f"{indent}{self.kind} {where} {self.reason}".rstrip()


def eliminations_text(pairs, width: int, first: int = 1) -> str:
    """`r1c4,r1c7<>5, r2c1<>3` (HoDoKu's notation): cells grouped by the value removed."""
    by_value: dict[int, list[int]] = {}
    for cell, value in pairs:
        by_value.setdefault(value, []).append(cell)
    return ", ".join(",".join(cell_name(c, width) for c in cells) + f"<>{symbol(v, first)}"
                     for v, cells in sorted(by_value.items()))


def render_trace(events, size: int, prefix: str = "", first: int = 1) -> str:
    """One line per event; `prefix` (e.g. "# ") keeps the lines apart from grid rows;
    `first` the lowest digit."""
    return "\n".join(prefix + e.describe(size, first) for e in events)
