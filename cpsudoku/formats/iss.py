"""The Interactive Sudoku Solver's constraint strings and links, read and written.

An ISS constraint string is a run of `.Type~arg~arg...` items (`.~R1C1_5` for a given,
`.Thermo~R9C4~R8C3`, `.Diagonal~1`, `.Shape~6x6`); an ISS link carries one in its `q`
parameter. `.Shape` may name other digits than 1..N (`6x6~9`: 1..9; `9x9~0-8`), and
`.RegionSize` boxes or jigsaw pieces of more cells than a row: the puzzle file's
`digits`, `box` and `regions` keys. Givens and clues are digits, as in the puzzle file
(relation keys and automata count values 1..V, and are translated).

Reading turns one into the cpsudoku puzzle-file dict (see
`cpsudoku.formats.puzzlefile`) and loads it with the puzzle-file loader, so both speak
one vocabulary; `ISS_TYPES` is the one table from ISS types to puzzle-file keys. A type
with no cpsudoku counterpart, or whose key the loader does not know yet, is refused with
its name and where it stands in the string, never left out. Writing goes the other way,
from `puzzlefile.as_dict(puzzle)` to a string or a link.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import SplitResult, parse_qs, quote, unquote, urlsplit

from ..errors import CpsudokuError, ModelError, ParseError
from ..grid.geometry import MAX_EXTRA, Geometry, box_for, tiles
from ..grid.puzzle import Puzzle
from ..grid.symbols import line as symbol_line
from ..rules.doppelganger import doppelganger_cells
from ..rules.full_rank import TIES, TIES_KEY
from . import iss_codes, iss_shorthand
from .fields import digits_key

ISS_URL = "https://sigh.github.io/Interactive-Sudoku-Solver/"
_DIGITS = "123456789abcdefg"  # ISS writes row and column 10..16 as one base-17 letter
_CELL = re.compile(r"^[Rr]([1-9a-gA-G])[Cc]([1-9a-gA-G])$")
_LINK_QUERY = re.compile(r"[?&#]q=")
_VAR_ID = re.compile(r"V([A-Z]+?)(\d*)")  # a `.Var` group's cell: V<prefix>[<number>]
_DOPPELGANGER_ID = re.compile(r"DG[RCB]\d+")


# ---------------------------------------------------------------- recognising input

def looks_like_iss(text: str) -> bool:
    """Whether `text` (stripped, comments allowed before it) is an ISS string or link."""
    first = next((s.strip() for s in text.splitlines()
                  if s.strip() and not s.lstrip().startswith("#")), "")
    if first.startswith(("http://", "https://")):
        return bool(_LINK_QUERY.search(first)) and "load=" not in first
    if iss_shorthand.kind(first) is not None:
        return True  # a killer or jigsaw in ISS's one-line shorthand
    if not first.startswith("."):
        return False
    head = re.match(r"\.+([A-Za-z]*)(~|\.|\s|$)", first)  # ISS skips empty items
    if head is None:
        return False
    kind, after = head.groups()
    # no grid holds a '~'
    return after == "~" or kind in ISS_TYPES or kind in REFUSED or kind in COMPOSITES


# ---------------------------------------------------------------- tokens

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
    m = _CELL.match(cell)
    if not m:
        raise _Refusal(f"{cell!r} is not an ISS cell id (R1C1 .. RgCg)", item)
    row, col = (_DIGITS.index(ch.lower()) + 1 for ch in m.groups())
    if row > size or col > (width or size):
        raise _Refusal(f"cell {cell} is outside the {size}x{width or size} grid", item)
    return f"r{row}c{col}"


def iss_cell(name: str) -> str:
    """A cpsudoku cell name (`r10c16`) as an ISS cell id (`RaCg`); an extra cell keeps
    its name, which is ISS's id (`VA1`, `DGR3`)."""
    if _VAR_ID.fullmatch(name) or _DOPPELGANGER_ID.fullmatch(name):
        return name
    m = re.fullmatch(r"\s*[rR](\d+)[cC](\d+)\s*", name)
    if not m or not all(1 <= int(x) <= len(_DIGITS) for x in m.groups()):
        raise ModelError(f"cell {name!r} has no ISS id (ISS grids are at most 16x16)")
    row, col = (int(x) for x in m.groups())
    return f"R{_DIGITS[row - 1]}C{_DIGITS[col - 1]}"


class _Refusal(Exception):
    """An item cpsudoku cannot take; becomes a ParseError naming the item."""

    def __init__(self, message: str, item: Item):
        super().__init__(message)
        self.item = item


# ---------------------------------------------------------------- reading items

@dataclass
class Reading:
    """The puzzle-file dict being built, and which item first asked for each key."""

    size: int  # rows
    data: dict[str, Any]
    origin: dict[str, Item]
    digits: range = range(0)  # the digits a cell may hold: 1..N unless the Shape says
    boxes: bool = True
    houses: bool = True  # False: ISS's Raw grid type
    region_size: tuple[int, Item] | None = None  # `.RegionSize`: cells a region holds
    jigsaw: tuple[str, Item] | None = None
    same_regions: Item | None = None  # `.RegionSameValues`
    givens: dict[str, set[int]] = field(default_factory=dict)
    candidates: dict[str, set[int]] = field(default_factory=dict)
    width: int = 0  # columns: 0 means `size`
    extra: tuple[str, ...] = ()  # the ids of the cells outside the grid (`Var`, Doppelganger)
    # where ISS lays out an extra cell of a group with columns: (group, row, column)
    places: dict[str, tuple[int, int, int]] = field(default_factory=dict)

    def __post_init__(self):
        self.width = self.width or self.size
        self.digits = self.digits or range(1, max(self.size, self.width) + 1)

    @property
    def ncells(self) -> int:
        return self.size * self.width

    def cell(self, arg: str, item: Item) -> str:
        if arg in self.extra:
            return arg  # an extra cell keeps ISS's id as its name
        return cell_name(arg, self.size, item, self.width)

    def place(self, name: str) -> tuple[int, int, int] | None:
        """Where a cell sits: (0, row, column) on the grid, (group, row, column) for an
        extra cell of a group laid out in columns, None for any other extra cell."""
        if name in self.extra:
            return self.places.get(name)
        row, col = map(int, re.findall(r"\d+", name))
        return 0, row, col

    def cells(self, args, item: Item, least: int = 1) -> list[str]:
        if args and args[-1] == "LOOP":
            raise _Refusal("a looped line has no cpsudoku counterpart", item)
        if len(args) < least or any(not a for a in args):
            raise _Refusal(f"expects at least {least} cell(s)", item)
        return [self.cell(a, item) for a in args]

    def add(self, key: str, value, item: Item) -> None:
        self.data.setdefault(key, []).append(value)
        self.origin.setdefault(key, item)

    def table(self, key: str, item: Item) -> dict:
        self.origin.setdefault(key, item)
        return self.data.setdefault(key, {})

    def rule(self, name: str, item: Item) -> None:
        rules = self.data.setdefault("rules", [])
        if name not in rules:
            rules.append(name)
        self.origin.setdefault(name, item)


def _number(text: str, item: Item, what: str) -> int:
    if not re.fullmatch(r"-?\d+", text or ""):
        raise _Refusal(f"{what} must be a whole number, not {text!r}", item)
    return int(text)


def _line(key: str) -> Callable:
    def read(r: Reading, item: Item) -> None:
        r.add(key, r.cells(item.args, item, 2), item)
    return read


def _with(key: str, param: str, default: int | None = None) -> Callable:
    """A line whose first argument is a number (`.Lockout~4~cells`); ISS lets a
    whisper leave out its difference, meaning `default`. A sum line may end in `LOOP`
    (closed: its last cell touches its first)."""
    def read(r: Reading, item: Item) -> None:
        args = item.args
        if default is not None and args and _CELL.match(args[0]):
            args = (str(default),) + args
        if not args:
            raise _Refusal(f"expects its {param} and cells", item)
        loop = key in _LOOPED and args[-1] == "LOOP"
        r.add(key, {"cells": r.cells(args[1:len(args) - loop], item, 2),
                    param: _number(args[0], item, param)} | ({"loop": True} if loop else {}),
              item)
    return read


_LOOPED = {"sum_lines"}  # the keys whose lines ISS may close with `LOOP`


def _weighted(r: Reading, args, item: Item, coeffs: list[int] | None = None) -> dict:
    """Cells as a puzzle-file cage's `cells`, and `weights` when a cell is listed
    twice or a coefficient is not 1 (ISS adds a repeated cell's coefficients)."""
    names = r.cells(args, item)
    if coeffs is not None and len(coeffs) != len(names):
        raise _Refusal(f"{len(coeffs)} coefficients for {len(names)} cells", item)
    weight: dict[str, int] = {}
    for name, w in zip(names, coeffs or [1] * len(names)):
        weight[name] = weight.get(name, 0) + w
    cells = [name for name, w in weight.items() if w]
    if not cells:
        raise _Refusal("expects cells", item)
    entry: dict[str, Any] = {"cells": cells}
    if any(w != 1 for w in weight.values()):
        entry["weights"] = [weight[name] for name in cells]
    return entry


