"""The grid reader: lines of symbols, decorated multi-line grids, whitespace-separated
numbers, `.sdk` metadata; and the builder every reader of grids shares (geometry,
metadata, source positions, the messages for wrong counts and values)."""

from __future__ import annotations

import math
import re
from collections import Counter

from .. import validate
from ..errors import ModelError, ParseError
from ..grid.geometry import Geometry, boxed, cell_name, has_box
from ..grid.puzzle import Puzzle
from ..grid.symbols import ALPHABET, BLANKS, MAX_SIZE, symbol, value_of
from .notation import read_notation

# --- symbol tables --------------------------------------------------------------

VALUE = dict.fromkeys(BLANKS, 0)
for _i, _ch in enumerate(ALPHABET, 1):
    VALUE[_ch] = VALUE[_ch.lower()] = _i

# Fast path: ASCII bytes -> values in one `bytes.translate`; 255 marks anything else.
_byte_values = bytearray([255] * 256)
for _ch, _v in VALUE.items():
    if _ch.isascii():
        _byte_values[ord(_ch)] = _v
_BYTE_VALUES = bytes(_byte_values)

# Grid decoration: ASCII borders and every box-drawing character (U+2500-U+257F).
DECORATION = frozenset("|+") | frozenset(chr(c) for c in range(0x2500, 0x2580))
_RULE_ONLY = frozenset("-=")  # only in rule lines; inside a row `-` is a blank
_FRAME_CORNERS = frozenset(".:'*")  # frame corners of HoDoKu, the forum and Simple Sudoku
_SEPARATORS = frozenset(",;")  # read like spaces, for `5, 3, 0, ...` rows

EXPECTED_SYMBOL = "a digit 1-9, a letter A-P or a blank (. 0 - _ *)"

# Cell counts of whole puzzles whose size has a box shape: {16: 4, 36: 6, ..., 625: 25}.
_FULL_COUNTS = {n * n: n for n in range(1, MAX_SIZE + 1) if has_box(n)}

_WORD = re.compile(r"[^\W\d_]{3,}")
_SYMBOL_LETTERS = frozenset(ALPHABET[9:] + ALPHABET[9:].lower())
_TITLE = re.compile(r"^(grid|puzzle)(?![a-z])", re.IGNORECASE)
# .sdk metadata codes (SudoCue's documentation of the format).
_SDK_KEYS = {"A": "author", "B": "date", "C": "comment", "D": "description",
             "L": "level", "S": "source", "U": "url"}


# --- shared helpers ----------------------------------------------------------------

def count_problem(count: int, size: int | None) -> str:
    if size is not None:
        return f"{count} cells, expected {size * size} for a {size}x{size} grid"
    n = math.isqrt(count)
    if n * n == count and n <= MAX_SIZE:
        return (f"{count} cells make a {n}x{n} grid, which has no box shape; "
                f"give the box shape (e.g. --box) or use a size such as 4, 6, 8, 9, 12, 16, 25")
    nearest = min(_FULL_COUNTS, key=lambda c: (abs(c - count), c))
    n = _FULL_COUNTS[nearest]
    return f"{count} cells, expected a square count such as {nearest} ({n}x{n})"


def _value_problem(value: int, cell: int, n: int, digits: range | None = None) -> str:
    if digits is not None:
        shown = symbol(value, digits[0]) if value <= len(digits) else str(value)
        return (f"digit {shown} at {cell_name(cell, n)} is not one of the puzzle's digits "
                f"{digits[0]}-{symbol(len(digits), digits[0])}")
    shown = symbol(value) if value <= MAX_SIZE else str(value)
    if shown != str(value):
        shown = f"{shown} ({value})"
    return f"value {shown} at {cell_name(cell, n)} does not fit a {n}x{n} grid (values 1-{n})"


def blank_of(chars) -> str:
    """The blank notation to echo: '0' when the input blanked with zeros only."""
    return "0" if "0" in chars and "." not in chars else "."


