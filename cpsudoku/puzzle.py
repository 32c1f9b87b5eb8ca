"""The puzzle: geometry, givens and the variant rules that apply. Immutable."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Protocol

from .constraints import AllDifferent, Constraint
from .errors import ModelError
from .geometry import Geometry, boxed
from .symbols import line


class Rule(Protocol):
    """A variant rule: yields constraints for a geometry. Adding one never touches a backend.

    `name` is the rule's identifier (e.g. "diagonal"); `describe()` a short text
    for listings and errors. `validate(geometry)` raises `ModelError` naming the
    offending element; `constraints(geometry)` yields the rule's constraints.
    """

    name: str

    def constraints(self, geometry: Geometry) -> Iterable[Constraint]: ...


@lru_cache(maxsize=64)
def unit_constraints(geometry: Geometry) -> tuple[Constraint, ...]:
    """The classic rule: every row, column and region holds each value once."""
    n = geometry.size
    labels = ([f"row {i + 1}" for i in range(n)] + [f"column {i + 1}" for i in range(n)]
              + [f"{'box' if geometry.box else 'region'} {i + 1}" for i in range(n)])
    return tuple(AllDifferent(unit, label=lab) for unit, lab in zip(geometry.units, labels))


@dataclass(frozen=True)
class Puzzle:
    geometry: Geometry
    givens: tuple[int, ...]  # one value per cell, 0 = blank
    rules: tuple = ()  # extra variant rules; the classic rule comes with the geometry
    blank: str = "."  # the blank symbol the input used, so output speaks the input's notation
    source: str | None = None  # where it came from ("file:line"), for messages
    name: str | None = None
    meta: dict = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self):
        n = self.geometry.size
        if len(self.givens) != n * n:
            raise ModelError(f"{len(self.givens)} cells given for a {n}x{n} grid")
        if self.givens and not 0 <= min(self.givens) <= max(self.givens) <= n:
            cell = next(c for c, v in enumerate(self.givens) if not 0 <= v <= n)
            raise ModelError(f"value {self.givens[cell]} at {self.geometry.cell_name(cell)} "
                             f"is outside 1..{n}")
        for rule in self.rules:
            validate = getattr(rule, "validate", None)
            if validate is not None:
                validate(self.geometry)

    @property
    def size(self) -> int:
        return self.geometry.size

    @classmethod
    def from_values(cls, values: Sequence[int], size: int | None = None,
                    box: tuple[int, int] | None = None, rules: Sequence = (), **kw) -> Puzzle:
        if size is None:
            size = int(round(len(values) ** 0.5))
        return cls(boxed(size, box), tuple(values), tuple(rules), **kw)

    def constraints(self) -> tuple[Constraint, ...]:
        """Every constraint of the puzzle: the classic units, then each rule's."""
        cached = self.__dict__.get("_constraints")
        if cached is None:
            cached = unit_constraints(self.geometry)
            extra = []
            for rule in self.rules:
                extra.extend(rule.constraints(self.geometry))
            if extra:
                cached = cached + tuple(extra)
            object.__setattr__(self, "_constraints", cached)
        return cached

    def with_rules(self, rules: Sequence) -> Puzzle:
        return replace(self, rules=self.rules + tuple(rules))

    def line(self) -> str:
        return line(self.givens, self.blank)

    def label(self) -> str:
        return self.name or self.source or self.line()
