"""The puzzle-file keys of same-value sets and look-and-say groups:

    same_values = [[["r1c1", "r1c2"], ["r5c5", "r6c5"]]]   # sets of equal size
    look_and_say = [{cells = ["r1c1", "r2c1", "r3c1"], clue = "1617"}]
"""

from __future__ import annotations

from ..errors import ModelError
from ..rules.same_values import SET_RULES, Clue, LookAndSay, Parts, SameValues
from .fields import cell_list, listed

KEYS = tuple(cls.key for cls in SET_RULES)


def rules(data: dict, size: int) -> list:
    """The rules whose keys `data` holds."""
    out: list = []
    if SameValues.key in data:
        out.append(SameValues(_sets(i, item, size) for i, item in
                              enumerate(listed(data[SameValues.key], SameValues.key), 1)))
    if LookAndSay.key in data:
        out.append(LookAndSay(_clue(i, item, size) for i, item in
                              enumerate(listed(data[LookAndSay.key], LookAndSay.key), 1)))
    return out


def _sets(i: int, item, size: int) -> Parts:
    what = f"{SameValues.noun} {i}"
    return Parts(tuple(cell_list(part, size, f"{what} set {k}")
                       for k, part in enumerate(listed(item, what), 1)))


def _clue(i: int, item, size: int) -> Clue:
    what = f"{LookAndSay.noun} {i}"
    if not isinstance(item, dict) or set(item) != {"cells", "clue"}:
        raise ModelError(f"{what} must be a table with cells and clue, not {item!r}")
    clue = item["clue"]
    if isinstance(clue, bool) or not isinstance(clue, (str, int)):
        raise ModelError(f"{what}: the clue must be digits such as \"1324\", not {clue!r}")
    return Clue(cell_list(item["cells"], size, what), str(clue))
