"""Where puzzles come from: a file, `-` for standard input, or a grid given inline.

Every way in goes through the one parser; failures to read are one-line
`ParseError`s naming the path.
"""

from __future__ import annotations

import gzip
import sys
from pathlib import Path

from .errors import ParseError
from .parse import DECORATION, parse
from .puzzle import Puzzle
from .symbols import ALPHABET, BLANKS

STDIN = "-"
# Characters an inline grid may hold: symbols, blanks, decoration, JSON punctuation.
_GRID_CHARS = frozenset(ALPHABET + ALPHABET.lower() + "-=,;[]{}\"' \t\r\n") | BLANKS \
    | DECORATION


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
    path = Path(arg_text)
    if path.exists():
        return parse(read_file(path), size=size, box=box, source=arg_text)
    if looks_inline(arg_text):
        return parse(arg_text, size=size, box=box, source="<argument>")
    cells = _inline_cells(arg_text)
    if cells is not None and any(ch.isdigit() or ch in BLANKS for ch in arg_text):
        raise SourceError(f"no such file: {arg_text} (as an inline grid it has {cells} "
                          f"cells; the smallest grid has 16)", arg_text)
    raise SourceError(f"no such file: {arg_text}", arg_text)


def looks_inline(arg: str) -> bool:
    """A grid typed on the command line rather than a file name: grid characters only
    and at least a 4x4 grid's worth of cells (so that `abc` stays a missing file)."""
    stripped = arg.strip()
    if stripped.startswith(("{", "[")) or "?load=" in stripped:
        return True
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
