"""What a SudokuPad or Sudoku Maker puzzle draws, read as the rules of a puzzle file.

The puzzle's `cells` give the givens (`value`) and given candidates (`centremarks`), its
`regions` the regions (a grid whose regions cover only an inner part of `cells` has
its outside clues in the cells around it, drawn or written as their digits), `global`
the global rules (`antiknight`,
`antiking`, `disjoint`, `nonconsecutive`, `antiratio`, `antixv`), `metadata` (or cages
whose value is `title: ...`) the title, author, rules text and solution. The drawings:

- cages: killer cages (`value` or `sum` the total, `unique: false` digits may repeat),
  rellik cages where the rules text says so, extra regions (`style: "extraregion"`),
  f-puzzles' indexers (`style: "fpRowIndexer"` ...);
- lines through cell centres: thermometers (a bulb of the line's colour at one end),
  between lines (circles at both ends), and by colour or by the rules text (see
  `sudokupad_rules`); a line from corner to corner of the grid is its diagonal;
- arrows: from a circle or pill in the grid, an arrow; from outside the grid along a
  diagonal, a little killer whose sum is the number beside it;
- small circles on an edge: white and black kropki dots (a number in one its value);
  X and V on an edge; a circle of digits on a corner: a quadruple; a grey circle or
  square in a cell: odd or even; numbers outside the grid: the outside clues the rules
  text names (sandwiches, x-sums, skyscrapers, numbered rooms).

Anything else is refused by name and place, never left out: a drawing with no rule, a
line whose colour and rules text do not decide its rule, corner pencil marks (a cell's
candidates, or a digit's places in its box?). Invisible shapes, shading of whole cells
(unless the rules text speaks of shaded cells), f-puzzles' cosmetic cages (as the
f-puzzles reader skips them) and fog of war carry no rule and are skipped.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, NoReturn

from ..errors import ParseError
from ..grid.geometry import tiles
from ..grid.puzzle import Puzzle
from .fields import box_or_none, reading
from .sudokupad_rules import SHAPE_WORDS, RulesText, colour_family

_META = re.compile(r"^([a-z][\w-]*):\s*([\s\S]*)$")
_READ = {"id", "cellSize", "cells", "regions", "cages", "lines", "arrows", "overlays",
         "underlays", "metadata", "global", "settings", "title", "author", "rules"}
# Fog of war hides clues until digits reveal them; it changes no rule. Replays carry
# videos and timings.
_SKIPPED = {"foglight", "foglink", "triggereffect", "videos", "duration"}
_CELL_READ = {"value", "centremarks", "centerMarks", "given"}
_CELL_SKIPPED = {"color", "colour", "colours", "colors", "highlight", "pen"}
_CORNER_MARKS = ("pencilMarks", "pencilmarks", "cornermarks", "cornerMarks")
_GLOBALS = {"antiknight": "anti-knight", "antiking": "anti-king", "disjoint": "disjoint-groups"}
_INDEXERS = {"fpRowIndexer": "row", "fpColumnIndexer": "column", "fpBoxIndexer": "box"}
_CAGE_STYLES = (None, "", "killer", "default")
_SHADED = r"shad(?:ed|ing)|gr[ae]y cells?|colou?red cells?|highlight"

Cell = tuple[int, int]  # 0-based (row, column) on the grid; outside the grid: -1 or N


def is_sudokupad(data: dict) -> bool:
    """Whether a JSON object is a SudokuPad or Sudoku Maker puzzle: rows of `cells` and
    no f-puzzles `grid`."""
    cells = data.get("cells")
    return ("grid" not in data and isinstance(cells, list) and bool(cells)
            and all(isinstance(row, list) for row in cells))


def read(data: dict, source: str, load: Callable[..., Puzzle]) -> Puzzle:
    """The puzzle a SudokuPad object draws (its keys long, as `sudokupad.unzip` gives);
    `load` is the puzzle-file loader (`puzzlefile.from_dict`) the spec is read with."""
    return reading(lambda d, s: _Reader(d, s).puzzle(load), data, source, "SudokuPad")


def name(cell: Cell) -> str:
    return f"r{cell[0] + 1}c{cell[1] + 1}"


def _frac_near(v: float, target: float, tol: float) -> bool:
    f = v - math.floor(v)
    return abs(f - target) <= tol or (target == 0 and abs(f - 1) <= tol)


@dataclass
class _Mark:
    """An overlay or underlay: a shape, maybe with text, placed by its centre."""

    what: str
    y: float
    x: float
    width: float
    height: float
    rounded: bool
    fill: str
    border: str
    text: str
    used: bool = False

    @property
    def invisible(self) -> bool:
        return not self.text and self.fill in ("none", "white") and \
            self.border in ("none", "white")

    def covers(self, cell: Cell) -> bool:
        """Whether the cell's centre lies within the shape."""
        return (abs(cell[0] + 0.5 - self.y) <= self.height / 2 + 1e-6
                and abs(cell[1] + 0.5 - self.x) <= self.width / 2 + 1e-6)