def _cage(r: Reading, item: Item) -> None:
    if not item.args:
        raise _Refusal("expects a sum (may be empty) and cells", item)
    entry = _weighted(r, item.args[1:], item)
    if item.args[0] not in ("", "0"):  # ISS: a sum of 0 is a cage with no sum shown
        entry["sum"] = _number(item.args[0], item, "sum")
    elif "weights" in entry:  # no sum: only its digits differ
        del entry["weights"]
    r.add("cages", entry, item)


def _sum(r: Reading, item: Item) -> None:
    total, *coeffs = (item.args[0] if item.args else "").split("_")
    if coeffs and coeffs[0] != "=":
        raise _Refusal(f"expects a sum, or a sum then _=_ and coefficients, not "
                       f"{item.args[0]!r}", item)
    weights = [_number(c, item, "coefficient") for c in coeffs[1:]] if coeffs else None
    entry = _weighted(r, item.args[1:], item, weights)
    r.add("cages", {"sum": _number(total, item, "sum"), **entry, "repeats": True}, item)


def _rellik(r: Reading, item: Item) -> None:
    if not item.args:
        raise _Refusal("expects a sum and cells", item)
    r.add("rellik_cages", {"cells": r.cells(item.args[1:], item, 2),
                           "sum": _number(item.args[0], item, "sum")}, item)


def _arrow(r: Reading, item: Item) -> None:
    cells = r.cells(item.args, item, 2)
    at = [r.place(c) for c in cells]
    if all(a is not None and b is not None and a[0] == b[0] == 0
           and max(abs(a[1] - b[1]), abs(a[2] - b[2])) == 1 for a, b in zip(at, at[1:])):
        r.add("arrows", {"circle": cells[:1], "cells": cells[1:]}, item)
    else:  # ISS lets an arrow jump: then it is only a sum, the circle's digit subtracted
        entry = _weighted(r, item.args, item, [-1] + [1] * (len(cells) - 1))
        r.add("cages", {"sum": 0, **entry, "repeats": True}, item)


def _pill_arrow(r: Reading, item: Item) -> None:
    k = _number(item.args[0] if item.args else "", item, "pill size")
    cells = r.cells(item.args[1:], item, k + 1)
    # ISS reads the pill's digits in reading order, cpsudoku in list order
    pill = sorted(cells[:k], key=lambda c: tuple(map(int, re.findall(r"\d+", c))))
    r.add("arrows", {"circle": pill, "cells": cells[k:]}, item)


def _pairs(r: Reading, cells: list[str]) -> list[list[str]]:
    """The orthogonally adjacent pairs among a dot's cells (ISS lets one item mark
    several), in list order; extra cells touch within their group's layout."""
    at = [r.place(c) for c in cells]

    def touch(a, b) -> bool:
        return (a is not None and b is not None and a[0] == b[0]
                and abs(a[1] - b[1]) + abs(a[2] - b[2]) == 1)

    return [[cells[i], cells[j]] for i in range(len(cells)) for j in range(i + 1, len(cells))
            if touch(at[i], at[j])]


def _mark(table: str, kind: str) -> Callable:
    def read(r: Reading, item: Item) -> None:
        pairs = _pairs(r, r.cells(item.args, item, 2))
        if not pairs:
            raise _Refusal("its cells are not adjacent", item)
        marks = r.table(table, item)
        for pair in pairs:
            marks.setdefault(kind, []).append(pair)
    return read


def _greater(r: Reading, item: Item) -> None:
    pairs = _pairs(r, r.cells(item.args, item, 2))
    if not pairs:
        raise _Refusal("its cells are not adjacent", item)
    for pair in pairs:  # ISS: each cell is greater than the later adjacent ones
        r.add("greater_than", pair, item)


def _strict(table: str) -> Callable:
    def read(r: Reading, item: Item) -> None:
        r.table(table, item)["all_given"] = True
    return read


def _rule(name: str) -> Callable:
    def read(r: Reading, item: Item) -> None:
        r.rule(name, item)
    return read


def _diagonal(r: Reading, item: Item) -> None:
    way = item.args[0] if item.args else ""
    if way not in ("1", "-1"):
        raise _Refusal(f"direction must be 1 or -1, not {way!r}", item)
    r.rule("diagonal+" if way == "1" else "diagonal-", item)


def _given(r: Reading, item: Item) -> None:
    """Givens (`R1C1_5`) and candidate sets (`R1C1_1_3_5`), kept as digits; ISS
    intersects repeats, and a cell may have both a given and a set (cpsudoku keeps
    both, meaning the same)."""
    for arg in item.args:
        cell, *values = arg.split("_")
        name = r.cell(cell, item)
        if not values or not all(re.fullmatch(r"\d+", v) and int(v) in r.digits for v in values):
            raise _Refusal(f"{arg!r}: values must be {r.digits[0]}..{r.digits[-1]}", item)
        chosen = {int(v) for v in values}
        table = r.givens if len(chosen) == 1 else r.candidates
        known = table.get(name)
        if known is not None and len(chosen) == 1 and known != chosen:
            raise _Refusal(f"{cell} is given twice, as {min(known)} and {min(chosen)}", item)
        table[name] = chosen if known is None else known & chosen
        r.origin.setdefault("given", item)


def _shape(r: Reading, item: Item) -> None:
    pass  # read first, by `_shape_of`


def _jigsaw(r: Reading, item: Item) -> None:
    if not 1 <= len(item.args) <= 2 or len(item.args[-1]) != r.ncells:
        raise _Refusal(f"expects a layout of {r.ncells} region labels", item)
    r.jigsaw = (item.args[-1], item)


def _region_size(r: Reading, item: Item) -> None:
    if len(item.args) != 1:
        raise _Refusal("expects the number of cells a region holds", item)
    if r.region_size is None:  # ISS takes the first
        r.region_size = (_number(item.args[0], item, "region size"), item)
        r.origin.setdefault("regions", item)


_REGION_CELL = re.compile(r"CC(\d+)")  # a region-label variable, k-th cell in reading order


def _is_region_cell(arg: str) -> bool:
    return _REGION_CELL.fullmatch(arg) is not None


def _region_cell(arg: str, r: Reading, item: Item) -> str:
    """A chaos clue's cell: a region-label variable `CC<k>` (k-th cell in reading order,
    1-based) or a grid cell id, which ISS accepts too."""
    m = _REGION_CELL.fullmatch(arg)
    if not m:
        return r.cell(arg, item)
    k = int(m.group(1))
    if not 1 <= k <= r.ncells:
        raise _Refusal(f"region cell {arg} is outside the {r.size}x{r.width} grid", item)
    return f"r{(k - 1) // r.width + 1}c{(k - 1) % r.width + 1}"


def _chaos(key: str) -> Callable:
    """`.ChaosArrow~cell~offset~arm~-~arm` / `.ChaosCount~cell~offset~cells`: offset and
    cells optional (ISS then takes the four directions / the 3x3 around the cell)."""
    def read(r: Reading, item: Item) -> None:
        if not item.args:
            raise _Refusal("expects its control cell", item)
        clue: dict[str, Any] = {"cell": r.cell(item.args[0], item)}
        if len(item.args) > 1 and item.args[1]:
            clue["offset"] = _number(item.args[1], item, "offset")
        rest = list(item.args[2:])
        if key == "chaos_arrows":
            arms: list[list[str]] = []
            arm: list[str] = []
            for arg in rest + ["-"]:
                if arg == "-":
                    if arm:
                        arms.append(arm)
                    arm = []
                else:
                    arm.append(_region_cell(arg, r, item))
            if arms:
                clue["arms"] = arms
        elif rest:
            clue["cells"] = [_region_cell(arg, r, item) for arg in rest]
        r.add(key, clue, item)
    return read


def _write_chaos(kind: str, part: str) -> Callable:
    def write(items, n):
        out = []
        for clue in items:
            groups = clue.get(part, [])
            cells = [cell for arm in groups for cell in ["-", *_cells(arm)]][1:] \
                if part == "arms" else _cells(groups)
            regions = [c if c == "-" else _region_id(c, n) for c in cells]
            out.append(_item(kind, iss_cell(clue["cell"]), clue.get("offset", 0), *regions))
        return out
    return write


def _region_id(iss_id: str, n: int) -> str:
    found = _CELL.match(iss_id)
    assert found is not None  # made by iss_cell
    row, col = (_DIGITS.index(ch.lower()) for ch in found.groups())
    return f"CC{row * n + col + 1}"


def _no_boxes(r: Reading, item: Item) -> None:
    r.boxes = False
    r.origin.setdefault("regions", item)


def _line_of(r: Reading, arg: str, item: Item) -> dict[str, int]:
    m = re.fullmatch(r"([RC])([1-9a-gA-G])", arg or "")
    if not m or _DIGITS.index(m.group(2).lower()) >= (r.size if m.group(1) == "R" else r.width):
        raise _Refusal(f"{arg!r} is not a row or column (R1 .. R{r.size}, C1 .. C{r.width})",
                       item)
    return {"row" if m.group(1) == "R" else "column": _DIGITS.index(m.group(2).lower()) + 1}


