"""Variant puzzle files: the cpsudoku puzzle format (TOML or JSON) and f-puzzles import.

The cpsudoku puzzle format
==========================

One puzzle per file, in TOML or JSON (the same keys in both). Cells are named
`r<row>c<column>`, 1-based (`r1c1` is the top-left cell); in JSON a cell may
also be a 0-based index in row-major order. A list of cells may be written as
one string: `"r1c1 r1c2 r2c2"`.

    name = "Little killer example"          # optional
    size = 9                                # default 9, or taken from grid / regions;
                                            # "6x8" for 6 rows of 8 (max(R, C) digits)
    digits = "1-9"                          # optional: the digits, "first-last" from 0
                                            # or 1, N or more ("0-8"; "1-9" on 6x6)
    box = "3x3"                             # optional box shape (default: the usual one)
    regions = [                             # optional jigsaw layout: one label per cell,
        "111222333",                        # one string per row (replaces the boxes);
        ...                                 # or a list of regions, each a list of cells
    ]
    grid = '''                              # the givens, in any notation the grid
    5.. ... ...                             # parser reads; omitted = no givens
    ...                                     # (digits from 0: `0` is a digit, `.` a
    '''                                     # blank, and rows of numbers are refused)
    rules = ["diagonal", "anti-knight"]     # global rules, see `cpsudoku variants`
    solution = "534678912..."               # optional: the known solution (checked by tests)
    layout = "samurai"                      # a multi-grid board (or grids = [[1, 1], ...]):
                                            # see `cpsudoku.formats.boards`
    extra_cells = ["VA1", "VA2"]            # optional: cells outside the grid, each holding
                                            # a digit, in no row, column or region; elements
                                            # name them like grid cells
    thermometers = [["r1c1", "r2c2", "r3c3"]]   # bulb first; digits strictly increase
    odd = ["r1c1", "r9c9"]
    even = ["r5c5"]
    greater_than = [["r1c1", "r1c2"]]       # [greater, smaller]
    extra_regions = [["r1c1", "r2c2", "r3c3"]]
    whispers = [["r1c1", "r1c2", "r2c3"]]   # line rules: a list of lines (see below)

    [[cages]]                               # killer cages (TOML: tables come after
    sum = 15                                # the plain keys above); sum is optional
    cells = ["r1c1", "r1c2", "r2c1"]
    repeats = false                         # default: digits in a cage differ

    [[little_killers]]                      # sums along diagonals; repeats allowed
    sum = 23
    clue = "r0c2"                           # position outside the grid ...
    direction = "DR"                        # ... and direction: DR, DL, UR, UL
    # or: cells = ["r1c2", "r2c3", ...]

    [[arrows]]
    circle = "r5c5"                         # one cell, or several (a pill, read as a number)
    cells = ["r4c4", "r3c3"]                # from the circle outwards
    # or: lines = [[...], [...]]            # several lines from one circle

    [kropki]
    white = [["r1c1", "r1c2"]]              # consecutive digits ({cells = [...], value = 3}
    black = [["r2c1", "r2c2"]]              # for another difference / ratio)
    all_given = true                        # negative rule: no dot -> neither consecutive
                                            # nor ratio 2 (or negative = ["white"])
    [xv]
    x = [["r3c3", "r3c4"]]                  # sum 10
    v = [["r4c4", "r5c4"]]                  # sum 5
    all_given = true                        # no mark -> the pair sums to neither 10 nor 5

Line rules, each a list of lines; a line is a list of cells in order (each
touching the next), or a table with `cells` and the rule's parameter:
`whispers` (`difference`, 5 on 9x9), `dutch_whispers` (difference 4),
`renban`, `palindromes`, `region_sum_lines`, `between_lines` (the ends are the
first and last cell), `lockout_lines` (`difference`, 4), `entropic_lines`,
`modular_lines` (`modulus`, 3), `parity_lines`, `zipper_lines`, `sum_lines`
(`total`, 10), `slow_thermometers`, `double_arrows`:

    whispers = [["r1c1", "r1c2", "r1c3"], {cells = ["r5c5", "r6c6"], difference = 3}]

Several puzzles fit in one file as `[[puzzles]]` tables (TOML) or a JSON list;
a file of one JSON object per line is read line by line. Other scalar keys
(`author`, `id`, ...) are kept in `Puzzle.meta`; an unknown key holding a list
or table is an error, so a misspelt element is never silently dropped.

f-puzzles
=========

An f-puzzles JSON object (recognised by its `grid` of cell objects) and the
compressed `?load=` form of its links (LZString base64) are read too:
givens, regions, killercage, littlekillersum, thermometer, arrow, difference,
ratio, xv, odd, even, extraregion, the flags diagonal+, diagonal-, antiknight,
antiking, disjointgroups, nonconsecutive (with white dots: the negative white
rule), and negative (["ratio"], ["xv"]). Decorations (lines, circles, text) are
ignored; any other constraint is refused by name rather than left out.

`dumps(puzzle)` writes a puzzle back in the TOML format (so an f-puzzles file
converts to a readable one: `print(dumps(load(text)[0]))`).
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from .. import rules as R
from ..errors import ModelError, ParseError
from ..grid.geometry import Geometry, box_for, boxed, irregular, raw_grid, regions_from_labels
from ..grid.puzzle import Puzzle
from ..grid.symbols import ALPHABET, line, value_of
from ..rules import cells as cellrefs
from ..validate import parse_box
from . import boards, families, records, sudokupad_elements
from .fields import (
    ELEMENT_KEYS,
    PUZZLE_KEYS,
    box_or_none,
    box_pair,
    cell_list,
    digits_key,
    listed,
    read_digits,
    read_size,
    reading,
    whole,
)
from .fpuzzles import from_fpuzzles, is_fpuzzles, unpack_link
from .grids import read_grids
from .notation import read_notation
from .safeload import MAX_DOCUMENT, check_bounds, refuse_document, toml_value

_LINK = re.compile(r"[?&]load=([^&#\s]+)")
_TOML_TABLE = re.compile(r"\[\[?\s*[A-Za-z_]")  # [table] / [[array]], not a JSON list
_BASE64 = re.compile(r"^[A-Za-z0-9+/=%\s]{16,}$")


# ---------------------------------------------------------------- recognising input

def load(text: str, source: str = "<string>") -> list[Puzzle]:
    """Puzzles from a puzzle file: TOML, JSON (cpsudoku format or f-puzzles),
    JSON lines, or an f-puzzles link / its compressed payload."""
    s = text.strip()
    if s.startswith("{") or (s.startswith("[") and not _TOML_TABLE.match(s)):
        return _load_json(text, source)  # first: a JSON record may hold a link
    if len(_LINK.findall(s)) > 1:  # links one a line: each line its puzzle
        return [puzzle for number, text_line in enumerate(text.splitlines(), 1)
                if (found := _LINK.search(text_line))
                for puzzle in _objects(_unpacked(found.group(1), f"{source}:{number}"),
                                       f"{source}:{number}")]
    link = _LINK.search(s)
    if link or (_BASE64.match(s) and not s.isdigit() and "\n" not in s):
        payload = link.group(1) if link else s
        return _objects(_unpacked(payload, source), source)
    return _load_toml(text, source)


def _unpacked(payload: str, source: str) -> dict:
    """A link's puzzle, its payload first measured (it is decompressed in Python)."""
    if len(payload) > MAX_DOCUMENT:
        refuse_document(f"the link's puzzle ({len(payload)} characters)", source)
    return unpack_link(payload, source)


