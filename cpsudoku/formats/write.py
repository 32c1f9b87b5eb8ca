"""Renderers, the parser's matched pair: everything written here parses back.

- `pretty`: a box-drawn grid (┌─┬┐│├┼┤└┴┘) with borders between regions, so boxes
  and jigsaw regions are drawn by the same code; the drawn box shape parses back.
- `line`: one line of symbols; `numbers`: whitespace-separated numbers, a row a line.
- `json_grid`: {"size", "box", "grid"} (plus "regions" for irregular geometries),
  read back by the puzzle file loader.
- `jsonl`: one `Result.as_dict` object per line, the machine interface.
"""

from __future__ import annotations

import json
import math

from ..errors import ModelError
from ..grid.geometry import ABSENT, Geometry, boxed
from ..grid.symbols import ALPHABET, symbol
from ..grid.symbols import line as symbols_line
from ..result import Result, Status
from .boards import board_keys, board_rows
from .fields import box_or_none, digits_key

GRID_FORMATS = ("pretty", "line", "numbers", "json", "jsonl")
RESULT_FORMATS = ("pretty", "line", "numbers", "json", "jsonl")

# Box-drawing character for a junction with lines going (up, down, left, right).
_JUNCTION = {
    (1, 1, 1, 1): "┼", (0, 1, 1, 1): "┬", (1, 0, 1, 1): "┴", (1, 1, 0, 1): "├",
    (1, 1, 1, 0): "┤", (0, 1, 0, 1): "┌", (0, 1, 1, 0): "┐", (1, 0, 0, 1): "└",
    (1, 0, 1, 0): "┘", (1, 1, 0, 0): "│", (0, 0, 1, 1): "─", (0, 0, 0, 0): " ",
    (1, 0, 0, 0): "╵", (0, 1, 0, 0): "╷", (0, 0, 1, 0): "╴", (0, 0, 0, 1): "╶",
}


def line(values, blank: str = ".", first: int = 1) -> str:
    """A grid as one line of symbols (digits from `first`)."""
    return symbols_line(values, blank, first)


# On a terminal, givens are bold and the digits found are coloured; files stay plain.
_GIVEN_STYLE = "\x1b[1m"
_FOUND_STYLE = "\x1b[36m"
_RESET = "\x1b[0m"


def pretty(values, geometry: Geometry, blank: str = ".", *, givens=None,
           color: bool = False) -> str:
    """The grid drawn with box-drawing lines wherever two neighbouring cells lie in
    different regions (box borders for boxed grids, jigsaw outlines otherwise).
    With `color` and the puzzle's `givens`, givens and found digits are told apart
    by terminal styles (never in files: the parser reads plain grids)."""
    first = geometry.first
    present = geometry.present
    if not color or givens is None:
        return draw(geometry.size, geometry.width, geometry.region_of,
                    lambda cell: " " + (_symbol(values[cell], blank, first) if present[cell]
                                        else ABSENT))

    def styled(cell):
        if not present[cell]:
            return " " + ABSENT
        style = _GIVEN_STYLE if givens[cell] else _FOUND_STYLE
        return " " + style + _symbol(values[cell], blank, first) + _RESET
    return draw(geometry.size, geometry.width, geometry.region_of, styled)


def draw(rows: int, n: int, region, text) -> str:
    """A grid of `rows` rows of n cells with a line between neighbouring cells of
    different `region` (a label per cell); `text(cell)` gives the two characters shown
    in the cell."""

    def wall(r, b):  # vertical line left of column b in row r
        return b in (0, n) or region[r * n + b - 1] != region[r * n + b]

    def floor(h, c):  # horizontal line above row h in column c
        return h in (0, rows) or region[(h - 1) * n + c] != region[h * n + c]

    vslots = {b for b in range(n + 1) if any(wall(r, b) for r in range(rows))}
    hslots = [h for h in range(rows + 1) if any(floor(h, c) for c in range(n))]

    def layout(slot, cell, trail):
        """One output line: slot(b) draws column boundary b, cell(c) the 2 chars of
        cell c, trail(c) the 1 char between cell c and a boundary after it."""
        parts = [slot(0)]
        for c in range(n):
            if c and c in vslots:
                parts.append(trail(c - 1) + slot(c))
            parts.append(cell(c))
        parts.append(trail(n - 1) + slot(n))
        return "".join(parts)

    def rule(h):
        def junction(b):
            key = (h > 0 and wall(h - 1, b), h < rows and wall(h, b),
                   b > 0 and floor(h, b - 1), b < n and floor(h, b))
            up, down, left, right = (int(k) for k in key)
            return _JUNCTION[(up, down, left, right)]

        def dash(c):
            return "─" if floor(h, c) else " "
        return layout(junction, lambda c: dash(c) * 2, dash)

    def row(r):
        return layout(lambda b: "│" if wall(r, b) else " ",
                      lambda c: text(r * n + c), lambda c: " ")

    out = []
    for r in range(rows):
        if r in hslots:
            out.append(rule(r))
        out.append(row(r))
    out.append(rule(rows))
    return "\n".join(out)