def _outside(key: str) -> Callable:
    """A clue at either end of a row or column: `.XSum~R1~start~end`."""
    def read(r: Reading, item: Item) -> None:
        if len(item.args) not in (2, 3) or not any(item.args[1:]):
            raise _Refusal("expects a row or column and a value at its start or end", item)
        line = _line_of(r, item.args[0], item)
        for side, value in zip(("start", "end"), item.args[1:]):
            if value:
                r.add(key, {**line, "side": side, "value": _number(value, item, "value")}, item)
    return read


def _sandwich(r: Reading, item: Item) -> None:
    if len(item.args) != 2:
        raise _Refusal("expects a sum and a row or column", item)
    r.add("sandwiches", {**_line_of(r, item.args[1], item), "side": "start",
                         "value": _number(item.args[0], item, "sum")}, item)


def _lunchbox(r: Reading, item: Item) -> None:
    """A lunchbox on a whole row or column in order is written as one; any other
    cells are listed."""
    if not item.args:
        raise _Refusal("expects a sum and cells", item)
    cells = r.cells(item.args[1:], item)
    value = _number(item.args[0], item, "sum")
    at = [tuple(map(int, re.findall(r"\d+", c))) for c in cells]
    for axis, key in ((0, "row"), (1, "column")):
        whole = r.width if key == "row" else r.size
        if at == sorted(at) and len(set(at)) == whole and len({p[axis] for p in at}) == 1:
            r.add("lunchboxes", {key: at[0][axis], "side": "start", "value": value}, item)
            return
    r.add("lunchboxes", {"cells": cells, "value": value}, item)


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


def _little_killer(r: Reading, item: Item) -> None:
    if len(item.args) != 2:
        raise _Refusal("expects a sum and the first cell of its diagonal", item)
    if r.width != r.size:
        raise _Refusal("little killers are read on square grids only", item)
    cells = little_killer_diagonals(r.size).get(r.cell(item.args[1], item))
    if cells is None:
        raise _Refusal(f"no ISS little-killer diagonal starts at {item.args[1]}", item)
    r.add("little_killers", {"sum": _number(item.args[0], item, "sum"), "cells": cells}, item)


def _quad(r: Reading, item: Item) -> None:
    if len(item.args) < 2:
        raise _Refusal("expects its top-left cell and values", item)
    top = r.cell(item.args[0], item)
    row, col = map(int, re.findall(r"\d+", top))
    if row >= r.size or col >= r.width:
        raise _Refusal(f"no 2x2 square has its top-left corner at {item.args[0]}", item)
    cells = [f"r{row + dr}c{col + dc}" for dr in (0, 1) for dc in (0, 1)]
    r.add("quadruples", {"cells": cells,
                         "values": [_number(v, item, "value") for v in item.args[1:]]}, item)


def _group(key: str) -> Callable:
    """A group of cells in any shape (one cell will do): counting circles, cages."""
    def read(r: Reading, item: Item) -> None:
        r.add(key, r.cells(item.args, item), item)
    return read


def _contain(key: str) -> Callable:
    """`.ContainAtLeast~1_2_2~cells`: the digits joined by '_', then the cells."""
    def read(r: Reading, item: Item) -> None:
        if len(item.args) < 2:
            raise _Refusal("expects its digits and cells", item)
        values = [_number(v, item, "value") for v in item.args[0].split("_")]
        r.add(key, {"cells": r.cells(item.args[1:], item), "values": values}, item)
    return read


def _same_values(r: Reading, item: Item) -> None:
    """`.SameValues~K~cells`: the cells cut into K sets of equal size, in order; K
    region cells (`CC<k>`, a chaos construction's labels) lie in one region."""
    k = _number(item.args[0] if item.args else "", item, "number of sets")
    regions = {_is_region_cell(arg) for arg in item.args[1:]}
    if True in regions:
        if len(regions) > 1 or k != len(item.args) - 1 or k < 2:
            raise _Refusal("region cells (CC<k>) are compared one by one, with no grid cells "
                           "among them", item)
        r.add("same_regions", [_region_cell(arg, r, item) for arg in item.args[1:]], item)
        return
    cells = r.cells(item.args[1:], item, 2)
    if k < 2 or len(cells) % k:
        raise _Refusal(f"{len(cells)} cells do not split into {k} sets of equal size", item)
    m = len(cells) // k
    r.add("same_values", [cells[j * m:(j + 1) * m] for j in range(k)], item)


def _region_same(r: Reading, item: Item) -> None:
    r.same_regions = item  # its sets are the regions, known once the layout is read


def _look_and_say(r: Reading, item: Item) -> None:
    if len(item.args) < 2:
        raise _Refusal("expects a clue and cells", item)
    r.add("look_and_say", {"cells": r.cells(item.args[1:], item), "clue": item.args[0]}, item)


def _full_rank_ties(r: Reading, item: Item) -> None:
    if len(item.args) != 1:
        raise _Refusal(f"expects one of {', '.join(TIES)}", item)
    r.data.setdefault(TIES_KEY, item.args[0])  # ISS takes the first
    r.origin.setdefault(TIES_KEY, item)


def _count_distinct(r: Reading, item: Item) -> None:
    """`.CountDistinct~control~cells`: grid cells count digits, region cells (`CC<k>`)
    the chaos regions they lie in."""
    if len(item.args) < 2 or not all(item.args):
        raise _Refusal("expects a control cell and the cells it counts", item)
    control, *counted = item.args
    regions = {_is_region_cell(arg) for arg in counted}
    if _is_region_cell(control) or len(regions) > 1:
        raise _Refusal("a count mixing digits and regions has no cpsudoku counterpart", item)
    key = "distinct_region_counts" if regions == {True} else "distinct_counts"
    r.add(key, {"cell": r.cell(control, item),
                "cells": [_region_cell(arg, r, item) for arg in counted]}, item)


def _indexing(r: Reading, item: Item) -> None:
    kinds = {"C": "column", "R": "row"}
    if not item.args or item.args[0] not in kinds:
        raise _Refusal("expects C or R, then cells", item)
    columns_159 = {f"r{row}c{col}" for row in range(1, 10) for col in (1, 5, 9)}
    if (item.args[0] == "C" and r.digits == range(1, 10)
            and set(r.cells(item.args[1:], item)) == columns_159):
        r.rule("159", item)  # columns 1, 5 and 9 indexing: the 159 rule
        return
    r.add("indexing", {"kind": kinds[item.args[0]], "cells": r.cells(item.args[1:], item)}, item)


def _equal_sum(r: Reading, item: Item) -> None:
    segments: list[list[str]] = [[]]
    for arg in item.args:
        if arg == "-":
            segments.append([])
        else:
            segments[-1].append(r.cell(arg, item))
    if len(segments) < 2 or not all(segments):
        raise _Refusal("expects two or more segments of cells separated by '-'", item)
    r.add("equal_sums", segments, item)


def decode_pattern(token: str) -> str:
    """An ISS regex argument: URL-safe base64 (older links: URL-encoded text)."""
    if "%" in token or "." in token:
        return unquote(token)
    padded = token.replace("-", "+").replace("_", "/")
    return base64.b64decode(padded + "=" * (-len(padded) % 4)).decode("latin-1")


def encode_pattern(pattern: str) -> str:
    return base64.b64encode(pattern.encode("latin-1")).decode().replace(
        "+", "-").replace("/", "_").rstrip("=")


def _regex(r: Reading, item: Item) -> None:
    if not item.args:
        raise _Refusal("expects a pattern and cells", item)
    try:
        pattern = decode_pattern(item.args[0])
    except (binascii.Error, ValueError):
        raise _Refusal(f"pattern {item.args[0]!r} is not ISS's base64", item) from None
    lines: list[list[str]] = [[]]
    for arg in item.args[1:]:  # an empty argument starts another line of the same pattern
        if arg:
            lines[-1].append(r.cell(arg, item))
        elif lines[-1]:
            lines.append([])
    for cells in lines:
        if cells:
            r.add("regex_lines", {"cells": cells, "pattern": pattern}, item)


def _named_groups(r: Reading, args, item: Item) -> list[tuple[str, list[str]]]:
    """ISS's named cell groups: `_name` starts a group's name, an empty argument ends a
    group, `-` splits a line into segments (refused: no cpsudoku counterpart)."""
    out: list[tuple[str, list[str]]] = []
    name, cells = "", []
    for arg in [*args, ""]:
        if arg and arg[0] != "_":
            if arg == "-":
                raise _Refusal("a line split into segments has no cpsudoku counterpart", item)
            cells.append(r.cell(arg, item))
            continue
        if cells:
            out.append((name, cells))
        cells = []
        if arg:
            name = unquote(arg[1:])
    if not out:
        raise _Refusal("expects cells", item)
    return out


