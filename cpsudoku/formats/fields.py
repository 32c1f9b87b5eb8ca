"""Reading the fields of a puzzle object (the cpsudoku puzzle file, f-puzzles): numbers,
cell references and lists, with messages that name the field; malformed data becomes
one ModelError naming the source."""

from __future__ import annotations

import re

from ..errors import ArgumentError, CpsudokuError, ModelError, ParseError
from ..grid.geometry import infer_box
from ..grid.puzzle import Puzzle
from ..grid.symbols import MAX_SIZE
from ..rules import cells as cellrefs

# The keys of the cpsudoku puzzle file (also carried by cpsudoku's own json records).
ELEMENT_KEYS = ("cages", "little_killers", "thermometers", "arrows", "odd", "even",
                "kropki", "xv", "greater_than", "extra_regions")
PUZZLE_KEYS = ("name", "title", "size", "digits", "box", "regions", "houses", "grid",
               "rules", "solution", "extra_cells", "layout", "grids")


def whole(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ModelError(f"{what} must be a whole number, not {value!r}")
    try:
        return int(value)
    except ValueError:
        raise ModelError(f"{what} must be a whole number, not {value!r}") from None


def box_pair(box) -> tuple[int, int]:
    """The `box` key written as [rows, columns]."""
    if not (isinstance(box, list) and len(box) == 2):
        raise ModelError(f"box must be \"RxC\" or [rows, columns], not {box!r}")
    rows, cols = (whole(x, "box") for x in box)
    if rows < 1 or cols < 1:
        raise ModelError(f"box {box!r} must have positive sides")
    return rows, cols


def read_size(value) -> tuple[int, int]:
    """The `size` key: N for N x N, or "RxC" for R rows of C cells."""
    if isinstance(value, str) and "x" in value.lower():
        found = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", value)
        if not found:
            raise ModelError(f"size must be a number or \"RxC\" (rows x columns, such as "
                             f"\"6x8\"), not {value!r}")
        rows, cols = int(found[1]), int(found[2])
    else:
        rows = cols = whole(value, "size")
    if not (1 <= rows <= MAX_SIZE and 1 <= cols <= MAX_SIZE):
        raise ModelError(f"size {value!r}: each side must be 1..{MAX_SIZE}")
    return rows, cols


def read_digits(value, size: int, houses: bool = True) -> range:
    """The `digits` key, "first-last" (`"0-8"`, `"1-9"` on 6x6): the digits a cell may
    hold, from 0 or 1, at least a row's worth (one on a raw grid); 1..N when absent."""
    if value is None:
        return range(1, size + 1)
    found = re.fullmatch(r"\s*(\d+)\s*-\s*(\d+)\s*", value) if isinstance(value, str) else None
    first, last = (int(found[1]), int(found[2])) if found else (-1, -1)
    least = size if houses else 1
    if first not in (0, 1) or not least <= last - first + 1 <= MAX_SIZE:
        grid = f"{size}x{size} grid" if houses else "raw grid"
        raise ModelError(f"digits must be \"first-last\", from 0 or 1, {least} to {MAX_SIZE} "
                         f"of them on a {grid} (such as \"1-{size}\" or "
                         f"\"0-{size - 1}\"), not {value!r}")
    return range(first, last + 1)


def digits_key(digits: range) -> str:
    """The `digits` key of a puzzle's digits: "first-last"."""
    return f"{digits[0]}-{digits[-1]}"


def cell_list(spec, size: int, what: str) -> tuple:
    """Cell references from names, (row, column) pairs or 0-based indices."""
    if isinstance(spec, str):
        return cellrefs.refs(spec)
    if not isinstance(spec, (list, tuple)):
        raise ModelError(f"{what}: cells must be a list, not {spec!r}")
    out: list[cellrefs.CellRef] = []
    for item in spec:
        if isinstance(item, int) and not isinstance(item, bool):
            if item < 0:
                raise ModelError(f"{what}: cell index {item} is negative")
            out.append((item // size + 1, item % size + 1))
        else:
            try:
                out.append(cellrefs.ref(item))
            except ModelError as exc:
                raise ModelError(f"{what}: {exc}") from None
    return tuple(out)


def listed(value, what: str) -> list:
    if not isinstance(value, list):
        raise ModelError(f"{what} must be a list, not {type(value).__name__}")
    return value


def reading(read, data: dict, source: str, what: str) -> Puzzle:
    """Run a reader; errors name the source, and malformed data is a ModelError."""
    try:
        return read(data, source)
    except CpsudokuError as exc:
        if isinstance(exc, ParseError) or str(exc).startswith(source):
            raise
        # The file's data, not the caller's arguments, was wrong: bad input, not usage.
        kind = ModelError if isinstance(exc, ArgumentError) else type(exc)
        raise kind(f"{source}: {exc}") from None
    except RecursionError:
        raise ModelError(f"{source}: {what} data nested too deep") from None
    except (KeyError, TypeError, AttributeError, IndexError, ValueError) as exc:
        detail = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
        raise ModelError(f"{source}: malformed {what} data: {detail}") from None


def box_or_none(n: int):
    try:
        return infer_box(n)
    except ModelError:
        return None
