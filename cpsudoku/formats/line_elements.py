"""The line rules' puzzle-file keys (`whispers`, `renban`, ...): each a list of lines, a line
a list of cells in order, or a table with `cells` and the rule's parameter."""

from __future__ import annotations

from ..errors import ModelError
from ..rules.linerules import LINE_RULES, Line, LineRule
from .fields import cell_list, listed, whole

LINE_KEYS = tuple(cls.key for cls in LINE_RULES)
KEYS = LINE_KEYS  # as every element family names them (see families)


def rules(data: dict, size: int) -> list[LineRule]:
    """The line rules whose keys `data` holds."""
    out: list[LineRule] = []
    for cls in LINE_RULES:
        if cls.key in data:
            out.append(cls(_line(cls, i, item, size)
                           for i, item in enumerate(listed(data[cls.key], cls.key), 1)))
    return out


def _line(cls: type[LineRule], i: int, item, size: int) -> Line:
    what = f"{cls.noun} {i}"
    if not isinstance(item, dict):
        return Line(cell_list(item, size, what))
    known = ("cells",) + ((cls.parameter,) if cls.parameter else ()) + (
        ("loop",) if cls.loops else ())
    unknown = sorted(set(item) - set(known))
    if unknown:
        raise ModelError(f"{what}: unknown key {unknown[0]!r}; known: {', '.join(known)}")
    value = item.get(cls.parameter) if cls.parameter else None
    loop = item.get("loop", False)
    if not isinstance(loop, bool):
        raise ModelError(f"{what}: loop must be true or false, not {loop!r}")
    return Line(cell_list(item.get("cells", []), size, what),
                None if value is None else whole(value, f"{what} {cls.parameter}"), loop)
