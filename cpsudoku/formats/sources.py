"""Where puzzles come from: a file, `-` for standard input, or a grid given inline.

Every way in goes through the one parser; failures to read are one-line
`ParseError`s naming the path.
"""

from __future__ import annotations

import gzip
import itertools
import math
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..errors import CpsudokuError, ParseError
from ..grid.puzzle import Puzzle
from ..grid.symbols import ALPHABET, BLANKS, MAX_SIZE
from .grids import DECORATION
from .iss import looks_like_iss
from .read import parse
from .sudokupad import looks_like_sudokupad

STDIN = "-"
# Characters an inline grid may hold: symbols, blanks, decoration, JSON punctuation.
_GRID_CHARS = frozenset(ALPHABET + ALPHABET.lower() + "-=,;[]{}\"' \t\r\n") | BLANKS \
    | DECORATION
_SYMBOLS = frozenset(ALPHABET + ALPHABET.lower()) | BLANKS


class SourceError(ParseError):
    """A source that cannot be read at all; the message names the path itself."""

    def __str__(self) -> str:
        return self.message


def read_puzzles(arg, *, size=None, box=None) -> list[Puzzle]:
    """The puzzles of one command-line argument: an existing path is read as a file,
    `-` as standard input, and anything that looks like a grid is parsed inline."""
    arg_text = str(arg)
    if arg_text == STDIN:
        return parse(read_stdin(), size=size, box=box, source="<stdin>")
    if is_path(arg_text):
        return parse(read_file(arg_text), size=size, box=box, source=arg_text)
    if looks_inline(arg_text):
        return parse(arg_text, size=size, box=box, source="<argument>")
    cells = _inline_cells(arg_text)
    if cells is not None and any(ch.isdigit() or ch in BLANKS for ch in arg_text):
        raise SourceError(f"no such file: {arg_text} (as an inline grid it has {cells} "
                          f"cells; the smallest grid has 16)", arg_text)
    raise SourceError(f"no such file: {arg_text}", arg_text)


def is_path(arg: str) -> bool:
    """Whether `arg` names something on disk. A grid typed inline may be longer than a
    file name can be, or hold a NUL: that is no path, not an error."""
    return os.path.exists(arg)


def looks_inline(arg: str) -> bool:
    """A puzzle typed on the command line rather than a file name: grid characters only
    and at least a 4x4 grid's worth of cells (so that `abc` stays a missing file), a
    JSON document, or an f-puzzles, SudokuPad or Interactive Sudoku Solver link or string."""
    stripped = arg.strip()
    if stripped.startswith(("{", "[")) or "?load=" in stripped:
        return True
    if "\n" not in stripped and looks_like_sudokupad(stripped):
        return True  # a SudokuPad link or payload, read inline as an f-puzzles link is
    if stripped.startswith(("http://", "https://", ".")) and "\n" not in stripped \
            and looks_like_iss(stripped):
        return True  # an ISS link or string, read inline as an f-puzzles link is
    cells = _inline_cells(stripped)
    return cells is not None and cells >= 16


def _inline_cells(arg: str) -> int | None:
    """How many cells `arg` would have as a grid, or None if it holds other characters."""
    stripped = arg.strip()
    if not stripped or not set(stripped) <= _GRID_CHARS:
        return None
    return sum(ch in ALPHABET or ch in ALPHABET.lower() or ch in BLANKS for ch in stripped)


