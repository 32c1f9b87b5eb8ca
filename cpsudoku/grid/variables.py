"""Auxiliary variables: unknowns of a solution beside the cells' digits.

Some rules speak of more than digits: in a chaos construction the regions are part
of the solution, so each cell also has a region label. A rule declares such
variables as named groups (`Variables`); the puzzle lays every group out after the
grid cells (`Layout`), so constraints name them by index like cells: index
`ncells + i` is the i-th auxiliary variable. Groups of one name are one group
(two rules that read the chaos labels share them); groups are laid out in name
order, so the indices do not depend on the order the rules were given in.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

from ..errors import ModelError


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


def layout(ncells: int, declared: Iterable[Variables]) -> Layout:
    """The layout of every declared group, one group per name, in name order."""
    by_name: dict[str, Variables] = {}
    for group in declared:
        known = by_name.setdefault(group.name, group)
        if (known.count, known.values) != (group.count, group.values):
            raise ModelError(f"auxiliary variables {group.name!r} declared twice, differently "
                             f"({known.count} and {group.count} variables)")
    return Layout(ncells, tuple(by_name[name] for name in sorted(by_name)))