def _load_json(text: str, source: str) -> list[Puzzle]:
    """One JSON value (an object, a list of objects), or several in a row: JSON lines,
    or pretty-printed objects one after another."""
    docs = _json_documents(text, source)
    if len(docs) == 1 and isinstance(docs[0][0], list):
        items = docs[0][0]
        if not items or not all(isinstance(d, dict) for d in items):
            raise ParseError("a JSON list of puzzles must hold puzzle objects", source)
        return [p for i, d in enumerate(items, 1) for p in _objects(d, f"{source}[{i}]")]
    out = []
    for data, at in docs:
        if not isinstance(data, dict):
            raise ParseError("expected a puzzle object", source, at)
        out.extend(_objects(data, source if len(docs) == 1 else f"{source}:{at}"))
    return out


_BETWEEN = re.compile(r"(?:\s+|#[^\n]*)*")  # whitespace and `#` comment lines


def _json_documents(text: str, source: str) -> list[tuple[Any, int]]:
    """Every JSON value in `text` with the line it starts on."""
    check_bounds(text, source)
    decoder = json.JSONDecoder()
    docs: list[tuple[Any, int]] = []
    pos, line, counted = 0, 1, 0
    while True:
        pos = _BETWEEN.match(text, pos).end()  # type: ignore[union-attr]
        if pos >= len(text):
            return docs
        line += text.count("\n", counted, pos)
        counted = pos
        try:
            data, pos = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            raise ParseError(f"invalid JSON: {exc.msg}", source, exc.lineno, exc.colno) from None
        docs.append((data, line))


