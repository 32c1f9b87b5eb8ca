"""The one shared parser: every common grid notation becomes a list of Puzzles.

Accepted notations (mixed freely within one text):

- one line per puzzle, N*N symbols: `1`-`9`, then `A`=10 ... `P`=25 (any case),
  blanks `.` `0` `-` `_` `*` `□`;
- multi-line grids with any decoration: `|`, `+---+` and `---` rule lines,
  box-drawing lines (light, heavy and double), spaces between cells; a grid's
  drawn box borders give its box shape (e.g. 3x2 against 2x3 for a 6x6);
- whitespace-separated numbers, one row per line (`10 0 3 ...`), 0 or `.` blank;
- JSON: a 2-D array of ints (0 blank), an array of such grids or of one-line
  strings, one such array per line;
- `.sdk` files: `#A author`, `#D description` ... metadata lines before a grid;
- `#` comment lines, blank lines between puzzles, `Grid 01`-style title lines.

Puzzle files (JSON objects such as the `{"size", "box", "grid"}` that
`render.json_grid` writes, f-puzzles `?load=` links, TOML) go to `cpsudoku.puzzlefile`.

Errors name the source, the 1-based line and column, and what was expected.
"""

from __future__ import annotations

import csv
import json
import math
import re
from collections import Counter
from dataclasses import replace
from typing import Any

from . import validate
from .errors import ModelError, ParseError
from .geometry import Geometry, boxed, cell_name, infer_box
from .notation import read_notation
from .puzzle import Puzzle
from .safeload import check_bounds
from .symbols import ALPHABET, BLANKS, MAX_SIZE, symbol

# --- symbol tables --------------------------------------------------------------

_VALUE = dict.fromkeys(BLANKS, 0)
for _i, _ch in enumerate(ALPHABET, 1):
    _VALUE[_ch] = _VALUE[_ch.lower()] = _i

# Fast path: ASCII bytes -> values in one `bytes.translate`; 255 marks anything else.
_byte_values = bytearray([255] * 256)
for _ch, _v in _VALUE.items():
    if _ch.isascii():
        _byte_values[ord(_ch)] = _v
_BYTE_VALUES = bytes(_byte_values)

# Grid decoration: ASCII borders and every box-drawing character (U+2500-U+257F).
DECORATION = frozenset("|+") | frozenset(chr(c) for c in range(0x2500, 0x2580))
_RULE_ONLY = frozenset("-=")  # only in rule lines; inside a row `-` is a blank
_SEPARATORS = frozenset(",;")  # read like spaces, for `5, 3, 0, ...` rows

EXPECTED_SYMBOL = "a digit 1-9, a letter A-P or a blank (. 0 - _ *)"



def _has_box(n: int) -> bool:
    try:
        infer_box(n)
    except ModelError:
        return False
    return True


# Cell counts of whole puzzles whose size has a box shape: {16: 4, 36: 6, ..., 625: 25}.
_FULL_COUNTS = {n * n: n for n in range(1, MAX_SIZE + 1) if _has_box(n)}

_LINK_PAYLOAD = re.compile(r"[A-Za-z0-9+/=]{40,}")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_WORD = re.compile(r"[^\W\d_]{3,}")
_SYMBOL_LETTERS = frozenset(ALPHABET[9:] + ALPHABET[9:].lower())
_TITLE = re.compile(r"^(grid|puzzle)(?![a-z])", re.IGNORECASE)
_TOML_LINE = re.compile(r"^(\[\[?\s*[A-Za-z_][\w.\- \"]*\]\]?|[A-Za-z_][\w\-]*\s*=)")
# .sdk metadata codes (SudoCue's documentation of the format).
_SDK_KEYS = {"A": "author", "B": "date", "C": "comment", "D": "description",
             "L": "level", "S": "source", "U": "url"}


# --- entry points ----------------------------------------------------------------

def parse(text: str, *, size=None, box=None, source: str = "<string>") -> list[Puzzle]:
    """Every puzzle in `text`. `size` (N) and `box` ((r, c) or "RxC") override what the
    text implies; with `box` alone the size is r*c."""
    text = validate.text(text)
    source = validate.text(source, "source")
    if "\x1b" in text:  # terminal colours (givens in bold) saved along with a grid
        text = _ANSI.sub("", text)
    size, box = _shape(size, box)
    body = text.strip("\ufeff \t\r\n")
    if len(body) > MAX_SIZE and "\n" not in body and body[0] not in "[{#":
        reader = _GridReader(size, box, source)  # the common case: one plain line
        fast = reader.fast(body)
        if fast is not None:
            reader.emit(*fast, 1 + text[:text.find(body)].count("\n"), _blank_of(body),
                        checked=True, chars=body)
            return reader.puzzles
    if not body:
        raise ParseError("empty input: no puzzle found", source)
    kind = _kind(body)
    if kind == "csv":
        puzzles = _CsvReader(size, box, source).read(text)
    elif kind == "variant":
        puzzles = _load_variant(text, source)
    elif kind == "json":
        grids = _JsonReader(size, box, source).read(text)
        # None: a list of puzzle objects
        puzzles = grids if grids is not None else _load_variant(text, source)
    else:
        puzzles = _GridReader(size, box, source).read(text)
    if not puzzles:
        raise ParseError("no puzzle found (only comments, labels and blank lines)", source)
    return puzzles