class Builder:
    """Turns cell values into Puzzles: geometry, metadata, source positions."""

    def __init__(self, size, box, source, own_notation: bool = False,
                 digits: range | None = None):
        self.size, self.box, self.source = size, box, source
        self.own_notation = own_notation  # cpsudoku's own output: `0` is only ever a blank
        # the puzzle's digits when they are known and not 1..N: read with them (0 is a
        # digit when they start at 0, and there may be more than N)
        standard = digits is None or (digits[0] == 1 and len(digits) == size)
        self.digits = None if standard else digits
        self.first = self.digits[0] if self.digits else 1
        self.puzzles: list[Puzzle] = []
        self.meta: dict = {}
        self.name: str | None = None

    def full(self, count: int) -> int | None:
        """N when `count` cells make a whole N x N puzzle, else None."""
        if self.size is not None:
            return self.size if count == self.size * self.size else None
        return _FULL_COUNTS.get(count)

    def geometry(self, n: int, line: int | None, drawn=None) -> Geometry:
        shape = self.box or (drawn if drawn and drawn[0] * drawn[1] == n else None)
        try:
            geometry = boxed(n, shape)
            return geometry.with_digits(len(self.digits), self.first) if self.digits \
                else geometry
        except ModelError as exc:
            if shape is None and n > 1:
                raise ParseError(f"a {n}x{n} grid has no box shape; give the box shape "
                                 f"(e.g. --box RxC)", self.source, line) from None
            raise ParseError(str(exc), self.source, line) from None

    def emit(self, values, n: int, line: int | None, blank: str, where=None, drawn=None,
             checked: bool = False, chars: str | None = None):
        """Add one puzzle. `where(cell)` -> (line, column) of a cell, for messages;
        `drawn` is the box shape the grid's borders show; `chars` the cells' symbols
        when written one character a cell (where `0` may be the value N)."""
        if chars is not None and not self.own_notation and not self.digits:
            values = read_notation(chars, values, n, self.source, line) or values
        most = len(self.digits) if self.digits else n
        if not self.first:
            blank = "."  # 0 is a digit
        if not checked and max(values, default=0) > most:
            cell = next(i for i, v in enumerate(values) if v > most)
            at = where(cell) if where else (line, None)
            raise ParseError(_value_problem(values[cell], cell, n, self.digits), self.source,
                             *at)
        meta, self.meta = self.meta, {}
        name, self.name = self.name, None
        self.puzzles.append(Puzzle(self.geometry(n, line, drawn), tuple(values), blank=blank,
                                   source=f"{self.source}:{line}" if line else self.source,
                                   name=name or meta.get("description"), meta=meta))


# --- text grids ------------------------------------------------------------------

class _Row:
    """One line of cells, read both ways: one symbol per character, or one number per
    whitespace-separated token. The block it belongs to decides which reading holds."""

    __slots__ = ("line", "chars", "cols", "tokens", "seps", "after_rule", "dashes")

    def __init__(self, line, chars, cols, tokens, seps, after_rule):
        self.line, self.chars, self.cols = line, chars, cols
        self.tokens, self.seps, self.after_rule = tokens, seps, after_rule
        self.dashes = False  # only `-`: a rule line, or a row of `-` blanks

    def count(self, numeric: bool) -> int:
        return len(self.tokens) if numeric else len(self.chars)

    def values(self, numeric: bool, first: int = 1) -> list[int]:
        """The cells' values; with digits from 0, `0` is the digit 0 (value 1)."""
        if not first:
            if numeric:
                return [value_of(t, 0) or 0 if len(t) == 1 else int(t) + 1
                        for _, t in self.tokens]
            return [value_of(ch, 0) or 0 for ch in self.chars]
        if numeric:
            return [VALUE[t] if len(t) == 1 else int(t) for _, t in self.tokens]
        return [VALUE[ch] for ch in self.chars]

    def blanks(self, numeric: bool) -> str:
        return "".join(t for _, t in self.tokens if t in BLANKS) if numeric else self.chars

    def col(self, i: int, numeric: bool) -> int:
        return self.tokens[i][0] if numeric else self.cols[i]

    def end_col(self, numeric: bool) -> int:
        if numeric:
            col, tok = self.tokens[-1] if self.tokens else (0, "")
            return col + len(tok)
        return (self.cols[-1] if self.cols else 0) + 1

    def inner_seps(self, numeric: bool, n: int) -> frozenset[int]:
        return frozenset(k for k in (s[numeric] for s in self.seps) if 0 < k < n)


