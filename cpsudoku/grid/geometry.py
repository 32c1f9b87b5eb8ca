"""Grid geometry: size, regions (boxes by default, any partition for jigsaw), units,
and the digits the cells hold.

Cells are numbered 0 .. R*C-1 in row-major order: a grid has `size` rows (R) of
`width` cells (C), square (N x N) unless a puzzle says otherwise. A region is a tuple
of cells; rectangular boxes are only the default regions, so irregular (jigsaw)
regions fit the same structure.

A non-square grid (6x8, 4x7) holds max(R, C) digits unless said: the longer lines
hold each digit once, the shorter ones only differ, as ISS reads them.

The digits are 1..N unless a puzzle says otherwise: V >= N of them from `first` (0 or
1), as "0-indexed" puzzles (0..8 on 9x9) and grids with more digits than a row has
cells (1..9 on 6x6) do. Rows and columns then hold N different digits of the V, and
regions (of equal size, at most V cells) hold different digits too. Everything below
the rules counts in *values*, the digits' places 1..V: a cell holding value v holds
digit `first + v - 1`. Rules speak digits (see `grid/digits.py`).

A puzzle may also have *extra cells*: named cells outside the grid (ISS's `Var`
cells, a Doppelganger's missing digits), each holding one of the digits, in no row,
column or region. They follow the grid's cells, numbered R*C onward in the order
named, so that a rule's constraints can name them as they name grid cells.

A *raw* grid (ISS's grid type `Raw`, `houses=False`) has no houses: its rows, columns
and regions need not hold different digits, so only the puzzle's rules constrain it.
It has no regions, and may hold fewer digits than a row has cells.

A *multi-grid board* (samurai, twodoku, ...; see `grid/multigrid.py`) is a board of
`size` rows of `width` cells on which several N x N sub-grids overlap (`grids`: each
sub-grid's N*N board cells in reading order). Its houses are each sub-grid's rows,
columns and boxes; the board's own rows and columns are no houses. A board cell outside
every sub-grid is *absent*: it keeps its number, so that cells are named r<row>c<column>
on the board and a board is written row by row, but no constraint names it, the model
fixes it to one value (so that it neither branches nor multiplies the count of
solutions) and results show it as 0 (written `-`). Keeping absent cells in the
numbering, rather than leaving them out, lets every backend, the checker and the
writers work on cell numbers as they do for every grid.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cache, cached_property

from .. import validate
from ..errors import ArgumentError, ModelError
from .symbols import MAX_SIZE
from .symbols import line as symbols_line

MAX_EXTRA = 256  # extra cells a puzzle may name (ISS's var cells are a few dozen)
MAX_BOARD = 64  # the longest side of a multi-grid board (a shogun is 21 x 45)
ABSENT = "-"  # how a board cell outside every sub-grid is written

Cells = tuple[int, ...]

# An extra cell's name: capitals and digits, never a grid cell's r<row>c<column>.
EXTRA_NAME = re.compile(r"[A-Z][A-Z0-9]*")
_GRID_NAME = re.compile(r"R\d+C\d+")


def infer_box(size: int) -> tuple[int, int]:
    """The usual box shape for a size: square when N is a square, else the
    most nearly square R x C with R <= C (6 -> 2x3, 8 -> 2x4, 12 -> 3x4)."""
    size = validate.whole(size, "size", 1, MAX_SIZE)
    best = None
    for rows in range(1, math.isqrt(size) + 1):
        if size % rows == 0:
            best = (rows, size // rows)
    if best is None or best[0] == 1:
        raise ModelError(f"size {size} has no rectangular box shape; give the regions explicitly")
    return best


def has_box(size: int) -> bool:
    """Whether a size has a rectangular box shape (primes, and 1, have none)."""
    try:
        infer_box(size)
    except ModelError:
        return False
    return True


@dataclass(frozen=True)
class Geometry:
    size: int  # rows: the side of a square grid
    regions: tuple[Cells, ...]
    box: tuple[int, int] | None = None  # rectangular box shape, None for irregular regions
    values: int = 0  # how many digits (V): 0 means the longer side
    first: int = 1  # the lowest digit: 1, or 0 for 0-indexed puzzles
    width: int = 0  # columns: 0 means `size` (a square grid)
    extra: tuple[str, ...] = ()  # names of the cells outside the grid, in order
    houses: bool = True  # False: a raw grid, whose rows and columns need not differ
    grids: tuple[Cells, ...] = ()  # a multi-grid board's sub-grids, each in reading order
    layout: str = ""  # the board's layout name ("samurai"), "" for one listed cell by cell

    def __post_init__(self):
        n = self.size
        if type(n) is not int:
            validate.whole(n, "size")
        most = MAX_BOARD if self.grids else MAX_SIZE
        if not 1 <= n <= most:
            raise ModelError(f"size {n} is outside 1..{most}")
        if self.width == 0:
            object.__setattr__(self, "width", n)
        if type(self.width) is not int or not 1 <= self.width <= most:
            raise ModelError(f"width {self.width!r} is outside 1..{most}")
        if self.grids:
            self._check_board()
            return
        line = max(n, self.width)
        if self.values == 0:
            object.__setattr__(self, "values", line)
        if self.houses is not True:
            self._check_raw()
            return
        if type(self.values) is not int or not line <= self.values <= MAX_SIZE:
            raise ModelError(f"{self.values!r} digits on a {self.shape} grid: a line needs "
                             f"{line} different digits, and there are at most {MAX_SIZE}")
        if self.first not in (0, 1):
            raise ModelError(f"digits start at 0 or 1, not {self.first!r}")
        if self.extra:
            self._check_extra()
        if not isinstance(self.regions, tuple) or not all(
                isinstance(r, tuple) and all(type(c) is int for c in r) for r in self.regions):
            raise ArgumentError("regions must be a tuple of tuples of cell indices "
                                "(cpsudoku.irregular converts lists)")
        if self.values != n or not self.square:
            self._check_partition()
            return
        seen: dict[int, int] = {}
        for r, region in enumerate(self.regions):
            if len(region) != n:
                raise ModelError(f"region {r + 1} has {len(region)} cells, expected {n}")
            for cell in region:
                if not 0 <= cell < n * n:
                    raise ModelError(f"region {r + 1} names cell {cell}, outside the {n}x{n} grid")
                if cell in seen:
                    raise ModelError(f"regions {seen[cell] + 1} and {r + 1} overlap at "
                                     f"{cell_name(cell, n)}")
                seen[cell] = r
        if len(self.regions) != n:
            raise ModelError(f"{len(self.regions)} regions given, expected {n}")

    def _check_raw(self) -> None:
        if self.houses is not False:
            raise ArgumentError(f"houses must be True or False, not {self.houses!r}")
        if type(self.values) is not int or not 1 <= self.values <= MAX_SIZE:
            raise ModelError(f"{self.values!r} digits: a grid holds 1 to {MAX_SIZE}")
        if self.first not in (0, 1):
            raise ModelError(f"digits start at 0 or 1, not {self.first!r}")
        if self.regions != () or self.box is not None:
            raise ModelError("a raw grid (no houses) has no regions or boxes")
        if self.extra:
            self._check_extra()

    def _check_board(self) -> None:
        """A multi-grid board: sub-grids of N*N distinct board cells (N the digits),
        boxes (the regions) of N cells each inside one sub-grid, never overlapping."""
        n, ncells = self.values, self.ncells
        if type(n) is not int or not 1 <= n <= MAX_SIZE or self.first not in (0, 1):
            raise ModelError(f"a multi-grid board holds 1..{MAX_SIZE} digits from 0 or 1, "
                             f"not {self.values!r} from {self.first!r}")
        if self.extra or not self.houses:
            raise ModelError("a multi-grid board has no extra cells and always has houses")
        for g, grid in enumerate(self.grids, 1):
            if (not isinstance(grid, tuple) or len(grid) != n * n or len(set(grid)) != n * n
                    or not all(type(c) is int and 0 <= c < ncells for c in grid)):
                raise ModelError(f"sub-grid {g} must be {n * n} different cells of the "
                                 f"{self.shape} board")
        present = self.present
        seen: dict[int, int] = {}
        for r, region in enumerate(self.regions):
            if len(region) != n or not all(type(c) is int and 0 <= c < ncells and present[c]
                                           for c in region):
                raise ModelError(f"box {r + 1} must be {n} cells of the board's sub-grids")
            for cell in region:
                if cell in seen:
                    raise ModelError(f"boxes {seen[cell] + 1} and {r + 1} overlap at "
                                     f"{cell_name(cell, self.width)}")
                seen[cell] = r

    @cached_property
    def present(self) -> tuple[bool, ...]:
        """Per cell, whether it is in the grid: False only for a board's absent cells."""
        if not self.grids:
            return (True,) * self.ncells
        inside = [False] * self.ncells
        for grid in self.grids:
            for cell in grid:
                inside[cell] = True
        return tuple(inside)

    @cached_property
    def absent(self) -> Cells:
        """A multi-grid board's cells outside every sub-grid (none on other grids)."""
        return tuple(c for c, inside in enumerate(self.present) if not inside)

    def require_single_grid(self, what: str) -> None:
        """Refuse, by name, what is only written for one grid, not a multi-grid board."""
        if self.grids:
            raise ModelError(f"{what} is not available on multi-grid boards yet "
                             f"({self.board_name})")

    @property
    def board_name(self) -> str:
        """"samurai board", "board of 3 sub-grids": a multi-grid board in words."""
        return (f"{self.layout} board" if self.layout
                else f"board of {len(self.grids)} sub-grids")

    def line(self, values, blank: str = ".") -> str:
        """Values as one line of symbols, a board's absent cells written `-`."""
        text = symbols_line(values, blank, self.first)
        if not self.grids:
            return text
        chars = list(text)
        for cell in self.absent:
            chars[cell] = ABSENT
        return "".join(chars)

    def _check_extra(self) -> None:
        if not isinstance(self.extra, tuple) or not all(isinstance(x, str) for x in self.extra):
            raise ArgumentError("extra cells must be a tuple of names")
        for name in self.extra:
            if not EXTRA_NAME.fullmatch(name) or _GRID_NAME.fullmatch(name):
                raise ModelError(f"extra cell name {name!r}: capitals and digits, starting "
                                 f"with a capital, and not a grid cell's name (such as VA1)")
        if len(set(self.extra)) != len(self.extra):
            twice = next(x for i, x in enumerate(self.extra) if x in self.extra[:i])
            raise ModelError(f"extra cell {twice} is named twice")
        if len(self.extra) > MAX_EXTRA:
            raise ModelError(f"{len(self.extra)} extra cells: at most {MAX_EXTRA}")

    def _check_partition(self) -> None:
        """With more digits than a row has cells, or a grid that is not square, regions
        are any equal-sized partition of the grid, each at most V cells (a grid without
        boxes takes its rows)."""
        sizes = {len(r) for r in self.regions}
        cells = sorted(c for r in self.regions for c in r)
        if cells != list(range(self.ncells)) or len(sizes) != 1 or sizes.pop() > self.values:
            raise ModelError(f"regions must split the {self.shape} grid into regions of one "
                             f"size, at most {self.values} cells (the digits)")

    @property
    def ncells(self) -> int:
        """The grid's cells (extra cells not counted)."""
        return self.size * self.width

    def with_extra(self, names: Iterable[str]) -> Geometry:
        """The same grid with these extra cells (named cells outside it)."""
        return replace(self, extra=tuple(names))

    def extra_index(self, name: str) -> int | None:
        """The cell number of the extra cell `name`, or None when there is none."""
        try:
            return self.ncells + self.extra.index(name)
        except ValueError:
            return None

    def require_grid_only(self, what: str) -> None:
        """Refuse, by name, what only reads the grid's own cells."""
        if self.extra:
            shown = ", ".join(self.extra[:3]) + (" ..." if len(self.extra) > 3 else "")
            raise ModelError(f"{what} reads the grid's cells only, not cells outside it "
                             f"({shown})")

    @property
    def height(self) -> int:
        return self.size

    @property
    def square(self) -> bool:
        return self.size == self.width

    @property
    def shape(self) -> str:
        """"9x9", "6x8": rows x columns."""
        return f"{self.size}x{self.width}"

    def require_square(self, what: str) -> None:
        """Refuse, by name, what is only written for square grids."""
        if not self.square:
            raise ModelError(f"{what} is only available on square grids, not {self.shape}")

    @property
    def digits(self) -> range:
        """The digits a cell may hold, lowest first (value v is digits[v - 1])."""
        return range(self.first, self.first + self.values)

    @property
    def standard(self) -> bool:
        """Whether the grid is square with digits 1..N (every row holds each of them)."""
        return self.first == 1 and self.values == self.size and self.square

    def with_digits(self, values: int, first: int = 1) -> Geometry:
        """The same grid holding `values` digits from `first`."""
        return replace(self, values=values, first=first)

    @cached_property
    def rows(self) -> tuple[Cells, ...]:
        w = self.width
        return tuple(tuple(range(r * w, r * w + w)) for r in range(self.size))

    @cached_property
    def cols(self) -> tuple[Cells, ...]:
        w = self.width
        return tuple(tuple(range(c, self.ncells, w)) for c in range(w))

    @cached_property
    def units(self) -> tuple[Cells, ...]:
        """Rows, then columns, then regions: every group whose digits differ (each
        digit once when the digits are 1..N); none on a raw grid."""
        if self.grids:
            return tuple(cells for cells, _ in self._board_units)
        return self.rows + self.cols + self.regions if self.houses else ()

    @cached_property
    def unit_labels(self) -> tuple[str, ...]:
        """The units' names, in the order of `units`."""
        if self.grids:
            return tuple(label for _, label in self._board_units)
        if not self.houses:
            return ()
        kind = "box" if self.box else "region"
        return tuple([f"row {i + 1}" for i in range(self.size)]
                     + [f"column {i + 1}" for i in range(self.width)]
                     + [f"{kind} {i + 1}" for i in range(len(self.regions))])

    @cached_property
    def _board_units(self) -> tuple[tuple[Cells, str], ...]:
        """A board's houses: each sub-grid's rows and columns, then the boxes (the
        regions), then the boxes of sub-grids that are not board rectangles (a clueless
        board's tenth grid), each set of cells once."""
        n = self.values
        out: list[tuple[Cells, str]] = []
        seen: set[frozenset[int]] = set()

        def add(cells: Cells, label: str) -> None:
            if frozenset(cells) not in seen:
                seen.add(frozenset(cells))
                out.append((cells, label))
        for g, grid in enumerate(self.grids, 1):
            for i in range(n):
                add(grid[i * n:(i + 1) * n], f"grid {g} row {i + 1}")
            for i in range(n):
                add(grid[i::n], f"grid {g} column {i + 1}")
        for r, region in enumerate(self.regions, 1):
            add(region, f"box {r}")
        if self.box is not None:
            for g, grid in enumerate(self.grids, 1):
                for b, box in enumerate(tiles(n, n, *self.box), 1):
                    add(tuple(grid[c] for c in box), f"grid {g} box {b}")
        return tuple(out)

    def require_houses(self, what: str) -> None:
        """Refuse, by name, what reads the rows, columns or regions as houses."""
        if not self.houses:
            raise ModelError(f"{what} reads the grid's rows, columns and regions as houses "
                             f"of different digits, and this raw grid has none")

    @cached_property
    def region_of(self) -> tuple[int, ...]:
        """Per cell, its region (0 everywhere on a raw grid: no borders to draw; -1 on a
        board's absent cells)."""
        owner = [-1 if self.grids else 0] * self.ncells
        for r, region in enumerate(self.regions):
            for cell in region:
                owner[cell] = r
        return tuple(owner)

    def cell_name(self, cell: int) -> str:
        if self.extra and type(cell) is int and cell >= self.ncells:
            at = cell - self.ncells
            if at < len(self.extra):
                return self.extra[at]
        return cell_name(cell, self.width)

    def describe(self) -> str:
        if self.grids:
            box = f", {self.box[0]}x{self.box[1]} boxes" if self.box else ""
            return (f"{self.shape} {self.board_name}, {len(self.grids)} sub-grids of "
                    f"{self.values}x{self.values}{box}")
        shape = ("raw (no houses)" if not self.houses else
                 f"{self.box[0]}x{self.box[1]} boxes" if self.box else
                 "no boxes" if self.regions == self.rows else "irregular regions")
        digits = ("" if self.first == 1 and self.values == max(self.size, self.width)
                  else f", digits {self.first}..{self.digits[-1]}")
        extra = f", {len(self.extra)} extra cells" if self.extra else ""
        return f"{self.shape}, {shape}{digits}{extra}"