def outlines(puzzle) -> str | None:
    """The per-puzzle groups of a variant (killer cages, extra regions ...) drawn as
    outlines with their clue in the first cell, or None when no rule has any.
    A rule shows groups by offering `outlines(geometry)`: (cells, clue) pairs."""
    geometry = puzzle.geometry
    ncells = geometry.ncells
    owner = list(range(ncells, 2 * ncells))  # a cell in no group is a group of its own
    clue = ["  "] * ncells
    group = 0
    for rule in puzzle.rules:
        for cells, label in getattr(rule, "outlines", lambda g: ())(puzzle.geometry):
            cells = [cell for cell in cells if cell < ncells]  # extra cells are not drawn
            if not cells:
                continue
            for cell in cells:
                owner[cell] = group
            clue[min(cells)] = f"{label:>2}"[:2] if label else "  "
            group += 1
    if not group:
        return None
    return draw(geometry.size, geometry.width, owner, lambda cell: clue[cell])


def numbers(values, geometry: Geometry, blank: str = "0") -> str:
    """Whitespace-separated numbers (the digits), one row per line (unambiguous for any
    size)."""
    n, digits, present = geometry.width, geometry.digits, geometry.present
    blank = _blank(blank, geometry.first)
    width = len(str(digits[-1]))
    return "\n".join(" ".join(f"{digits[v - 1] if v else blank if present[c] else ABSENT:>{width}}"
                              for c, v in enumerate(values[r * n:(r + 1) * n], r * n))
                     for r in range(geometry.size))


def grid_object(values, geometry: Geometry) -> dict:
    """{"size", "box", "grid"}, the puzzle file format's keys; irregular geometries give
    "box": null and "regions", one row of region labels (1-9, A-P) per grid row, raw
    grids "houses": false; digits
    other than 1..N add "digits" ("0-8"), and digits from 0 make the rows text (where a
    number 0 would be a blank)."""
    n = geometry.width
    if geometry.grids:  # a board: its layout or grids, and its rows as text
        return {**board_keys(geometry), "grid": board_rows(values, geometry).split("\n")}
    obj: dict[str, object] = {"size": size_key(geometry), "box": _box_key(geometry)}
    if geometry.digits != range(1, max(geometry.size, n) + 1):
        obj["digits"] = digits_key(geometry.digits)
    if not geometry.houses:
        obj["houses"] = False  # a raw grid: no regions
    elif geometry.box is None:
        labels = [ALPHABET[r] for r in geometry.region_of]
        obj["regions"] = ["".join(labels[r * n:(r + 1) * n]) for r in range(geometry.size)]
    rows = [values[r * n:(r + 1) * n] for r in range(geometry.size)]
    obj["grid"] = [line(row, ".", 0) for row in rows] if geometry.first == 0 \
        else [list(row) for row in rows]
    return obj


def size_key(geometry: Geometry) -> int | str:
    """The puzzle file's `size`: N, or "RxC" for a grid that is not square."""
    return geometry.size if geometry.square else geometry.shape


def _box_key(geometry: Geometry) -> str | None:
    return f"{geometry.box[0]}x{geometry.box[1]}" if geometry.box else None


def json_grid(values, geometry: Geometry) -> str:
    return _dump(grid_object(values, geometry))


def render_grid(values, geometry: Geometry, fmt: str, blank: str = ".") -> str:
    """One grid (a puzzle, a solution, a checked grid) in any of GRID_FORMATS."""
    if fmt == "pretty":
        return pretty(values, geometry, blank)
    if fmt == "line":
        return geometry.line(values, blank)
    if fmt == "numbers":
        return numbers(values, geometry, blank)
    if fmt == "json":
        return json_grid(values, geometry)
    if fmt == "jsonl":
        return json.dumps(grid_object(values, geometry))
    raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(GRID_FORMATS)}")


# --- results ---------------------------------------------------------------------

