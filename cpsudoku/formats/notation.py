"""Which notation a big grid is written in: cpsudoku's own symbols, 0-based, or letters.

From 10x10 up the same text can mean different grids: `0` is a blank or the value N
(`0`-`F` notation for 16x16), `A` is 10 or 1 (letter notation). The grid's own symbols
decide; where they cannot, the grid is refused rather than read as a different puzzle.
"""

from __future__ import annotations

from ..errors import ParseError
from ..grid.symbols import ALPHABET, BLANKS, MAX_SIZE

_OTHER_BLANKS = BLANKS - {"0"}


def read_notation(chars: str, values, n: int, source: str, line: int | None):
    """The values of a grid written in 0-based or letter notation, or None when it is
    written in cpsudoku's own symbols. 0-based notation is `0`-`F` for 16x16 (`0` the
    value 16, `.` the blank).

    From 10x10 up `0` can be a blank or the value N. It is a blank when the grid also
    writes N the usual way (`G` on 16x16); it is N when the grid blanks with `.` (or
    another blank) too. Otherwise a row with two `0`s shows them to be blanks, and one
    `0` in every row is a complete grid in 0-based notation; anything else could be
    either, and is refused rather than guessed."""
    if n < 10:
        return None
    if "0" not in chars:
        return _letters_only(chars, values, n, source, line)
    top = ALPHABET[n - 1]
    if top in chars or top.lower() in chars:
        return None
    if _OTHER_BLANKS.isdisjoint(chars):
        zeros = [chars.count("0", r * n, r * n + n) for r in range(n)]
        if max(zeros) > 1:
            return None
        if min(zeros) == 0:
            raise ParseError(
                f"{n}x{n} grid with 0 but no '.' blank and no {top}: 0 could be a blank "
                f"(symbols 1-9, A-{top}) or the value {n} (0-9, A-{ALPHABET[n - 2]} notation); "
                f"write blanks as '.' for the 0-based notation, or {n} as {top}", source, line)
    return tuple(n if ch == "0" else v for ch, v in zip(chars, values))


_DIGITS = frozenset("123456789")


def _letters_only(chars: str, values, n: int, source: str, line: int | None):
    """A grid of letters without a digit may be in letter notation (A=1 ... P=16 on
    16x16): it is when some letter is too big for the grid in the usual notation
    (`H` = 17), and refused when it could be either."""
    if not _DIGITS.isdisjoint(chars) or not any(ch.isalpha() for ch in chars):
        return None
    if max(values) > n:
        return tuple(v - 9 if v else 0 for v in values)
    also = (f", or use letters up to {ALPHABET[8 + n]} for letter notation"
            if 9 + n <= MAX_SIZE else "")
    raise ParseError(f"{n}x{n} grid of letters without a digit: A could be 1 (letter "
                     f"notation) or 10; write 1-9 as digits{also}", source, line)