def cell_name(cell: int, width: int) -> str:
    """r1c1-style name of a cell (1-based) in rows of `width` cells, the notation of the
    variant community."""
    if not (type(cell) is int and type(width) is int and cell >= 0 and width >= 1):
        cell, width = validate.whole(cell, "cell", 0), validate.whole(width, "width", 1)
    return f"r{cell // width + 1}c{cell % width + 1}"


def boxed(size: int, box: tuple[int, int] | str | None = None, *, values: int = 0,
          first: int = 1, width: int = 0) -> Geometry:
    """The standard geometry of a size with rectangular boxes (inferred if not given;
    "RxC" or a (rows, columns) pair), holding `values` digits from `first` (N from 1
    unless said; with more digits than N a box may hold more than N cells). With a
    `width` other than `size` the grid has `size` rows of `width` cells; its boxes, if
    not given, are ISS's: of max(R, C) cells when such boxes tile it, else none (its
    rows stand as regions)."""
    size = validate.whole(size, "size", 1, MAX_SIZE)
    width = validate.whole(width, "width", 0, MAX_SIZE) or size
    return _boxed(size, validate.box(box), values, first, width)


def box_for(rows: int, cols: int, cells: int) -> tuple[int, int] | None:
    """Boxes of `cells` cells tiling a rows x cols grid, the most nearly square first,
    fewer rows than columns first (ISS's `boxDimsForSize`); None when none tile it."""
    for small in range(math.isqrt(cells), 1, -1):
        if cells % small:
            continue
        large = cells // small
        if rows % small == 0 and cols % large == 0:
            return small, large
        if rows % large == 0 and cols % small == 0:
            return large, small
    return None


