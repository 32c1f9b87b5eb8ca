"""Distinct counts in the puzzle file: a control cell and the cells it counts.

    distinct_counts = [{cell = "r3c3", cells = ["r2c2", "r2c3", "r2c4"]}]
    distinct_region_counts = [{cell = "r5c1", cells = ["r5c2", "r4c2"]}]   # chaos rule

The first: the control's digit is how many different digits the cells hold; the second
(with `rules = ["chaos"]`): how many of the regions found while solving they lie in.
"""

from __future__ import annotations

from ..errors import ModelError
from ..rules.chaos import Chaos
from ..rules.distinct import DISTINCT_RULES, DistinctCount, DistinctCounts, DistinctRegionCounts
from .fields import cell_list, listed

KEYS = tuple(cls.key for cls in DISTINCT_RULES)


def rules(data: dict, size: int) -> list[DistinctCounts]:
    """The distinct-count rules whose keys `data` holds."""
    out = []
    for cls in DISTINCT_RULES:
        if cls.key not in data:
            continue
        if cls is DistinctRegionCounts and not _has_chaos(data):
            raise ModelError(f"{cls.key}: counting regions found while solving needs "
                             f'rules = ["chaos"]')
        out.append(cls(_count(cls, i, item, size)
                       for i, item in enumerate(listed(data[cls.key], cls.key), 1)))
    return out


def _has_chaos(data: dict) -> bool:
    named = data.get("rules", ())
    named = [named] if isinstance(named, str) else named
    return any(isinstance(r, str) and r.strip().lower() in {Chaos.name, *Chaos.aliases}
               for r in named)


def _count(cls: type[DistinctCounts], i: int, item, size: int) -> DistinctCount:
    what = f"{cls.noun} {i}"
    if not isinstance(item, dict) or "cell" not in item or "cells" not in item:
        raise ModelError(f"{what}: expected a table with cell (the control) and cells, "
                         f"not {item!r}")
    unknown = sorted(set(item) - {"cell", "cells"})
    if unknown:
        raise ModelError(f"{what}: unknown key {unknown[0]!r}; known: cell, cells")
    return DistinctCount(cell_list([item["cell"]], size, what)[0],
                         cell_list(item["cells"], size, what))