def _is_rule(s: str) -> bool:
    chars = set(s) - {" ", "\t"}
    if chars <= DECORATION | _RULE_ONLY:
        return bool(chars & (DECORATION | {"="})) or "--" in s
    # Frames whose corners are symbols elsewhere: HoDoKu's and the forum's `.---.---.`,
    # `:---+---:` and `'---'---'`, Simple Sudoku's `*-----*`. A run of three dashes
    # between corners is no row of blanks.
    return (chars <= DECORATION | _RULE_ONLY | _FRAME_CORNERS and "---" in s
            and s.strip()[0] in _FRAME_CORNERS | DECORATION
            and s.strip()[-1] in _FRAME_CORNERS | DECORATION)


def _read_row(raw: str, line: int, after_rule: bool, source: str) -> _Row:
    chars, cols, tokens, seps = [], [], [], []
    start = None
    for i, ch in enumerate(raw):
        if ch in VALUE:
            if start is None:
                start = i
            chars.append(ch)
            cols.append(i + 1)
            continue
        if start is not None:
            tokens.append((start + 1, raw[start:i]))
            start = None
        if ch in DECORATION:
            seps.append((len(chars), len(tokens)))
        elif not (ch.isspace() or ch in _SEPARATORS):
            raise ParseError(f"unexpected character {ch!r}; expected {EXPECTED_SYMBOL}",
                             source, line, i + 1)
    if start is not None:
        tokens.append((start + 1, raw[start:]))
    return _Row(line, "".join(chars), cols, tokens, seps, after_rule)


def _numeric(rows: list[_Row]) -> bool:
    """Whitespace-separated numbers: some token of several digits, none above 25 or with
    a leading zero (`003 020 600` is three groups of symbols, not numbers)."""
    several = False
    for row in rows:
        for _, tok in row.tokens:
            if len(tok) == 1:
                if tok not in BLANKS and not tok.isdigit():
                    return False
            elif (len(tok) <= 2 and tok.isascii() and tok.isdigit() and tok[0] != "0"
                  and int(tok) <= MAX_SIZE):
                several = True
            else:
                return False
    return several


def _period(marks: frozenset[int], n: int) -> int | None:
    """p when `marks` are exactly p, 2p, ... below n; 0 when empty; None when irregular."""
    if not marks:
        return 0
    p = min(marks)
    return p if n % p == 0 and marks == frozenset(range(p, n, p)) else None


def _drawn_box(rows: list[_Row], n: int, numeric: bool) -> tuple[int, int] | None:
    """The box shape the grid's drawn borders show, if they show a consistent one."""
    inner = {row.inner_seps(numeric, n) for row in rows}
    if len(inner) != 1:
        return None
    cols = _period(inner.pop(), n)
    height = _period(frozenset(i for i, row in enumerate(rows) if i and row.after_rule), n)
    if cols is None or height is None or (cols == 0 and height == 0):
        return None
    if cols == 0:
        cols = n // height
    if height == 0:
        height = n // cols
    return (height, cols) if height * cols == n else None