class _Reader:
    def __init__(self, data: dict, source: str):
        self.data, self.source = data, source
        self.spec: dict[str, Any] = {}
        self.rules: list[str] = []
        self.negative: dict[str, list[str]] = {"kropki": [], "xv": []}

    def refuse(self, message: str) -> NoReturn:
        raise ParseError(f"SudokuPad {message}", self.source)

    # ------------------------------------------------------------ the whole puzzle

    def puzzle(self, from_dict: Callable[..., Puzzle]) -> Puzzle:
        for key, value in self.data.items():
            if key not in _READ and key not in _SKIPPED and value not in (None, [], {}, ""):
                self.refuse(f"key {key!r} is not read (it may hold rules cpsudoku would "
                            f"leave out)")
        meta = self.metadata()
        self.text = RulesText(str(meta.get("rules", "")))
        self.grid()
        self.marks = self.read_marks()
        self.globals()
        self.cages()
        self.arrows()
        drawn = self.lines()
        self.rest()
        self.background(meta, drawn)
        spec = self.spec
        self.negatives()
        if {"diagonal+", "diagonal-"} <= set(self.rules):
            self.rules = [r for r in self.rules if r not in ("diagonal+", "diagonal-")]
            self.rules.append("diagonal")
        if self.rules:
            spec["rules"] = list(dict.fromkeys(self.rules))
        for key, kinds in self.negative.items():
            if kinds:
                spec.setdefault(key, {}).setdefault("negative", kinds)
        solution = _solution(meta.get("solution"), self.rows * self.cols, max(self.rows,
                                                                               self.cols))
        if solution:
            spec["solution"] = solution
        if meta.get("title"):
            spec["name"] = str(meta["title"])
        puzzle = from_dict(spec, self.source, "sudokupad")
        extra = {key: str(meta[key]) for key in ("author",) if meta.get(key)}
        if meta.get("rules"):
            extra["ruleset"] = str(meta["rules"])
        if isinstance(self.data.get("id"), str):
            extra["id"] = self.data["id"]
        return replace(puzzle, meta={**puzzle.meta, **extra})

    def metadata(self) -> dict[str, Any]:
        """`metadata`, the top-level title/author/rules, and cages of `key: value`."""
        found = self.data.get("metadata") or {}
        if not isinstance(found, dict):
            self.refuse("metadata is not an object")
        meta = {str(k): v for k, v in found.items()}
        for key in ("title", "author", "rules"):
            if self.data.get(key) and key not in meta:
                meta[key] = self.data[key]
        for cage in self.data.get("cages") or []:
            value = cage.get("value") if isinstance(cage, dict) else None
            tagged = _META.match(value) if isinstance(value, str) else None
            if tagged:
                meta.setdefault(tagged.group(1), tagged.group(2))
        return meta

    def negatives(self) -> None:
        """The negative rules: from `global`, or a rules text saying every dot (every X
        and V) is given. SudokuPad's `nonconsecutive` without white dots is the global
        non-consecutive rule."""
        dots, xv = self.spec.get("kropki", {}), self.spec.get("xv", {})
        if dots and self.text.all_given(r"\bdots?\b|kropki"):
            self.negative["kropki"] = ["white", "black"]
        if xv and self.text.all_given(r"\bx'?s?\b.*\bv'?s?\b|\bxv\b"):
            self.negative["xv"] = ["x", "v"]
        if "white" in self.negative["kropki"] and not dots.get("white"):
            self.negative["kropki"].remove("white")
            self.rules.append("non-consecutive")
        for key in self.negative:
            self.negative[key] = list(dict.fromkeys(self.negative[key]))

    def background(self, meta: dict, drawn: set[str]) -> None:
        """A puzzle drawn partly in a background image: lines its rules speak of that
        are not drawn would be left out."""
        image = meta.get("bgimage") or meta.get("backgroundimage")
        if not image:
            return
        missing = sorted(f for f in self.text.colour_lines - drawn if f in self.text.by_colour)
        if missing:
            self.refuse(f"rules speak of {' and '.join(missing)} lines, but the puzzle draws "
                        f"none: its background image ({image}) may hold them, which "
                        f"cpsudoku cannot read")

    # ------------------------------------------------------------ grid and regions

    def grid(self) -> None:
        cells = self.data["cells"]
        width = max(len(row) for row in cells)
        if any(len(row) != width for row in cells) or width == 0:
            self.refuse("cells: the rows are not all of one length")
        regions = [[self.pair(rc, f"region {i}") for rc in region]
                   for i, region in enumerate(self.data.get("regions") or [], 1)]
        regions = [r for r in regions if r]
        if regions:
            rows = [r for region in regions for r, _ in region]
            cols = [c for region in regions for _, c in region]
            top, left = min(rows), min(cols)
            self.rows, self.cols = max(rows) - top + 1, max(cols) - left + 1
            if top < 0 or left < 0 or top + self.rows > len(cells) or left + self.cols > width:
                self.refuse("regions reach beyond the cells")
        else:
            top, left, self.rows, self.cols = 0, 0, len(cells), width
        self.top, self.left = top, left
        givens = [[0] * self.cols for _ in range(self.rows)]
        marks = []
        self.outer: list[_Mark] = []  # numbers in the cells around the regions
        for r, row in enumerate(cells):
            for c, cell in enumerate(row):
                at = (r - top, c - left)
                value, candidates = self.cell(cell, at)
                if not self.inside(at):
                    if candidates:
                        self.refuse(f"cell {name(at)} has centre marks but lies outside "
                                    f"the regions")
                    if value:  # an outside clue written as the cell's digit
                        self.outer.append(_Mark(f"cell {name(at)}", at[0] + 0.5, at[1] + 0.5,
                                                1, 1, False, "none", "none", str(value)))
                    continue
                givens[at[0]][at[1]] = value
                if candidates:
                    marks.append({"cell": name(at), "values": candidates})
        n = max(self.rows, self.cols)
        self.spec["size"] = n if self.rows == self.cols else f"{self.rows}x{self.cols}"
        self.spec["grid"] = givens
        if marks:
            self.spec["given_candidates"] = marks
        shifted = [[(r - top, c - left) for r, c in region] for region in regions]
        box = self.box_of(shifted)
        if box is not None:
            if box != box_or_none(n) or self.rows != self.cols:
                self.spec["box"] = f"{box[0]}x{box[1]}"
        else:
            # without regions SudokuPad draws no boxes: the rows stand as regions
            layout = shifted or [[(r, c) for c in range(self.cols)] for r in range(self.rows)]
            self.spec["regions"] = [[name(cell) for cell in region] for region in layout]

    def box_of(self, regions: list[list[Cell]]) -> tuple[int, int] | None:
        """The box shape the regions are, if they are boxes."""
        if not regions:
            return None
        n = max(self.rows, self.cols)
        drawn = sorted(sorted(r * self.cols + c for r, c in region) for region in regions)
        for br in range(1, n + 1):
            bc = n // br
            if br * bc != n or self.rows % br or self.cols % bc:
                continue
            if drawn == sorted(sorted(t) for t in tiles(self.rows, self.cols, br, bc)):
                return br, bc
        return None

    def cell(self, cell, at: Cell) -> tuple[int, list[int]]:
        """A cell's given digit (0 for none) and given candidates."""
        if cell in (None, "", 0):
            return 0, []
        if not isinstance(cell, dict):
            self.refuse(f"cell {name(at)} is not a cell object")
        unknown = next((k for k, v in cell.items() if k not in _CELL_READ
                        and k not in _CELL_SKIPPED and v not in (None, "", [], {}, False)), None)
        if unknown in _CORNER_MARKS:
            self.refuse(f"cell {name(at)} has corner pencil marks {cell[unknown]}: they could "
                        f"be the cell's candidates or the places of those digits in its box, "
                        f"and nothing says which; give centre marks for candidates")
        if unknown is not None:
            self.refuse(f"cell {name(at)} has the key {unknown!r}, which is not read")
        value = self.digit(cell.get("value"), f"cell {name(at)}") if cell.get("value") \
            not in (None, "") else 0
        marks = cell.get("centremarks", cell.get("centerMarks")) or []
        if isinstance(marks, (str, int)):
            marks = list(str(marks))
        candidates = sorted({self.digit(m, f"cell {name(at)} centre mark") for m in marks})
        return value, candidates

    def digit(self, value, what: str) -> int:
        text = str(value).strip()
        if isinstance(value, bool) or not text.isdigit():
            self.refuse(f"{what}: {value!r} is not a digit")
        return int(text)

    def pair(self, rc, what: str) -> Cell:
        if (not isinstance(rc, (list, tuple)) or len(rc) != 2
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool)
                           and math.isfinite(v) for v in rc)
                or any(float(v) != int(v) for v in rc)):
            self.refuse(f"{what}: {rc!r} is not a cell ([row, column])")
        return int(rc[0]), int(rc[1])

    def inside(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.rows and 0 <= cell[1] < self.cols

    # ------------------------------------------------------------ places

    def point(self, p, what: str) -> tuple[float, float]:
        if (not isinstance(p, (list, tuple)) or len(p) != 2
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool)
                           and abs(v) < 1e6 for v in p)):
            self.refuse(f"{what}: {p!r} is not a point ([y, x])")
        return float(p[0]) - self.top, float(p[1]) - self.left

    def points(self, entry: dict, what: str) -> list[tuple[float, float]]:
        pts = entry.get("wayPoints")
        if not pts:
            if entry.get("d"):
                self.refuse(f"{what} is drawn as an SVG path; only way points are read")
            self.refuse(f"{what} has no way points")
        return [self.point(p, what) for p in pts]

    @staticmethod
    def centre_of(y: float, x: float) -> Cell | None:
        """The cell whose centre the point is (a tolerance of a fifth of a cell)."""
        if _frac_near(y, 0.5, 0.2) and _frac_near(x, 0.5, 0.2):
            return math.floor(y), math.floor(x)
        return None

    @staticmethod
    def containing(y: float, x: float) -> Cell | None:
        """The cell the point lies in; None on a cell's edge."""
        if _frac_near(y, 0, 0.02) or _frac_near(x, 0, 0.02):
            return None
        return math.floor(y), math.floor(x)

    @staticmethod
    def edge_of(y: float, x: float) -> tuple[Cell, Cell] | None:
        """The two cells an edge point lies between."""
        if _frac_near(y, 0, 0.12) and _frac_near(x, 0.5, 0.2):
            r, c = round(y), math.floor(x)
            return (r - 1, c), (r, c)
        if _frac_near(x, 0, 0.12) and _frac_near(y, 0.5, 0.2):
            r, c = math.floor(y), round(x)
            return (r, c - 1), (r, c)
        return None

    @staticmethod
    def corner_of(y: float, x: float) -> tuple[int, int] | None:
        if _frac_near(y, 0, 0.12) and _frac_near(x, 0, 0.12):
            return round(y), round(x)
        return None

    def place(self, y: float, x: float) -> str:
        cell = self.centre_of(y, x)
        if cell is not None:
            return ("in " if self.inside(cell) else "outside the grid at ") + name(cell)
        edge = self.edge_of(y, x)
        if edge is not None:
            return f"between {name(edge[0])} and {name(edge[1])}"
        return f"at [{y + self.top:g}, {x + self.left:g}]"

    def path(self, cells: list[Cell]) -> list[Cell]:
        """Cells in order with the cells between straight steps filled in."""
        out: list[Cell] = []
        for cell in cells:
            if out:
                (r0, c0), (r1, c1) = out[-1], cell
                dr, dc = r1 - r0, c1 - c0
                if dr == 0 or dc == 0 or abs(dr) == abs(dc):
                    steps = max(abs(dr), abs(dc))
                    out.extend((r0 + dr * k // steps, c0 + dc * k // steps)
                               for k in range(1, steps))
            if not out or out[-1] != cell:
                out.append(cell)
        return out

    # ------------------------------------------------------------ shapes

    def read_marks(self) -> list[_Mark]:
        marks = []
        for layer in ("underlays", "overlays"):
            for i, entry in enumerate(self.data.get(layer) or [], 1):
                what = f"{layer[:-1]} {i}"
                if not isinstance(entry, dict):
                    self.refuse(f"{what} is not an object")
                if entry.get("center") is None:
                    self.refuse(f"{what} has no center")
                y, x = self.point(entry["center"], what)
                text = entry.get("text")
                marks.append(_Mark(what, y, x, float(entry.get("width", 1) or 0),
                                   float(entry.get("height", 1) or 0),
                                   bool(entry.get("rounded")),
                                   colour_family(entry.get("backgroundColor")),
                                   colour_family(entry.get("borderColor")),
                                   "" if text is None else str(text).strip()))
        return marks + self.outer

    def circle_at(self, cell: Cell, *, filled: str | None = None) -> _Mark | None:
        """A round shape over the cell's centre: a circle or pill (white or unfilled), or
        a bulb filled with the colour family `filled`."""
        for mark in self.marks:
            if not mark.rounded or min(mark.width, mark.height) < 0.4 or mark.text:
                continue
            if not mark.covers(cell):
                continue
            if filled is None and mark.fill in ("none", "white") and mark.border != "none":
                return mark
            if filled is not None and mark.fill == filled and filled not in ("none", "white"):
                return mark
        return None

    def covered(self, mark: _Mark) -> list[Cell]:
        """The grid cells under a shape, in reading order."""
        return [(r, c) for r in range(self.rows) for c in range(self.cols)
                if mark.covers((r, c))]

    # ------------------------------------------------------------ global rules, cages

    def globals(self) -> None:
        names = self.data.get("global") or []
        for flag in [names] if isinstance(names, str) else names:
            flag = str(flag).lower()
            if flag in _GLOBALS:
                self.rules.append(_GLOBALS[flag])
            elif flag == "nonconsecutive":
                self.negative["kropki"].append("white")  # no white dot: not consecutive
            elif flag == "antiratio":
                self.negative["kropki"].append("black")
            elif flag == "antixv":
                self.negative["xv"].extend(["x", "v"])
            else:
                self.refuse(f"global rule {flag!r} is not read")

    def cages(self) -> None:
        rellik = self.text.says(r"rellik")
        if rellik and self.text.says(r"killer cage"):
            self.refuse("cages: the rules text speaks of killer and rellik cages, and no "
                        "drawing says which cage is which")
        repeats = any(re.search(r"cage", s) and re.search(r"(?:may|can|might) repeat|"
                                                          r"repeats? (?:is|are) allowed", s)
                      for s in self.text.sentences)
        for i, cage in enumerate(self.data.get("cages") or [], 1):
            if not isinstance(cage, dict):
                self.refuse(f"cage {i} is not an object")
            value = cage.get("value")
            if isinstance(value, str) and _META.match(value):
                continue  # metadata
            cells = [self.pair(rc, f"cage {i}") for rc in cage.get("cells") or []]
            cells = [(r - self.top, c - self.left) for r, c in cells]
            if not cells:
                if value in (None, ""):
                    continue
                self.refuse(f"cage {i} shows {value!r} but has no cells")
            names = [name(cell) for cell in cells]
            what = f"cage {i} at {names[0]}"
            style, kind = cage.get("style"), cage.get("type")
            if style == "extraregion":
                self.spec.setdefault("extra_regions", []).append(names)
            elif kind == "disjoint":
                self.rules.append("disjoint-groups")
            elif style in _INDEXERS:
                self.spec.setdefault("indexing", []).append({"kind": _INDEXERS[style],
                                                             "cells": names})
            elif "outlineC" in cage or "fontC" in cage:
                continue  # an f-puzzles cosmetic cage, a decoration as f-puzzles reads it
            elif cage.get("hidden"):
                if cage.get("unique", True):
                    self.refuse(f"{what} is hidden; no rule is read from it")
                # f-puzzles' cells of no region: the regions leave them out, which the
                # geometry refuses by name
            elif style not in _CAGE_STYLES:
                self.refuse(f"{what} has the style {style!r}; no rule is read from it")
            else:
                total = self.total(cage.get("sum", value), what)
                if rellik:
                    if total is None:
                        self.refuse(f"{what}: a rellik cage needs its number")
                    self.spec.setdefault("rellik_cages", []).append({"cells": names,
                                                                     "sum": total})
                    continue
                entry: dict[str, Any] = {"cells": names}
                if total is not None:
                    entry["sum"] = total
                if repeats or cage.get("unique") is False:
                    entry["repeats"] = True
                self.spec.setdefault("cages", []).append(entry)

    def total(self, value, what: str) -> int | None:
        if value in (None, ""):
            return None
        if isinstance(value, bool) or not str(value).strip().isdigit():
            self.refuse(f"{what} shows {value!r}, which is no sum: no rule is read from it")
        return int(str(value).strip())

    # ------------------------------------------------------------ arrows

    def arrows(self) -> None:
        for i, arrow in enumerate(self.data.get("arrows") or [], 1):
            what = f"arrow {i}"
            if not isinstance(arrow, dict):
                self.refuse(f"{what} is not an object")
            pts = self.points(arrow, what)
            if len(pts) < 2:
                self.refuse(f"{what} has fewer than two way points")
            start = self.containing(*pts[0])
            if start is None:
                self.refuse(f"{what} starts on a cell's edge {self.place(*pts[0])}")
            if self.inside(start):
                self.arrow(what, pts, start)
            else:
                self.little_killer(what, pts, start)

    def arrow(self, what: str, pts: list[tuple[float, float]], start: Cell) -> None:
        circle = self.circle_at(start)
        if circle is None:
            self.refuse(f"{what} starts in {name(start)}, in no circle: no rule is read "
                        f"from it")
        circle.used = True
        ring = self.covered(circle)
        cells = [start]
        for y, x in pts[1:]:
            cell = self.containing(y, x)
            if cell is None or not self.inside(cell):
                self.refuse(f"{what} from {name(start)} passes {self.place(y, x)}, not "
                            f"through a cell of the grid")
            cells.append(cell)
        line = [cell for cell in self.path(cells) if cell not in ring]
        if not line:
            self.refuse(f"{what} from {name(start)} does not leave its circle")
        self.spec.setdefault("arrows", []).append({"circle": [name(c) for c in ring],
                                                   "cells": [name(c) for c in line]})

    def little_killer(self, what: str, pts: list[tuple[float, float]], start: Cell) -> None:
        dy, dx = pts[-1][0] - pts[0][0], pts[-1][1] - pts[0][1]
        if not dy or not dx or abs(abs(dy) - abs(dx)) > 0.25 * max(abs(dy), abs(dx)):
            self.refuse(f"{what} outside the grid at {name(start)} does not point along a "
                        f"diagonal: no rule is read from it")
        numbers = [m for m in self.marks if not m.used and re.fullmatch(r"\d+", m.text)
                   and self.containing(m.y, m.x) == start]
        if len(numbers) != 1:
            self.refuse(f"{what} outside the grid at {name(start)}: a little killer arrow "
                        f"with {'no' if not numbers else len(numbers)} numbers beside it")
        numbers[0].used = True
        direction = ("D" if dy > 0 else "U") + ("R" if dx > 0 else "L")
        self.spec.setdefault("little_killers", []).append(
            {"sum": int(numbers[0].text), "clue": name(start), "direction": direction})

    # ------------------------------------------------------------ lines

    def lines(self) -> set[str]:
        """The lines' rules; the colour families of the lines drawn."""
        groups: dict[tuple[str, str], list[tuple[str, list[Cell]]]] = {}
        ends: dict[tuple[str, str], list[_Mark]] = {}
        drawn: set[str] = set()
        for i, entry in enumerate(self.data.get("lines") or [], 1):
            what = f"line {i}"
            if not isinstance(entry, dict):
                self.refuse(f"{what} is not an object")
            family = colour_family(entry.get("color"))
            if family == "none" or entry.get("thickness", 1) in (0, "0") or \
                    entry.get("opacity", 1) in (0, "0"):
                continue  # not drawn
            pts = self.points(entry, what)
            if self.diagonal(pts, entry):
                continue
            centres = [self.centre_of(y, x) for y, x in pts]
            for end in (0, -1):  # a line may stop at the edge of its end's circle
                if centres[end] is None:
                    centres[end] = self.containing(*pts[end])
            if any(c is None for c in centres):
                bad = next(p for p, c in zip(pts, centres) if c is None)
                self.refuse(f"{what} ({family}) passes {self.place(*bad)}, not through cell "
                            f"centres: no rule is read from it")
            cells = self.path(centres)  # type: ignore[arg-type]
            if not all(self.inside(cell) for cell in cells):
                self.refuse(f"{what} ({family}) leaves the grid: no rule is read from it")
            if len(cells) < 2:
                self.refuse(f"{what} ({family}) at {name(cells[0])} is a single cell")
            drawn.add(family)
            shape, cells, used = self.line_shape(what, family, cells)
            groups.setdefault((family, shape), []).append((what, cells))
            ends.setdefault((family, shape), []).extend(used)
        for (family, shape), lines in groups.items():
            rule, readings = self.text.line_readings(family, shape)
            if rule is None:
                what, cells = lines[0]
                words = "; ".join(r.replace("_", " ") for r in readings)
                self.refuse(f"{what} ({family}, {SHAPE_WORDS[shape]} from {name(cells[0])} "
                            f"to {name(cells[-1])}): its colour and the rules text do not "
                            f"decide which rule it draws (it could be: {words})")
            for mark in ends[(family, shape)]:
                mark.used = True
            self.spec.setdefault(rule, []).extend([name(c) for c in cells] for _, cells in lines)
        return drawn

    def line_shape(self, what: str, family: str,
                   cells: list[Cell]) -> tuple[str, list[Cell], list[_Mark]]:
        """'bulb' (the cells from the bulb on), 'ends' (circles at both ends) or
        'plain', and the shapes that belong to the line."""
        first, last = cells[0], cells[-1]
        bulbs = [self.circle_at(first, filled=family), self.circle_at(last, filled=family)]
        if all(bulbs) and first != last:
            self.refuse(f"{what} ({family}) has a bulb at both ends, {name(first)} and "
                        f"{name(last)}: no rule is read from it")
        if bulbs[0] or bulbs[1]:
            bulb = bulbs[0] or bulbs[1]
            return "bulb", cells if bulbs[0] else cells[::-1], [bulb]  # type: ignore[list-item]
        circles = [self.circle_at(first), self.circle_at(last)]
        if all(circles) and not any(c.used for c in circles):  # type: ignore[union-attr]
            return "ends", cells, circles  # type: ignore[return-value]
        return "plain", cells, []

    def diagonal(self, pts: list[tuple[float, float]], entry: dict) -> bool:
        """Whether the line is a main diagonal of a square grid (corner to corner, or a
        thin line centre to centre where the rules speak of diagonals): its rule."""
        n = self.rows
        if self.rows != self.cols or len(pts) < 2:
            return False
        (y0, x0), (y1, x1) = pts[0], pts[-1]
        ends = {(round(y0, 2), round(x0, 2)), (round(y1, 2), round(x1, 2))}
        thin = float(entry.get("thickness", 1) or 1) <= 4 and self.text.says(r"diagonal")
        for rule, corners, centres in (
                ("diagonal-", {(0, 0), (n, n)}, {(0.5, 0.5), (n - 0.5, n - 0.5)}),
                ("diagonal+", {(0, n), (n, 0)}, {(0.5, n - 0.5), (n - 0.5, 0.5)})):
            if ends == corners or (thin and ends == centres):
                on = all(abs((y if rule == "diagonal-" else n - y) - x) < 0.05 for y, x in pts)
                if on:
                    self.rules.append(rule)
                    return True
        return False

    # ------------------------------------------------------------ the other shapes

    def rest(self) -> None:
        outside: list[tuple[_Mark, Cell]] = []
        for mark in self.marks:
            if mark.used or mark.invisible:
                continue
            edge, corner = self.edge_of(mark.y, mark.x), self.corner_of(mark.y, mark.x)
            cell = self.centre_of(mark.y, mark.x)
            if edge is not None and all(self.inside(c) for c in edge):
                self.edge_mark(mark, edge)
            elif corner is not None and 0 < corner[0] < self.rows and 0 < corner[1] < self.cols:
                self.quadruple(mark, corner)
            elif cell is not None and self.inside(cell):
                self.cell_mark(mark, cell)
            elif (cell is not None and re.fullmatch(r"\d+", mark.text)
                  and mark.fill in ("none", "white")):
                outside.append((mark, cell))
            else:
                self.unread(mark)
        if outside:
            self.outside_clues(outside)

    def unread(self, mark: _Mark, why: str = "no rule is read from it") -> NoReturn:
        shape = "circle" if mark.rounded else "shape"
        label = f" showing {mark.text!r}" if mark.text else ""
        self.refuse(f"{mark.what} (a {mark.fill} {shape}{label} {self.place(mark.y, mark.x)}): "
                    f"{why}")

    def edge_mark(self, mark: _Mark, edge: tuple[Cell, Cell]) -> None:
        pair = [name(edge[0]), name(edge[1])]
        if mark.text.upper() in ("X", "V") and mark.fill in ("none", "white"):
            self.spec.setdefault("xv", {}).setdefault(mark.text.lower(), []).append(pair)
            return
        if mark.rounded and max(mark.width, mark.height) <= 0.55 and \
                mark.fill in ("white", "black"):
            if mark.text and not mark.text.isdigit():
                self.unread(mark)
            kind = mark.fill
            entry: Any = {"cells": pair, "value": int(mark.text)} if mark.text else pair
            self.spec.setdefault("kropki", {}).setdefault(kind, []).append(entry)
            return
        self.unread(mark)

    def quadruple(self, mark: _Mark, corner: tuple[int, int]) -> None:
        digits = re.findall(r"\d", mark.text)
        if not mark.rounded or not digits or re.sub(r"[\d\s,]", "", mark.text):
            self.unread(mark)
        r, c = corner
        cells = [name(x) for x in ((r - 1, c - 1), (r - 1, c), (r, c - 1), (r, c))]
        self.spec.setdefault("quadruples", []).append(
            {"cells": cells, "values": [int(d) for d in digits]})

    def cell_mark(self, mark: _Mark, cell: Cell) -> None:
        big = mark.width >= 0.9 and mark.height >= 0.9
        if not mark.text and not mark.rounded and big:
            if self.text.says(_SHADED):
                self.unread(mark, "the rules text speaks of shaded cells, which cpsudoku "
                                  "does not read")
            return  # a cell's colour, no rule
        if not mark.text and mark.fill == "grey" and 0.3 <= max(mark.width, mark.height) < 0.9:
            if not self.text.empty and not self.text.says(r"\bodd\b|\beven\b|parity"):
                self.unread(mark, "a grey circle is an odd cell and a grey square an even "
                                  "one, but the rules text speaks of neither")
            self.spec.setdefault("odd" if mark.rounded else "even", []).append(name(cell))
            return
        self.unread(mark)

    def outside_clues(self, clues: list[tuple[_Mark, Cell]]) -> None:
        readings = self.text.outside_readings()
        if len(readings) != 1:
            mark, _ = clues[0]
            said = (f"it could be: {'; '.join(r.replace('_', ' ') for r in readings)}"
                    if readings else "the rules text names no outside clue rule cpsudoku reads")
            self.unread(mark, f"a number outside the grid, and nothing decides its rule ({said})")
        key = readings[0]
        for mark, (r, c) in clues:
            if r in (-1, self.rows) and 0 <= c < self.cols:
                entry = {"column": c + 1, "side": "start" if r < 0 else "end"}
            elif c in (-1, self.cols) and 0 <= r < self.rows:
                entry = {"row": r + 1, "side": "start" if c < 0 else "end"}
            else:
                self.unread(mark, "a number outside the grid beside no row or column")
            self.spec.setdefault(key, []).append({**entry, "value": int(mark.text)})


def _solution(value, cells: int, digits: int) -> str | None:
    """The solution when it is complete: one digit a cell."""
    if isinstance(value, list):
        value = "".join(str(v) for v in value)
    if not isinstance(value, str):
        return None
    text = re.sub(r"[\s,]", "", value)
    if len(text) == cells and text.isdigit() and all(1 <= int(ch) <= digits for ch in text):
        return text
    return None