def _relation(mode: str, legacy: bool) -> Callable:
    """Pair / PairX (Binary / BinaryX: the older key alphabet): a relation given as a
    key of allowed value pairs, along a line or between every two cells."""
    def read(r: Reading, item: Item) -> None:
        if not item.args:
            raise _Refusal("expects a relation key and cells", item)
        try:
            pairs = iss_codes.pairs_from_key(item.args[0], len(r.digits), legacy)
        except ValueError as exc:
            raise _Refusal(str(exc), item) from None
        shift = r.digits[0] - 1  # the key counts values 1..V; the pairs are digits
        for name, cells in _named_groups(r, item.args[1:], item):
            r.add("relations", {"cells": cells,
                                "pairs": [[a + shift, b + shift] for a, b in pairs]}
                  | ({"mode": mode} if mode != "line" else {}) | ({"name": name} if name else {}),
                  item)
    return read


def _nfa(r: Reading, item: Item) -> None:
    if not item.args:
        raise _Refusal("expects an encoded automaton and cells", item)
    try:
        starts, accepting, moves = iss_codes.automaton_from_code(item.args[0])
    except ValueError as exc:
        raise _Refusal(str(exc), item) from None
    shift = r.digits[0] - 1  # ISS's symbols count values 1..V; transitions name digits
    transitions = [[s, v + shift, t] for s, v, t in moves]  # one list, read once
    for name, cells in _named_groups(r, item.args[1:], item):
        r.add("automata", {"cells": cells, "start": starts[0] if len(starts) == 1 else starts,
                           "accepting": accepting, "transitions": transitions}
              | ({"name": name} if name else {}), item)


def _var(r: Reading, item: Item) -> None:
    pass  # read first, by `_extra_cells`


# ISS types that are plain lines of cells, lines with a number first, global rules by
# name and clues at the ends of rows and columns; the writer reads these backwards.
LINE_TYPES = {"ValueIndexing": "value_indexing",
              "Thermo": "thermometers", "Renban": "renban", "Entropic": "entropic_lines",
              "RegionSumLine": "region_sum_lines", "Between": "between_lines",
              "Palindrome": "palindromes", "Zipper": "zipper_lines",
              "DoubleArrow": "double_arrows", "AllDifferent": "extra_regions"}
NUMBERED_TYPES = {"Whisper": ("whispers", "difference"), "Modular": ("modular_lines", "modulus"),
                  "Lockout": ("lockout_lines", "difference"), "SumLine": ("sum_lines", "total")}
RULE_TYPES = {"AntiKnight": "anti-knight", "AntiKing": "anti-king",
              "AntiConsecutive": "non-consecutive", "Windoku": "windoku",
              "DisjointSets": "disjoint-groups", "AntiTaxicab": "anti-taxicab",
              "GlobalEntropy": "global-entropy", "GlobalMod": "global-mod",
              "DutchFlatmates": "dutch-flatmates", "ChaosConstruction": "chaos",
              "Doppelganger": "doppelganger"}  # its extra cells are read first
OUTSIDE_TYPES = {"XSum": "x_sums", "Skyscraper": "skyscrapers",
                 "HiddenSkyscraper": "hidden_skyscrapers",
                 "NumberedRoom": "numbered_rooms", "FullRank": "full_ranks"}

# The one table: ISS type -> (puzzle-file key or global rule, reader of its arguments).
ISS_TYPES: dict[str, tuple[str, Callable[[Reading, Item], None]]] = {
    "Given": ("grid", _given),
    "Shape": ("size", _shape),
    "Jigsaw": ("regions", _jigsaw),
    "NoBoxes": ("regions", _no_boxes),
    "RegionSize": ("regions", _region_size),
    **{kind: (key, _line(key)) for kind, key in LINE_TYPES.items()},
    **{kind: (key, _with(key, param, 5 if kind == "Whisper" else None))
       for kind, (key, param) in NUMBERED_TYPES.items()},
    "Regex": ("regex_lines", _regex),
    "Pair": ("relations", _relation("line", False)),
    "PairX": ("relations", _relation("all", False)),
    "Binary": ("relations", _relation("line", True)),
    "BinaryX": ("relations", _relation("all", True)),
    "NFA": ("automata", _nfa),
    "Arrow": ("arrows", _arrow),
    "PillArrow": ("arrows", _pill_arrow),
    "Cage": ("cages", _cage),
    "Sum": ("cages", _sum),
    "RellikCage": ("rellik_cages", _rellik),
    "WhiteDot": ("kropki", _mark("kropki", "white")),
    "BlackDot": ("kropki", _mark("kropki", "black")),
    "StrictKropki": ("kropki", _strict("kropki")),
    "X": ("xv", _mark("xv", "x")),
    "V": ("xv", _mark("xv", "v")),
    "StrictXV": ("xv", _strict("xv")),
    "GreaterThan": ("greater_than", _greater),
    "LittleKiller": ("little_killers", _little_killer),
    "Sandwich": ("sandwiches", _sandwich),
    **{kind: (key, _outside(key)) for kind, key in OUTSIDE_TYPES.items()},
    "Lunchbox": ("lunchboxes", _lunchbox),
    "Quad": ("quadruples", _quad),
    "EqualityCage": ("equality_cages", _group("equality_cages")),
    "CountingCircles": ("counting_circles", _group("counting_circles")),
    "ContainAtLeast": ("contain_at_least", _contain("contain_at_least")),
    "ContainExact": ("contain_exact", _contain("contain_exact")),
    "EqualSum": ("equal_sums", _equal_sum),
    "Indexing": ("indexing", _indexing),
    "Diagonal": ("diagonal", _diagonal),
    "ChaosArrow": ("chaos_arrows", _chaos("chaos_arrows")),
    "ChaosCount": ("chaos_counts", _chaos("chaos_counts")),
    "SameValues": ("same_values", _same_values),
    "RegionSameValues": ("same_values", _region_same),
    "LookAndSay": ("look_and_say", _look_and_say),
    "FullRankTies": (TIES_KEY, _full_rank_ties),
    "CountDistinct": ("distinct_counts", _count_distinct),
    "Var": ("extra_cells", _var),
    **{kind: (name, _rule(name)) for kind, name in RULE_TYPES.items()},
}

# Composites: `.Or` (the `either` key: each item, or `.And` group, one alternative),
# `.And` (its items together) and `.Replicate` (its items copied onto target cells), each
# closed by `.End`.
COMPOSITES = {"Or": "either", "And": "either", "Replicate": "copies"}

# ISS types with no cpsudoku counterpart, and why (the types ISS knows besides ISS_TYPES).
REFUSED = {
    "Container": "a composite constraint group",
    "ConnectedValues": "connected values",
    "SearchPriority": "a search-order hint",
}


# ---------------------------------------------------------------- string -> dict -> puzzle

_RANGE = re.compile(r"(\d+)(?:-(\d+))?")
MAX_DIGITS = 16  # ISS holds at most 16 digits


def _shape_of(found: list[Item], source: str,
              line: int | None) -> tuple[int, int, range, bool]:
    """The rows, the columns, the digits and whether the grid has houses, from ISS's
    `.Shape~RxC[~range][~type]` (its `fromShapeSpec`): the range is a count (`6x6~9`:
    digits 1..9) or first-last from 0 or 1 (`9x9~0-8`); without one, 1..max(R, C). The
    type is `Sudoku` (the default) or `Raw` (no houses: `9x9~~Raw`)."""
    shapes = [i for i in found if i.kind == "Shape"]
    if not shapes:
        return 9, 9, range(1, 10), True
    item = shapes[-1]
    try:
        return _shape_spec(item)
    except _Refusal as refusal:
        raise _error(refusal, source, line) from None


def _shape_spec(item: Item) -> tuple[int, int, range, bool]:
    m = re.fullmatch(r"(\d+)x(\d+)", item.args[0] if item.args else "")
    rows, cols = (int(m.group(1)), int(m.group(2))) if m else (0, 0)
    if not (1 <= rows <= MAX_DIGITS and 1 <= cols <= MAX_DIGITS):
        raise _Refusal(f"expects the grid's rows x columns, 1 to {MAX_DIGITS} each", item)
    n = max(rows, cols)
    if len(item.args) > 3:
        raise _Refusal("expects the grid's size, its digits and its grid type", item)
    kind = item.args[2] if len(item.args) > 2 else ""
    if kind not in ("", "Sudoku", "Raw"):
        raise _Refusal(f"grid type {kind!r} is neither Sudoku nor Raw", item)
    houses = kind != "Raw"
    spec = item.args[1] if len(item.args) > 1 else ""
    found = _RANGE.fullmatch(spec)
    if spec and found is None:
        raise _Refusal(f"digits {spec!r} are neither a count (such as {n}) nor a range "
                       f"first-last (such as 0-{n - 1})", item)
    if not found:
        return rows, cols, range(1, n + 1), houses
    low, high = (1, int(found[1])) if found[2] is None else (int(found[1]), int(found[2]))
    digits = range(low, high + 1)
    least = n if houses else 1  # a raw grid's rows need not hold different digits
    if low not in (0, 1) or not least <= len(digits) <= MAX_DIGITS:
        raise _Refusal(f"digits {spec!r}: ISS's digits start at 0 or 1, and a {rows}x{cols} "
                       f"{'grid' if houses else 'raw grid'} holds {least} to {MAX_DIGITS} of "
                       f"them", item)
    return rows, cols, digits, houses