def _is_label(s: str) -> bool:
    """A line of words (a status, a name, `solution 1:`), as output puts above a grid:
    a word of three letters or more, one of them not a cell symbol, and words make at
    least a quarter of the line (so a grid row with a typo stays an error)."""
    words = _WORD.findall(s)
    return (any(not _SYMBOL_LETTERS.issuperset(word) for word in words)
            and 4 * sum(map(len, words)) >= len(s) - s.count(" "))


class GridReader(Builder):
    after_label = False  # the last line read was a label: a drawing may follow

    def read(self, text: str) -> list[Puzzle]:
        block: list[_Row] = []
        decorated = after_rule = False
        for line, raw in enumerate(text.splitlines(), 1):
            s = raw.strip()
            if not s:
                self._block(block, decorated)
                block, decorated = [], False
                continue
            if s[0] == "#":
                self._block(block, decorated)
                block, decorated = [], False
                self._comment(s)
                continue
            if len(s) > MAX_SIZE:
                # A whole puzzle on one line, alone or followed by other fields (ratings,
                # a comment): the rest of the line is the puzzle's note.
                head, *rest = s.split(None, 1)
                if rest and len(head) > MAX_SIZE and set(head) <= VALUE.keys():
                    self._block(block, decorated)
                    block, decorated = [], False
                    self.meta["note"] = rest[0]
                    s = raw = head
                fast = self.fast(s)
                if fast is not None:
                    self._block(block, decorated)
                    block, decorated = [], False
                    self.emit(*fast, line, blank_of(s), checked=True, chars=s)
                    continue
                if rest and s is head:  # not a puzzle: read alone, for its message
                    self._block([_read_row(raw, line, False, self.source)], False)
                    continue
            if s[0] in "GgPp" and _TITLE.match(s):
                self._block(block, decorated)
                block, decorated = [], False
                self.name = s
                continue
            if _is_label(s):
                self._block(block, decorated)
                block, decorated = [], False
                self.after_label = True
                continue
            if _is_rule(s):
                decorated = True
                if s.strip("- \t"):
                    after_rule = True
                else:  # the block decides: a rule, or a row of `-` blanks
                    row = _read_row(raw, line, after_rule, self.source)
                    row.dashes = True
                    block.append(row)
                continue
            row = _read_row(raw, line, after_rule, self.source)
            decorated = decorated or bool(row.seps)
            after_rule = False
            block.append(row)
        self._block(block, decorated)
        return self.puzzles

    def _comment(self, s: str) -> None:
        """`#X...` is .sdk metadata for the next puzzle (`#ARuud`, `#D A description`);
        other `#` lines (`# note`, `#Note`) are comments."""
        if len(s) < 2 or s[1] not in _SDK_KEYS:
            return
        value = s[2:].strip()
        if s[1] != "U" and s[2:3].islower():
            return  # a word such as "#Sudoku ...", not a code letter
        key = _SDK_KEYS[s[1]]
        self.meta[key] = f"{self.meta[key]}\n{value}" if key in self.meta else value

    def fast(self, s: str) -> tuple[tuple[int, ...], int] | None:
        """(values, N) of a whole puzzle on one plain line, read in one translate;
        None to read the line the slow way (which also explains what is wrong)."""
        n = self.full(len(s))
        if n is None or not s.isascii() or self.digits:
            return None  # other digits: the slow way reads them
        values = s.encode().translate(_BYTE_VALUES)
        if 255 in values or max(values) > n:
            return None
        return tuple(values), n

    def _block(self, rows: list[_Row], decorated: bool) -> None:
        """A run of rows between blank lines: one puzzle per row, or grids of N rows."""
        rows = self._settle_dashes(rows)
        if not rows:
            return
        after_label, self.after_label = self.after_label, False
        numeric = _numeric(rows)
        if numeric and not self._plausible(rows, True):
            numeric = False
        counts = [row.count(numeric) for row in rows]
        if after_label and decorated and (len(set(counts)) > 1 or not min(counts)):
            return  # a drawing under a label (killer cages with their sums), not a grid
        width = Counter(counts).most_common(1)[0][0]
        n = self.full(width)
        one_per_row = n is not None
        if one_per_row and self.size is None and width == 16 and (
                decorated or (len(rows) % 16 == 0 and all(c == 16 for c in counts))):
            one_per_row = False  # rows of a 16x16 grid, not 4x4 puzzles
        if one_per_row or len(rows) == 1 or not self._row_width(width):
            for row, count in zip(rows, counts):
                n = self.full(count)
                if n is None:
                    raise ParseError(count_problem(count, self.size), self.source, row.line)
                self.emit(row.values(numeric, self.first), n, row.line,
                          blank_of(row.blanks(numeric)),
                          where=lambda i, r=row: (r.line, r.col(i, numeric)),
                          chars=None if numeric else row.chars)
            return
        self._grids(rows, width, numeric)

    def _settle_dashes(self, rows: list[_Row]) -> list[_Row]:
        """Lines of dashes as long as a row are rows of blanks when that alone completes
        the grids (`---------` among `53-|---` rows); any other is a rule line."""
        if not any(row.dashes for row in rows):
            return rows
        others = [row for row in rows if not row.dashes]
        blank_rows: set[int] = set()
        if others and not _numeric(others):
            width = Counter(row.count(False) for row in others).most_common(1)[0][0]
            fits = [row.line for row in rows if row.dashes and row.count(False) == width]
            if (self._row_width(width) and len(others) % width
                    and not (len(others) + len(fits)) % width):
                blank_rows = set(fits)
        kept, rule = [], False
        for row in rows:
            if row.dashes and row.line not in blank_rows:
                rule = True
                continue
            row.after_rule = row.after_rule or rule
            rule = False
            kept.append(row)
        return kept

    def _row_width(self, width: int) -> bool:
        return width == self.size if self.size is not None else 4 <= width <= MAX_SIZE

    def _plausible(self, rows: list[_Row], numeric: bool) -> bool:
        width = Counter(row.count(numeric) for row in rows).most_common(1)[0][0]
        return self.full(width) is not None or self._row_width(width)

    def _grids(self, rows: list[_Row], n: int, numeric: bool) -> None:
        for row in rows:
            count = row.count(numeric)
            if count != n:
                col = row.col(n, numeric) if count > n else row.end_col(numeric)
                raise ParseError(f"row has {count} cells, expected {n} (ragged grid)",
                                 self.source, row.line, col)
        if len(rows) % n:
            first = rows[len(rows) - len(rows) % n]
            got = len(rows) % n
            raise ParseError(f"grid has {got} row{'s' if got > 1 else ''} of {n} cells, "
                             f"expected {n} rows", self.source, first.line)
        for top in range(0, len(rows), n):
            grid = rows[top:top + n]
            values, blanks = [], []
            for row in grid:
                values.extend(row.values(numeric, self.first))
                blanks.append(row.blanks(numeric))
            self.emit(values, n, grid[0].line, blank_of("".join(blanks)),
                      where=lambda i, g=grid: (g[i // n].line, g[i // n].col(i % n, numeric)),
                      drawn=_drawn_box(grid, n, numeric),
                      chars=None if numeric else "".join(row.chars for row in grid))



def read_grids(text: str, size: int | None, box, source: str, *,
               own_notation: bool = False, digits: range | None = None) -> list[Puzzle]:
    """Every text grid in `text` (no CSV, JSON or puzzle files: `read.parse` sends those
    on); `digits`, when the puzzle's are known, reads its cells with them."""
    return GridReader(size, box, source, own_notation=own_notation,
                      digits=digits).read(text)


def shape(size, box) -> tuple[int | None, tuple[int, int] | None]:
    size, box = validate.size(size), validate.box(box)
    if box is not None:
        if size is None:
            size = box[0] * box[1]
        boxed(size, box)  # fails early, naming the mismatch
    return size, box
