"""The reader of each ISS type, turning one item's arguments into puzzle-file keys,
and `ISS_TYPES`, the one table from ISS types to puzzle-file keys and readers."""

from __future__ import annotations

import binascii
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from ...rules.full_rank import TIES, TIES_KEY
from .. import iss_codes
from .tables import LINE_TYPES, NUMBERED_TYPES, OUTSIDE_TYPES, RULE_TYPES
from .tokens import CELL, DIGITS, Item, Refusal, cell_name, decode_pattern, little_killer_diagonals


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
            raise Refusal("a looped line has no cpsudoku counterpart", item)
        if len(args) < least or any(not a for a in args):
            raise Refusal(f"expects at least {least} cell(s)", item)
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
        raise Refusal(f"{what} must be a whole number, not {text!r}", item)
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
        if default is not None and args and CELL.match(args[0]):
            args = (str(default),) + args
        if not args:
            raise Refusal(f"expects its {param} and cells", item)
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
        raise Refusal(f"{len(coeffs)} coefficients for {len(names)} cells", item)
    weight: dict[str, int] = {}
    for name, w in zip(names, coeffs or [1] * len(names)):
        weight[name] = weight.get(name, 0) + w
    cells = [name for name, w in weight.items() if w]
    if not cells:
        raise Refusal("expects cells", item)
    entry: dict[str, Any] = {"cells": cells}
    if any(w != 1 for w in weight.values()):
        entry["weights"] = [weight[name] for name in cells]
    return entry


def _cage(r: Reading, item: Item) -> None:
    if not item.args:
        raise Refusal("expects a sum (may be empty) and cells", item)
    entry = _weighted(r, item.args[1:], item)
    if item.args[0] not in ("", "0"):  # ISS: a sum of 0 is a cage with no sum shown
        entry["sum"] = _number(item.args[0], item, "sum")
    elif "weights" in entry:  # no sum: only its digits differ
        del entry["weights"]
    r.add("cages", entry, item)


def _sum(r: Reading, item: Item) -> None:
    total, *coeffs = (item.args[0] if item.args else "").split("_")
    if coeffs and coeffs[0] != "=":
        raise Refusal(f"expects a sum, or a sum then _=_ and coefficients, not "
                       f"{item.args[0]!r}", item)
    weights = [_number(c, item, "coefficient") for c in coeffs[1:]] if coeffs else None
    entry = _weighted(r, item.args[1:], item, weights)
    r.add("cages", {"sum": _number(total, item, "sum"), **entry, "repeats": True}, item)


def _rellik(r: Reading, item: Item) -> None:
    if not item.args:
        raise Refusal("expects a sum and cells", item)
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
            raise Refusal("its cells are not adjacent", item)
        marks = r.table(table, item)
        for pair in pairs:
            marks.setdefault(kind, []).append(pair)
    return read


def _greater(r: Reading, item: Item) -> None:
    pairs = _pairs(r, r.cells(item.args, item, 2))
    if not pairs:
        raise Refusal("its cells are not adjacent", item)
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
        raise Refusal(f"direction must be 1 or -1, not {way!r}", item)
    r.rule("diagonal+" if way == "1" else "diagonal-", item)


def _given(r: Reading, item: Item) -> None:
    """Givens (`R1C1_5`) and candidate sets (`R1C1_1_3_5`), kept as digits; ISS
    intersects repeats, and a cell may have both a given and a set (cpsudoku keeps
    both, meaning the same)."""
    for arg in item.args:
        cell, *values = arg.split("_")
        name = r.cell(cell, item)
        if not values or not all(re.fullmatch(r"\d+", v) and int(v) in r.digits for v in values):
            raise Refusal(f"{arg!r}: values must be {r.digits[0]}..{r.digits[-1]}", item)
        chosen = {int(v) for v in values}
        table = r.givens if len(chosen) == 1 else r.candidates
        known = table.get(name)
        if known is not None and len(chosen) == 1 and known != chosen:
            raise Refusal(f"{cell} is given twice, as {min(known)} and {min(chosen)}", item)
        table[name] = chosen if known is None else known & chosen
        r.origin.setdefault("given", item)


def _shape(r: Reading, item: Item) -> None:
    pass  # read first, by `_shape_of`