def _extra_cells(found: list[Item], r: Reading) -> tuple[str, ...]:
    """The ids of the cells outside the grid, read before any item names one: each
    `.Var~PREFIX~label~size` declares `V<PREFIX>` (one cell) or `V<PREFIX>1..k`, and
    `.Doppelganger` its missing digits (the doppelganger rule's extra cells)."""
    out: list[str] = []
    for item in found:
        if item.kind == "Var":
            ids, columns = _var_ids(item)
        elif item.kind == "Doppelganger":
            if r.size != r.width or r.digits != range(0, r.size + 1):
                raise _Refusal(f"Doppelganger needs a square grid of the digits 0..N (such "
                               f"as .Shape~9x9~0-9), not {r.size}x{r.width} of "
                               f"{r.digits[0]}..{r.digits[-1]}", item)
            ids = doppelganger_cells(r.size, r.width)
            boxes = [x for x in ids if x.startswith("DGB")]
            box = box_for(r.size, r.width, max(r.size, r.width)) if boxes else None
            _lay_out(r, boxes, box[1] if box else 0)  # ISS draws the box cells as boxes
            ids, columns = [x for x in ids if x not in boxes] + boxes, 0
        else:
            continue
        _lay_out(r, ids, columns)
        out.extend(ids)
    if len(set(out)) != len(out):
        twice = next(x for i, x in enumerate(out) if x in out[:i])
        raise _Refusal(f"cell {twice} is declared twice",
                       next(i for i in found if i.kind in ("Var", "Doppelganger")))
    return tuple(out)


