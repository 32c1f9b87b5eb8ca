"""Cell references for variant elements: "r1c1" names, resolved against a geometry.

Elements keep their cells as 1-based (row, column) pairs so that a cell off the
grid (r10c1 on a 9x9) can still be named in the error that rejects it. A cell
outside the grid that the puzzle names (an extra cell, `Geometry.extra`: `VA1`) is
kept as its name, and has no place: no line or neighbour rule reads its position.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ..errors import ModelError
from ..grid.geometry import EXTRA_NAME, Geometry
from .alphabet import digit_range

Ref = tuple[int, int]  # 1-based (row, column): a place on the grid
CellRef = Ref | str  # a place, or an extra cell's name

_NAME = re.compile(r"\s*[rR](-?\d+)\s*[cC](-?\d+)\s*$")


def ref(spec) -> CellRef:
    """A cell reference from "r1c1" (any case), an extra cell's name (capitals and
    digits: "VA1"), or a 1-based (row, column) pair."""
    if isinstance(spec, str):
        m = _NAME.match(spec)
        if m:
            return int(m.group(1)), int(m.group(2))
        if EXTRA_NAME.fullmatch(spec.strip()):
            return spec.strip()  # resolved against the puzzle's extra cells
        raise ModelError(f"{spec!r} is not a cell name (expected r<row>c<column>, e.g. r1c1, "
                         f"or the name of an extra cell)")
    if (isinstance(spec, (tuple, list)) and len(spec) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in spec)):
        return spec[0], spec[1]
    raise ModelError(f"{spec!r} is not a cell (expected a name such as r1c1)")


def place(spec, what: str) -> Ref:
    """A grid cell's reference (`ref`), refusing an extra cell: `what` needs a place."""
    cell = ref(spec)
    if isinstance(cell, str):
        raise ModelError(f"{what}: {cell} is a cell outside the grid; this needs a grid cell")
    return cell


def refs(specs: Iterable) -> tuple[CellRef, ...]:
    if isinstance(specs, str):  # a single name, or several separated by spaces/commas
        specs = [s for s in re.split(r"[\s,;]+", specs) if s]
    return tuple(ref(s) for s in specs)


def name(r: CellRef) -> str:
    return r if isinstance(r, str) else f"r{r[0]}c{r[1]}"


def on_grid(cells: Sequence[CellRef]) -> bool:
    """Whether every cell is a grid cell (none is an extra cell)."""
    return not any(isinstance(r, str) for r in cells)


def names(cells) -> list[str]:
    return [name(r) for r in cells]


def resolve(cells: Sequence[CellRef], geometry: Geometry, what: str, *,
            repeats: bool = False) -> tuple[int, ...]:
    """Cell indices of `cells`, or a ModelError naming `what` and the bad cell."""
    rows, cols = geometry.size, geometry.width
    out = []
    for cell in cells:
        if isinstance(cell, str):
            at = geometry.extra_index(cell)
            if at is None:
                known = (f"its extra cells are {', '.join(geometry.extra)}" if geometry.extra
                         else "it has no extra cells")
                raise ModelError(f"{what}: {cell} is not a cell of this puzzle ({known})")
            out.append(at)
            continue
        r, c = cell
        if not (1 <= r <= rows and 1 <= c <= cols):
            raise ModelError(f"{what}: cell {name((r, c))} is outside the {geometry.shape} grid")
        out.append((r - 1) * cols + (c - 1))
    if not repeats and len(set(out)) != len(out):
        twice = next(name(x) for i, x in enumerate(cells) if x in cells[:i])
        raise ModelError(f"{what}: cell {twice} is listed twice")
    return tuple(out)


def king_adjacent(a: CellRef, b: CellRef) -> bool:
    if isinstance(a, str) or isinstance(b, str):
        return False  # an extra cell has no place on the grid
    return a != b and abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1


def orthogonal(a: CellRef, b: CellRef) -> bool:
    if isinstance(a, str) or isinstance(b, str):
        return False
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def require_chain(cells: Sequence[CellRef], what: str) -> None:
    """Each grid cell touches the next (orthogonally or diagonally): lines never jump
    on the grid. A step to or from an extra cell is free: it has no place, and ISS
    draws such cells beside the grid."""
    for a, b in zip(cells, cells[1:]):
        if isinstance(a, str) or isinstance(b, str):
            continue
        if not king_adjacent(a, b):
            raise ModelError(f"{what}: {name(a)} and {name(b)} are not adjacent")


def orthogonal_pairs(geometry: Geometry) -> list[tuple[int, int]]:
    """Every pair of orthogonally adjacent cells, each once (left-right, then top-bottom)."""
    rows, cols = geometry.size, geometry.width
    pairs = []
    for r in range(rows):
        for c in range(cols):
            cell = r * cols + c
            if c + 1 < cols:
                pairs.append((cell, cell + 1))
            if r + 1 < rows:
                pairs.append((cell, cell + cols))
    return pairs


def pair_table(digits: int | range, keep) -> tuple[tuple[int, int], ...]:
    """All digit pairs (a, b) with keep(a, b): the table of a pair relation (`digits` a
    range, or n for 1..n)."""
    digits = digit_range(digits)
    return tuple((a, b) for a in digits for b in digits if keep(a, b))