@cache
def _boxed(size: int, box: tuple[int, int] | None, values: int, first: int,
           width: int) -> Geometry:
    if width != size:
        return _oblong(size, width, box, values, first)
    br, bc = box if box is not None else infer_box(size)
    if br * bc != size and (values in (0, size) or size % br or size % bc):
        raise ModelError(f"box {br}x{bc} does not tile a {size}x{size} grid ({br}*{bc} != {size})")
    return Geometry(size, tiles(size, size, br, bc), (br, bc), values, first)


def _oblong(rows: int, cols: int, box: tuple[int, int] | None, values: int,
            first: int) -> Geometry:
    if box is None:
        box = box_for(rows, cols, values or max(rows, cols))
    elif rows % box[0] or cols % box[1]:
        raise ModelError(f"box {box[0]}x{box[1]} does not tile a {rows}x{cols} grid")
    if box is None:  # no boxes: the rows stand as regions (they differ anyway)
        lines = tuple(tuple(range(r * cols, r * cols + cols)) for r in range(rows))
        return Geometry(rows, lines, None, values, first, cols)
    return Geometry(rows, tiles(rows, cols, *box), box, values, first, cols)


def tiles(rows: int, cols: int, br: int, bc: int) -> tuple[Cells, ...]:
    """The cells of boxes of br x bc cells on a rows x cols grid, left to right, then
    top to bottom."""
    return tuple(tuple((top + r) * cols + left + c for r in range(br) for c in range(bc))
                 for top in range(0, rows, br) for left in range(0, cols, bc))