def _load_toml(text: str, source: str) -> list[Puzzle]:
    data = toml_value(text, source)
    if "puzzles" in data:
        return _many(data, source, lambda d, where: [from_dict(d, where)])
    return [from_dict(data, source)]


def _many(data: dict, source: str, read) -> list[Puzzle]:
    """The puzzles of a `puzzles` list; nothing else may sit beside it, so that a key
    meant for a puzzle is never silently left out."""
    beside = sorted(set(data) - {"puzzles"})
    if beside:
        raise ModelError(f"{source}: key {beside[0]!r} beside 'puzzles': put it inside each "
                         f"puzzle")
    many = data["puzzles"]
    if not isinstance(many, list) or not many or not all(isinstance(d, dict) for d in many):
        raise ModelError(f"{source}: 'puzzles' must be a non-empty list of puzzle tables")
    return [p for i, d in enumerate(many, 1) for p in read(d, f"{source}:{i}")]


def _objects(data: dict, source: str) -> list[Puzzle]:
    """The puzzles of one JSON object: a puzzle, an f-puzzles puzzle, a `puzzles` list,
    or the json/jsonl record of a cpsudoku command (see `cpsudoku.formats.records`)."""
    if "puzzles" in data:
        return _many(data, source, read_object)
    return read_object(data, source)


def read_object(data: dict, source: str) -> list[Puzzle]:
    """The puzzle of one JSON object that is no `puzzles` list: a cpsudoku record, an
    f-puzzles or SudokuPad (Sudoku Maker) puzzle or a puzzle file's JSON form."""
    form = records.puzzle_form(data, source)
    if form is not None:  # a record of a cpsudoku command: its puzzle, the rest as meta
        spec, meta = form
        puzzle = from_dict(spec, source)
        where = meta.get("source") if isinstance(meta.get("source"), str) else source
        return [replace(puzzle, source=where, meta={**puzzle.meta, **meta})]
    if sudokupad_elements.is_sudokupad(data):  # SudokuPad's puzzle unpacked (Sudoku Maker)
        return [sudokupad_elements.read(data, source, from_dict)]
    return [from_fpuzzles(data, source) if is_fpuzzles(data) else from_dict(data, source)]


def _table(value, what: str, keys: Iterable[str]) -> dict:
    if not isinstance(value, dict):
        raise ModelError(f"{what} must be a table of fields, not {type(value).__name__}")
    unknown = sorted(set(value) - set(keys))
    if unknown:
        hint = (" (in TOML, plain keys go before the first [table])"
                if unknown[0] in ELEMENT_KEYS or unknown[0] in PUZZLE_KEYS else "")
        raise ModelError(f"{what}: unknown key {unknown[0]!r}; known: {', '.join(keys)}{hint}")
    return value


# ---------------------------------------------------------------- cpsudoku format

def from_dict(data: dict, source: str = "<string>", form: str = "cpsudoku") -> Puzzle:
    """A puzzle from the cpsudoku puzzle format (a parsed TOML or JSON object); `form`
    is the format its meta names (a reader that built the dict from another says so)."""
    return reading(lambda data, source: _from_dict(data, source, form), data, source, "puzzle")