def parse_one(text: str, **kw: Any) -> Puzzle:
    """The single puzzle in `text` (the first one if there are several)."""
    return parse(text, **kw)[0]


def parse_output_line(text: str, *, size=None, box=None, source: str = "<string>") -> Puzzle:
    """One grid line as cpsudoku writes it (a result's `solutions` and `puzzle`), where
    `0` is only ever a blank."""
    size, box = _shape(size, box)
    puzzles = _GridReader(size, box, source, own_notation=True).read(text)
    if len(puzzles) != 1:
        raise ParseError(f"expected one grid line, found {len(puzzles)} puzzles", source)
    return puzzles[0]


def _shape(size, box) -> tuple[int | None, tuple[int, int] | None]:
    size, box = validate.size(size), validate.box(box)
    if box is not None:
        if size is None:
            size = box[0] * box[1]
        boxed(size, box)  # fails early, naming the mismatch
    return size, box


def _kind(body: str) -> str:
    """'variant', 'json' or 'grid', from the first meaningful line."""
    if body[0] == "{" or "?load=" in body or body.startswith(("http://", "https://")):
        return "variant"
    if _LINK_PAYLOAD.fullmatch(body) and not set(body) <= _VALUE.keys():
        return "variant"  # the compressed puzzle of an f-puzzles link, on its own
    first = next((s.strip() for s in body.splitlines()
                  if s.strip() and not s.lstrip().startswith("#")), "")
    if first.startswith("{") or _TOML_LINE.match(first):
        return "variant"
    if _csv_header(first) is not None:
        return "csv"
    return "json" if first.startswith("[") else "grid"


def _load_variant(text: str, source: str) -> list[Puzzle]:
    from . import puzzlefile  # imported on demand: plain grids never need it
    return puzzlefile.load(text, source=source)


# --- shared helpers ----------------------------------------------------------------

def _count_problem(count: int, size: int | None) -> str:
    if size is not None:
        return f"{count} cells, expected {size * size} for a {size}x{size} grid"
    n = math.isqrt(count)
    if n * n == count and n <= MAX_SIZE:
        return (f"{count} cells make a {n}x{n} grid, which has no box shape; "
                f"give the box shape (e.g. --box) or use a size such as 4, 6, 8, 9, 12, 16, 25")
    nearest = min(_FULL_COUNTS, key=lambda c: (abs(c - count), c))
    n = _FULL_COUNTS[nearest]
    return f"{count} cells, expected a square count such as {nearest} ({n}x{n})"


def _value_problem(value: int, cell: int, n: int) -> str:
    shown = symbol(value) if value <= MAX_SIZE else str(value)
    if shown != str(value):
        shown = f"{shown} ({value})"
    return f"value {shown} at {cell_name(cell, n)} does not fit a {n}x{n} grid (values 1-{n})"


def _blank_of(chars) -> str:
    """The blank notation to echo: '0' when the input blanked with zeros only."""
    return "0" if "0" in chars and "." not in chars else "."


class _Builder:
    """Turns cell values into Puzzles: geometry, metadata, source positions."""

    def __init__(self, size, box, source, own_notation: bool = False):
        self.size, self.box, self.source = size, box, source
        self.own_notation = own_notation  # cpsudoku's own output: `0` is only ever a blank
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
            return boxed(n, shape)
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
        if chars is not None and not self.own_notation:
            values = read_notation(chars, values, n, self.source, line) or values
        if not checked and max(values, default=0) > n:
            cell = next(i for i, v in enumerate(values) if v > n)
            at = where(cell) if where else (line, None)
            raise ParseError(_value_problem(values[cell], cell, n), self.source, *at)
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

    def values(self, numeric: bool) -> list[int]:
        if numeric:
            return [_VALUE[t] if len(t) == 1 else int(t) for _, t in self.tokens]
        return [_VALUE[ch] for ch in self.chars]

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
    return (chars <= DECORATION | _RULE_ONLY
            and (bool(chars & (DECORATION | {"="})) or "--" in s))


