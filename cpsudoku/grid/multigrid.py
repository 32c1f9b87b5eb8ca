"""Multi-grid boards: the named layouts (samurai, twodoku, ...) and any other given by the
top-left cells of its sub-grids, built into a `Geometry` with `grids`.

Positions here are 0-based (row, column) of each 9x9 sub-grid's top-left cell; puzzle
files write them 1-based. Two clueless layouts add a tenth grid that is no rectangle of
the board: clueless-1 takes the centre cell of every box of the nine grids, clueless-2
the centre box of each grid, each in reading order.
"""

from __future__ import annotations

from collections.abc import Sequence

from .. import validate
from ..errors import ModelError
from .geometry import MAX_BOARD, Cells, Geometry, cell_name, infer_box, tiles
from .symbols import MAX_SIZE

Origins = tuple[tuple[int, int], ...]

_NINE = ((0, 0), (0, 9), (0, 18), (9, 0), (9, 9), (9, 18), (18, 0), (18, 9), (18, 18))

# name -> the top-left cells of its 9x9 sub-grids (board size follows from them)
LAYOUTS: dict[str, Origins] = {
    "twodoku": ((0, 0), (6, 6)),
    "butterfly": ((0, 0), (0, 3), (3, 0), (3, 3)),
    "flower": ((0, 3), (3, 0), (3, 3), (3, 6), (6, 3)),
    "sohei": ((0, 6), (6, 0), (6, 12), (12, 6)),
    "samurai": ((0, 0), (0, 12), (6, 6), (12, 0), (12, 12)),
    "windmill": ((0, 3), (3, 12), (6, 6), (9, 0), (12, 9)),
    "gattai-8": ((0, 0), (0, 12), (0, 24), (6, 6), (6, 18), (12, 0), (12, 12), (12, 24)),
    "shogun": ((0, 0), (0, 12), (0, 24), (0, 36), (6, 6), (6, 18), (6, 30), (12, 0),
               (12, 12), (12, 24), (12, 36)),
    "sumo": ((0, 0), (0, 12), (0, 24), (6, 6), (6, 18), (12, 0), (12, 12), (12, 24),
             (18, 6), (18, 18), (24, 0), (24, 12), (24, 24)),
    "clueless-1": _NINE,
    "clueless-2": _NINE,
}
LAYOUT_SIDE = 9  # the named layouts are of 9x9 sub-grids


def _tenth(name: str) -> tuple[tuple[int, int], ...]:
    """The (row, column) cells of a clueless layout's tenth grid, in its reading order."""
    if name == "clueless-1":
        return tuple((3 * r + 1, 3 * c + 1) for r in range(9) for c in range(9))
    if name == "clueless-2":
        return tuple((9 * (r // 3) + 3 + r % 3, 9 * (c // 3) + 3 + c % 3)
                     for r in range(9) for c in range(9))
    return ()


def layout_names() -> tuple[str, ...]:
    return tuple(LAYOUTS)


def named(name: str, *, first: int = 1) -> Geometry:
    """The board of a named layout (`layout_names()`), digits 1-9 (or 0-8)."""
    key = str(name).strip().lower()
    if key not in LAYOUTS:
        raise ModelError(f"unknown layout {name!r}{validate.did_you_mean(key, list(LAYOUTS))} "
                         f"(known: {', '.join(LAYOUTS)})")
    return board(LAYOUTS[key], LAYOUT_SIDE, first=first, layout=key, more=_tenth(key))


def board(origins: Sequence, side: int = 9, box: tuple[int, int] | None = None, *,
          first: int = 1, layout: str = "", more: Sequence[tuple[int, int]] = ()) -> Geometry:
    """A board of `side` x `side` sub-grids with these top-left cells (0-based (row,
    column) pairs), boxes `box` (the usual ones for the side unless given). Where
    sub-grids overlap they must share whole boxes. `more`: one more sub-grid's cells,
    (row, column) in its reading order (a clueless layout's tenth grid)."""
    side = validate.whole(side, "side", 1, MAX_SIZE)
    br, bc = box if box is not None else infer_box(side)
    if side % br or side % bc:
        raise ModelError(f"box {br}x{bc} does not tile a {side}x{side} sub-grid")
    spots = _origins(origins)
    rows = max(r for r, _ in spots) + side
    cols = max(c for _, c in spots) + side
    if rows > MAX_BOARD or cols > MAX_BOARD:
        raise ModelError(f"the board would be {rows}x{cols}: each side at most {MAX_BOARD}")
    grids: list[Cells] = [tuple((top + r) * cols + left + c for r in range(side)
                                for c in range(side)) for top, left in spots]
    regions = _boxes(spots, grids, side, (br, bc), cols)
    if more:
        grids.append(tuple(r * cols + c for r, c in more))
    return Geometry(rows, regions, (br, bc), side, first, cols, grids=tuple(grids),
                    layout=layout)


def _origins(origins: Sequence) -> Origins:
    """Validated top-left cells: pairs of whole numbers >= 0, no two the same."""
    if isinstance(origins, (str, bytes)) or not isinstance(origins, Sequence) or not origins:
        raise ModelError("grids must be a non-empty list of [row, column] top-left cells")
    spots: list[tuple[int, int]] = []
    for i, spot in enumerate(origins, 1):
        if (isinstance(spot, (str, bytes)) or not isinstance(spot, Sequence) or len(spot) != 2
                or not all(type(x) is int and x >= 0 for x in spot)):
            raise ModelError(f"grids: sub-grid {i} must be a [row, column] pair of its "
                             f"top-left cell, not {spot!r}")
        pair = (spot[0], spot[1])
        if pair in spots:
            raise ModelError(f"grids: sub-grids {spots.index(pair) + 1} and {i} both start "
                             f"at {_at(pair)}")
        spots.append(pair)
    return tuple(spots)


def _boxes(spots: Origins, grids: list[Cells], side: int, box: tuple[int, int],
           cols: int) -> tuple[Cells, ...]:
    """The sub-grids' boxes, each once; a box of one sub-grid that cuts across a box of
    another is refused, naming both sub-grids and a cell they share."""
    owner: dict[int, tuple[int, int]] = {}  # cell -> (box index, sub-grid)
    regions: list[Cells] = []
    for g, grid in enumerate(grids):
        for local in tiles(side, side, *box):
            cells = tuple(grid[c] for c in local)
            known = {owner.get(c, (-1, -1))[0] for c in cells}
            if known == {-1}:
                for c in cells:
                    owner[c] = (len(regions), g)
                regions.append(cells)
                continue
            if len(known) == 1 and len(regions[known.pop()]) == len(cells):
                continue  # the same box, shared
            shared = next(c for c in cells if c in owner)
            other = owner[shared][1]
            raise ModelError(
                f"sub-grids {other + 1} (at {_at(spots[other])}) and {g + 1} (at "
                f"{_at(spots[g])}) overlap across their {box[0]}x{box[1]} boxes at "
                f"{cell_name(shared, cols)}: overlapping sub-grids must share whole boxes")
    return tuple(regions)


def _at(spot: tuple[int, int]) -> str:
    return f"r{spot[0] + 1}c{spot[1] + 1}"