def read_file(path) -> str:
    """A file's text (UTF-8, a BOM allowed; `.gz` files are decompressed)."""
    path = Path(path)
    try:
        data = path.read_bytes()
        if path.suffix == ".gz":
            data = gzip.decompress(data)
    except IsADirectoryError:
        raise SourceError(f"{path} is a directory, not a puzzle file", str(path)) from None
    except FileNotFoundError:
        raise SourceError(f"no such file: {path}", str(path)) from None
    except PermissionError:
        raise SourceError(f"cannot read {path}: permission denied", str(path)) from None
    except (OSError, EOFError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise SourceError(f"cannot read {path}: {reason}", str(path)) from None
    return decode(data, str(path))


def read_stdin() -> str:
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:  # a text stream without bytes underneath (tests, embedding)
        return sys.stdin.read()
    return decode(stream.read(), "<stdin>")


def decode(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SourceError(f"cannot read {name}: not UTF-8 text (byte 0x{data[exc.start]:02x} "
                          f"at offset {exc.start})", name) from None


# --- lazy reading, for batches: one puzzle at a time, never a whole big file ------------

@dataclass(frozen=True, slots=True)
class BadPuzzle:
    """A puzzle of the input that could not be read: where it is and why."""

    source: str  # "file:line" (or the file when the whole source failed)
    message: str  # the full one-line message, naming the source, line and column

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True, slots=True)
class Entry:
    """One puzzle of the input: a line of a one-puzzle-a-line file, not yet parsed (so
    that parsing can happen in a worker), or a puzzle already read from a structured
    file, or the error that stopped a source."""

    source: str
    line: int | None = None
    text: str | None = None
    puzzle: Puzzle | None = None
    error: str | None = None

    def __reduce__(self):
        # Sent to batch workers by the thousand: a tuple pickles faster than the slots
        # dataclass default, which calls fields() per object.
        return Entry, (self.source, self.line, self.text, self.puzzle, self.error)

    @property
    def where(self) -> str:
        return f"{self.source}:{self.line}" if self.line else self.source

    def load(self, size=None, box=None) -> Puzzle | BadPuzzle:
        """The puzzle, parsed with the one shared parser, or what is wrong with it."""
        if self.puzzle is not None:
            return self.puzzle
        if self.text is None:
            return BadPuzzle(self.where, self.error or f"{self.where}: unreadable")
        try:
            puzzles = parse(self.text, size=size, box=box, source=self.source)
        except ParseError as exc:
            # The text is one line: its line 1 is line `self.line` of the source.
            line = (self.line or 1) + (exc.line or 1) - 1
            return BadPuzzle(self.where, str(ParseError(exc.message, self.source, line,
                                                         exc.column)))
        except CpsudokuError as exc:
            return BadPuzzle(self.where, f"{self.where}: {exc}")
        if len(puzzles) != 1:
            return BadPuzzle(self.where, f"{self.where}: {len(puzzles)} puzzles on one line")
        puzzle = puzzles[0]
        # The parser named it "<file>:1"; it is fresh and unshared, so correcting the
        # line in place is safe (and a third of the cost of a copy per puzzle).
        object.__setattr__(puzzle, "source", self.where)
        return puzzle


def iter_entries(arg, *, size=None, box=None) -> Iterator[Entry]:
    """The puzzles of one command-line argument, one `Entry` at a time.

    A file whose first puzzle is a plain line of N*N symbols is streamed line by line
    (each line its own puzzle, so one bad line spoils only itself); any other file
    (multi-line grids, JSON, TOML) is small enough to be parsed whole."""
    arg_text = str(arg)
    if arg_text == STDIN:
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:  # a text stream without bytes underneath (tests, embedding)
            yield from _whole(sys.stdin.read(), "<stdin>", size, box)
        else:
            yield from _stream(stream, "<stdin>", size, box)
        return
    path = Path(arg_text)
    if not os.path.isfile(arg_text):
        yield from _whole(None, arg_text, size, box)  # read_puzzles names the problem
        return
    try:
        handle = gzip.open(path, "rb") if path.suffix == ".gz" else open(path, "rb")
    except OSError:
        yield from _whole(None, arg_text, size, box)
        return
    with handle:
        yield from _stream(handle, arg_text, size, box)


def check_arg(arg) -> None:
    """Fail now, as `read_puzzles` would, for an argument that is no file, no `-` and
    no inline grid: a missing file is a mistake in the command, not a bad puzzle."""
    arg_text = str(arg)
    if arg_text != STDIN and not is_path(arg_text) and not looks_inline(arg_text):
        read_puzzles(arg_text)


def iter_puzzles(args, *, size=None, box=None) -> Iterator[Puzzle | BadPuzzle]:
    """Every puzzle of every argument, parsed lazily: a bad one is a `BadPuzzle` in
    its place and the rest still come."""
    for arg in args:
        for entry in iter_entries(arg, size=size, box=box):
            yield entry.load(size, box)


def _whole(text: str | None, source: str, size, box) -> Iterator[Entry]:
    """Entries of a source parsed in one go (`text` None: read it as read_puzzles does)."""
    try:
        if text is None:
            puzzles = read_puzzles(source, size=size, box=box)
        else:
            puzzles = parse(text, size=size, box=box, source=source)
    except CpsudokuError as exc:
        yield Entry(source, error=str(exc))
        return
    for puzzle in puzzles:
        yield Entry(puzzle.source or source, puzzle=puzzle)


def _stream(handle, source: str, size, box) -> Iterator[Entry]:
    lines = iter(handle)
    head, text = _head(lines)
    if not _plain_line(text, size):
        rest = b"".join(head) + b"".join(lines)
        try:
            yield from _whole(decode(rest, source), source, size, box)
        except SourceError as exc:
            yield Entry(source, error=str(exc))
        return
    for number, raw in enumerate(itertools.chain(head, lines), 1):
        entry = entry_of(raw, number, source)
        if entry is not None:
            yield entry


def entry_of(raw: bytes, number: int, source: str) -> Entry | None:
    """Line `number` of a one-puzzle-a-line source as an Entry, or None for a blank or
    `#` comment line."""
    try:
        text = raw.decode("utf-8-sig" if number == 1 else "utf-8").strip()
    except UnicodeDecodeError as exc:
        return Entry(source, number, error=f"{source}:{number}:{exc.start + 1}: "
                                           f"not UTF-8 text")
    if text and not text.startswith("#"):
        return Entry(source, number, text)
    return None


def lines_first(arg: str, size=None) -> bool:
    """Whether `iter_entries` streams the file `arg` line by line (its first puzzle is a
    plain line of N*N symbols), so that a reader of its raw lines may take it."""
    if not os.path.isfile(arg) or arg.endswith(".gz"):
        return False
    try:
        with open(arg, "rb") as handle:
            return _plain_line(_head(iter(handle))[1], size)
    except OSError:
        return False


def _head(lines: Iterator[bytes]) -> tuple[list[bytes], str]:
    """The lines up to the first puzzle's, and that line's text ("" when none)."""
    head: list[bytes] = []
    text = ""
    for raw in lines:  # up to the first puzzle: is it a plain line of N*N symbols?
        head.append(raw)
        text = raw.decode("utf-8-sig" if len(head) == 1 else "utf-8", "replace").strip()
        if text and not text.startswith("#"):
            break
    return head, text


def _plain_line(text: str, size) -> bool:
    """A whole puzzle of 6x6 or more on one line, symbols only (other fields may follow
    it): such a line can be no row of a multi-line grid, so the file is one puzzle a
    line."""
    text = text.split(None, 1)[0] if text else text
    count = len(text)
    if count <= MAX_SIZE or (size is not None and count != size * size):
        return False
    return math.isqrt(count) ** 2 == count and all(ch in _SYMBOLS for ch in text)