def _from_dict(data: dict, source: str, form: str = "cpsudoku") -> Puzzle:
    meta: dict[str, Any] = {"format": form}
    if "puzzles" in data:
        raise ModelError("'puzzles' inside a puzzle: a file lists puzzles at its top level")
    for key, value in data.items():
        if key in PUZZLE_KEYS or key in ELEMENT_KEYS or key in families.KEYS:
            continue
        if isinstance(value, (list, dict)):
            near = difflib.get_close_matches(key.lower(), ELEMENT_KEYS + families.KEYS, 1, 0.75)
            hint = f"; did you mean {near[0]!r}?" if near else ""
            raise ModelError(f"unknown element {key!r}{hint} (known: "
                             f"{', '.join(ELEMENT_KEYS + families.KEYS)})")
        near = difflib.get_close_matches(key.lower(), PUZZLE_KEYS + ELEMENT_KEYS + families.KEYS,
                                         1, 0.75)
        if near:  # a misspelt key would otherwise be kept as metadata and its meaning lost
            raise ModelError(f"unknown key {key!r}; did you mean {near[0]!r}?")
        meta[key] = value
    name = data.get("name", data.get("title", data.get("id")))
    size, box, geometry = _geometry(data)
    givens = _givens(data.get("grid"), geometry, source)
    rules = list(R.by_names(_rule_names(data.get("rules", []))))
    geometry = _with_extra_cells(geometry, data.get("extra_cells", []), rules)
    rules.extend(_elements(data, geometry.width))
    solution = data.get("solution")
    if solution:
        meta["solution"] = _givens(solution, geometry, source)
    return Puzzle(geometry, givens, tuple(rules), source=source,
                  name=None if name is None else str(name), meta=meta)


def _with_extra_cells(geometry: Geometry, names, rules) -> Geometry:
    """The geometry with the file's extra cells, and those its rules name (a
    Doppelganger's missing digits) when the file does not list them."""
    if isinstance(names, str):
        names = names.split()
    listed_names = [str(x).strip() for x in listed(names, "extra_cells")]
    for rule in rules:
        for name in getattr(rule, "extra_cells", lambda g: ())(geometry):
            if name not in listed_names:
                listed_names.append(name)
    return geometry.with_extra(listed_names) if listed_names else geometry


def _rule_names(value) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if isinstance(value, list) and all(isinstance(v, str) and v.strip() for v in value):
        return value
    raise ModelError(f"rules must be a list of rule names (rules = [] for none), not {value!r}")


def _geometry(data: dict):
    if boards.is_board(data):
        geometry = boards.board_geometry(data)
        return geometry.size, geometry.box, geometry
    regions = data.get("regions")
    labels = None
    shape = read_size(data["size"]) if "size" in data else None
    houses = data.get("houses", True)
    if houses is not True:
        return _raw(data, shape)
    if isinstance(regions, list) and regions and all(
            isinstance(r, list) and r and isinstance(r[0], str) and len(r[0]) > 1 for r in regions):
        # regions as lists of cell names: any overlap or gap is reported by the geometry
        size, width = shape or (len(regions), len(regions))
        cells = [cellrefs.resolve(cell_list(r, width, f"region {i}"),
                                  _any_geometry(size, width), f"region {i}")
                 for i, r in enumerate(regions, 1)]
        return size, None, _laid_out(size, width, data, cells)
    if regions is not None:
        rows = regions.split() if isinstance(regions, str) else listed(regions, "regions")
        labels = [lab for row in rows for lab in (row.split() if isinstance(row, str) and " " in row
                                                  else list(row) if isinstance(row, str) else row)]
    if shape is None:
        side = round(len(labels) ** 0.5) if labels is not None else 9
        shape = (side, side)
    size, width = shape
    box = data.get("box")
    if box is not None:
        box = parse_box(box) if isinstance(box, str) else box_pair(box)
    if labels is not None:
        if len(labels) != size * width:
            raise ModelError(f"regions: the layout has {len(labels)} cells, expected "
                             f"{size * width} for a {size}x{width} grid")
        return size, None, _laid_out(size, width, data, labels=[str(x) for x in labels])
    return size, box, _laid_out(size, width, data, box=box)