def _jigsaw(r: Reading, item: Item) -> None:
    if not 1 <= len(item.args) <= 2 or len(item.args[-1]) != r.ncells:
        raise Refusal(f"expects a layout of {r.ncells} region labels", item)
    r.jigsaw = (item.args[-1], item)


def _region_size(r: Reading, item: Item) -> None:
    if len(item.args) != 1:
        raise Refusal("expects the number of cells a region holds", item)
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
        raise Refusal(f"region cell {arg} is outside the {r.size}x{r.width} grid", item)
    return f"r{(k - 1) // r.width + 1}c{(k - 1) % r.width + 1}"


def _chaos(key: str) -> Callable:
    """`.ChaosArrow~cell~offset~arm~-~arm` / `.ChaosCount~cell~offset~cells`: offset and
    cells optional (ISS then takes the four directions / the 3x3 around the cell)."""
    def read(r: Reading, item: Item) -> None:
        if not item.args:
            raise Refusal("expects its control cell", item)
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



def _no_boxes(r: Reading, item: Item) -> None:
    r.boxes = False
    r.origin.setdefault("regions", item)


def _line_of(r: Reading, arg: str, item: Item) -> dict[str, int]:
    m = re.fullmatch(r"([RC])([1-9a-gA-G])", arg or "")
    if not m or DIGITS.index(m.group(2).lower()) >= (r.size if m.group(1) == "R" else r.width):
        raise Refusal(f"{arg!r} is not a row or column (R1 .. R{r.size}, C1 .. C{r.width})",
                       item)
    return {"row" if m.group(1) == "R" else "column": DIGITS.index(m.group(2).lower()) + 1}


def _outside(key: str) -> Callable:
    """A clue at either end of a row or column: `.XSum~R1~start~end`."""
    def read(r: Reading, item: Item) -> None:
        if len(item.args) not in (2, 3) or not any(item.args[1:]):
            raise Refusal("expects a row or column and a value at its start or end", item)
        line = _line_of(r, item.args[0], item)
        for side, value in zip(("start", "end"), item.args[1:]):
            if value:
                r.add(key, {**line, "side": side, "value": _number(value, item, "value")}, item)
    return read


def _sandwich(r: Reading, item: Item) -> None:
    if len(item.args) != 2:
        raise Refusal("expects a sum and a row or column", item)
    r.add("sandwiches", {**_line_of(r, item.args[1], item), "side": "start",
                         "value": _number(item.args[0], item, "sum")}, item)


def _lunchbox(r: Reading, item: Item) -> None:
    """A lunchbox on a whole row or column in order is written as one; any other
    cells are listed."""
    if not item.args:
        raise Refusal("expects a sum and cells", item)
    cells = r.cells(item.args[1:], item)
    value = _number(item.args[0], item, "sum")
    at = [tuple(map(int, re.findall(r"\d+", c))) for c in cells]
    for axis, key in ((0, "row"), (1, "column")):
        whole = r.width if key == "row" else r.size
        if at == sorted(at) and len(set(at)) == whole and len({p[axis] for p in at}) == 1:
            r.add("lunchboxes", {key: at[0][axis], "side": "start", "value": value}, item)
            return
    r.add("lunchboxes", {"cells": cells, "value": value}, item)



def _little_killer(r: Reading, item: Item) -> None:
    if len(item.args) != 2:
        raise Refusal("expects a sum and the first cell of its diagonal", item)
    if r.width != r.size:
        raise Refusal("little killers are read on square grids only", item)
    cells = little_killer_diagonals(r.size).get(r.cell(item.args[1], item))
    if cells is None:
        raise Refusal(f"no ISS little-killer diagonal starts at {item.args[1]}", item)
    r.add("little_killers", {"sum": _number(item.args[0], item, "sum"), "cells": cells}, item)


def _quad(r: Reading, item: Item) -> None:
    if len(item.args) < 2:
        raise Refusal("expects its top-left cell and values", item)
    top = r.cell(item.args[0], item)
    row, col = map(int, re.findall(r"\d+", top))
    if row >= r.size or col >= r.width:
        raise Refusal(f"no 2x2 square has its top-left corner at {item.args[0]}", item)
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
            raise Refusal("expects its digits and cells", item)
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
            raise Refusal("region cells (CC<k>) are compared one by one, with no grid cells "
                           "among them", item)
        r.add("same_regions", [_region_cell(arg, r, item) for arg in item.args[1:]], item)
        return
    cells = r.cells(item.args[1:], item, 2)
    if k < 2 or len(cells) % k:
        raise Refusal(f"{len(cells)} cells do not split into {k} sets of equal size", item)
    m = len(cells) // k
    r.add("same_values", [cells[j * m:(j + 1) * m] for j in range(k)], item)


