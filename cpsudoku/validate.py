"""Argument checks for the public Python API: one place, one wording.

Each check returns the value in the form the code needs, or raises
`ArgumentError` (a `UsageError` that is also a `TypeError`/`ValueError`)
naming the argument and what it must be.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from typing import Any

from .errors import ArgumentError, ModelError

MAX_SIZE = 25  # the largest grid: one symbol per value, 1-9 then A-P (grid.symbols)


def did_you_mean(word: str, choices: Sequence[str]) -> str:
    """'; did you mean 'x'?' for the closest choice to a misspelt `word`, else ''."""
    import difflib
    lower = {c.lower(): c for c in choices}
    close = difflib.get_close_matches(str(word).strip().lower(), list(lower), n=1, cutoff=0.6)
    return f"; did you mean {lower[close[0]]!r}?" if close else ""


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _kind(value: Any) -> str:
    return type(value).__name__


def text(value: Any, name: str = "text") -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, (bytes, bytearray)):
        raise ArgumentError(f"{name} must be str, not {_kind(value)}; decode it first "
                            f"(e.g. data.decode('utf-8'))")
    raise ArgumentError(f"{name} must be str, not {_kind(value)}")


def whole(value: Any, name: str, least: int | None = None, most: int | None = None) -> int:
    """A whole number (not a bool, not a float that happens to be whole)."""
    # an int first: the Integral check alone costs a microsecond on every solve
    if type(value) is not int and (isinstance(value, bool)
                                   or not isinstance(value, numbers.Integral)):
        raise ArgumentError(f"{name} must be a whole number, not {_kind(value)} {_shown(value)}")
    number = int(value)
    if (least is not None and number < least) or (most is not None and number > most):
        span = (f"from {least} to {most}" if least is not None and most is not None
                else f"at least {least}" if least is not None else f"at most {most}")
        raise ArgumentError(f"{name} must be {span}, not {number}")
    return number


def seconds(value: Any, name: str = "time_limit") -> float | None:
    """None (no limit) or a positive, finite number of seconds."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ArgumentError(f"{name} must be a number of seconds or None, not "
                            f"{_kind(value)} {_shown(value)}")
    number = float(value)
    if not (number > 0 and math.isfinite(number)):
        raise ArgumentError(f"{name} must be a positive number of seconds, not {value}")
    return number


def flag(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise ArgumentError(f"{name} must be True or False, not {_kind(value)} {_shown(value)}")
    return value


def size(value: Any, name: str = "size") -> int | None:
    return None if value is None else whole(value, name, 1, MAX_SIZE)


def box(value: Any, name: str = "box") -> tuple[int, int] | None:
    """None, "RxC" or a (rows, columns) pair of positive whole numbers."""
    if value is None:
        return None
    if isinstance(value, str):
        return parse_box(value)
    if isinstance(value, (tuple, list)) and len(value) == 2:
        return whole(value[0], f"{name} rows", 1, MAX_SIZE), whole(value[1], f"{name} columns",
                                                                   1, MAX_SIZE)
    raise ArgumentError(f'{name} must be "RxC" or a (rows, columns) pair, not {_shown(value)}')


def parse_box(shape: str) -> tuple[int, int]:
    """'3x3' or '2x3' -> (rows, cols)."""
    shape = text(shape, "box shape")
    parts = shape.lower().replace("*", "x").split("x")
    if len(parts) != 2 or not all(p.strip().isdigit() and len(p.strip()) <= 3 for p in parts):
        raise ModelError(f"box shape {shape!r} is not of the form RxC (e.g. 2x3)")
    rows, cols = int(parts[0]), int(parts[1])
    if rows < 1 or cols < 1:
        raise ModelError(f"box shape {shape!r} must have positive sides")
    return rows, cols


def cells(values: Any, name: str, count: int | None = None, most: int = MAX_SIZE
          ) -> tuple[int, ...]:
    """A flat sequence of cell values 0..`most` (0 blank), `count` of them if given."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise ArgumentError(f"{name} must be a sequence of whole numbers, not {_kind(values)}")
    if count is not None and len(values) != count:
        raise ArgumentError(f"{name} has {len(values)} values, expected {count}")
    for i, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, numbers.Integral):
            raise ArgumentError(f"{name}[{i}] must be a whole number, not {_kind(v)} {_shown(v)}")
        if not 0 <= int(v) <= most:
            raise ArgumentError(f"{name}[{i}] = {v} is outside 0..{most}")
    return tuple(int(v) for v in values)


def grid(value: Any, name: str = "puzzle") -> tuple[int, ...]:
    """The values of a grid given as a flat sequence or as a sequence of rows."""
    if isinstance(value, (list, tuple)) and value and all(isinstance(r, (list, tuple))
                                                          for r in value):
        width = len(value)
        for r, row in enumerate(value):
            if len(row) != width:
                raise ArgumentError(f"{name} row {r + 1} has {len(row)} values, expected "
                                    f"{width} (a square grid)")
        return cells([v for row in value for v in row], name)
    return cells(value, name)


def text_list(values: Any, name: str) -> list[str]:
    """A list of strings from any iterable of them (not from one string)."""
    if isinstance(values, str) or not isinstance(values, (list, tuple, set, frozenset)):
        raise ArgumentError(f"{name} must be a list of strings, not {_kind(values)}")
    return [text(v, f"{name} item") for v in values]


def rule(value: Any, name: str = "rule"):
    """A rule object: a non-empty str `name` and a `constraints(geometry)` method."""
    rule_name = getattr(value, "name", None)
    if not isinstance(rule_name, str) or not rule_name:
        raise ArgumentError(f"{name} {_shown(value)} is not a rule: it needs a non-empty str "
                            f"`name`")
    if not callable(getattr(value, "constraints", None)):
        raise ArgumentError(f"{name} {rule_name!r} is not a rule: it needs a "
                            f"`constraints(geometry)` method")
    return value