def _laid_out(size: int, width: int, data: dict, regions=None, labels=None,
              box=None) -> Geometry:
    """The geometry of explicit regions, a layout of labels or boxes, holding the
    `digits` key's digits. With more digits than N, regions may hold more than N cells
    (up to one a digit): boxes that do not tile a row, jigsaw pieces of other sizes."""
    digits = read_digits(data.get("digits"), max(size, width))
    shape = {"values": len(digits), "first": digits[0], "width": width}
    if regions is not None:
        return irregular(size, regions, **shape)
    if labels is not None:
        return regions_from_labels(labels, size, **shape)
    return boxed(size, box, **shape)


def _raw(data: dict, shape: tuple[int, int] | None):
    """`"houses": false`: a raw grid, whose rows and columns need not hold different
    digits (ISS's grid type Raw); it has no box or regions."""
    if data["houses"] is not False:
        raise ModelError(f"houses must be true or false, not {data['houses']!r}")
    if data.get("box") is not None or data.get("regions") is not None:  # ("box": null is none)
        raise ModelError("a grid without houses (\"houses\": false) has no box or regions")
    if shape is None:
        raise ModelError("a grid without houses needs its size (\"size\": 9 or \"6x8\")")
    size, width = shape
    digits = read_digits(data.get("digits"), max(size, width), houses=False)
    return size, None, raw_grid(size, width=width, values=len(digits), first=digits[0])


def _any_geometry(size: int, width: int) -> Geometry:
    """A geometry of the right size (rows as regions), only for resolving cell names."""
    return Geometry(size, tuple(tuple(range(r * width, r * width + width))
                                for r in range(size)), width=width)


def _givens(grid, geometry, source: str) -> tuple[int, ...]:
    """Values of a grid given as text (any notation the parser reads, digits read with
    the geometry's) or rows of numbers (values, 0 blank)."""
    n, width, most, first = geometry.size, geometry.width, geometry.values, geometry.first
    ncells = geometry.ncells
    if geometry.grids:
        return boards.board_givens(grid, geometry)
    if grid is None or grid == "":
        return (0,) * ncells
    if isinstance(grid, list) and grid and all(isinstance(r, list) for r in grid):
        if not first:
            raise ModelError("grid: rows of numbers cannot tell the digit 0 from a blank; "
                             "write the rows as text (0 a digit, '.' a blank)")
        if len(grid) != n or any(len(row) != width for row in grid):
            raise ModelError(f"grid: expected {n} rows of {width} numbers 0..{most}")
        for r, row in enumerate(grid, 1):
            for c, v in enumerate(row, 1):
                if type(v) is not int or not 0 <= v <= most:  # null and true are not numbers
                    shown = json.dumps(v, default=str)
                    raise ModelError(f"grid: row {r}, column {c}: {shown} is not a number "
                                     f"0..{most}")
        return tuple(v for row in grid for v in row)
    if isinstance(grid, list):
        grid = "\n".join(str(r) for r in grid)
    if not isinstance(grid, str):
        raise ModelError(f"grid must be text or rows of numbers, not {type(grid).__name__}")
    compact = "".join(grid.split())
    if len(compact) == ncells and all(value_of(ch, first) is not None for ch in compact):
        values = tuple(value_of(ch, first) or 0 for ch in compact)  # the common case
        if geometry.standard:  # other digits leave no notation to guess
            values = read_notation(compact, values, n, source, None) or values
    elif not geometry.square:  # the grid reader's notations are drawn N x N
        raise ModelError(f"grid: a {geometry.shape} grid is written as its {ncells} cells, "
                         f"a digit or a blank each (rows of {width}), not {len(compact)} "
                         f"characters")
    else:
        box = geometry.box if geometry.box and geometry.box[0] * geometry.box[1] == n \
            else box_or_none(n)  # the grid reader reads every other notation
        grids = read_grids(grid, n, box, source, digits=geometry.digits)
        if not grids:
            raise ParseError("grid: no puzzle found (only comments and blank lines)", source)
        values = grids[0].givens
    if len(values) != ncells:
        raise ModelError(f"grid has {len(values)} cells, expected {ncells}")
    if any(v > most for v in values):
        raise ModelError(f"grid holds a digit above {geometry.digits[-1]}")
    return tuple(values)


