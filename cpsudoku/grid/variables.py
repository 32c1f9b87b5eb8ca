"""Auxiliary variables: unknowns of a solution beside the cells' digits.

Some rules speak of more than digits: in a chaos construction the regions are part
of the solution, so each cell also has a region label. A rule declares such
variables as named groups (`Variables`); the puzzle lays every group out after the
grid cells (`Layout`), so constraints name them by index like cells: index
`ncells + i` is the i-th auxiliary variable. Groups of one name are one group
(two rules that read the chaos labels share them); groups are laid out in name
order, so the indices do not depend on the order the rules were given in. A
puzzle's extra cells (cells outside the grid, `Geometry.extra`) come first, ahead of
every group, so that their numbers are known before any rule is read.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

from ..errors import ModelError
from .geometry import Geometry


@dataclass(frozen=True)
class Variables:
    """`count` auxiliary variables named `name`, each taking a value from `values`."""

    name: str
    count: int
    values: frozenset[int]
    meaning: str = ""  # what they stand for, for messages and listings


@dataclass(frozen=True)
class Layout:
    """Where each group of auxiliary variables sits, after the `ncells` grid cells."""

    ncells: int
    groups: tuple[Variables, ...] = ()

    @cached_property
    def _starts(self) -> dict[str, int]:
        starts, at = {}, self.ncells
        for group in self.groups:
            starts[group.name] = at
            at += group.count
        return starts

    @property
    def count(self) -> int:
        """How many auxiliary variables in all."""
        return sum(group.count for group in self.groups)

    def start(self, name: str) -> int:
        """The index of the first variable of group `name`."""
        try:
            return self._starts[name]
        except KeyError:
            raise ModelError(f"no auxiliary variables named {name!r} were declared") from None

    def indices(self, name: str) -> range:
        at = self.start(name)
        return range(at, at + self.group(name).count)

    def group(self, name: str) -> Variables:
        return next(g for g in self.groups if g.name == name)

    def domains(self) -> tuple[frozenset[int], ...]:
        return tuple(group.values for group in self.groups for _ in range(group.count))

    def describe(self) -> str:
        return ", ".join(group.meaning or group.name for group in self.groups)


EXTRA = "extra cells"  # the group of a puzzle's cells outside the grid


def extra_cells(count: int, values: int) -> Variables:
    """The group of a puzzle's `count` extra cells, each holding one of the V digits."""
    return Variables(EXTRA, count, frozenset(range(1, values + 1)), "cells outside the grid")


def layout(ncells: int, declared: Iterable[Variables],
           extra: Variables | None = None) -> Layout:
    """The layout of every declared group, one group per name, in name order, after
    the `extra` cells (if any)."""
    by_name: dict[str, Variables] = {}
    for group in declared:
        known = by_name.setdefault(group.name, group)
        if (known.count, known.values) != (group.count, group.values):
            raise ModelError(f"auxiliary variables {group.name!r} declared twice, differently "
                             f"({known.count} and {group.count} variables)")
    if extra is not None and extra.name in by_name:
        raise ModelError(f"auxiliary variables may not be named {extra.name!r}")
    ordered = tuple(by_name[name] for name in sorted(by_name))
    return Layout(ncells, ((extra,) if extra is not None and extra.count else ()) + ordered)


def grid_layout(geometry: Geometry, declared: Iterable[Variables]) -> Layout:
    """The auxiliary variables of a puzzle of this geometry: its extra cells first (each
    holding a digit), then the groups its rules declare."""
    extra = extra_cells(len(geometry.extra), geometry.values) if geometry.extra else None
    return layout(geometry.ncells, declared, extra)
