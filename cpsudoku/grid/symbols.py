"""Cell symbols: digits 1-9, then A=10 ... P=25 (the convention of the public data sets)."""

from __future__ import annotations

from ..validate import MAX_SIZE

ALPHABET = "123456789ABCDEFGHIJKLMNOP"[:MAX_SIZE]
BLANKS = frozenset("0._-*□")


def symbol(value: int) -> str:
    """The one-character symbol of a value 1..25."""
    return ALPHABET[value - 1]


def value_of(ch: str) -> int | None:
    """The value of a symbol, 0 for a blank, None if `ch` is not a cell symbol."""
    if ch in BLANKS:
        return 0
    i = ALPHABET.find(ch.upper())
    return i + 1 if i >= 0 else None


def line(values, blank: str = ".") -> str:
    """A grid (sequence of values, 0 = blank) as one line of symbols."""
    return "".join(ALPHABET[v - 1] if v else blank for v in values)