def _region_same(r: Reading, item: Item) -> None:
    r.same_regions = item  # its sets are the regions, known once the layout is read


def _look_and_say(r: Reading, item: Item) -> None:
    if len(item.args) < 2:
        raise Refusal("expects a clue and cells", item)
    r.add("look_and_say", {"cells": r.cells(item.args[1:], item), "clue": item.args[0]}, item)


def _full_rank_ties(r: Reading, item: Item) -> None:
    if len(item.args) != 1:
        raise Refusal(f"expects one of {', '.join(TIES)}", item)
    r.data.setdefault(TIES_KEY, item.args[0])  # ISS takes the first
    r.origin.setdefault(TIES_KEY, item)


def _count_distinct(r: Reading, item: Item) -> None:
    """`.CountDistinct~control~cells`: grid cells count digits, region cells (`CC<k>`)
    the chaos regions they lie in."""
    if len(item.args) < 2 or not all(item.args):
        raise Refusal("expects a control cell and the cells it counts", item)
    control, *counted = item.args
    regions = {_is_region_cell(arg) for arg in counted}
    if _is_region_cell(control) or len(regions) > 1:
        raise Refusal("a count mixing digits and regions has no cpsudoku counterpart", item)
    key = "distinct_region_counts" if regions == {True} else "distinct_counts"
    r.add(key, {"cell": r.cell(control, item),
                "cells": [_region_cell(arg, r, item) for arg in counted]}, item)


def _indexing(r: Reading, item: Item) -> None:
    kinds = {"C": "column", "R": "row"}
    if not item.args or item.args[0] not in kinds:
        raise Refusal("expects C or R, then cells", item)
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
        raise Refusal("expects two or more segments of cells separated by '-'", item)
    r.add("equal_sums", segments, item)


def _regex(r: Reading, item: Item) -> None:
    if not item.args:
        raise Refusal("expects a pattern and cells", item)
    try:
        pattern = decode_pattern(item.args[0])
    except (binascii.Error, ValueError):
        raise Refusal(f"pattern {item.args[0]!r} is not ISS's base64", item) from None
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
                raise Refusal("a line split into segments has no cpsudoku counterpart", item)
            cells.append(r.cell(arg, item))
            continue
        if cells:
            out.append((name, cells))
        cells = []
        if arg:
            name = unquote(arg[1:])
    if not out:
        raise Refusal("expects cells", item)
    return out


def _relation(mode: str, legacy: bool) -> Callable:
    """Pair / PairX (Binary / BinaryX: the older key alphabet): a relation given as a
    key of allowed value pairs, along a line or between every two cells."""
    def read(r: Reading, item: Item) -> None:
        if not item.args:
            raise Refusal("expects a relation key and cells", item)
        try:
            pairs = iss_codes.pairs_from_key(item.args[0], len(r.digits), legacy)
        except ValueError as exc:
            raise Refusal(str(exc), item) from None
        shift = r.digits[0] - 1  # the key counts values 1..V; the pairs are digits
        for name, cells in _named_groups(r, item.args[1:], item):
            r.add("relations", {"cells": cells,
                                "pairs": [[a + shift, b + shift] for a, b in pairs]}
                  | ({"mode": mode} if mode != "line" else {}) | ({"name": name} if name else {}),
                  item)
    return read


def _nfa(r: Reading, item: Item) -> None:
    if not item.args:
        raise Refusal("expects an encoded automaton and cells", item)
    try:
        starts, accepting, moves = iss_codes.automaton_from_code(item.args[0])
    except ValueError as exc:
        raise Refusal(str(exc), item) from None
    shift = r.digits[0] - 1  # ISS's symbols count values 1..V; transitions name digits
    transitions = [[s, v + shift, t] for s, v, t in moves]  # one list, read once
    for name, cells in _named_groups(r, item.args[1:], item):
        r.add("automata", {"cells": cells, "start": starts[0] if len(starts) == 1 else starts,
                           "accepting": accepting, "transitions": transitions}
              | ({"name": name} if name else {}), item)


def _var(r: Reading, item: Item) -> None:
    pass  # read first, by `_extra_cells`


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
