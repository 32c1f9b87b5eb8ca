"""Outside clues and indexing in the puzzle file, and their f-puzzles form.

Outside clues (`sandwiches`, `x_sums`, `skyscrapers`, `numbered_rooms`,
`hidden_skyscrapers`, `lunchboxes`): a list of tables, each with `row` or `column`,
`side` ("start": left of a row or above a column, the default; "end": right or
below) and `value`; a lunchbox may instead list its `cells` in order:

    [[sandwiches]]
    row = 2
    value = 17

    [[lunchboxes]]
    cells = ["r1c2", "r1c1", "r2c1"]
    value = 3

`full_ranks`: clues as the other outside clues, each the rank of the number read from
its side; `full_rank_ties` ("only-unclued", the default; "any"; "none") says which
readings may tie (see `cpsudoku.rules.full_rank`):

    full_rank_ties = "none"
    full_ranks = [{column = 1, side = "start", value = 10}]

`indexing`: tables with `kind` (column, row or box) and `cells`;
`value_indexing`: a list of lines (cells in order).
"""

from __future__ import annotations

from typing import Any

from ..errors import ModelError
from ..rules import cells as cellrefs
from ..rules.element import ElementRule
from ..rules.full_rank import DEFAULT_TIES, TIES_KEY, FullRanks
from ..rules.indexing import Indexers, Indexing
from ..rules.outside import OUTSIDE_RULES, OutsideClue, OutsideRule, ValueIndexing
from .fields import cell_list, listed, whole

OUTSIDE_KEYS = tuple(cls.key for cls in OUTSIDE_RULES)
KEYS = OUTSIDE_KEYS + (FullRanks.key, TIES_KEY, Indexing.key, ValueIndexing.key)


def rules(data: dict, size: int) -> list[ElementRule]:
    """The outside-clue and indexing rules whose keys `data` holds."""
    out: list[ElementRule] = []
    for cls in OUTSIDE_RULES:
        if cls.key in data:
            out.append(cls(_clue(cls, i, item, size)
                           for i, item in enumerate(listed(data[cls.key], cls.key), 1)))
    if FullRanks.key in data or TIES_KEY in data:
        clues = listed(data.get(FullRanks.key, []), FullRanks.key)
        out.append(FullRanks((_clue(FullRanks, i, item, size) for i, item in enumerate(clues, 1)),
                             ties=data.get(TIES_KEY, DEFAULT_TIES)))
    if Indexing.key in data:
        out.append(Indexing(_indexers(i, item, size) for i, item in
                            enumerate(listed(data[Indexing.key], Indexing.key), 1)))
    if ValueIndexing.key in data:
        out.append(ValueIndexing(
            cell_list(item, size, f"{ValueIndexing.noun} {i}")
            for i, item in enumerate(listed(data[ValueIndexing.key], ValueIndexing.key), 1)))
    return out


def _clue(cls: type[OutsideRule], i: int, item, size: int) -> OutsideClue:
    what = f"{cls.noun} {i}"
    if not isinstance(item, dict):
        raise ModelError(f"{what}: expected a table with row or column, side and value, "
                         f"not {item!r}")
    known = ("row", "column", "side", "value") + (("cells",) if cls.key == "lunchboxes" else ())
    unknown = sorted(set(item) - set(known))
    if unknown:
        raise ModelError(f"{what}: unknown key {unknown[0]!r}; known: {', '.join(known)}")
    if "value" not in item:
        raise ModelError(f"{what}: its value is missing")
    value = whole(item["value"], f"{what} value")
    placed = [key for key in ("row", "column", "cells") if key in item]
    if len(placed) != 1:
        raise ModelError(f"{what}: give exactly one of {', '.join(known[:2])}"
                         + (" or cells" if "cells" in known else ""))
    if placed[0] == "cells":
        if "side" in item:
            raise ModelError(f"{what}: a lunchbox on listed cells has no side")
        return OutsideClue(value, cells=cell_list(item["cells"], size, what))
    side = item.get("side", "start")
    if not isinstance(side, str):
        raise ModelError(f"{what}: side must be start or end, not {side!r}")
    return OutsideClue(value, placed[0], whole(item[placed[0]], f"{what} {placed[0]}"), side)


def _indexers(i: int, item, size: int) -> Indexers:
    what = f"indexers {i}"
    if not isinstance(item, dict):
        raise ModelError(f"{what}: expected a table with kind and cells, not {item!r}")
    unknown = sorted(set(item) - {"kind", "cells"})
    if unknown:
        raise ModelError(f"{what}: unknown key {unknown[0]!r}; known: kind, cells")
    return Indexers(str(item.get("kind", "")), cell_list(item.get("cells", []), size, what))


# ---------------------------------------------------------------- f-puzzles

# f-puzzles' outside-clue keys: entries {"cell": "R0C3", "value": "17"}, the cell one step
# outside the grid (row 0 or N+1, column 0 or N+1).
FP_OUTSIDE: dict[str, type[OutsideRule]] = {
    "sandwichsum": OUTSIDE_RULES[0], "xsum": OUTSIDE_RULES[1], "skyscraper": OUTSIDE_RULES[2]}


def from_fpuzzles(data: dict, size: int) -> list[ElementRule]:
    """The outside-clue rules of an f-puzzles object."""
    out: list[ElementRule] = []
    for key, cls in FP_OUTSIDE.items():
        clues = [entry for entry in data.get(key) or [] if entry.get("value") not in (None, "")]
        if clues:
            out.append(cls(_fp_clue(cls, i, entry, size) for i, entry in enumerate(clues, 1)))
    return out


def _fp_clue(cls: type[OutsideRule], i: int, entry: dict, size: int) -> OutsideClue:
    what = f"{cls.noun} {i}"
    row, col = cellrefs.place(entry.get("cell"), what)
    value = whole(entry["value"], f"{what} value")
    if 1 <= col <= size and row in (0, size + 1):
        return OutsideClue(value, "column", col, "start" if row == 0 else "end")
    if 1 <= row <= size and col in (0, size + 1):
        return OutsideClue(value, "row", row, "start" if col == 0 else "end")
    raise ModelError(f"{what}: R{row}C{col} is not just outside the {size}x{size} grid")


def to_fpuzzles(rule: OutsideRule, size: int) -> tuple[str, list[dict[str, Any]]] | None:
    """The f-puzzles key and entries of an outside-clue rule (None: f-puzzles has none)."""
    key = next((k for k, cls in FP_OUTSIDE.items() if type(rule) is cls), None)
    if key is None:
        return None
    entries = []
    for clue in rule.elements:
        far = size + 1
        at = (0 if clue.side == "start" else far, clue.index) if clue.line == "column" else (
            clue.index, 0 if clue.side == "start" else far)
        entries.append({"cell": f"R{at[0]}C{at[1]}", "value": str(clue.value)})
    return key, entries