def _elements(data: dict, size: int) -> list:
    """The per-puzzle element rules present in `data`."""
    out: list = []
    if "cages" in data:
        cages = []
        for i, c in enumerate(listed(data["cages"], "cages"), 1):
            c = _table(c, f"cage {i}", ("sum", "total", "cells", "repeats", "weights"))
            total = c.get("sum", c.get("total"))
            weights = c.get("weights")
            cages.append(R.Cage(cell_list(c.get("cells", []), size, f"cage {i}"),
                                None if total is None else whole(total, f"cage {i} sum"),
                                not c.get("repeats", False),
                                None if weights is None else tuple(
                                    whole(w, f"cage {i} weight")
                                    for w in listed(weights, f"cage {i} weights"))))
        out.append(R.Killer(cages))
    if "little_killers" in data:
        clues = []
        for i, c in enumerate(listed(data["little_killers"], "little_killers"), 1):
            c = _table(c, f"little killer {i}", ("sum", "total", "clue", "direction", "cells"))
            what = f"little killer {i}"
            clues.append(R.Clue(whole(c.get("sum", c.get("total")), f"{what} sum"),
                                cellrefs.place(c["clue"], what) if "clue" in c else None,
                                str(c["direction"]).upper() if "direction" in c else None,
                                cell_list(c.get("cells", []), size, what)))
        out.append(R.LittleKiller(clues))
    if "thermometers" in data:
        thermos = [cell_list(t.get("cells") if isinstance(t, dict) else t, size, f"thermometer {i}")
                   for i, t in enumerate(listed(data["thermometers"], "thermometers"), 1)]
        out.append(R.Thermometers(thermos))
    if "arrows" in data:
        arrows = []
        for i, a in enumerate(listed(data["arrows"], "arrows"), 1):
            a = _table(a, f"arrow {i}", ("circle", "cells", "lines"))
            lines = list(a.get("lines", [])) + ([a["cells"]] if "cells" in a else [])
            arrows.append(R.Arrow(cell_list(a.get("circle", []), size, f"arrow {i}"),
                                  tuple(cell_list(line, size, f"arrow {i}") for line in lines)))
        out.append(R.Arrows(arrows))
    if "odd" in data or "even" in data:
        out.append(R.Parity(cell_list(data.get("odd", []), size, "odd"),
                            cell_list(data.get("even", []), size, "even")))
    if "kropki" in data:
        out.append(_pair_marks(R.Kropki, _table(data["kropki"], "kropki", _KROPKI_KEYS),
                               {"white": "white", "black": "black"}, size))
    if "xv" in data:
        out.append(_pair_marks(R.XV, _table(data["xv"], "xv", _XV_KEYS), {"x": "X", "v": "V"},
                               size))
    if "greater_than" in data:
        pairs = [cell_list(p, size, f"greater-than {i}")
                 for i, p in enumerate(listed(data["greater_than"], "greater_than"), 1)]
        out.append(R.GreaterThan(pairs))
    if "extra_regions" in data:
        regions = [cell_list(r, size, f"extra region {i}")
                   for i, r in enumerate(listed(data["extra_regions"], "extra_regions"), 1)]
        out.append(R.ExtraRegions(regions))
    out.extend(families.rules(data, size, _part))
    return out


def _part(data: dict, size: int) -> list:
    """The element rules of a piece of a puzzle (an alternative of `either`)."""
    known = ("givens",) + ELEMENT_KEYS + families.KEYS
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise ModelError(f"unknown key {unknown[0]!r}; known: {', '.join(known)}")
    return _elements(data, size)


_KROPKI_KEYS = ("white", "black", "all_given", "negative")
_XV_KEYS = ("x", "v", "all_given", "negative")