def _read_row(raw: str, line: int, after_rule: bool, source: str) -> _Row:
    chars, cols, tokens, seps = [], [], [], []
    start = None
    for i, ch in enumerate(raw):
        if ch in _VALUE:
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


class _GridReader(_Builder):
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
                fast = self.fast(s)
                if fast is not None:
                    self._block(block, decorated)
                    block, decorated = [], False
                    self.emit(*fast, line, _blank_of(s), checked=True, chars=s)
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
        if n is None or not s.isascii():
            return None
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
                    raise ParseError(_count_problem(count, self.size), self.source, row.line)
                self.emit(row.values(numeric), n, row.line, _blank_of(row.blanks(numeric)),
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
                values.extend(row.values(numeric))
                blanks.append(row.blanks(numeric))
            self.emit(values, n, grid[0].line, _blank_of("".join(blanks)),
                      where=lambda i, g=grid: (g[i // n].line, g[i // n].col(i % n, numeric)),
                      drawn=_drawn_box(grid, n, numeric),
                      chars=None if numeric else "".join(row.chars for row in grid))


# --- CSV with a header -------------------------------------------------------------

_PUZZLE_COLUMNS = ("puzzle", "puzzles", "quizzes", "quiz")
_SOLUTION_COLUMNS = ("solution", "solutions")
_CSV_NAME = re.compile(r'\s*"?\s*[A-Za-z_][\w .-]*"?\s*')


def _csv_header(line: str) -> list[str] | None:
    """The column names of a CSV header line that names a puzzle or solution column
    (`puzzle,solution,...` as the Kaggle data sets have it), else None."""
    if "," not in line:
        return None
    names = line.split(",")
    if not all(_CSV_NAME.fullmatch(n) for n in names):
        return None
    names = [n.strip().strip('"').strip() for n in names]
    known = {n.lower() for n in names} & {*_PUZZLE_COLUMNS, *_SOLUTION_COLUMNS}
    return names if known else None


class _CsvReader(_Builder):
    """One puzzle a row from the puzzle column; the solution column, if any, goes into
    `meta["solution"]` and the other columns into `meta`. Errors name the line and the
    column (and the column's name)."""

    def read(self, text: str) -> list[Puzzle]:
        lines = text.splitlines()
        start = next(i for i, s in enumerate(lines) if s.strip() and not s.lstrip().startswith("#"))
        names = _csv_header(lines[start].lstrip("\ufeff"))
        assert names is not None  # _kind saw this header
        lower = [n.lower() for n in names]
        puzzle_col = next((lower.index(c) for c in _PUZZLE_COLUMNS if c in lower), None)
        if puzzle_col is None:
            raise ParseError(f"CSV header has no puzzle column (one of "
                             f"{', '.join(_PUZZLE_COLUMNS)}); columns: {', '.join(names)}",
                             self.source, start + 1)
        solution_col = next((lower.index(c) for c in _SOLUTION_COLUMNS if c in lower), None)
        for lineno, fields in zip(range(start + 2, len(lines) + 1),
                                  csv.reader(lines[start + 1:])):
            if not fields or (len(fields) == 1 and not fields[0].strip()):
                continue
            if fields[0].lstrip().startswith("#"):
                continue
            raw = lines[lineno - 1]
            if len(fields) != len(names):
                raise ParseError(f"{len(fields)} fields, expected {len(names)} "
                                 f"({', '.join(names)})", self.source, lineno)
            meta = {name: value for i, (name, value) in enumerate(zip(names, fields))
                    if i not in (puzzle_col, solution_col)}
            puzzle = self._field(fields, puzzle_col, names, lineno, raw, meta)
            if solution_col is not None and fields[solution_col].strip():
                solution = self._field(fields, solution_col, names, lineno, raw)
                if solution.size != puzzle.size:
                    raise ParseError(f"column {names[solution_col]!r}: a {solution.size}x"
                                     f"{solution.size} solution for a {puzzle.size}x"
                                     f"{puzzle.size} puzzle", self.source, lineno,
                                     _field_column(raw, fields, solution_col))
                puzzle.meta["solution"] = solution.givens
            self.puzzles.append(puzzle)
        return self.puzzles

    def _field(self, fields, col: int, names, lineno: int, raw: str, meta=None) -> Puzzle:
        """The one grid in a field (with `meta`), errors placed in the file."""
        where = _field_column(raw, fields, col)
        reader, text = _GridReader(self.size, self.box, self.source), fields[col].strip()
        fast = reader.fast(text) if len(text) > MAX_SIZE else None
        try:
            if fast is not None:  # the common case: one plain line
                reader.meta = meta or {}
                reader.emit(*fast, lineno, _blank_of(text), checked=True, chars=text)
                return reader.puzzles[0]
            found = reader.read(text)
            if len(found) != 1:
                raise ParseError(f"{len(found)} grids in one field, expected one", self.source)
        except ParseError as exc:
            column = where + (exc.column or 1) - 1 if where and exc.column else where
            raise ParseError(f"column {names[col]!r}: {exc.message}", self.source, lineno,
                             column) from None
        return replace(found[0], source=f"{self.source}:{lineno}", meta=meta or {})


def _field_column(raw: str, fields: list[str], col: int) -> int | None:
    """The 1-based column where field `col` starts (None when quoting hides it)."""
    if '"' in raw:
        return None
    start = sum(len(f) + 1 for f in fields[:col])
    return start + len(fields[col]) - len(fields[col].lstrip()) + 1


# --- JSON ------------------------------------------------------------------------

class _JsonReader(_Builder):
    """A 2-D array of numbers, an array of such grids or of grid strings, or one array
    per line. Arrays of objects are puzzle files: `read` returns None for them."""

    def read(self, text: str) -> list[Puzzle] | None:
        # `#` comment lines are allowed around JSON too; blanked to keep line numbers.
        text = "\n".join("" if s.lstrip().startswith("#") else s for s in text.splitlines())
        check_bounds(text, self.source)
        try:
            docs = [(json.loads(text), 1)]
        except json.JSONDecodeError as exc:
            if exc.msg != "Extra data":
                raise ParseError(f"invalid JSON: {exc.msg}", self.source,
                                 exc.lineno, exc.colno) from None
            docs = self._lines(text)
        if any(isinstance(doc, list) and any(isinstance(x, dict) for x in doc)
               for doc, _ in docs):
            return None
        for doc, line in docs:
            self._document(doc, line)
        return self.puzzles

    def _lines(self, text):
        docs = []
        for line, s in enumerate(text.splitlines(), 1):
            if s.strip() and not s.lstrip().startswith("#"):
                try:
                    docs.append((json.loads(s), line))
                except json.JSONDecodeError as exc:
                    raise ParseError(f"invalid JSON: {exc.msg}", self.source, line,
                                     exc.colno) from None
        return docs

    def _document(self, doc, line: int) -> None:
        if isinstance(doc, list) and doc and not _is_grid(doc):
            for i, item in enumerate(doc, 1):
                if isinstance(item, str):
                    self.puzzles.extend(
                        _GridReader(self.size, self.box, f"{self.source}[{i}]").read(item))
                else:
                    self._grid(item, line, f"item {i}: ")
        else:
            self._grid(doc, line, "")

    def _grid(self, grid, line: int, where: str) -> None:
        if not _is_grid(grid):
            raise ParseError(f"{where}expected a grid: a list of rows of numbers (0 blank)",
                             self.source, line)
        flat = not isinstance(grid[0], list)
        rows = [grid] if flat else grid
        values, zero_blank = [], False
        for r, row in enumerate(rows, 1):
            for c, cell in enumerate(row, 1):
                v = _json_cell(cell)
                if v is None:
                    raise ParseError(f"{where}row {r}, column {c}: {json.dumps(cell)} is not "
                                     f"a cell value; expected a number 0-{MAX_SIZE} or a symbol",
                                     self.source, line)
                zero_blank |= cell == 0 or cell == "0"
                values.append(v)
        if flat:
            n = self.full(len(values))
            if n is None:
                raise ParseError(where + _count_problem(len(values), self.size),
                                 self.source, line)
        else:
            n = len(rows)
            for r, row in enumerate(rows, 1):
                if len(row) != n:
                    raise ParseError(f"{where}row {r} has {len(row)} values, expected {n}",
                                     self.source, line)
            if self.size is not None and n != self.size:
                raise ParseError(f"{where}{n}x{n} grid, expected {self.size}x{self.size}",
                                 self.source, line)
        self.emit(values, n, line, "0" if zero_blank else ".")


def _is_cell(x) -> bool:
    return x is None or (isinstance(x, (int, str)) and not isinstance(x, bool)
                         and (isinstance(x, int) or len(x) <= 2))


def _is_grid(x) -> bool:
    """A flat list of cells, or a list of rows of cells."""
    if not isinstance(x, list) or not x:
        return False
    if all(isinstance(row, list) for row in x):
        return all(_is_cell(c) for row in x for c in row)
    return all(_is_cell(c) for c in x)


def _json_cell(cell) -> int | None:
    if cell is None:
        return None  # a blank is 0 or ".": null may be a value lost on the way
    if isinstance(cell, int):
        return cell if 0 <= cell <= MAX_SIZE else None
    if len(cell) == 1:
        return _VALUE.get(cell)
    return int(cell) if cell.isdigit() else None
