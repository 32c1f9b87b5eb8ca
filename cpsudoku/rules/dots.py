"""Markings between two cells: kropki dots, X/V, greater-than signs.

Kropki and XV may carry a negative rule ("all dots given"): every orthogonal
pair without a marking must not satisfy what a marking would have said.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from ..errors import ModelError
from ..grid.constraints import Allowed, Less, Sum
from . import cells as C
from .alphabet import shown
from .element import ElementRule


@dataclass(frozen=True)
class Mark:
    """A marking between two orthogonally adjacent cells.

    kind: "white" (digits differ by `value`, default 1), "black" (one is `value`
    times the other, default 2), "X" (sum 10), "V" (sum 5).
    """

    kind: str
    cells: tuple[C.CellRef, ...]
    value: int | None = None

    def __post_init__(self):
        # 0 would silently mean the default (`value or 2`); 1 asks for equal digits
        # in neighbours, which share a row or column.
        least = {"white": 1, "black": 2}.get(self.kind)
        if self.value is not None and least is not None and not (
                isinstance(self.value, int) and self.value >= least):
            what = "difference" if self.kind == "white" else "ratio"
            raise ModelError(f"{self.kind} dot at {' '.join(C.names(self.cells))}: "
                             f"{what} {self.value!r} must be a whole number from {least}")

    @classmethod
    def of(cls, kind: str, cells, value: int | None = None) -> Mark:
        kind = kind.upper() if kind.upper() in ("X", "V") else kind.lower()
        return cls(kind, C.refs(cells), None if value is None else int(value))


def _holds(mark: Mark):
    """The pair relation a marking stands for."""
    if mark.kind == "white":
        d = mark.value or 1
        return lambda a, b: abs(a - b) == d
    if mark.kind == "black":
        r = mark.value or 2
        return lambda a, b: a == r * b or b == r * a
    total = 10 if mark.kind == "X" else 5
    return lambda a, b: a + b == total


class _PairMarks(ElementRule):
    """Markings between orthogonal neighbours, with an optional negative rule."""
    any_shape: ClassVar[bool] = True  # its cells are named: any R x C grid

    kinds: ClassVar[tuple[str, ...]]
    negative_names: ClassVar[dict[str, str]]  # negative flag -> the kind it negates
    file_key: ClassVar[str]  # the puzzle-file table

    def __init__(self, marks: Iterable[Mark], negative: Iterable[str] = ()):
        super().__init__(tuple(marks))
        self.negative = frozenset(negative)
        unknown = self.negative - set(self.negative_names)
        if unknown:
            raise ModelError(f"{self.name}: unknown negative rule {sorted(unknown)[0]!r} "
                             f"(choose from {', '.join(self.negative_names)})")

    def _key(self):
        return (self.elements, tuple(sorted(self.negative)))

    def data(self):
        body: dict = {}
        for mark in self.elements:
            key = mark.kind.lower()
            cells = C.names(mark.cells)
            body.setdefault(key, []).append(
                cells if mark.value is None else {"cells": cells, "value": mark.value})
        if self.negative:
            body["negative"] = sorted(self.negative)
        return {self.file_key: body}

    def label(self, i, mark):
        a, b = (C.name(c) for c in mark.cells[:2]) if len(mark.cells) >= 2 else ("?", "?")
        shown = ""
        if mark.value is not None:
            shown = f" ({'difference' if mark.kind == 'white' else 'ratio'} {mark.value})"
        return f"{self.noun_of(mark)} {i}{shown} between {a} and {b}"

    def noun_of(self, mark) -> str:
        return self.noun

    def check_element(self, i, mark, geometry):
        what = self.label(i, mark)
        if mark.kind not in self.kinds:
            raise ModelError(f"{what}: kind {mark.kind!r} is not one of {', '.join(self.kinds)}")
        if len(mark.cells) != 2:
            raise ModelError(f"{what} must join exactly two cells, not {len(mark.cells)}")
        cells = C.resolve(mark.cells, geometry, what)
        if C.on_grid(mark.cells) and not C.orthogonal(*mark.cells):  # extra cells: anywhere
            raise ModelError(f"{what}: the cells are not orthogonally adjacent")
        if not C.pair_table(geometry.digits, _holds(mark)):
            raise ModelError(f"{what}: no two digits {shown(geometry.digits)} satisfy it")
        return cells

    def validate(self, geometry):
        super().validate(geometry)
        seen: dict[frozenset, int] = {}
        for i, mark in enumerate(self.elements, 1):
            pair = frozenset(mark.cells)
            if pair in seen:
                raise ModelError(f"{self.label(i, mark)}: these cells already have "
                                 f"{self.label(seen[pair], self.elements[seen[pair] - 1])}")
            seen[pair] = i

    def element_constraints(self, i, mark, cells, geometry):
        yield Allowed(cells, C.pair_table(geometry.digits, _holds(mark)),
                      label=self.label(i, mark))

    def extra_constraints(self, geometry, used):
        if not self.negative:
            return
        banned = [_holds(Mark(self.negative_names[flag], ())) for flag in sorted(self.negative)]
        table = C.pair_table(geometry.digits, lambda a, b: not any(h(a, b) for h in banned))
        marked = {frozenset(cells) for cells in used}
        name = geometry.cell_name
        for a, b in C.orthogonal_pairs(geometry):
            if frozenset((a, b)) not in marked:
                yield Allowed((a, b), table,
                              label=f"no {self.noun} between {name(a)} and {name(b)}")


class Kropki(_PairMarks):
    """White dots join consecutive digits, black dots a digit and its double."""

    name: ClassVar[str] = "kropki"
    file_key = "kropki"
    noun: ClassVar[str] = "dot"
    kinds = ("white", "black")
    negative_names = {"white": "white", "black": "black"}

    def describe(self) -> str:
        extra = f"; all {'/'.join(sorted(self.negative))} dots given" if self.negative else ""
        return f"kropki dots ({len(self.elements)}): white consecutive, black ratio 2{extra}"

    def noun_of(self, mark):
        return f"{mark.kind} dot"


class XV(_PairMarks):
    """X joins two digits summing to 10, V two digits summing to 5."""

    name: ClassVar[str] = "xv"
    file_key = "xv"
    noun: ClassVar[str] = "X/V"
    kinds = ("X", "V")
    negative_names = {"x": "X", "v": "V"}

    def describe(self) -> str:
        extra = f"; all {'/'.join(sorted(self.negative)).upper()} given" if self.negative else ""
        return f"XV ({len(self.elements)}): X sums to 10, V to 5{extra}"

    def noun_of(self, mark):
        return mark.kind

    def element_constraints(self, i, mark, cells, geometry):
        yield Sum(cells, total=10 if mark.kind == "X" else 5, label=self.label(i, mark))


class GreaterThan(ElementRule):
    """Each sign points from the greater digit to the smaller: pairs (greater, smaller)."""
    any_shape: ClassVar[bool] = True  # its cells are named: any R x C grid

    name: ClassVar[str] = "greater-than"
    noun: ClassVar[str] = "greater-than"

    def __init__(self, pairs: Iterable):
        super().__init__(tuple(C.refs(p) for p in pairs))

    def describe(self) -> str:
        return f"greater-than signs ({len(self.elements)})"

    def data(self):
        return {"greater_than": [C.names(p) for p in self.elements]}

    def label(self, i, pair):
        shown = " > ".join(C.name(c) for c in pair)
        return f"greater-than {i} ({shown})"

    def check_element(self, i, pair, geometry):
        what = self.label(i, pair)
        if len(pair) != 2:
            raise ModelError(f"{what} must compare exactly two cells")
        return C.resolve(pair, geometry, what)

    def element_constraints(self, i, pair, cells, geometry):
        yield Less((cells[1], cells[0]), label=self.label(i, pair))
