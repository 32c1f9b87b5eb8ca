"""Pattern rules: global rules described in data (models/*.toml), no Python needed.

A model file names the rule and lists one or more patterns. Each pattern says
which cells are tied together and how:

    name = "anti-knight"
    aliases = ["antiknight"]
    description = "Cells a knight's move apart never hold the same digit."

    [[pattern]]
    offsets = [[1, 2], [2, 1]]          # relative (row, column) moves; signs and
    relation = "different"              # mirror images are added automatically

Cell groups (relation "all-different") come from one of:

    lines = [{ start = [1, 1], step = [1, 1] }]     # from start (1-based; -1 = last
                                                    # row/column) stepping until off grid
    rectangles = [{ size = 9, shape = [3, 3], corners = [[2, 2], [2, 6]] }]
    groups = [{ size = 4, cells = [["r1c1", "r2c2", "r3c3", "r4c4"]] }]
    box_positions = true                # the cells at the same place in every box

Pair relations for offsets: "different", "not-consecutive", "not-ratio-2", read
over the grid's digits (0..8 on a 0-indexed 9x9). Patterns listed per size
("rectangles", "groups") define the rule for those sizes only; other sizes are refused
with a message naming the ones defined.

A grid holding more digits than a row has cells keeps the patterns where its regions
still have the shape they speak of: box positions need boxes that tile the grid (four
3x3 boxes of nine cells on 6x6: cells at the same place in their boxes differ, as
ISS's disjoint sets), and windows (windoku) boxes of the windows' own shape.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from ..errors import ModelError
from ..grid.constraints import AllDifferent, Allowed, Constraint
from ..grid.geometry import Geometry
from . import cells as C

PAIR_RELATIONS = {
    "different": None,  # an AllDifferent pair rather than a table
    "not-consecutive": lambda a, b: abs(a - b) != 1,
    "not-ratio-2": lambda a, b: a != 2 * b and b != 2 * a,
}
GROUP_RELATIONS = ("all-different",)
_GROUP_KINDS = ("lines", "rectangles", "groups", "box_positions")


def _pair(value, what: str) -> tuple[int, int]:
    if (isinstance(value, (list, tuple)) and len(value) == 2
            and all(isinstance(x, int) for x in value)):
        return int(value[0]), int(value[1])
    raise ModelError(f"{what}: expected a pair of integers, got {value!r}")


class Pattern:
    """One pattern of a model file, checked when the file is read."""

    def __init__(self, spec: dict, what: str):
        kinds = [k for k in ("offsets",) + _GROUP_KINDS if k in spec]
        if len(kinds) != 1:
            raise ModelError(f"{what}: a pattern needs exactly one of offsets, "
                             f"{', '.join(_GROUP_KINDS)}")
        self.kind = kinds[0]
        self.relation = spec.get("relation", "different" if self.kind == "offsets"
                                 else "all-different")
        allowed = PAIR_RELATIONS if self.kind == "offsets" else GROUP_RELATIONS
        if self.relation not in allowed:
            raise ModelError(f"{what}: relation {self.relation!r} is not one of "
                             f"{', '.join(allowed)} for {self.kind}")
        body = spec[self.kind]
        # Per grid size: (shape, corners) for rectangles, cell groups for groups.
        self.by_size: dict[int, Any] = {}
        if self.kind == "offsets":
            self.offsets = tuple(_pair(o, what) for o in body)
        elif self.kind == "lines":
            self.lines = tuple((_pair(spec["start"], what), _pair(spec["step"], what))
                               for spec in body)
        elif self.kind == "rectangles":
            self.by_size = {int(r["size"]): (_pair(r["shape"], what),
                                             tuple(_pair(c, what) for c in r["corners"]))
                            for r in body}
        elif self.kind == "groups":
            self.by_size = {int(g["size"]): tuple(C.refs(cells) for cells in g["cells"])
                            for g in body}
        elif body is not True:
            raise ModelError(f"{what}: box_positions must be true")

    def check(self, geometry: Geometry, rule: str) -> None:
        n = geometry.size
        if self.kind != "offsets":  # lines, windows and groups are drawn on N x N
            geometry.require_square(f"rule {rule}")
        if self.kind in ("rectangles", "groups") and n not in self.by_size:
            sizes = ", ".join(f"{s}x{s}" for s in sorted(self.by_size))
            raise ModelError(f"rule {rule} is defined for {sizes} grids only, "
                             f"not {n}x{n}")
        if self.kind == "box_positions":
            geometry.require_houses(f"rule {rule}")
            if geometry.box is None:
                raise ModelError(f"rule {rule} needs rectangular boxes, not irregular regions")
            h, w = geometry.box
            if n % h or n % w:
                raise ModelError(f"rule {rule} needs boxes that tile the {n}x{n} grid, not "
                                 f"{h}x{w} boxes")
        if self.kind == "rectangles" and geometry.values != n:
            # windows stand for boxes: with regions of another shape they mean nothing
            shape = self.by_size[n][0]
            if geometry.box != shape:
                raise ModelError(f"rule {rule} needs {shape[0]}x{shape[1]} boxes, the "
                                 f"windows' shape, on a grid of {geometry.values} digits")

    def groups(self, geometry: Geometry, rule: str) -> Iterable[tuple[tuple[int, ...], str]]:
        """(cells, label) of every all-different group on this geometry."""
        n = geometry.size
        if self.kind == "lines":
            for (r0, c0), (dr, dc) in self.lines:
                r, c = (r0 if r0 > 0 else n + 1 + r0), (c0 if c0 > 0 else n + 1 + c0)
                cells = []
                while 1 <= r <= n and 1 <= c <= n:
                    cells.append((r - 1) * n + c - 1)
                    r, c = r + dr, c + dc
                if len(cells) > 1:
                    yield tuple(cells), (f"{rule} {geometry.cell_name(cells[0])}-"
                                         f"{geometry.cell_name(cells[-1])}")
        elif self.kind == "rectangles":
            (h, w), corners = self.by_size[n]
            for top, left in corners:
                refs = [(top + i, left + j) for i in range(h) for j in range(w)]
                what = f"{rule} window at {C.name((top, left))}"
                yield C.resolve(refs, geometry, what), what
        elif self.kind == "groups":
            for i, group_refs in enumerate(self.by_size[n], 1):
                what = f"{rule} group {i}"
                yield C.resolve(group_refs, geometry, what), what
        elif self.kind == "box_positions":
            assert geometry.box is not None  # check() refuses irregular regions
            br, bc = geometry.box
            for i in range(br):
                for j in range(bc):
                    same_place = tuple((top + i) * n + left + j
                                       for top in range(0, n, br) for left in range(0, n, bc))
                    yield same_place, f"{rule} (position r{i + 1}c{j + 1} of each box)"

    def pairs(self, geometry: Geometry) -> list[tuple[int, int]]:
        """Each unordered pair of cells one of the offsets apart, once."""
        rows, cols = geometry.size, geometry.width
        moves = set()
        for dr, dc in self.offsets:
            moves.update({(dr, dc), (-dr, -dc), (dr, -dc), (-dr, dc),
                          (dc, dr), (-dc, -dr), (dc, -dr), (-dc, dr)})
        found = set()
        for r in range(rows):
            for c in range(cols):
                for dr, dc in moves:
                    rr, cc = r + dr, c + dc
                    if (dr, dc) != (0, 0) and 0 <= rr < rows and 0 <= cc < cols:
                        a, b = r * cols + c, rr * cols + cc
                        found.add((min(a, b), max(a, b)))
        return sorted(found)


class PatternRule:
    """A global rule read from a model file: same constraints on every puzzle of a size."""

    def __init__(self, spec: dict, source: str = "<model>"):
        name = spec.get("name")
        if not isinstance(name, str) or not name:
            raise ModelError(f"{source}: a model file needs a name")
        self.name = name
        self.aliases = tuple(spec.get("aliases", ()))
        self.description = str(spec.get("description", name))
        self.source = source
        raw = spec.get("pattern")
        if isinstance(raw, dict):
            raw = [raw]
        if not raw:
            raise ModelError(f"{source}: rule {name} lists no [[pattern]]")
        self.patterns = tuple(Pattern(p, f"{source}: pattern {i}") for i, p in enumerate(raw, 1))

    def __repr__(self):
        return f"PatternRule({self.name!r})"

    def __eq__(self, other):
        return isinstance(other, PatternRule) and other.name == self.name

    def __hash__(self):
        return hash(("pattern", self.name))

    def describe(self) -> str:
        return self.description

    @property
    def any_shape(self) -> bool:
        """Offsets (anti-knight, anti-king) fit any R x C grid; lines, windows and
        groups are drawn on square ones."""
        return all(p.kind == "offsets" for p in self.patterns)

    def validate(self, geometry: Geometry) -> None:
        for p in self.patterns:
            p.check(geometry, self.name)

    def constraints(self, geometry: Geometry) -> tuple[Constraint, ...]:
        return _constraints(self, geometry)


@lru_cache(maxsize=128)
def _constraints(rule: PatternRule, geometry: Geometry) -> tuple[Constraint, ...]:
    rule.validate(geometry)
    out: list[Constraint] = []
    name = geometry.cell_name
    for p in rule.patterns:
        if p.kind != "offsets":
            out.extend(AllDifferent(cells, label=label)
                       for cells, label in p.groups(geometry, rule.name))
            continue
        keep = PAIR_RELATIONS[p.relation]
        table = C.pair_table(geometry.digits, keep) if keep else None
        for a, b in p.pairs(geometry):
            label = f"{rule.name} pair {name(a)} {name(b)}"
            out.append(AllDifferent((a, b), label=label) if table is None
                       else Allowed((a, b), table, label=label))
    return tuple(out)
