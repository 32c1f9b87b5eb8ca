"""f-puzzles: its JSON puzzle objects and its `?load=` links (LZString-compressed JSON),
read into Puzzles with the rules they draw."""

from __future__ import annotations

import json
from typing import Any

from .. import rules as R
from ..errors import ModelError, ParseError
from ..grid.geometry import boxed, regions_from_labels
from ..grid.puzzle import Puzzle
from ..rules import cells as cellrefs
from .fields import box_or_none, reading, whole
from .fpuzzles_elements import KEYS as ELEMENT_KEYS
from .fpuzzles_elements import fp_cells, read_elements
from .lzstring import decompress_from_base64
from .safeload import json_value

_FP_FLAGS = {"diagonal+": "diagonal+", "diagonal-": "diagonal-", "antiknight": "anti-knight",
             "antiking": "anti-king", "disjointgroups": "disjoint-groups"}


# f-puzzles' line keys: each entry holds `lines` (lists of cells) and maybe a `value`
# (a whisper's difference).
FP_LINES: dict[str, type[R.LineRule]] = {
    "whispers": R.linerules.Whispers, "renban": R.linerules.Renban,
    "palindrome": R.linerules.Palindromes, "regionsumline": R.linerules.RegionSumLines,
    "betweenline": R.linerules.BetweenLines, "entropicline": R.linerules.EntropicLines,
    "modularline": R.linerules.ModularLines, "zipperline": R.linerules.ZipperLines,
    "slowthermometer": R.linerules.SlowThermometers, "doublearrow": R.linerules.DoubleArrows,
}

_FP_READ = {"size", "grid", "killercage", "littlekillersum", "thermometer", "arrow",
            "difference", "ratio", "xv", "odd", "even", "extraregion", "negative",
            "nonconsecutive", "solution", "title", "author", "ruleset", *_FP_FLAGS, *FP_LINES,
            *ELEMENT_KEYS}


# Drawing aids and solver settings that carry no rule of their own.
_FP_COSMETIC = {"highlightConflicts", "text", "line", "rectangle", "circle", "cage",
                "disabledlogic", "truecandidatesoptions", "cellSize", "version"}

# A grid cell's keys: those read (its given, its region, its given candidates) and those
# that only draw or record a solver's progress: colours (`c`, SudokuPad's `cArray`,
# `highlight`), pencil marks, and `_region`, the copy of `region` Rangsk's solver writes.
_CELL_READ = {"value", "given", "region", "givenPencilMarks"}
_CELL_COSMETIC = {"c", "cArray", "highlight", "centerPencilMarks", "cornerPencilMarks",
                  "_region"}
# Where f-puzzles keeps what an unknown cell key seems to mean, said with its refusal.
_CELL_HINTS = {"parity": " (f-puzzles lists odd and even cells under its 'odd' and 'even' "
                         "keys)"}


def is_fpuzzles(data: dict) -> bool:
    grid = data.get("grid")
    return (isinstance(grid, list) and bool(grid) and isinstance(grid[0], list)
            and any(isinstance(cell, dict) for cell in grid[0]))


def unpack_link(payload: str, source: str) -> dict:
    data = decompress_from_base64(payload)
    if not data:
        raise ParseError("the link's puzzle data is not LZString base64 (f-puzzles ?load=)",
                         source)
    try:
        obj = json_value(data, source)
    except json.JSONDecodeError:
        raise ParseError("the link's puzzle data is not JSON", source) from None
    if not isinstance(obj, dict):
        raise ParseError("the link's puzzle data is not a puzzle object", source)
    return obj


def from_fpuzzles(data: dict, source: str = "<string>") -> Puzzle:
    """A puzzle from an f-puzzles JSON object."""
    return reading(_from_fpuzzles, data, source, "f-puzzles")


def _fp_clue(i: int, clue: dict):
    """A little killer: f-puzzles lists the diagonal's cells; without them, the
    clue's position and direction give the diagonal."""
    what = f"little killer {i}"
    direction = str(clue.get("direction", "")).upper() or None
    return R.Clue(whole(clue["value"], what), cellrefs.place(clue["cell"], what), direction,
                  fp_cells(clue["cells"], what) if clue.get("cells") else ())


