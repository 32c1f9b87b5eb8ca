"""f-puzzles keys of the outside-clue, indexing and cell rules, read and written as
matched pairs: `sandwichsum`, `xsum`, `skyscraper` ({cell, value}, the cell just
outside the grid: `outside_elements` reads and writes them), `rowindexer`,
`columnindexer`, `boxindexer` ({cells}), `clone` ({cells, cloneCells}, cell i clones
cell i), `quadruple` ({cells, values}), `minimum` and `maximum` ({cell}: smaller /
larger than each orthogonal neighbour that is not itself such a cell, read as
greater-than pairs), and the grid cells' `givenPencilMarks` (given candidates)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import rules as R
from ..errors import ModelError
from ..grid.geometry import Geometry
from ..rules import cells as C
from ..rules.cellrules import Clones, ContainAtLeast, GivenCandidates, Group, Parts, Quadruples
from ..rules.indexing import Indexers, Indexing, Indexing159
from ..rules.outside import OutsideRule
from . import outside_elements
from .fields import whole

OUTSIDE = outside_elements.FP_OUTSIDE
INDEXERS = {"rowindexer": "row", "columnindexer": "column", "boxindexer": "box"}
EXTREMES = ("minimum", "maximum")
KEYS = {*OUTSIDE, *INDEXERS, *EXTREMES, "clone", "quadruple"}


def fp_cells(spec, what: str) -> tuple[C.Ref, ...]:
    """Cells listed as f-puzzles names them (R1C1); a bad one named with `what`."""
    if not isinstance(spec, list):
        raise ModelError(f"{what}: cells must be a list")
    try:
        cells = C.refs(spec)
        named = next((c for c in cells if isinstance(c, str)), None)
        if named is not None:  # f-puzzles has no cells outside the grid
            raise ModelError(f"{named!r} is not a cell name (expected R<row>C<column>)")
        return cells  # type: ignore[return-value]  # grid places only, checked above
    except ModelError as exc:
        raise ModelError(f"{what}: {exc}") from None


def fp_name(ref: C.Ref) -> str:
    """A cell as f-puzzles names it."""
    return f"R{ref[0]}C{ref[1]}"


# ---------------------------------------------------------------- reading

def _clone(entry: dict, what: str) -> list[Parts]:
    """f-puzzles pairs cell i with clone cell i. One region and its copy moved as a whole
    is one clone; any other pairing keeps its pairs, each a clone of one cell."""
    cells, copies = fp_cells(entry["cells"], what), fp_cells(entry["cloneCells"], what)
    if len(cells) != len(copies):
        raise ModelError(f"{what}: {len(cells)} cells but {len(copies)} clone cells")
    pairs = [(a, b) for a, b in zip(cells, copies) if a != b]
    shifts = {(b[0] - a[0], b[1] - a[1]) for a, b in pairs}
    if len(shifts) == 1:
        return [Parts((tuple(a for a, _ in pairs), tuple(b for _, b in pairs)))]
    return [Parts(((a,), (b,))) for a, b in pairs]


def _neighbours(ref: C.Ref, size: int) -> list[C.Ref]:
    r, c = ref
    return [nb for nb in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
            if 1 <= nb[0] <= size and 1 <= nb[1] <= size]


def extreme_pairs(minimum, maximum, size: int) -> list[tuple[C.Ref, C.Ref]]:
    """Greater-than pairs (greater, smaller) of minimum and maximum cells: each against
    its orthogonal neighbours that are not cells of the same kind; a pair once."""
    out: list[tuple[C.Ref, C.Ref]] = []
    for cells, smaller in ((minimum, True), (maximum, False)):
        chosen = set(cells)
        for cell in cells:
            for nb in _neighbours(cell, size):
                pair = (nb, cell) if smaller else (cell, nb)
                if nb not in chosen and pair not in out:
                    out.append(pair)
    return out


def read_elements(data: dict, size: int) -> list:
    """The rules of these keys in an f-puzzles object (and its cells' given pencil marks)."""
    out: list = outside_elements.from_fpuzzles(data, size)
    groups = [Indexers(kind, fp_cells(e["cells"], f"{kind} indexer {i}"))
              for key, kind in INDEXERS.items()
              for i, e in enumerate(data.get(key) or [], 1)]
    if groups:
        out.append(Indexing(groups))
    clones = [p for i, e in enumerate(data.get("clone") or [], 1)
              for p in _clone(e, f"clone {i}")]
    if clones:
        out.append(Clones(clones))
    quads = [Group(fp_cells(e["cells"], f"quadruple {i}"),
                   tuple(whole(v, f"quadruple {i} digit") for v in e.get("values") or []))
             for i, e in enumerate(data.get("quadruple") or [], 1)]
    if quads:
        out.append(Quadruples(quads))
    marks = [Group(((r + 1, c + 1),), tuple(whole(v, f"r{r + 1}c{c + 1} pencil mark")
                                           for v in cell["givenPencilMarks"]))
             for r, row in enumerate(data["grid"]) for c, cell in enumerate(row)
             if isinstance(cell, dict) and cell.get("givenPencilMarks")]
    if marks:
        out.append(GivenCandidates(marks))
    ends = {key: fp_cells([e["cell"] for e in data.get(key) or [] if e.get("cell")], key)
            for key in EXTREMES}
    if any(ends.values()):
        out.append(R.GreaterThan(extreme_pairs(ends["minimum"], ends["maximum"], size)))
    return out


# ---------------------------------------------------------------- writing

def _outside(rule: OutsideRule, geometry: Geometry, out: dict) -> None:
    written = outside_elements.to_fpuzzles(rule, geometry.size)
    assert written is not None  # only the rules of OUTSIDE come here
    out.setdefault(written[0], []).extend(written[1])


def _indexing(rule: Indexing, geometry: Geometry, out: dict) -> None:
    keys = {kind: key for key, kind in INDEXERS.items()}
    for group in rule.elements:
        out.setdefault(keys[group.kind], []).append({"cells": [fp_name(c) for c in group.cells]})


def _indexing_159(rule: Indexing159, geometry: Geometry, out: dict) -> None:
    rule.validate(geometry)
    n = geometry.size
    cells = [(r, c) for c in rule.columns(n) for r in range(1, n + 1)]
    out.setdefault("columnindexer", []).append({"cells": [fp_name(c) for c in cells]})


def _clones(rule: Clones, geometry: Geometry, out: dict) -> None:
    # cpsudoku pairs a clone's cells in reading order: so does the written pairing
    for element in rule.elements:
        first = sorted(element.parts[0])
        for part in element.parts[1:]:
            out.setdefault("clone", []).append({"cells": [fp_name(c) for c in first],
                                                "cloneCells": [fp_name(c) for c in sorted(part)]})


def _quadruples(rule: ContainAtLeast, geometry: Geometry, out: dict) -> None:
    # digits required in any 2x2 square are a quadruple, whatever the rule is called
    try:
        Quadruples(rule.elements).validate(geometry)
    except ModelError as exc:
        raise ModelError(f"{R.describe(rule)}: f-puzzles has no form for this rule (its "
                         f"quadruples are digits on a 2x2 square; {exc})") from None
    out.setdefault("quadruple", []).extend(
        {"cells": [fp_name(c) for c in q.cells], "values": list(q.values)} for q in rule.elements)


def _given_candidates(rule: GivenCandidates, geometry: Geometry, out: dict) -> None:
    rule.validate(geometry)  # every cell inside the grid before it is looked up there
    # several candidate sets on one cell: the cell holds a digit of every one
    for group in rule.elements:
        (r, c), = group.cells
        cell = out["grid"][r - 1][c - 1]
        marks = set(cell.get("givenPencilMarks", group.values)) & set(group.values)
        cell["givenPencilMarks"] = sorted(marks)


def _greater_than(rule, geometry: Geometry, out: dict) -> None:
    """Signs that are exactly the pairs of some minimum and maximum cells are written as
    those cells; f-puzzles has no sign between two cells of its own."""
    n = geometry.size
    pairs = list(rule.elements)
    below = {cell: _neighbours(cell, n) for pair in pairs for cell in pair}
    minimum = [x for x, nbs in below.items() if all((nb, x) in pairs for nb in nbs)]
    maximum = [x for x, nbs in below.items() if all((x, nb) in pairs for nb in nbs)]
    if sorted(extreme_pairs(minimum, maximum, n)) != sorted(pairs):
        raise ModelError(f"{R.describe(rule)}: f-puzzles has no form for this rule (it has "
                         f"minimum and maximum cells, not signs between two cells)")
    for key, cells in (("minimum", minimum), ("maximum", maximum)):
        if cells:
            out.setdefault(key, []).extend({"cell": fp_name(x)} for x in cells)


WRITERS: dict[type, Callable[[Any, Geometry, dict], None]] = {
    **dict.fromkeys(OUTSIDE.values(), _outside), Indexing: _indexing,
    Indexing159: _indexing_159, Clones: _clones, Quadruples: _quadruples,
    ContainAtLeast: _quadruples,
    GivenCandidates: _given_candidates, R.GreaterThan: _greater_than,
}
"""Writers of these rules into an f-puzzles object whose `grid` is already built."""
