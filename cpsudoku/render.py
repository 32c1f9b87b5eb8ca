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

from .geometry import Geometry, boxed
from .result import Result, Status
from .symbols import ALPHABET
from .symbols import line as symbols_line

GRID_FORMATS = ("pretty", "line", "numbers", "json", "jsonl")
RESULT_FORMATS = ("pretty", "line", "json", "jsonl")

# Box-drawing character for a junction with lines going (up, down, left, right).
_JUNCTION = {
    (1, 1, 1, 1): "┼", (0, 1, 1, 1): "┬", (1, 0, 1, 1): "┴", (1, 1, 0, 1): "├",
    (1, 1, 1, 0): "┤", (0, 1, 0, 1): "┌", (0, 1, 1, 0): "┐", (1, 0, 0, 1): "└",
    (1, 0, 1, 0): "┘", (1, 1, 0, 0): "│", (0, 0, 1, 1): "─", (0, 0, 0, 0): " ",
    (1, 0, 0, 0): "╵", (0, 1, 0, 0): "╷", (0, 0, 1, 0): "╴", (0, 0, 0, 1): "╶",
}


def line(values, blank: str = ".") -> str:
    """A grid as one line of symbols."""
    return symbols_line(values, blank)


def pretty(values, geometry: Geometry, blank: str = ".") -> str:
    """The grid drawn with box-drawing lines wherever two neighbouring cells lie in
    different regions (box borders for boxed grids, jigsaw outlines otherwise)."""
    return draw(geometry.size, geometry.region_of,
                lambda cell: " " + _symbol(values[cell], blank))


def draw(n: int, region, text) -> str:
    """An n x n grid with a line between neighbouring cells of different `region`
    (a label per cell); `text(cell)` gives the two characters shown in the cell."""

    def wall(r, b):  # vertical line left of column b in row r
        return b in (0, n) or region[r * n + b - 1] != region[r * n + b]

    def floor(h, c):  # horizontal line above row h in column c
        return h in (0, n) or region[(h - 1) * n + c] != region[h * n + c]

    vslots = {b for b in range(n + 1) if any(wall(r, b) for r in range(n))}
    hslots = [h for h in range(n + 1) if any(floor(h, c) for c in range(n))]

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
            key = (h > 0 and wall(h - 1, b), h < n and wall(h, b),
                   b > 0 and floor(h, b - 1), b < n and floor(h, b))
            return _JUNCTION[tuple(int(k) for k in key)]

        def dash(c):
            return "─" if floor(h, c) else " "
        return layout(junction, lambda c: dash(c) * 2, dash)

    def row(r):
        return layout(lambda b: "│" if wall(r, b) else " ",
                      lambda c: text(r * n + c), lambda c: " ")

    out = []
    for r in range(n):
        if r in hslots:
            out.append(rule(r))
        out.append(row(r))
    out.append(rule(n))
    return "\n".join(out)


def outlines(puzzle) -> str | None:
    """The per-puzzle groups of a variant (killer cages, extra regions ...) drawn as
    outlines with their clue in the first cell, or None when no rule has any.
    A rule shows groups by offering `outlines(geometry)`: (cells, clue) pairs."""
    n = puzzle.size
    owner = list(range(n * n, 2 * n * n))  # a cell in no group is a group of its own
    clue = ["  "] * (n * n)
    group = 0
    for rule in puzzle.rules:
        for cells, label in getattr(rule, "outlines", lambda g: ())(puzzle.geometry):
            for cell in cells:
                owner[cell] = group
            clue[min(cells)] = f"{label:>2}"[:2] if label else "  "
            group += 1
    if not group:
        return None
    return draw(n, owner, lambda cell: clue[cell])


def numbers(values, geometry: Geometry, blank: str = "0") -> str:
    """Whitespace-separated numbers, one row per line (unambiguous for any size)."""
    n = geometry.size
    width = len(str(n))
    return "\n".join(" ".join(f"{v or blank:>{width}}" for v in values[r * n:(r + 1) * n])
                     for r in range(n))