def jsonl(results, *, start: int = 0) -> str:
    """The machine interface: one `Result.as_dict` object per line."""
    return "\n".join(json.dumps(r.as_dict(i)) for i, r in enumerate(results, start))


def stats_line(result: Result) -> str:
    """`# backend time key=value ...`: a comment, so line output still parses."""
    parts = [result.backend, f"{result.time_s * 1000:.2f} ms"]
    for key, value in result.stats.items():
        if key in ("setup_s", "search_s"):
            parts.append(f"{key[:-2]} {float(value) * 1000:.2f} ms")
        elif key != "timed_out" or value:
            parts.append(f"{key}={value}")
    return "# " + "  ".join(parts)


def verdict(result: Result, limit: int | None = None) -> str:
    """What a result says, in words: the one wording of each status, used by every
    command that reports one."""
    found = len(result.solutions)
    status = result.status
    if status is Status.UNIQUE:
        return "unique solution"
    if status is Status.SOLVED:
        return "solved"
    if status is Status.UNPROVEN:
        return "solved, not proven unique: time ran out looking for a second solution"
    if status is Status.MULTIPLE:
        if limit is not None and found >= limit:  # the search stopped there
            return f"not unique: at least {found} solutions"
        return f"not unique: {found} solutions found"
    if status is Status.UNSOLVABLE:
        return "no solution" + (f": {result.reason}" if result.reason else "")
    if result.reason:  # before the search: reading or building the puzzle
        return f"timeout: {result.reason}"
    return f"timeout: no solution found in {result.time_s:.3g} s"


def puzzle_fields(puzzle) -> dict:
    """How every json/jsonl record carries its puzzle, so that any command reads it back
    (`cpsudoku.formats.records`): `puzzle`, the givens as one line, and for a variant or
    an unusual box the puzzle file's keys beside it (size, box or regions, rules,
    cages ...; the JSON form of `puzzlefile.as_dict`)."""
    fields: dict = {"puzzle": puzzle.line()}
    geometry = puzzle.geometry
    if (not puzzle.rules and geometry.standard and geometry.box is not None
            and geometry.box == box_or_none(puzzle.size)):
        return fields
    from .puzzlefile import as_dict  # imported on demand: classic grids never need it
    try:
        form = as_dict(puzzle)
    except ModelError:  # a rule made in Python, unknown to the puzzle file: named only
        form = {"size": size_key(geometry), "rules": [rule.name for rule in puzzle.rules]}
    fields.update((key, value) for key, value in form.items()
                  if key not in ("name", "grid", "solution"))
    return fields


def csv_puzzle_fields(puzzle) -> dict:
    """How every CSV row carries its puzzle, so that it reads back as `puzzle_fields`
    does for JSON: `puzzle`, the givens as one line, and `variant`, the puzzle file's
    other keys as one JSON object (empty for a classic grid)."""
    fields = puzzle_fields(puzzle)
    line = fields.pop("puzzle")
    return {"puzzle": line, "variant": json.dumps(fields, separators=(",", ":"))
            if fields else ""}


def result_record(result: Result, index: int | None = None, *, trace: bool = False,
                  extra: dict | None = None) -> dict:
    """The machine interface object (`Result.as_dict`), with a variant puzzle's layout
    and elements (`puzzle_fields`), the trace's lines when one was recorded and asked
    for, and any command-specific keys (`extra`)."""
    record = result.as_dict(index)
    if result.puzzle is not None:
        record.update(puzzle_fields(result.puzzle))
    if trace and result.trace is not None:
        geometry = _geometry_of(result)
        record["trace"] = [event.describe(geometry.width, geometry.first).strip()
                           for event in result.trace]
    record.update(extra or {})
    return record


