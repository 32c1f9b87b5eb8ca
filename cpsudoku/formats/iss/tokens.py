"""What reading and writing share: ISS's items (`.Type~arg~arg`), its cell ids
(`R1C1` .. `RgCg`), its regex patterns and little-killer diagonals, and the refusal
of an item cpsudoku cannot take."""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass
from urllib.parse import unquote

from ...errors import ModelError, ParseError

ISS_URL = "https://sigh.github.io/Interactive-Sudoku-Solver/"

DIGITS = "123456789abcdefg"  # ISS writes row and column 10..16 as one base-17 letter
CELL = re.compile(r"^[Rr]([1-9a-gA-G])[Cc]([1-9a-gA-G])$")
VAR_ID = re.compile(r"V([A-Z]+?)(\d*)")  # a `.Var` group's cell: V<prefix>[<number>]
DOPPELGANGER_ID = re.compile(r"DG[RCB]\d+")

MAX_DIGITS = 16  # ISS holds at most 16 digits



@dataclass(frozen=True)
class Item:
    """One `.Type~args` item of a string: its type, arguments, number and column."""

    kind: str
    args: tuple[str, ...]
    number: int
    column: int

    def where(self) -> str:
        return f"ISS constraint {self.number} ({self.kind or 'given'}, column {self.column})"


def items(text: str, source: str = "<string>", line: int | None = None) -> list[Item]:
    """The items of one constraint string, each with its 1-based column."""
    if not text.startswith("."):
        raise ParseError("an ISS constraint string starts with '.'", source, line, 1)
    out, pos = [], 0
    for number, raw in enumerate(text[1:].split("."), 1):
        column = pos + 1
        pos += len(raw) + 1
        kind, *args = re.sub(r"\s+", "", raw).split("~")
        if not kind and not args:
            continue  # `..`: ISS allows an empty item
        out.append(Item(kind or "Given", tuple(args), number, column))
    return out


# ---------------------------------------------------------------- cells

def cell_name(cell: str, size: int, item: Item, width: int = 0) -> str:
    """An ISS cell id (`R1C1`, `RaCg` past 9) as a cpsudoku cell name (`r10c16`), on a
    grid of `size` rows of `width` cells (square unless given)."""
    m = CELL.match(cell)
    if not m:
        raise Refusal(f"{cell!r} is not an ISS cell id (R1C1 .. RgCg)", item)
    row, col = (DIGITS.index(ch.lower()) + 1 for ch in m.groups())
    if row > size or col > (width or size):
        raise Refusal(f"cell {cell} is outside the {size}x{width or size} grid", item)
    return f"r{row}c{col}"


def iss_cell(name: str) -> str:
    """A cpsudoku cell name (`r10c16`) as an ISS cell id (`RaCg`); an extra cell keeps
    its name, which is ISS's id (`VA1`, `DGR3`)."""
    if VAR_ID.fullmatch(name) or DOPPELGANGER_ID.fullmatch(name):
        return name
    m = re.fullmatch(r"\s*[rR](\d+)[cC](\d+)\s*", name)
    if not m or not all(1 <= int(x) <= len(DIGITS) for x in m.groups()):
        raise ModelError(f"cell {name!r} has no ISS id (ISS grids are at most 16x16)")
    row, col = (int(x) for x in m.groups())
    return f"R{DIGITS[row - 1]}C{DIGITS[col - 1]}"


class Refusal(Exception):
    """An item cpsudoku cannot take; becomes a ParseError naming the item."""

    def __init__(self, message: str, item: Item):
        super().__init__(message)
        self.item = item



def parse_error(refusal: Refusal, source: str, line: int | None) -> ParseError:
    item = refusal.item
    return ParseError(f"{item.where()}: {refusal}", source, line, item.column)


def decode_pattern(token: str) -> str:
    """An ISS regex argument: URL-safe base64 (older links: URL-encoded text)."""
    if "%" in token or "." in token:
        return unquote(token)
    padded = token.replace("-", "+").replace("_", "/")
    return base64.b64decode(padded + "=" * (-len(padded) % 4)).decode("latin-1")


def encode_pattern(pattern: str) -> str:
    return base64.b64encode(pattern.encode("latin-1")).decode().replace(
        "+", "-").replace("/", "_").rstrip("=")



def little_killer_diagonals(n: int) -> dict[str, list[str]]:
    """ISS names a little killer by the first cell of its diagonal: from the left edge
    running down-right, from the right edge up-left, from the top down-left and from
    the bottom up-right, each diagonal once."""
    out: dict[str, list[str]] = {}
    seen: set[frozenset] = set()

    def walk(row: int, col: int, dr: int, dc: int) -> None:
        cells = []
        while 0 <= row < n and 0 <= col < n:
            cells.append(f"r{row + 1}c{col + 1}")
            row, col = row + dr, col + dc
        if len(cells) > 1 and frozenset(cells) not in seen:
            seen.add(frozenset(cells))
            out[cells[0]] = cells

    for row in range(n - 1):
        walk(row, 0, 1, 1)
    for row in range(1, n - 1):
        walk(row, n - 1, -1, -1)
    for col in range(1, n):
        walk(0, col, 1, -1)
    for col in range(1, n - 1):
        walk(n - 1, col, -1, 1)
    return out