def default_region(r: int, c: int, size: int) -> int:
    """The region f-puzzles gives cell (r, c), 0-based, when the cell names none: its box,
    or on sizes with no box (primes) its row."""
    box = box_or_none(size)
    return (r // box[0]) * (size // box[1]) + c // box[1] if box else r


def _fp_grid(rows: list, size: int):
    """The givens and the geometry of an f-puzzles grid; a cell key cpsudoku neither reads
    nor knows as a drawing aid is refused by name, like an unknown constraint."""
    givens, labels, irregular = [], [], False
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            cell = cell or {}
            where = f"r{r + 1}c{c + 1}"
            if not isinstance(cell, dict):
                raise ModelError(f"f-puzzles grid: {where} is not a cell object")
            unknown = next((k for k, v in cell.items() if k not in _CELL_READ
                            and k not in _CELL_COSMETIC and v not in (None, False, [], {})),
                           None)
            if unknown is not None:
                hint = _CELL_HINTS.get(unknown, "")
                raise ModelError(f"f-puzzles grid: {where} has the key {unknown!r}, which is "
                                 f"not supported{hint}")
            givens.append(whole(cell["value"], where)
                          if cell.get("given") and cell.get("value") else 0)
            default = default_region(r, c, size)
            region = cell.get("region")
            region = default if region is None else region
            irregular |= region != default
            labels.append(region)
    box = box_or_none(size)
    geometry = (regions_from_labels(labels, size) if irregular or box is None
                else boxed(size, box))
    return givens, geometry


def _from_fpuzzles(data: dict, source: str) -> Puzzle:
    for key, value in data.items():
        if key not in _FP_READ and key not in _FP_COSMETIC and value not in (None, False, [], {}):
            raise ModelError(f"f-puzzles constraint {key!r} is not supported")
    size = whole(data.get("size", len(data["grid"])), "size")
    rows = data["grid"]
    if len(rows) != size or any(len(r) != size for r in rows):
        raise ModelError(f"f-puzzles grid is not {size}x{size}")
    givens, geometry = _fp_grid(rows, size)

    rules = [R.get(name) for key, name in _FP_FLAGS.items() if data.get(key)]
    out_elements: list = []
    if data.get("killercage"):
        out_elements.append(R.Killer(
            R.Cage(fp_cells(c.get("cells"), f"cage {i}"),
                   None if c.get("value") in (None, "") else whole(c["value"], f"cage {i} sum"))
            for i, c in enumerate(data["killercage"], 1)))
    clues = [c for c in data.get("littlekillersum") or [] if c.get("value") not in (None, "")]
    if clues:
        out_elements.append(R.LittleKiller(_fp_clue(i, c) for i, c in enumerate(clues, 1)))
    thermos = [line for t in data.get("thermometer") or [] for line in t.get("lines", [])]
    if thermos:
        out_elements.append(R.Thermometers(fp_cells(t, f"thermometer {i}")
                                           for i, t in enumerate(thermos, 1)))
    if data.get("arrow"):
        arrows: list[R.Arrow] = []
        for i, a in enumerate(data["arrow"], 1):
            circle = fp_cells(a.get("cells", []), f"arrow {i}")
            # f-puzzles lines start inside the circle; the arrow proper follows. Several
            # lines from one circle are several arrows, each summing to the circle on its
            # own (as f-puzzles, SudokuPad and Rangsk's solver read them), not one sum.
            lines = [tuple(c for c in fp_cells(line, f"arrow {i}") if c not in circle)
                     for line in a.get("lines", [])]
            # a circle without a line stays, so that the rule refuses it by name
            arrows.extend(R.Arrow(circle, (line,)) for line in lines if line)
            if not any(lines):
                arrows.append(R.Arrow(circle, ()))
        out_elements.append(R.Arrows(arrows))
    parity_odd = [c["cell"] for c in data.get("odd") or []]
    parity_even = [c["cell"] for c in data.get("even") or []]
    if parity_odd or parity_even:
        out_elements.append(R.Parity(parity_odd, parity_even))
    negative = {str(n).lower() for n in data.get("negative") or []}
    dots = ([R.Mark("white", fp_cells(d["cells"], "difference dot"),
                    None if d.get("value") in (None, "") else whole(d["value"], "difference"))
             for d in data.get("difference") or []]
            + [R.Mark("black", fp_cells(d["cells"], "ratio dot"),
                      None if d.get("value") in (None, "") else whole(d["value"], "ratio"))
               for d in data.get("ratio") or []])
    white_dots = any(d.kind == "white" for d in dots)
    kropki_negative = ((["white"] if data.get("nonconsecutive") and white_dots else [])
                       + (["black"] if "ratio" in negative else []))
    if dots or kropki_negative:
        out_elements.append(R.Kropki(dots, negative=kropki_negative))
    if data.get("nonconsecutive") and not white_dots:
        rules.append(R.get("non-consecutive"))
    xv = [R.Mark(str(m.get("value", "")).upper(), fp_cells(m["cells"], "xv"))
          for m in data.get("xv") or []]
    if xv or "xv" in negative:
        out_elements.append(R.XV(xv, negative=["x", "v"] if "xv" in negative else []))
    if data.get("extraregion"):
        out_elements.append(R.ExtraRegions(fp_cells(r["cells"], f"extra region {i}")
                                           for i, r in enumerate(data["extraregion"], 1)))

    out_elements.extend(_fp_line_rules(data))
    out_elements.extend(read_elements(data, size))

    meta: dict[str, Any] = {"format": "f-puzzles"}
    for key in ("author", "ruleset"):
        if data.get(key):
            meta[key] = data[key]
    solution = data.get("solution")
    if isinstance(solution, list) and len(solution) == size * size and all(
            isinstance(v, int) and 1 <= v <= size for v in solution):
        meta["solution"] = tuple(solution)
    return Puzzle(geometry, tuple(givens), tuple(rules + out_elements), source=source,
                  name=data.get("title") or None, meta=meta)


def _fp_line_rules(data: dict) -> list[R.LineRule]:
    out = []
    for key, cls in FP_LINES.items():
        lines: list[R.Line] = []
        for entry in data.get(key) or []:
            what = f"{cls.noun} {len(lines) + 1}"
            value = entry.get("value")
            value = (None if value in (None, "") or cls.parameter is None
                     else whole(value, f"{what} {cls.parameter}"))
            lines.extend(R.Line(fp_cells(line, what), value) for line in entry.get("lines", []))
        if lines:
            out.append(cls(lines))
    return out


def fpuzzles_lines(rule: R.LineRule) -> tuple[str, list[dict]] | None:
    """The f-puzzles key and entries of a line rule (None when f-puzzles has no such line):
    one entry per line, cells as R1C1, the parameter as `value` when the line has one."""
    key = next((k for k, cls in FP_LINES.items() if type(rule) is cls), None)
    if key is None:
        return None
    entries = []
    for line in rule.elements:
        entry: dict[str, Any] = {"lines": [[f"R{r}C{c}" for r, c in line.cells]]}
        if line.value is not None:
            entry["value"] = line.value
        entries.append(entry)
    return key, entries