def _lay_out(r: Reading, ids: list[str], columns: int) -> None:
    """Places for a group of extra cells that ISS lays out in rows of `columns`."""
    if columns:
        group = len({g for g, _, _ in r.places.values()}) + 1
        for i, name in enumerate(ids):
            r.places.setdefault(name, (group, i // columns, i % columns))


def _var_ids(item: Item) -> tuple[list[str], int]:
    """ISS's ids of a `.Var` group's cells (its `cells()`: a count or RxC dimensions),
    and its columns (0: not laid out)."""
    prefix = item.args[0] if item.args else ""
    if not re.fullmatch(r"[A-Z]+", prefix):
        raise _Refusal(f"a Var prefix is capital letters A-Z, not {prefix!r}", item)
    size = item.args[2] if len(item.args) > 2 else "1"
    m = re.fullmatch(r"(?:([1-9]\d*)x)?([1-9]\d*)", size)
    count = (int(m[1] or 1) * int(m[2])) if m else 1
    if count > MAX_EXTRA:
        raise _Refusal(f"{count} cells: at most {MAX_EXTRA} cells outside the grid", item)
    columns = int(m[2]) if m and m[1] else 0
    ids = [f"V{prefix}"] if count == 1 else [f"V{prefix}{i}" for i in range(1, count + 1)]
    return ids, columns


def _error(refusal: _Refusal, source: str, line: int | None) -> ParseError:
    item = refusal.item
    return ParseError(f"{item.where()}: {refusal}", source, line, item.column)


def to_dict(text: str, source: str = "<string>", line: int | None = None) -> tuple[dict, dict]:
    """The puzzle-file dict of one constraint string, and which item asked for each key
    or rule (for the loader's refusals)."""
    found = items(text, source, line)
    size, width, digits, houses = _shape_of(found, source, line)
    r = Reading(size, {"size": size if width == size else f"{size}x{width}"}, {}, digits,
                width=width, houses=houses)
    if digits != range(1, max(size, width) + 1):
        r.data["digits"] = digits_key(digits)
    if not houses:
        r.data["houses"] = False
    try:
        r.extra = _extra_cells(found, r)
        if r.extra:
            r.data["extra_cells"] = list(r.extra)
        _read(r, _nest(found))
        regions = _layout(r)
        if r.same_regions is not None:
            _region_same_values(r, regions)
    except _Refusal as refusal:
        raise _error(refusal, source, line) from None
    _place_givens(r)
    return r.data, r.origin


@dataclass(frozen=True)
class Group:
    """A composite: its `.Or` or `.And` item and what stands before its `.End`."""

    item: Item
    parts: tuple[Item | Group, ...]


def _nest(found: list[Item]) -> list[Item | Group]:
    stack: list[tuple[Item | None, list]] = [(None, [])]
    for item in found:
        if item.kind == "Container":  # a composite closed by End: named first
            raise _Refusal(f"ISS type {item.kind!r} ({REFUSED[item.kind]}) has no cpsudoku "
                           f"counterpart", item)
        if item.kind in COMPOSITES:
            stack.append((item, []))
        elif item.kind == "End":
            head, parts = stack.pop() if len(stack) > 1 else (None, [])
            if head is None:
                raise _Refusal("closes no Or or And", item)
            stack[-1][1].append(Group(head, tuple(parts)))
        else:
            stack[-1][1].append(item)
    if len(stack) > 1:
        raise _Refusal("has no matching End", stack[-1][0])  # type: ignore[arg-type]
    return stack[0][1]


def _read(r: Reading, parts) -> None:
    for part in parts:
        if isinstance(part, Group):
            if part.item.kind == "And":  # all of them: as if written without the group
                _read(r, part.parts)
            elif part.item.kind == "Replicate":
                for dr, dc in _replica_shifts(r, part.item):
                    _read(r, [_shifted(p, dr, dc, r) for p in part.parts])
            elif not part.parts:
                raise _Refusal("holds no alternatives", part.item)
            else:
                r.add("either", [_alternative(r, alt) for alt in part.parts], part.item)
            continue
        if part.kind in REFUSED:
            raise _Refusal(f"ISS type {part.kind!r} ({REFUSED[part.kind]}) has no cpsudoku "
                           f"counterpart", part)
        if part.kind not in ISS_TYPES:
            raise _Refusal(f"unknown ISS type {part.kind!r}", part)
        ISS_TYPES[part.kind][1](r, part)


_BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
_SHIFTABLE = re.compile(r"R([1-9a-g])C([1-9a-g])((?:_.*)?)", re.IGNORECASE)


def _replica_shifts(r: Reading, item: Item) -> list[tuple[int, int]]:
    """`.Replicate~targets[~origin]`: the (rows, columns) moving the origin (R1C1 unless
    named) onto each target. ISS writes the targets as base-64 words of six bits, bit i
    the cell i places after the origin in reading order."""
    if not 1 <= len(item.args) <= 2 or any(ch not in _BASE64 for ch in item.args[0]):
        raise _Refusal("expects its targets (base-64 bits) and an optional origin cell", item)
    origin = r.cell(item.args[1] if len(item.args) > 1 else "R1C1", item)
    row, col = (int(x) - 1 for x in re.findall(r"\d+", origin))
    start = row * r.width + col
    shifts = []
    for k, ch in enumerate(item.args[0]):
        for bit in range(6):
            if _BASE64.index(ch) >> bit & 1:
                target = start + 6 * k + bit
                if target >= r.ncells:
                    raise _Refusal(f"a target lies {target - start} cells after {origin}, "
                                   f"outside the grid", item)
                shifts.append((target // r.width - row, target % r.width - col))
    return shifts


def _shifted(part: Item | Group, dr: int, dc: int, r: Reading) -> Item | Group:
    """The item (or group) with every cell it names moved by dr rows and dc columns."""
    if isinstance(part, Group):
        if part.item.kind == "Replicate":
            raise _Refusal("a Replicate inside a Replicate has no cpsudoku counterpart",
                           part.item)
        return Group(part.item, tuple(_shifted(p, dr, dc, r) for p in part.parts))

    def move(arg: str) -> str:
        cell = _SHIFTABLE.fullmatch(arg)
        if cell is None:
            return arg
        row = _DIGITS.index(cell[1].lower()) + dr
        col = _DIGITS.index(cell[2].lower()) + dc
        if not (0 <= row < r.size and 0 <= col < r.width):
            raise _Refusal(f"{cell[0].split('_')[0]} copied {dr} rows and {dc} columns "
                           f"on lies outside the grid", part)
        return f"R{_DIGITS[row]}C{_DIGITS[col]}{cell[3]}"
    return Item(part.kind, tuple(map(move, part.args)), part.number, part.column)


def _alternative(r: Reading, part: Item | Group) -> dict:
    """One alternative of an Or (an item, or an And of several) as a piece of a puzzle
    file: givens as `givens`, the rest under their usual keys."""
    alt = Reading(r.size, {}, r.origin, r.digits, width=r.width)
    _read(alt, part.parts if isinstance(part, Group) else (part,))
    item = part.item if isinstance(part, Group) else part
    if alt.jigsaw is not None or not alt.boxes or alt.region_size or "rules" in alt.data:
        raise _Refusal("a layout or global rule inside an Or has no cpsudoku counterpart", item)
    _place_candidates(alt)
    if alt.givens:
        alt.data["givens"] = {name: min(values) for name, values in alt.givens.items()}
    return alt.data


def _layout(r: Reading) -> list[list[int]]:
    """The regions: ISS's boxes (of `.RegionSize` cells, else N) unless `.NoBoxes`, and
    jigsaw pieces. Pieces beside boxes, or not tiling the grid (ISS lets one piece of
    another size hold the rest), are extra regions; a grid with neither box nor jigsaw
    takes its rows as regions. Returns ISS's regions (boxes and pieces), by cell."""
    n, width, most = r.size, r.width, len(r.digits)
    if not r.houses:  # a raw grid has no regions (ISS refuses these on it too)
        asked = (r.origin.get("regions") or (r.jigsaw[1] if r.jigsaw else None)
                 or r.same_regions)
        if asked is not None:
            raise _Refusal("is only valid on a Sudoku grid, not a Raw one", asked)
        return []
    k, sized = r.region_size or (max(n, width), None)
    box = box_for(n, width, k) if r.boxes else None
    pieces = _pieces(r, k)
    if sized is not None and k != max(n, width) and (
            box or pieces or "chaos" in r.data.get("rules", [])):
        if most == n:  # cpsudoku's regions then hold every digit
            raise _Refusal(f"regions of {k} cells have no cpsudoku counterpart with {n} "
                           f"digits: other sizes need more digits than a row has cells", sized)
        if k > most:
            raise _Refusal(f"regions of {k} cells cannot hold {most} different digits", sized)
        if "chaos" in r.data.get("rules", []):
            raise _Refusal(f"chaos regions of {k} cells have no cpsudoku counterpart", sized)
    window = k if sized is not None else most  # ISS's windows hold V cells unless sized
    if "windoku" in r.data.get("rules", []) and window != n:
        raise _Refusal(f"windoku windows of {window} cells have no cpsudoku counterpart",
                       r.origin["windoku"])
    if pieces is not None and box is None and sum(map(len, pieces)) == r.ncells:
        layout, _ = r.jigsaw  # type: ignore[misc]
        r.data["regions"] = [layout[row * width:(row + 1) * width] for row in range(n)]
        return pieces
    for piece in pieces or []:  # beside boxes, or not covering the grid
        r.add("extra_regions", [f"r{c // width + 1}c{c % width + 1}" for c in piece],
              r.jigsaw[1])  # type: ignore[index]
    if box is None:  # no boxes: rows stand in as the regions
        r.data["regions"] = [_DIGITS[row] * width for row in range(n)]
        return pieces or []
    if k != n or width != n:
        r.data["box"] = f"{box[0]}x{box[1]}"
    return [list(b) for b in tiles(n, width, *box)] + (pieces or [])


def _region_same_values(r: Reading, regions: list[list[int]]) -> None:
    """ISS's RegionSameValues: the largest of the rows, columns, boxes and jigsaw pieces
    hold the same digits. Same-value sets must not share cells, and the groups' digits
    differ, so equal sets along a tree of disjoint pairs say it (rows meet columns, and
    boxes join them)."""
    n, width = r.size, r.width
    groups = ([list(range(row * width, (row + 1) * width)) for row in range(n)]
              + [list(range(col, r.ncells, width)) for col in range(width)] + regions)
    most = max(map(len, groups))
    largest = list({frozenset(g): g for g in groups if len(g) == most}.values())
    joined, pairs = [largest[0]], []
    for group in joined:  # grows while it is read: a breadth-first tree
        for other in largest:
            if other not in joined and not set(group) & set(other):
                joined.append(other)
                pairs.append((group, other))
    if len(joined) < len(largest):
        raise _Refusal(f"its regions of {most} cells do not join by disjoint pairs (a "
                       f"grid without boxes)", r.same_regions)  # type: ignore[arg-type]
    for pair in pairs:
        r.add("same_values", [[f"r{c // width + 1}c{c % width + 1}" for c in g] for g in pair],
              r.same_regions)  # type: ignore[arg-type]


def _pieces(r: Reading, k: int) -> list[list[int]] | None:
    """The jigsaw's pieces (cells), as ISS keeps them: those of N to V cells, which must
    hold k cells each; one piece of another size is left out (a partly drawn layout)."""
    if r.jigsaw is None:
        return None
    layout, item = r.jigsaw
    groups: dict[str, list[int]] = {}
    for cell, label in enumerate(layout):
        groups.setdefault(label, []).append(cell)
    if len(groups) == 1:
        return None  # one piece: the whole grid, no constraint
    pieces = [g for g in groups.values() if min(r.size, r.width) <= len(g) <= len(r.digits)]
    if len(groups) - len(pieces) > 1:
        raise _Refusal("jigsaw pieces of inconsistent sizes", item)
    if any(len(piece) != k for piece in pieces):
        raise _Refusal(f"jigsaw pieces must have {k} cells", item)
    return pieces


def _place_candidates(r: Reading) -> None:
    """Candidate sets (digits) as odd or even cells where they are exactly those, else
    as given candidates."""
    odd = {d for d in r.digits if d % 2}
    even = set(r.digits) - odd
    for name, values in r.candidates.items():
        if values in (odd, even) and name not in r.extra:
            r.data.setdefault("odd" if values == odd else "even", []).append(name)
        else:
            r.add("given_candidates", {"cell": name, "values": sorted(values)},
                  r.origin["given"])


def _place_givens(r: Reading) -> None:
    first = r.digits[0]
    grid = [[0] * r.width for _ in range(r.size)]  # values, 0 blank
    for name, digits in r.givens.items():
        if name in r.extra:  # no place in the grid: a one-digit candidate set
            r.candidates[name] = r.candidates.get(name, digits) & digits
            continue
        row, col = map(int, re.findall(r"\d+", name))
        grid[row - 1][col - 1] = min(digits) - first + 1
    _place_candidates(r)
    if any(any(row) for row in grid):
        # rows of numbers (no notation to guess) where 0 is no digit, else digits as text
        r.data["grid"] = grid if first else [symbol_line(row, ".", first) for row in grid]
    rules = r.data.get("rules", [])
    if "diagonal+" in rules and "diagonal-" in rules:  # both: cpsudoku's one rule
        rules[rules.index("diagonal+")] = "diagonal"
        rules.remove("diagonal-")


def load(text: str, source: str = "<string>") -> list[Puzzle]:
    """The puzzles of ISS text: an ISS link, or constraint strings one per line (`#`
    comment lines and blank lines between them are skipped)."""
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        if s.startswith(("http://", "https://")):
            s = from_link(s, source, number)
        out.append(from_string(s, source, number))
    if not out:
        raise ParseError("no ISS constraint string found", source)
    return out


def split_link(url: str, source: str = "<string>", line: int | None = None) -> SplitResult:
    """A link's parts, or a ParseError naming it: urllib refuses some links outright (a
    host with an unmatched `[`, a bracketed host that is no IPv6 address) with a bare
    ValueError, which is bad input, not a fault. Every link read in `formats` goes
    through here."""
    try:
        return urlsplit(url)
    except ValueError as exc:
        raise ParseError(f"not a valid link ({exc}): {url}", source, line) from None


def from_link(url: str, source: str = "<string>", line: int | None = None) -> str:
    """The constraint string an ISS link carries in `q`."""
    parts = split_link(url, source, line)
    found = parse_qs(parts.query).get("q") or parse_qs(parts.fragment).get("q")
    if not found:
        raise ParseError("the ISS link carries no constraint string (?q=...)", source, line)
    return found[0]


def from_string(text: str, source: str = "<string>", line: int | None = None) -> Puzzle:
    """One puzzle from one ISS constraint string (through the puzzle-file loader); as
    ISS does, whitespace anywhere in a constraint string (line breaks too) is dropped."""
    from . import puzzlefile  # the loader sits beside this module; grids never need it
    if text[:1].isspace() and text.lstrip().startswith("."):
        text = re.sub(r"\s+", "", text)  # columns then count from the string's first '.'
    if iss_shorthand.kind(text) is not None:
        data, origin = iss_shorthand.to_dict(text, source, line), dict[str, Item]()
    else:
        data, origin = to_dict(text, source, line)
    where = source if line is None else f"{source}:{line}"
    try:
        puzzle = puzzlefile.from_dict(data, where, "iss")
    except CpsudokuError as exc:
        asked = _asked_for(str(exc), origin)
        if asked is None:
            raise
        key, item = asked
        what = "rule" if key in RULE_TYPES.values() else "element"
        raise ParseError(f"{item.where()}: this version of cpsudoku has no {what} {key!r}",
                         source, line, item.column) from None
    return puzzle


def _asked_for(message: str, origin: dict[str, Item]) -> tuple[str, Item] | None:
    """The key and item behind a loader's refusal of an unknown element or rule."""
    if "unknown element" not in message and "unknown rule" not in message:
        return None
    named = [(key, item) for key, item in origin.items() if f"'{key}'" in message]
    return min(named, key=lambda pair: pair[1].number) if named else None


# ---------------------------------------------------------------- puzzle -> string

def dumps(puzzle: Puzzle) -> str:
    """The puzzle as one ISS constraint string (`from_string(dumps(p))` gives the same
    puzzle). Elements ISS has no form for are refused with a ModelError naming them."""
    from . import puzzlefile
    puzzle.geometry.require_single_grid("the ISS format")
    data = puzzlefile.as_dict(puzzle)
    geometry = puzzle.geometry
    n, width, digits = geometry.size, geometry.width, geometry.digits
    if max(n, width) > len(_DIGITS):
        raise ModelError(f"a {geometry.shape} grid has no ISS form (ISS grids are at most "
                         f"16x16)")
    if len(digits) > MAX_DIGITS:
        raise ModelError(f"{len(digits)} digits have no ISS form (ISS holds at most "
                         f"{MAX_DIGITS})")
    out = _shape_items(puzzle.geometry)
    out.extend(_var_items(geometry, data.get("rules", [])))
    out.extend(_layout_items(puzzle))
    givens = {geometry.cell_name(c): digits[v - 1] for c, v in enumerate(puzzle.givens) if v}
    out.extend(_element_items(data | {"givens": givens}, n, digits))
    return "".join(out) or "."


def _var_items(geometry: Geometry, rules: list[str]) -> list[str]:
    """`.Var` items declaring the extra cells (a Doppelganger's come with its rule):
    each group `V<prefix>` (one cell) or `V<prefix>1..k`, in that order."""
    own = set(doppelganger_cells(geometry.size, geometry.width)) if "doppelganger" in rules \
        else set()
    groups: dict[str, list[str]] = {}
    for name in geometry.extra:
        if name in own:
            continue
        m = _VAR_ID.fullmatch(name)
        if m is None:
            raise ModelError(f"extra cell {name} has no ISS form (ISS names its cells "
                             f"outside the grid V<letters><number>, such as VA1)")
        groups.setdefault(m[1], []).append(m[2])
    out = []
    for prefix, numbers in groups.items():
        if numbers == [""]:
            out.append(_item("Var", prefix))
        elif numbers != [str(i) for i in range(1, len(numbers) + 1)]:
            raise ModelError(f"extra cells V{prefix}{numbers[0]} ...: ISS numbers a group's "
                             f"cells V{prefix}1, V{prefix}2 ... in order")
        else:
            out.append(_item("Var", prefix, "", str(len(numbers))))
    return out


def _shape_items(geometry: Geometry) -> list[str]:
    """`.Shape` as ISS names it (`makeName`): the size, then a count of digits from 1
    (`6x6~9`) or a range from 0 (`9x9~0-8`), then `Raw` for a grid without houses (an
    empty range before it when the digits are the default: `9x9~~Raw`); none for 9x9
    of 1..9."""
    digits = geometry.digits
    spec = geometry.shape
    if digits != range(1, max(geometry.size, geometry.width) + 1):
        spec += f"~{digits_key(digits)}" if digits[0] == 0 else f"~{len(digits)}"
    if not geometry.houses:
        spec += "~Raw" if "~" in spec else "~~Raw"
    return [f".Shape~{spec}"] if spec != "9x9" else []


def _element_items(data: dict, n: int, digits: range) -> list[str]:
    """The ISS items of puzzle-file keys: givens (cell -> digit) and candidate sets as
    one given item, then each element key's items."""
    givens = [(name, [v]) for name, v in data.get("givens", {}).items()]
    for parity, remainder in (("odd", 1), ("even", 0)):
        givens += [(name, [d for d in digits if d % 2 == remainder])
                   for name in _names(data.get(parity, []))]
    givens += [(entry["cell"], sorted(entry["values"]))
               for entry in data.get("given_candidates", [])]
    out = []
    if givens:
        out.append(".~" + "~".join(f"{iss_cell(name)}_{'_'.join(map(str, values))}"
                                    for name, values in givens))
    for key, value in data.items():
        if key in _NOT_ELEMENTS:
            continue
        if key in _DIGIT_WRITERS:
            out.extend(_DIGIT_WRITERS[key](value, n, digits))
            continue
        write = _WRITERS.get(key)
        if write is None:
            raise ModelError(f"puzzle-file key {key!r} has no ISS form")
        out.extend(write(value, n))
    return out


def _write_either(items, n, digits: range) -> list[str]:
    """`.Or` per element, each alternative one item or an `.And` group of its items."""
    out = []
    for alternatives in items:
        parts = [_element_items(alt, n, digits) for alt in alternatives]
        out.append(".Or" + "".join(p[0] if len(p) == 1 else ".And" + "".join(p) + ".End"
                                   for p in parts) + ".End")
    return out


def link(puzzle: Puzzle) -> str:
    """An ISS link that opens the puzzle."""
    return ISS_URL + "?q=" + quote(dumps(puzzle), safe=".~_-")


_NOT_ELEMENTS = {"name", "title", "size", "digits", "box", "regions", "houses", "grid",
                 "solution",
                 "extra_cells", "odd",
                 "even", "given_candidates", "givens"}


def _layout_items(puzzle: Puzzle) -> list[str]:
    """ISS's default boxes (of `.RegionSize` cells when not N), rows as regions, or a
    jigsaw."""
    geometry = puzzle.geometry
    if not geometry.houses:
        return []  # ISS's Raw grid has no regions
    n, width = geometry.size, geometry.width
    line = max(n, width)  # ISS's default region size
    k = len(geometry.regions[0])  # the geometry's regions are all of one size
    # ISS sizes windoku windows by the region size, else by the number of digits
    windows = geometry.values != n and any(rule.name == "windoku" for rule in puzzle.rules)
    sized = [f".RegionSize~{k}"] if k != line or windows else []
    if geometry.box is not None and geometry.box == box_for(n, width, k):
        return sized
    if set(geometry.regions) == set(geometry.rows):
        return [".NoBoxes"]
    labels = "0123456789abcdefg"
    return [".NoBoxes", *sized, ".Jigsaw~" + "".join(labels[r] for r in geometry.region_of)]


def _names(value) -> list[str]:
    if isinstance(value, dict):
        value = value["cells"]
    return value.split() if isinstance(value, str) else list(value)


def _item(kind: str, *args) -> str:
    return "." + "~".join([kind, *(str(a) for a in args)])


def _cells(value) -> list[str]:
    return [iss_cell(name) for name in _names(value)]


def _write_line(kind: str) -> Callable:
    return lambda items, n: [_item(kind, *_cells(v)) for v in items]


def _write_numbered(kind: str, param: str, default: int | None) -> Callable:
    def write(items, n):
        out = []
        for v in items:
            number = v.get(param, default) if isinstance(v, dict) else default
            if number is None and kind == "Whisper" and n == 9:
                number = 5  # German whispers; other sizes scale it, so say it there
            if number is None:
                raise ModelError(f"{kind} lines without their {param} have no ISS form on "
                                 f"{n}x{n}: give it")
            loop = ["LOOP"] if isinstance(v, dict) and v.get("loop") else []
            out.append(_item(kind, number, *_cells(v), *loop))
        return out
    return write


def _write_rules(names, n) -> list[str]:
    flags = {name: kind for kind, name in RULE_TYPES.items()}
    flags.update({"diagonal+": "Diagonal~1", "diagonal-": "Diagonal~-1",
                  "diagonal": "Diagonal~1.Diagonal~-1",
                  "159": "Indexing~C~" + "~".join(f"R{row}C{col}" for col in (1, 5, 9)
                                                  for row in range(1, 10))})
    missing = [name for name in names if name not in flags]
    if missing:
        raise ModelError(f"rule {missing[0]!r} has no ISS form")
    return ["." + flags[name] for name in names]


def _write_cages(items, n) -> list[str]:
    out = []
    for cage in items:
        total = cage.get("sum", cage.get("total"))
        weights = cage.get("weights")
        if weights and not cage.get("repeats") and min(weights) > 0:
            # ISS's cage counts a cell listed twice twice in its sum
            cells = _cells(cage)
            out.append(_item("Cage", total, *[c for c, w in zip(cells, weights)
                                              for _ in range(w)]))
        elif weights:
            out.append(_item("Sum", "_".join(map(str, [total, "=", *weights])),
                             *_cells(cage)))
            if not cage.get("repeats"):
                out.append(_item("AllDifferent", *_cells(cage)))
        elif cage.get("repeats"):
            if total is None:
                raise ModelError("a cage with repeats and no sum has no ISS form")
            out.append(_item("Sum", total, *_cells(cage)))
        else:
            out.append(_item("Cage", "" if total is None else total, *_cells(cage)))
    return out


def _write_arrows(items, n) -> list[str]:
    out = []
    for arrow in items:
        lines = arrow.get("lines") or [arrow["cells"]]
        circle = _names(arrow["circle"])
        if len(lines) != 1:
            # an ISS arrow has one line: several from one circle are separate sums,
            # not this one sum over them all
            raise ModelError("an arrow summing several lines from one circle has no ISS "
                             "form (give each line its own arrow)")
        at = [tuple(map(int, re.findall(r"\d+", c))) for c in circle]
        if len(circle) == 1:
            out.append(_item("Arrow", *_cells(circle + _names(lines[0]))))
        elif len(circle) in (2, 3) and at == sorted(at):
            out.append(_item("PillArrow", len(circle), *_cells(circle + _names(lines[0]))))
        else:
            raise ModelError("a pill ISS cannot read (2 or 3 cells in reading order) has no "
                             "ISS form")
    return out


def _write_marks(kinds: dict[str, str], strict: str) -> Callable:
    def write(table, n):
        out = []
        for key, kind in kinds.items():
            for mark in table.get(key, []):
                if isinstance(mark, dict) and mark.get("value") is not None:
                    raise ModelError(f"a {key} mark with its own value has no ISS form")
                out.append(_item(kind, *_cells(mark)))
        negative = set(table.get("negative", []))
        if table.get("all_given"):
            negative |= set(kinds)
        if negative == set(kinds):
            out.append("." + strict)
        elif negative:
            raise ModelError(f"the negative rule for {', '.join(sorted(negative))} alone has no "
                             f"ISS form")
        return out
    return write


def _write_little_killers(items, n) -> list[str]:
    from ..rules.killer import DIRECTIONS
    diagonals = little_killer_diagonals(n)
    out = []
    for clue in items:
        cells = _names(clue) if clue.get("cells") else []
        if not cells:
            (row, col), (dr, dc) = map(int, re.findall(r"-?\d+", clue["clue"])), DIRECTIONS[
                clue["direction"]]
            row, col = row + dr, col + dc
            while 1 <= row <= n and 1 <= col <= n:
                cells.append(f"r{row}c{col}")
                row, col = row + dr, col + dc
        start = next((first for first, line in diagonals.items()
                      if line in (cells, cells[::-1])), None)
        if start is None:
            raise ModelError(f"little killer along {cells[0]}..{cells[-1]} has no ISS form "
                             f"(ISS clues cover whole diagonals)")
        out.append(_item("LittleKiller", clue.get("sum", clue.get("total")), iss_cell(start)))
    return out


def _line_id(clue: dict) -> str:
    if "row" in clue:
        return "R" + _DIGITS[int(clue["row"]) - 1]
    return "C" + _DIGITS[int(clue["column"]) - 1]


def _write_outside(kind: str) -> Callable:
    def write(items, n):
        ends: dict[str, list[str]] = {}
        for clue in items:
            end = ends.setdefault(_line_id(clue), ["", ""])
            end[0 if clue.get("side", "start") == "start" else 1] = str(clue["value"])
        return [_item(kind, line, *values) for line, values in ends.items()]
    return write


def _line_cells(clue: dict, n: int) -> list[str]:
    if "row" in clue:
        return [f"R{_DIGITS[int(clue['row']) - 1]}C{_DIGITS[c]}" for c in range(n)]
    return [f"R{_DIGITS[r]}C{_DIGITS[int(clue['column']) - 1]}" for r in range(n)]


def _write_quads(items, n) -> list[str]:
    out = []
    for quad in items:
        at = sorted(tuple(map(int, re.findall(r"\d+", c))) for c in _names(quad))
        out.append(_item("Quad", iss_cell(f"r{at[0][0]}c{at[0][1]}"), *quad["values"]))
    return out


def _segments(segments) -> list[str]:
    """Segments as ISS writes them: cells, with '-' between segments."""
    out: list[str] = []
    for i, segment in enumerate(segments):
        out.extend((["-"] if i else []) + _cells(segment))
    return out


def _write_contain(kind: str) -> Callable:
    return lambda items, n: [_item(kind, "_".join(map(str, v["values"])), *_cells(v))
                             for v in items]


def _write_indexing(items, n) -> list[str]:
    kinds = {"column": "C", "row": "R"}
    if any(entry.get("kind") not in kinds for entry in items):
        raise ModelError("box indexing has no ISS form")
    return [_item("Indexing", kinds[entry["kind"]], *_cells(entry)) for entry in items]


def _write_relations(items, n, digits: range) -> list[str]:
    from ..rules.custom import Relations
    from .custom_elements import rules as custom_rules
    out = []
    for i, entry in enumerate(items, 1):
        mode = entry.get("mode", "line")
        if mode == "cells":
            raise ModelError(f"relation {i} over all its cells at once has no ISS form")
        pairs: Iterable[tuple[int, ...]]
        if digits == range(1, n + 1):
            [rule] = custom_rules({"relations": [entry]}, n)
            pairs = Relations.table(rule.elements[0], n, f"relation {i}", 2)
        elif "pairs" in entry:  # digit pairs; ISS's key counts values 1..V
            pairs = [(a - digits[0] + 1, b - digits[0] + 1) for a, b in entry["pairs"]]
        else:
            raise ModelError(f"relation {i}, an expression on digits {digits_key(digits)}, "
                             f"has no ISS form: give its pairs")
        name = [f"_{quote(entry['name'], safe='')}"] if entry.get("name") else [""]
        out.append(_item("Pair" if mode == "line" else "PairX",
                         iss_codes.key_from_pairs(pairs, len(digits)), *name, *_cells(entry)))
    return out


def _write_automata(items, n, digits: range) -> list[str]:
    out = []
    shift = digits[0] - 1  # transitions name digits; ISS's symbols count values 1..V
    for entry in items:
        start = entry.get("start", 0)
        starts = start if isinstance(start, list) else [start]
        code = iss_codes.code_from_automaton(starts, entry.get("accepting", []),
                                             [(s, v - shift, t)
                                              for s, v, t in entry.get("transitions", [])])
        name = [f"_{quote(entry['name'], safe='')}"] if entry.get("name") else [""]
        out.append(_item("NFA", code, *name, *_cells(entry)))
    return out


# Writers of keys whose ISS form depends on the digits (relation keys and automata count
# values 1..V; alternatives may hold odd and even cells).
_DIGIT_WRITERS: dict[str, Callable[[Any, int, range], list[str]]] = {
    "relations": _write_relations, "automata": _write_automata, "either": _write_either,
}

_WRITERS: dict[str, Callable[[Any, int], list[str]]] = {
    "rules": _write_rules,
    **{key: _write_line(kind) for kind, key in LINE_TYPES.items()},
    **{key: _write_numbered(kind, param, {"Whisper": None, "Lockout": 4, "Modular": 3,
                                          "SumLine": 10}[kind])
       for kind, (key, param) in NUMBERED_TYPES.items()},
    "dutch_whispers": lambda items, n: [_item("Whisper", 4, *_cells(v)) for v in items],
    "cages": _write_cages,
    "rellik_cages": lambda items, n: [_item("RellikCage", c["sum"], *_cells(c)) for c in items],
    "arrows": _write_arrows,
    "kropki": _write_marks({"white": "WhiteDot", "black": "BlackDot"}, "StrictKropki"),
    "xv": _write_marks({"x": "X", "v": "V"}, "StrictXV"),
    "greater_than": lambda items, n: [_item("GreaterThan", *_cells(p)) for p in items],
    "little_killers": _write_little_killers,
    "sandwiches": lambda items, n: [_item("Sandwich", c["value"], _line_id(c)) for c in items],
    **{key: _write_outside(kind) for kind, key in OUTSIDE_TYPES.items()},
    "lunchboxes": lambda items, n: [_item("Lunchbox", c["value"], *(
        _cells(c) if "cells" in c else _line_cells(c, n))) for c in items],
    "quadruples": _write_quads,
    "equality_cages": _write_line("EqualityCage"),
    "counting_circles": _write_line("CountingCircles"),
    "contain_at_least": _write_contain("ContainAtLeast"),
    "contain_exact": _write_contain("ContainExact"),
    "equal_sums": lambda items, n: [_item("EqualSum", *_segments(segments)) for segments in items],
    "indexing": _write_indexing,
    "regex_lines": lambda items, n: [_item("Regex", encode_pattern(v["pattern"]), *_cells(v))
                                     for v in items],
    "chaos_arrows": _write_chaos("ChaosArrow", "arms"),
    "chaos_counts": _write_chaos("ChaosCount", "cells"),
    "same_values": lambda items, n: [_item("SameValues", len(sets), *_cells(sum(sets, [])))
                                     for sets in items],
    "same_regions": lambda items, n: [_item("SameValues", len(cells),
                                            *(_region_id(c, n) for c in _cells(cells)))
                                      for cells in items],
    "look_and_say": lambda items, n: [_item("LookAndSay", v["clue"], *_cells(v))
                                      for v in items],
    TIES_KEY: lambda ties, n: [_item("FullRankTies", ties)],
    "distinct_counts": lambda items, n: [_item("CountDistinct", iss_cell(v["cell"]), *_cells(v))
                                         for v in items],
    "distinct_region_counts": lambda items, n: [
        _item("CountDistinct", iss_cell(v["cell"]), *(_region_id(c, n) for c in _cells(v)))
        for v in items],
}


__all__ = ["ISS_TYPES", "ISS_URL", "REFUSED", "dumps", "from_link", "from_string", "link",
           "load", "looks_like_iss", "to_dict"]