def render_result(result: Result, fmt: str, index: int | None = None,
                  stats: bool = False, *, trace: bool = False, color: bool = False,
                  extra: dict | None = None, limit: int | None = None) -> str:
    """A finished solve in any of RESULT_FORMATS, for every status.

    Verdicts, labels and statistics are always on lines of their own (comments
    starting with `#` in `line` output), never on a grid row, so that every format
    reads back as grids. `trace` adds the trace (as lines in text formats, as a
    "trace" list in json/jsonl); `color` styles pretty grids for a terminal; `extra`
    adds command-specific keys to json/jsonl (e.g. count's `count` and `verdict`);
    `limit` is the number of solutions asked for (to say "at least").
    """
    if fmt == "jsonl":
        return json.dumps(result_record(result, index, trace=trace, extra=extra))
    geometry = _geometry_of(result)
    if fmt == "json":
        obj = result_record(result, index, trace=trace, extra=extra)
        if not geometry.grids:  # (a board's record carries its layout or grids)
            obj["size"] = size_key(geometry)
            obj["box"] = _box_key(geometry)
        obj["solution_grids" if geometry.grids else "grids"] = [
            grid_object(s, geometry)["grid"] for s in result.solutions]
        return _dump(obj)
    if fmt not in RESULT_FORMATS:
        raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(RESULT_FORMATS)}")
    out = []
    if trace and result.trace is not None:
        from .trace import render_trace
        out.append(render_trace(result.trace, geometry.width, prefix="# ",  # comments
                                first=geometry.first))
    if fmt == "line":
        out += [geometry.line(s) for s in result.solutions]
        if result.status is not Status.SOLVED:  # -n 1's plain solution stays bare
            out.append(f"# {_label(result, index)}: {verdict(result, limit)}")
    elif fmt == "numbers":
        out.append(f"# {_label(result, index)}: {verdict(result, limit)}")
        out += [numbers(s, geometry) for s in result.solutions]
    else:
        # The label and verdict above the grid, so that the digits on screen are the
        # solution's.
        labelled = result.puzzle is not None and (result.puzzle.name or result.puzzle.source)
        out.append(f"{_label(result, index)}: {verdict(result, limit)}" if labelled
                   else verdict(result, limit))
        several = len(result.solutions) > 1
        givens = result.puzzle.givens if result.puzzle is not None else None
        for i, solution in enumerate(result.solutions, 1):
            if several:
                out.append(f"solution {i}:")
            out.append(pretty(solution, geometry, givens=givens, color=color))
            if extra_cells := result.extra_cells():
                out.append("extra cells: " + "  ".join(
                    f"{name}={digit}" for name, digit in extra_cells[i - 1].items()))
        if result.puzzle is not None and result.puzzle.rules:
            from ..rules import describe
            out.append("rules: " + "; ".join(describe(r) for r in result.puzzle.rules))
            drawn = outlines(result.puzzle)
            if drawn:
                out.append(drawn)
    if stats:
        out.append(stats_line(result))
    return "\n".join(out)


class JsonStream:
    """`--format json` over a batch, written as results come: one result is one
    object, several are a JSON array. The first object is held until a second one
    shows that this is a batch; `close` writes what is held or ends the array."""

    def __init__(self, write):
        self._write = write  # write(text): appends text as it is, no newline added
        self._held: str | None = None
        self._count = 0

    def add(self, text: str) -> None:
        if self._count == 0:
            self._held = text
        else:
            if self._held is not None:
                self._write("[\n" + _indent(self._held))
                self._held = None
            self._write(",\n" + _indent(text))
        self._count += 1

    def close(self) -> None:
        if self._held is not None:
            self._write(self._held + "\n")
        elif self._count:
            self._write("\n]\n")
        self._held = None
        self._count = 0


def _indent(text: str) -> str:
    return "  " + text.replace("\n", "\n  ")


def _label(result: Result, index: int | None) -> str:
    puzzle = result.puzzle
    label = puzzle.name or puzzle.source if puzzle is not None else None
    if label:
        return label
    return f"#{index + 1}" if index is not None else "puzzle"


def _geometry_of(result: Result) -> Geometry:
    if result.puzzle is not None:
        return result.puzzle.geometry
    if result.solutions:
        return boxed(math.isqrt(len(result.solutions[0])))
    return boxed(9)


def _symbol(value: int, blank: str, first: int = 1) -> str:
    return symbol(value, first) if value else _blank(blank, first)


def _blank(blank: str, first: int) -> str:
    """The blank to show: never `0` where 0 is a digit."""
    return "." if first == 0 and blank == "0" else blank


def _dump(obj, indent: str = "") -> str:
    """JSON with one line per grid row: lists of numbers stay on one line."""
    inner = indent + "  "
    if isinstance(obj, dict) and obj:
        items = [f"{inner}{json.dumps(k)}: {_dump(v, inner)}" for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    nested = isinstance(obj, list) and obj and all(isinstance(x, (list, dict)) for x in obj)
    if nested or isinstance(obj, list) and len(obj) > 1 and all(isinstance(x, str) for x in obj):
        return "[\n" + ",\n".join(inner + _dump(x, inner) for x in obj) + "\n" + indent + "]"
    return json.dumps(obj)
