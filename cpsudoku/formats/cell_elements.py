"""The cell and region rules' puzzle-file keys (`quadruples`, `rellik_cages`, `clones` ...).

Each key holds a list; one element is written as its rule's shape says:

    quadruples = [{cells = ["r1c1", "r1c2", "r2c1", "r2c2"], values = [1, 2]}]
    contain_at_least = [{cells = [...], values = [...]}]    # also contain_exact
    given_candidates = [{cell = "r5c5", values = [1, 3, 5]}]
    rellik_cages = [{cells = [...], sum = 10}]
    equality_cages = [["r1c1", "r1c2"]]                       # also counting_circles
    clones = [[["r1c1", "r1c2"], ["r9c8", "r9c9"]]]           # also equal_sums
"""

from __future__ import annotations

from ..errors import ModelError
from ..rules.cellrules import CELL_RULES, CellRule, Group, Parts
from .fields import cell_list, listed, whole

KEYS = tuple(cls.key for cls in CELL_RULES)

# The table keys of each shape, beside `cells`.
_FIELDS = {"values": ("cells", "values"), "cell": ("cell", "values"), "total": ("cells", "sum")}


def rules(data: dict, size: int) -> list[CellRule]:
    """The cell rules whose keys `data` holds."""
    out: list[CellRule] = []
    for cls in CELL_RULES:
        if cls.key in data:
            out.append(cls(_element(cls, i, item, size)
                           for i, item in enumerate(listed(data[cls.key], cls.key), 1)))
    return out


def _element(cls: type[CellRule], i: int, item, size: int) -> Group | Parts:
    what = f"{cls.noun} {i}"
    if cls.shape == "parts":
        parts = listed(item, what)
        return Parts(tuple(cell_list(part, size, f"{what} {cls.part_noun} {k}")
                           for k, part in enumerate(parts, 1)))
    if cls.shape == "cells":
        return Group(cell_list(item, size, what))
    if not isinstance(item, dict):
        raise ModelError(f"{what} must be a table with {' and '.join(_FIELDS[cls.shape])}, "
                         f"not {item!r}")
    known = _FIELDS[cls.shape]
    unknown = sorted(set(item) - set(known))
    if unknown:
        raise ModelError(f"{what}: unknown key {unknown[0]!r}; known: {', '.join(known)}")
    missing = [key for key in known if key not in item]
    if missing:
        raise ModelError(f"{what}: missing {missing[0]!r}")
    if cls.shape == "total":
        return Group(cell_list(item["cells"], size, what), total=whole(item["sum"], f"{what} sum"))
    cells = cell_list([item["cell"]] if cls.shape == "cell" else item["cells"], size, what)
    values = tuple(whole(v, f"{what} digit") for v in listed(item["values"], f"{what} values"))
    return Group(cells, values=values)