def grid_object(values, geometry: Geometry) -> dict:
    """{"size", "box", "grid"}, the puzzle file format's keys; irregular geometries give
    "box": null and "regions", one row of region labels (1-9, A-P) per grid row."""
    n = geometry.size
    obj = {"size": n, "box": f"{geometry.box[0]}x{geometry.box[1]}" if geometry.box else None}
    if geometry.box is None:
        labels = [ALPHABET[r] for r in geometry.region_of]
        obj["regions"] = ["".join(labels[r * n:(r + 1) * n]) for r in range(n)]
    obj["grid"] = [list(values[r * n:(r + 1) * n]) for r in range(n)]
    return obj


def json_grid(values, geometry: Geometry) -> str:
    return _dump(grid_object(values, geometry))


def render_grid(values, geometry: Geometry, fmt: str, blank: str = ".") -> str:
    """One grid (a puzzle, a solution, a checked grid) in any of GRID_FORMATS."""
    if fmt == "pretty":
        return pretty(values, geometry, blank)
    if fmt == "line":
        return line(values, blank)
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
    parts += [f"{k}={v}" for k, v in result.stats.items() if k != "timed_out" or v]
    return "# " + "  ".join(parts)


def verdict(result: Result) -> str:
    """What a result says, in words."""
    found = len(result.solutions)
    if result.status is Status.UNIQUE:
        return "unique solution"
    if result.status is Status.SOLVED:
        return "solved" + (" (time ran out before uniqueness was proven)"
                           if result.stats.get("timed_out") else "")
    if result.status is Status.MULTIPLE:
        return f"not unique: {found} solutions found"
    if result.status is Status.UNSOLVABLE:
        return "no solution" + (f": {result.reason}" if result.reason else "")
    return f"timeout: no solution found in {result.time_s:.3g} s"


def render_result(result: Result, fmt: str, index: int | None = None,
                  stats: bool = False) -> str:
    """A finished solve in any of RESULT_FORMATS, for every status."""
    if fmt == "jsonl":
        return json.dumps(result.as_dict(index))
    geometry = _geometry_of(result)
    if fmt == "json":
        obj = result.as_dict(index)
        obj["size"] = geometry.size
        obj["box"] = f"{geometry.box[0]}x{geometry.box[1]}" if geometry.box else None
        obj["grids"] = [grid_object(s, geometry)["grid"] for s in result.solutions]
        return _dump(obj)
    if fmt not in RESULT_FORMATS:
        raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(RESULT_FORMATS)}")
    if fmt == "line":
        out = [line(s) for s in result.solutions]
        if not result.status.solved:
            out.append(f"# {_label(result, index)}: {verdict(result)}")
    else:
        # Only the verdict above the grid (the puzzle's name if it has one), so that the
        # digits on screen are the solution's.
        named = result.puzzle is not None and result.puzzle.name
        out = [f"{result.puzzle.name}: {verdict(result)}" if named else verdict(result)]
        several = len(result.solutions) > 1
        for i, solution in enumerate(result.solutions, 1):
            if several:
                out.append(f"solution {i}:")
            out.append(pretty(solution, geometry))
        if result.puzzle is not None and result.puzzle.rules:
            out.append("rules: " + "; ".join(getattr(r, "describe", lambda: r.name)()
                                             for r in result.puzzle.rules))
            drawn = outlines(result.puzzle)
            if drawn:
                out.append(drawn)
    if stats:
        out.append(stats_line(result))
    return "\n".join(out)


def _label(result: Result, index: int | None) -> str:
    puzzle = result.puzzle
    if puzzle is not None and (puzzle.name or puzzle.source):
        return puzzle.name or puzzle.source
    return f"#{index + 1}" if index is not None else "puzzle"


def _geometry_of(result: Result) -> Geometry:
    if result.puzzle is not None:
        return result.puzzle.geometry
    if result.solutions:
        return boxed(math.isqrt(len(result.solutions[0])))
    return boxed(9)


def _symbol(value: int, blank: str) -> str:
    return ALPHABET[value - 1] if value else blank


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
