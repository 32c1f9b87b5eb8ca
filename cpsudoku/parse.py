"""Placeholder parser: one-line grids only (the full parser replaces this)."""

from __future__ import annotations

import math

from .errors import ParseError
from .geometry import boxed
from .puzzle import Puzzle
from .symbols import value_of


def parse(text: str, *, size=None, box=None, source="<string>") -> list[Puzzle]:
    out = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        s = raw.strip()
        if not s or s.startswith("#"):
            continue
        vals = []
        for col, ch in enumerate(s, 1):
            v = value_of(ch)
            if v is None:
                raise ParseError(f"unexpected {ch!r}", source, lineno, col)
            vals.append(v)
        n = size or math.isqrt(len(vals))
        out.append(Puzzle(boxed(n, box), tuple(vals), source=f"{source}:{lineno}"))
    return out


def parse_one(text: str, **kw) -> Puzzle:
    return parse(text, **kw)[0]