def irregular(size: int, regions, *, values: int = 0, first: int = 1,
              width: int = 0) -> Geometry:
    """A jigsaw geometry from explicit regions (validated: partition of the grid)."""
    size = validate.whole(size, "size", 1, MAX_SIZE)
    width = validate.whole(width, "width", 0, MAX_SIZE) or size
    if isinstance(regions, (str, bytes)) or not isinstance(regions, Iterable):
        raise ArgumentError(f"regions must be a list of regions (lists of cell indices), not "
                            f"{type(regions).__name__}")
    return Geometry(size, tuple(validate.cells(r, f"regions[{i}]", most=size * width - 1)
                                for i, r in enumerate(regions)), None, values, first, width)


def raw_grid(size: int, *, width: int = 0, values: int = 0, first: int = 1) -> Geometry:
    """A raw grid (ISS's `Raw`): `size` rows of `width` cells (`size` unless given)
    holding `values` digits from `first` (max(R, C) unless given), with no houses, so
    that only the rules constrain it (ContainExact rows of repeated digits, say)."""
    size = validate.whole(size, "size", 1, MAX_SIZE)
    width = validate.whole(width, "width", 0, MAX_SIZE) or size
    values = validate.whole(values, "values", 0, MAX_SIZE)
    return Geometry(size, (), None, values, first, width, houses=False)


def regions_from_labels(labels, size: int, *, values: int = 0, first: int = 1,
                        width: int = 0) -> Geometry:
    """Regions from a per-cell label sequence (e.g. a jigsaw layout string)."""
    size = validate.whole(size, "size", 1, MAX_SIZE)
    width = validate.whole(width, "width", 0, MAX_SIZE) or size
    if not isinstance(labels, (str, list, tuple)):
        raise ArgumentError(f"labels must be a string or a list, one label a cell, not "
                            f"{type(labels).__name__}")
    if len(labels) != size * width:
        raise ModelError(f"region layout has {len(labels)} cells, expected {size * width}")
    groups: dict[object, list[int]] = {}
    for cell, label in enumerate(labels):
        if not isinstance(label, (str, int)) or isinstance(label, bool):
            raise ArgumentError(f"labels[{cell}] must be a str or an int, not "
                                f"{type(label).__name__}")
        groups.setdefault(label, []).append(cell)
    return irregular(size, groups.values(), values=values, first=first, width=width)
