"""The puzzle: geometry, givens and the variant rules that apply. Immutable."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from typing import Protocol

from .. import validate
from ..errors import ArgumentError, CpsudokuError, ModelError
from . import deadline
from .constraints import AllDifferent, Constraint
from .digits import in_values
from .geometry import Geometry, boxed
from .symbols import MAX_SIZE
from .variables import Layout, grid_layout


class Rule(Protocol):
    """A variant rule: yields constraints for a geometry. Adding one never touches a backend.

    `name` is the rule's identifier (e.g. "diagonal"); `describe()` a short text
    for listings and errors. `validate(geometry)` raises `ModelError` naming the
    offending element; `constraints(geometry)` yields the rule's constraints.
    A rule that needs unknowns beside the digits also has `variables(geometry)`
    (groups of `grid.variables.Variables`); it is then asked
    `constraints(geometry, layout)`, the layout saying where its variables sit.
    A rule whose meaning needs the rows, columns and regions to hold different digits
    (outside clues, indexing) says `reads_houses = True`: raw grids refuse it.
    """

    name: str

    def constraints(self, geometry: Geometry) -> Iterable[Constraint]: ...


@lru_cache(maxsize=64)
def unit_constraints(geometry: Geometry) -> tuple[Constraint, ...]:
    """The classic rule: the digits of every row, column and region differ (each one
    appears once where a group has as many cells as there are digits)."""
    return tuple(AllDifferent(unit, label=lab)
                 for unit, lab in zip(geometry.units, geometry.unit_labels))


def _guarded(rule, step: str, run):
    """Run a rule's own code; its failure becomes a ModelError naming the rule, since a
    custom rule's bug must not surface as an unexplained crash."""
    try:
        return run()
    except CpsudokuError:
        raise
    except Exception as exc:
        raise ModelError(f"rule {getattr(rule, 'name', rule)!r} failed in {step}(): "
                         f"{type(exc).__name__}: {exc}") from exc


def _rule_constraints(rule, geometry: Geometry, layout: Layout) -> list[Constraint]:
    """A rule's constraints, each checked to be one of the vocabulary's."""
    if hasattr(rule, "variables"):
        made = _guarded(rule, "constraints", lambda: list(rule.constraints(geometry, layout)))
    else:
        made = _guarded(rule, "constraints", lambda: list(rule.constraints(geometry)))
    known = geometry.ncells + layout.count
    for item in made:
        if not isinstance(item, Constraint):
            raise ModelError(f"rule {rule.name!r} yielded {type(item).__name__} "
                             f"{item!r:.40}, not a constraint (see cpsudoku.grid.constraints)")
        cells = item.cells if isinstance(item.cells, (tuple, list)) else [item.cells]
        bad = [c for c in cells if not (isinstance(c, int) and 0 <= c < known)]
        if bad:
            raise ModelError(f"rule {rule.name!r}: {item.describe()} names cell {bad[0]!r}, "
                             f"outside the {geometry.shape} grid")
    return made


def _rules(values) -> tuple:
    # Rule names are a convenience of the API (`with_rules("diagonal")`): the registry that
    # knows them sits a layer up, so it is reached on demand (the one import up the layers,
    # allowed in pyproject.toml's layer contract).
    from ..rules.coerce import rules
    return rules(values)


