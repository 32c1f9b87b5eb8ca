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
`render.json_grid` writes, f-puzzles `?load=` links, TOML) go to `cpsudoku.formats.puzzlefile`;
Interactive Sudoku Solver strings (`.~R1C1_5.Thermo~...`) and links to `cpsudoku.formats.iss`;
SudokuPad links and payloads (`https://sudokupad.app/scl...`) to `cpsudoku.formats.sudokupad`.

Errors name the source, the 1-based line and column, and what was expected.
"""

from __future__ import annotations

import re
from typing import Any

from .. import validate
from ..errors import ParseError
from ..grid.puzzle import Puzzle
from ..grid.symbols import MAX_SIZE
from .grids import VALUE, GridReader, blank_of, shape
from .iss import looks_like_iss
from .sudokupad import looks_like_sudokupad
from .tables import CsvReader, JsonReader, csv_header

_LINK_PAYLOAD = re.compile(r"[A-Za-z0-9+/=]{40,}")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_TOML_LINE = re.compile(r"^(\[\[?\s*[A-Za-z_][\w.\- \"]*\]\]?|[A-Za-z_][\w\-]*\s*=)")


# --- entry points ----------------------------------------------------------------

def parse(text: str, *, size=None, box=None, source: str = "<string>") -> list[Puzzle]:
    """Every puzzle in `text`. `size` (N) and `box` ((r, c) or "RxC") override what the
    text implies; with `box` alone the size is r*c."""
    text = validate.text(text)
    source = validate.text(source, "source")
    if "\x1b" in text:  # terminal colours (givens in bold) saved along with a grid
        text = _ANSI.sub("", text)
    size, box = shape(size, box)
    body = text.strip("\ufeff \t\r\n")
    if len(body) > MAX_SIZE and "\n" not in body and body[0] not in "[{#":
        reader = GridReader(size, box, source)  # the common case: one plain line
        fast = reader.fast(body)
        if fast is not None:
            reader.emit(*fast, 1 + text[:text.find(body)].count("\n"), blank_of(body),
                        checked=True, chars=body)
            return reader.puzzles
    if not body:
        raise ParseError("empty input: no puzzle found", source)
    kind = _kind(body)
    if kind == "csv":
        puzzles = CsvReader(size, box, source).read(text)
    elif kind == "iss":
        from . import iss  # the Interactive Sudoku Solver's strings and links
        from .safeload import MAX_DOCUMENT, refuse_document
        if len(body) > MAX_DOCUMENT:  # one puzzle a line: the longest line is one puzzle
            longest = max(text.splitlines(), key=len)
            if len(longest) > MAX_DOCUMENT:
                refuse_document(f"an ISS puzzle string ({len(longest)} characters)", source)
        puzzles = iss.load(text, source)
    elif kind == "sudokupad":
        from . import sudokupad
        puzzles = sudokupad.load(text, source, parse)
    elif kind == "variant":
        puzzles = _load_variant(text, source)
    elif kind == "json":
        grids = JsonReader(size, box, source).read(text)
        # None: a list of puzzle objects
        puzzles = grids if grids is not None else _load_variant(text, source)
    else:
        puzzles = GridReader(size, box, source).read(text)
    if not puzzles:
        raise ParseError("no puzzle found (only comments, labels and blank lines)", source)
    return puzzles


def parse_one(text: str, **kw: Any) -> Puzzle:
    """The single puzzle in `text` (the first one if there are several)."""
    return parse(text, **kw)[0]


def _kind(body: str) -> str:
    """'sudokupad', 'iss', 'variant', 'json' or 'grid', from the first meaningful line."""
    first = _first_line(body)
    if looks_like_sudokupad(first):
        return "sudokupad"
    if looks_like_iss(first):
        return "iss"
    if body[0] == "{" or "?load=" in body or body.startswith(("http://", "https://")):
        return "variant"
    if _LINK_PAYLOAD.fullmatch(body) and not set(body) <= VALUE.keys():
        return "variant"  # the compressed puzzle of an f-puzzles link, on its own
    if first.startswith("{") or _TOML_LINE.match(first):
        return "variant"
    if csv_header(first) is not None:
        return "csv"
    return "json" if first.startswith("[") else "grid"


def _first_line(body: str) -> str:
    """The first line that is neither blank nor a `#` comment, stripped, found without
    splitting the rest (a big file is refused by its reader, not split here first)."""
    pos = 0
    while pos < len(body):
        end = body.find("\n", pos)
        end = len(body) if end < 0 else end
        line = body[pos:end].strip()
        if line and not line.startswith("#"):
            return line
        pos = end + 1
    return ""


def _load_variant(text: str, source: str) -> list[Puzzle]:
    from . import puzzlefile  # imported on demand: plain grids never need it
    return puzzlefile.load(text, source=source)

