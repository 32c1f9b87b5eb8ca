"""Chaos construction clues in the puzzle file (`rules = ["chaos"]` finds the regions):

    [[chaos_arrows]]          # the digit: the run length in the start's region
    cell = "r1c1"
    arms = [["r1c1", "r2c1", "r3c1"], ["r1c1", "r1c2"]]   # optional: four directions
    offset = 0                # optional: 1 leaves the start out

    [[chaos_counts]]          # the digit: listed cells in the first one's region
    cell = "r2c2"
    cells = ["r2c2", "r1c2", "r2c1"]                      # optional: the 3x3 around

    same_regions = [["r1c1", "r1c2", "r2c2"]]             # each group in one region
"""

from __future__ import annotations

from ..errors import ModelError
from ..rules.chaos import CHAOS_RULES, Chaos, ChaosArrows, ChaosClue, SameRegions
from .fields import cell_list, listed, whole

KEYS = tuple(cls.key for cls in CHAOS_RULES)


def rules(data: dict, size: int) -> list:
    """The chaos clue rules whose keys `data` holds."""
    out = []
    for cls in CHAOS_RULES:
        if cls.key not in data:
            continue
        named = {str(r).strip().lower() for r in data.get("rules", ())
                 if isinstance(r, str)}
        if not named & {Chaos.name, *Chaos.aliases}:
            raise ModelError(f"{cls.key}: clues about regions found while solving need "
                             f'rules = ["chaos"]')
        items = enumerate(listed(data[cls.key], cls.key), 1)
        out.append(cls(tuple(cell_list(item, size, f"{cls.noun} {i}") for i, item in items)
                       if cls is SameRegions else
                       tuple(_clue(cls, i, item, size) for i, item in items)))
    return out


def _clue(cls, i: int, item, size: int) -> ChaosClue:
    what = f"{cls.noun} {i}"
    part = "arms" if cls is ChaosArrows else "cells"
    if not isinstance(item, dict) or "cell" not in item:
        raise ModelError(f"{what}: expected a table with cell, {part} and offset, not {item!r}")
    unknown = sorted(set(item) - {"cell", "offset", part})
    if unknown:
        raise ModelError(f"{what}: unknown key {unknown[0]!r}; known: cell, {part}, offset")
    cell = cell_list([item["cell"]], size, what)[0]
    offset = whole(item.get("offset", 0), f"{what}: offset")
    given = item.get(part, [])
    if cls is ChaosArrows:
        cells = tuple(cell_list(arm, size, f"{what} arm {k}")
                      for k, arm in enumerate(listed(given, f"{what}: arms"), 1))
    else:
        cells = cell_list(given, size, what)
    return ChaosClue(cell, offset, cells)