def _pair_marks(cls, spec: dict, kinds: dict[str, str], size: int):
    marks = []
    for key, kind in kinds.items():
        for j, item in enumerate(listed(spec.get(key, []), f"{cls.name} {key}"), 1):
            what = f"{cls.name} {key} {j}"
            if isinstance(item, dict):
                value = item.get("value")
                marks.append(R.Mark(kind, cell_list(item.get("cells", []), size, what),
                                    None if value is None else whole(value, f"{what} value")))
            else:
                marks.append(R.Mark(kind, cell_list(item, size, what)))
    negative = spec.get("negative", [])
    negative = [negative] if isinstance(negative, str) else list(negative)
    if spec.get("all_given"):
        negative.extend(kinds)
    return cls(marks, negative=[n.lower() for n in negative])


# ---------------------------------------------------------------- writing

def as_dict(puzzle: Puzzle) -> dict[str, Any]:
    """The puzzle in the cpsudoku puzzle format's JSON form (`from_dict` reads it back):
    name, size, box or regions, rules, grid (one line per row), solution, then the
    element keys. Rules must be registered or element rules."""
    geometry = puzzle.geometry
    n, width = geometry.size, geometry.width
    out: dict[str, Any] = {"name": puzzle.name} if puzzle.name else {}
    if geometry.grids:  # a board has no rules yet (see Puzzle)
        out.update(boards.board_keys(geometry))
        out["grid"] = boards.board_rows(puzzle.givens, geometry)
        if puzzle.meta.get("solution"):
            out["solution"] = geometry.line(puzzle.meta["solution"])
        return out
    out["size"] = n if geometry.square else geometry.shape
    if geometry.digits != range(1, max(n, width) + 1):
        out["digits"] = digits_key(geometry.digits)
    default = box_or_none(n) if geometry.square else box_for(n, width, geometry.values)
    if not geometry.houses:
        out["houses"] = False
    elif geometry.box is None and (geometry.square or default or geometry.regions != geometry.rows):
        labels = [ALPHABET[r] for r in geometry.region_of]
        out["regions"] = ["".join(labels[r * width:(r + 1) * width]) for r in range(n)]
    elif geometry.box is not None and geometry.box != default:
        out["box"] = f"{geometry.box[0]}x{geometry.box[1]}"
    names, elements = [], {}
    for rule in puzzle.rules:
        if isinstance(rule, R.element.ElementRule):
            for key, value in rule.data().items():
                if key in elements:
                    raise ModelError(f"two {rule.name} rules cannot share one puzzle file")
                elements[key] = value
        elif rule.name in R.names() and R.get(rule.name) == rule:
            names.append(rule.name)
        else:
            raise ModelError(f"rule {rule.name} is neither registered nor a puzzle-file element")
    if names:
        out["rules"] = names
    if geometry.extra:
        out["extra_cells"] = list(geometry.extra)
    first = geometry.first
    out["grid"] = "\n".join(line(puzzle.givens[r * width:(r + 1) * width], first=first)
                            for r in range(n))
    if puzzle.meta.get("solution"):
        out["solution"] = line(puzzle.meta["solution"], first=first)
    out.update(elements)
    return out


def dumps(puzzle: Puzzle) -> str:
    """The puzzle in the cpsudoku TOML format: `load(dumps(p))` gives the same puzzle
    (f-puzzles files convert this way). Rules must be registered or element rules."""
    out, tables = [], []
    for key, value in as_dict(puzzle).items():
        if key == "grid":
            out.append(f'grid = """\n{value}\n"""')
        elif isinstance(value, dict):
            tables.append(f"\n[{key}]\n" + "".join(f"{k} = {_toml(v)}\n" for k, v in value.items()))
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            tables.extend(f"\n[[{key}]]\n" + "".join(f"{k} = {_toml(v)}\n" for k, v in item.items())
                          for item in value)
        else:
            out.append(f"{key} = {_toml(value)}")
    return "\n".join(out) + "\n" + "".join(tables)


def _toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a valid TOML basic string
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"
    items = [_toml(v) for v in value]
    if value and isinstance(value[0], (list, dict)):  # one item a line
        return "[\n" + "".join(f"    {item},\n" for item in items) + "]"
    return "[" + ", ".join(items) + "]"


__all__ = ["ELEMENT_KEYS", "as_dict", "dumps", "from_dict", "from_fpuzzles", "is_fpuzzles", "load"]
