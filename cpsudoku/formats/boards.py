"""Multi-grid boards in puzzle files: the `layout` and `grids` keys, and the board's rows.

    layout = "samurai"                      # a named layout (see `grid.multigrid`), or
    grids = [[1, 1], [1, 13], [7, 7]]       # each sub-grid's top-left cell, 1-based
    size = 9                                # with `grids`: the sub-grids' side (default 9)
    box = "3x3"                             # optional: the sub-grids' boxes
    grid = '''                              # the whole board, one row a line: a digit,
    ..3...2..---..6...2..                   # `.` or `-` for a blank; a cell outside
    ...                                     # every sub-grid is written `-` or `.`
    '''
"""

from __future__ import annotations

from typing import Any

from ..errors import ModelError
from ..grid.geometry import Geometry, infer_box
from ..grid.multigrid import LAYOUT_SIDE, LAYOUTS, board, named
from ..grid.symbols import value_of
from ..validate import parse_box
from .fields import box_pair, read_digits, whole

KEYS = ("layout", "grids")
_NOT_ON_BOARDS = ("regions", "houses", "extra_cells")


def is_board(data: dict) -> bool:
    return any(key in data for key in KEYS)


def origins_like(value) -> bool:
    """Whether a `grids` value is a board's top-left cells ([row, column] pairs)."""
    return isinstance(value, list) and all(
        isinstance(x, list) and len(x) == 2 and all(type(v) is int for v in x) for x in value)


def board_geometry(data: dict) -> Geometry:
    """The board a puzzle file's `layout` or `grids` key describes."""
    if "layout" in data and "grids" in data:
        raise ModelError("give a board's 'layout' or its 'grids', not both")
    beside = [key for key in _NOT_ON_BOARDS if key in data]
    if beside:
        raise ModelError(f"{beside[0]!r} is not available on multi-grid boards yet")
    side = whole(data["size"], "size") if "size" in data else LAYOUT_SIDE
    if isinstance(data.get("size"), str) and "x" in data["size"].lower():
        raise ModelError(f"size on a multi-grid board is the sub-grids' side (such as 9), not "
                         f"{data['size']!r}")
    digits = read_digits(data.get("digits"), side)
    if len(digits) != side:
        raise ModelError(f"a multi-grid board's sub-grids hold {side} digits, not {len(digits)}")
    box = data.get("box")
    box = parse_box(box) if isinstance(box, str) else None if box is None else box_pair(box)
    if "layout" in data:
        name = data["layout"]
        if not isinstance(name, str):
            raise ModelError(f"layout must be a name ({', '.join(LAYOUTS)}), not {name!r}")
        if side != LAYOUT_SIDE or box not in (None, (3, 3)):
            raise ModelError(f"layout {name!r} is of 9x9 sub-grids with 3x3 boxes; for "
                             f"others list the sub-grids' top-left cells in 'grids'")
        return named(name, first=digits[0])
    spots = data["grids"]
    if not isinstance(spots, list) or not spots:
        raise ModelError("grids must be a list of [row, column] top-left cells, 1-based")
    zero_based = []
    for i, spot in enumerate(spots, 1):
        if (not isinstance(spot, list) or len(spot) != 2
                or not all(type(x) is int and x >= 1 for x in spot)):
            raise ModelError(f"grids: sub-grid {i} must be [row, column] of its top-left "
                             f"cell, 1-based, not {spot!r}")
        zero_based.append((spot[0] - 1, spot[1] - 1))
    return board(zero_based, side, box, first=digits[0])


def board_givens(grid, geometry: Geometry) -> tuple[int, ...]:
    """The givens of a board written row by row (a digit, or `.`/`-` for a blank or a
    cell outside every sub-grid; spaces inside a row are ignored), or as one line."""
    rows, width, first = geometry.size, geometry.width, geometry.first
    if grid is None or grid == "":
        return (0,) * geometry.ncells
    if isinstance(grid, list) and all(isinstance(r, str) for r in grid):
        grid = "\n".join(grid)
    if not isinstance(grid, str):
        raise ModelError(f"grid of a {geometry.board_name}: its {rows} rows as text, a cell "
                         f"a character, not {type(grid).__name__}")
    lines = ["".join(text.split()) for text in grid.splitlines()]
    lines = [text for text in lines if text]
    if len(lines) == 1 and len(lines[0]) == geometry.ncells:
        lines = [lines[0][r * width:(r + 1) * width] for r in range(rows)]
    if len(lines) != rows:
        raise ModelError(f"grid: a {geometry.shape} {geometry.board_name} is written as "
                         f"{rows} rows of {width} cells, not {len(lines)} rows")
    values: list[int] = []
    for r, text in enumerate(lines, 1):
        if len(text) != width:
            raise ModelError(f"grid: row {r} has {len(text)} cells, expected {width} (the "
                             f"{geometry.shape} {geometry.board_name})")
        for c, ch in enumerate(text, 1):
            v = value_of(ch, first)
            if v is None or v > geometry.values:
                raise ModelError(f"grid: row {r}, column {c}: {ch!r} is not a digit "
                                 f"{geometry.digits[0]}..{geometry.digits[-1]}, '.' or '-'")
            values.append(v)
    return tuple(values)


def board_keys(geometry: Geometry) -> dict[str, Any]:
    """A board's keys in a puzzle file (`as_dict`): its layout or its grids."""
    out: dict[str, Any] = {}
    if geometry.layout:
        out["layout"] = geometry.layout
    else:
        out["grids"] = [[cell // geometry.width + 1, cell % geometry.width + 1]
                        for cell in (grid[0] for grid in geometry.grids)]
        if geometry.values != LAYOUT_SIDE:
            out["size"] = geometry.values
        if geometry.box is not None and geometry.box != infer_box(geometry.values):
            out["box"] = f"{geometry.box[0]}x{geometry.box[1]}"
    if geometry.first != 1:
        out["digits"] = f"{geometry.first}-{geometry.first + geometry.values - 1}"
    return out


def board_rows(values, geometry: Geometry, blank: str = ".") -> str:
    """The board's values, one row a line, absent cells written `-`."""
    text, width = geometry.line(values, blank), geometry.width
    return "\n".join(text[r * width:(r + 1) * width] for r in range(geometry.size))
