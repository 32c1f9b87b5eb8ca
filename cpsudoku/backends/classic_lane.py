"""The classic lane: the native backend's C kernel over raw lines of classic 9x9 puzzles,
many a call, reading, searching and writing records in C (`Kernel.solve_text`).

It is the native backend's own search with its own settings, on the structure any
classic 9x9 puzzle compiles to; only the reading and the writing are done in C. A line
it cannot read exactly as the shared parser does, and a puzzle with no solution (whose
record names the broken rule), are left to the caller's ordinary path.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..engine import kernel

FORMATS = {"line": 0, "jsonl": 1, "csv": 2, "grids": 3}
SIZE = 9


@dataclass(frozen=True)
class Step:
    """What one call did: the records' text, where it stopped in the data (and that
    line's number), the next record's index, the statuses written, and whether the line
    at `pos` is the ordinary path's to read."""

    text: str
    pos: int
    line: int
    index: int
    seen: frozenset[str]
    refused: bool


_SEEN = ((1, "solved"), (2, "unique"), (4, "multiple"))
_LANE: list = []  # the kernel and the search depth of locked candidates, made once


def available() -> bool:
    return kernel.available()


def _lane():
    if not _LANE:
        from ..engine.plan import compile_model
        from ..formats.read import parse_one
        from ..model import build_model
        from .base import Request
        from .native import _settings
        plan = compile_model(build_model(parse_one("." * SIZE * SIZE)))
        locked, _, _, _ = _settings(Request(), SIZE, False)
        depth = (1 << 30 if locked else 0) if isinstance(locked, bool) else locked
        _LANE.append((kernel.kernel_of(plan), depth))
    return _LANE[0]


def solve_text(data: bytes, pos: int, line: int, index: int, *, fmt: str, count: bool,
               max_solutions: int, source: str) -> Step:
    """Records of the puzzle lines of `data` from offset `pos` (line number `line`,
    record `index`) up to its end or to a line it leaves to the ordinary path."""
    built, depth = _lane()
    text, pos, line, index, seen, refused = built.solve_text(
        data, pos, line, index, min(max_solutions, 1 << 62), depth, FORMATS[fmt], count,
        source.encode("utf-8"), json.dumps(source)[1:-1].encode("utf-8"))
    return Step(text, pos, line, index, frozenset(name for bit, name in _SEEN if seen & bit),
                refused)