@dataclass(frozen=True)
class Puzzle:
    geometry: Geometry
    givens: tuple[int, ...]  # one value per cell (1..V, the digits' places), 0 = blank
    rules: tuple = ()  # extra variant rules; the classic rule comes with the geometry
    blank: str = "."  # the blank symbol the input used, so output speaks the input's notation
    source: str | None = None  # where it came from ("file:line"), for messages
    name: str | None = None
    meta: dict = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self):
        if not isinstance(self.geometry, Geometry):
            raise ArgumentError(f"geometry must be a Geometry (see cpsudoku.boxed), not "
                                f"{type(self.geometry).__name__}")
        if not isinstance(self.givens, tuple) or not all(type(v) is int for v in self.givens):
            raise ArgumentError("givens must be a tuple of whole numbers (0 blank); "
                                "Puzzle.from_values converts other sequences")
        if self.rules:
            object.__setattr__(self, "rules", _rules(self.rules))
        most = self.geometry.values
        if len(self.givens) != self.geometry.ncells:
            raise ModelError(f"{len(self.givens)} cells given for a {self.geometry.shape} grid")
        if self.givens and not 0 <= min(self.givens) <= max(self.givens) <= most:
            cell = next(c for c, v in enumerate(self.givens) if not 0 <= v <= most)
            raise ModelError(f"value {self.givens[cell]} at {self.geometry.cell_name(cell)} "
                             f"is outside 1..{most}")
        if self.geometry.grids:
            self._check_board()
        for rule in self.rules:
            if not self.geometry.square and not getattr(rule, "any_shape", False):
                self.geometry.require_square(f"rule {getattr(rule, 'name', rule)}")
            if getattr(rule, "reads_houses", False):
                self.geometry.require_houses(f"rule {getattr(rule, 'name', rule)}")
            check = getattr(rule, "validate", None)
            if check is not None:
                _guarded(rule, "validate", lambda check=check: check(self.geometry))
        deadline.puzzle_read()

    def _check_board(self) -> None:
        """A board's absent cells hold nothing, and its rules are not read yet (a rule
        drawn for one grid has no meaning settled on several)."""
        for cell in self.geometry.absent:
            if self.givens[cell]:
                raise ModelError(f"{self.geometry.cell_name(cell)} is outside every sub-grid "
                                 f"of the {self.geometry.board_name} but holds a digit")
        if self.rules:
            name = getattr(self.rules[0], "name", self.rules[0])
            self.geometry.require_single_grid(f"rule {name}")

    @property
    def size(self) -> int:
        return self.geometry.size

    @classmethod
    def from_values(cls, values: Sequence[int], size: int | None = None,
                    box: tuple[int, int] | None = None, rules: Sequence = (), **kw) -> Puzzle:
        """A puzzle from N*N values (0 blank); size and box shape inferred unless given."""
        size, box = validate.size(size), validate.box(box)
        values = validate.cells(values, "values")
        if size is None:
            size = math.isqrt(len(values))
            if size * size != len(values) or not 1 <= size <= MAX_SIZE:
                raise ArgumentError(f"values: {len(values)} values do not make a square grid "
                                    f"(such as 81 for 9x9)")
        return cls(boxed(size, box), values, _rules(rules), **kw)

    def constraints(self) -> tuple[Constraint, ...]:
        """Every constraint of the puzzle: the classic units, then each rule's."""
        return self._constraints

    @cached_property
    def _constraints(self) -> tuple[Constraint, ...]:
        units = unit_constraints(self.geometry)  # shared: found again by identity
        extra = []
        for rule in self.rules:
            deadline.check()
            extra.extend(_rule_constraints(rule, self.geometry, self.variables))
        if extra and self.geometry.first != 1:  # rules speak digits, the model values
            extra = in_values(extra, self.geometry)
        return units + tuple(extra) if extra else units

    @cached_property
    def variables(self) -> Layout:
        """The auxiliary variables the rules declare (none for most puzzles)."""
        declared = [group for rule in self.rules if hasattr(rule, "variables")
                    for group in _guarded(rule, "variables",
                                          lambda rule=rule: list(rule.variables(self.geometry)))]
        return grid_layout(self.geometry, declared)

    def with_rules(self, rules: Sequence) -> Puzzle:
        """The puzzle with more rules: rule objects, or registered rules' names."""
        return replace(self, rules=self.rules + _rules(rules))

    def line(self) -> str:
        return self.geometry.line(self.givens, self.blank)

    def label(self) -> str:
        return self.name or self.source or self.line()
