"""Cell symbols: digits 1-9, then A=10 ... P=25 (the convention of the public data sets).

A 0-indexed puzzle (digits from 0) writes its digits 0-9, then A=10 ...; there the
symbol 0 is a digit, and only the other blanks (".", "-" ...) stand for an empty cell.
"""

from __future__ import annotations

from ..validate import MAX_SIZE

ALPHABET = "123456789ABCDEFGHIJKLMNOP"[:MAX_SIZE]
DIGIT_SYMBOLS = "0" + ALPHABET  # digit d is DIGIT_SYMBOLS[d]
BLANKS = frozenset("0._-*□")


def symbol(value: int, first: int = 1) -> str:
    """The one-character symbol of a value 1..25 (of digit first + value - 1)."""
    return DIGIT_SYMBOLS[value + first - 1]


def value_of(ch: str, first: int = 1) -> int | None:
    """The value of a symbol, 0 for a blank, None if `ch` is not a cell symbol."""
    if first == 0 and ch == "0":
        return 1
    if ch in BLANKS:
        return 0
    i = DIGIT_SYMBOLS.find(ch.upper(), 1)
    return i + 1 - first if i >= 0 else None


def line(values, blank: str = ".", first: int = 1) -> str:
    """A grid (sequence of values, 0 = blank) as one line of symbols."""
    if first == 0 and blank == "0":
        blank = "."  # 0 is a digit there
    return "".join(DIGIT_SYMBOLS[v + first - 1] if v else blank for v in values)
