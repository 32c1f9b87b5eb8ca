"""The digits rules speak of: `Geometry.digits`, 1..N unless a puzzle says otherwise
(0..8 on a 0-indexed 9x9, 1..9 on a 6x6 holding nine digits).

A rule states its constraints over these digits; `grid/digits.py` restates them over
the model's values. `geometry.size` stays the side of the grid (cells per row); the
largest digit is `digits[-1]`, the smallest `digits[0]`.
"""

from __future__ import annotations

from ..errors import ModelError
from ..grid.geometry import Geometry


def digit_range(digits: int | range) -> range:
    """`digits` itself, or for a count n the classic digits 1..n."""
    return range(1, digits + 1) if isinstance(digits, int) else digits


def shown(digits: range) -> str:
    """The digits as a message names them: "1..9", "0..8"."""
    return f"{digits[0]}..{digits[-1]}"


def one_per_cell(geometry: Geometry) -> bool:
    """Whether every row holds each digit once (as many digits as a row has cells)."""
    return geometry.values == geometry.size


def refuse_unless(ok: bool, rule: str, needs: str, geometry: Geometry) -> None:
    """A ModelError naming the rule and what it needs, when `ok` is false."""
    if not ok:
        raise ModelError(f"rule {rule} needs {needs}, not the digits "
                         f"{shown(geometry.digits)} on {geometry.size}x{geometry.size}")


def position(digit: int, digits: range) -> int:
    """The digit's place among the digits, from 0."""
    return digit - digits[0]


def entropy_thirds(geometry: Geometry, rule: str, subject: str) -> tuple[int, ...]:
    """The class (0 low, 1 middle, 2 high) of each digit, by thirds of 1..V (ISS: 1-9
    only; other counts of digits from 1 by thirds too). 0-indexed digits have no agreed
    thirds, as ISS refuses them; `subject` opens the message of a count not in thirds."""
    refuse_unless(geometry.first == 1, rule, "digits from 1 (low 1-3, middle 4-6, high "
                  "7-9)", geometry)
    count = len(geometry.digits)
    if count % 3:
        what = "size" if one_per_cell(geometry) else "number of digits"
        raise ModelError(f"{subject} a {what} divisible by 3 (low, middle and high thirds "
                         f"of the digits), not {count}")
    return tuple(i // (count // 3) for i in range(count))
